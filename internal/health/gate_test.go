package health

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var t0 = time.Date(2026, 5, 28, 10, 0, 0, 0, time.UTC)

// clock is the injected processing time.
type clock struct{ now time.Time }

func (c *clock) advance(d time.Duration) time.Time {
	c.now = c.now.Add(d)
	return c.now
}

var pod = Target{Namespace: "llm", Pod: "sglang-0", Container: "sglang"}

func cuda(at time.Time) Reason {
	return Reason{RecordID: "rec-cuda", Slug: "cuda-illegal-memory-access", Rank: "TP0", Time: at,
		Line: "RuntimeError: CUDA error: an illegal memory access was encountered"}
}

func stateOf(t *testing.T, g *Gate, tg Target, now time.Time) TargetStatus {
	t.Helper()
	for _, s := range g.Status(now) {
		if s.Target.Key() == tg.Key() {
			return s
		}
	}
	t.Fatalf("target %s not listed", tg)
	return TargetStatus{}
}

func TestFailThenRestart(t *testing.T) {
	g := New(Options{})
	c := &clock{now: t0}
	g.Seen(pod, c.now)
	if g.Failing() {
		t.Fatal("a new target is failing")
	}
	trip, ok := g.Fatal(pod, cuda(c.now), c.now, c.now)
	if !ok || trip.State != Failing || trip.Recent != 0 || trip.MaxRestarts != DefaultMaxRestarts || trip.Window != DefaultWindow {
		t.Fatalf("Fatal = %+v, %v; want a Failing trip with no recent restarts", trip, ok)
	}
	if !g.Failing() {
		t.Fatal("gate not failing after a gating failure")
	}
	// A second failure keeps the first reason.
	later := cuda(c.advance(time.Second))
	later.RecordID = "rec-nccl"
	if _, ok := g.Fatal(pod, later, c.now, c.now); ok {
		t.Fatal("a failing target tripped again")
	}
	if got := stateOf(t, g, pod, c.now).Reason.RecordID; got != "rec-cuda" {
		t.Fatalf("reason = %s, want the first failure's", got)
	}
	rs, ok := g.Restart(pod, "startup line", c.advance(time.Minute), c.now)
	if !ok || !rs.Gated || rs.Was != Failing || rs.Recent != 1 || rs.Reason.RecordID != "rec-cuda" {
		t.Fatalf("Restart = %+v, %v; want a gated reset of the failing target", rs, ok)
	}
	if g.Failing() {
		t.Fatal("gate still failing after a restart")
	}
	st := stateOf(t, g, pod, c.now)
	if st.State != Healthy || st.Reason != nil || st.GatedRestarts != 1 || st.Recent != 1 {
		t.Fatalf("status after restart = %+v", st)
	}
	// A restart of a healthy target is no transition.
	if _, ok := g.Restart(pod, "startup line", c.advance(time.Minute), c.now); ok {
		t.Fatal("restart of a healthy target reported a reset")
	}
}

// TestFlapGuard drives failure/restart cycles with the injected clock:
// MaxRestarts gated restarts within Window hold the next failure, a held
// target's restart is not counted, and once the window has passed the gate
// fails again.
func TestFlapGuard(t *testing.T) {
	g := New(Options{MaxRestarts: 2, Window: time.Hour})
	c := &clock{now: t0}
	cycle := func(step string) Trip {
		t.Helper()
		trip, ok := g.Fatal(pod, cuda(c.now), time.Time{}, c.now)
		if !ok {
			t.Fatalf("%s: no trip", step)
		}
		c.advance(10 * time.Minute)
		if _, ok := g.Restart(pod, "startup line", time.Time{}, c.now); !ok {
			t.Fatalf("%s: no reset", step)
		}
		c.advance(time.Minute)
		return trip
	}
	for i, want := range []Trip{
		{State: Failing, Recent: 0},
		{State: Failing, Recent: 1},
		{State: Held, Recent: 2},
		// The held restart did not count: still two within the hour.
		{State: Held, Recent: 2},
	} {
		got := cycle("cycle " + string(rune('1'+i)))
		if got.State != want.State || got.Recent != want.Recent || got.MaxRestarts != 2 {
			t.Fatalf("cycle %d: trip %v with %d recent, want %v with %d", i+1, got.State, got.Recent, want.State, want.Recent)
		}
		if want.State == Held && g.Failing() {
			t.Fatalf("cycle %d: a held target fails the gate", i+1)
		}
	}
	// Held: reported, not failing.
	trip, _ := g.Fatal(pod, cuda(c.now), time.Time{}, c.now)
	if trip.State != Held || g.Failing() {
		t.Fatalf("trip %v, failing %v; want held and passing", trip.State, g.Failing())
	}
	st := stateOf(t, g, pod, c.now)
	if st.State != Held || st.Reason == nil || st.GatedRestarts != 2 || st.Recent != 2 {
		t.Fatalf("held status = %+v", st)
	}
	if s := g.Stats(); s.Trips != 2 || s.Held != 3 || s.GatedRestarts != 2 {
		t.Fatalf("stats = %+v", s)
	}
	// The first gated restart was at t0+10m; an hour later the window
	// holds one, so the next failure after a restart fails again.
	g.Restart(pod, "startup line", time.Time{}, c.now)
	c.now = t0.Add(10*time.Minute + time.Hour)
	if got := stateOf(t, g, pod, c.now).Recent; got != 1 {
		t.Fatalf("recent after the window slid = %d, want 1", got)
	}
	if trip, _ := g.Fatal(pod, cuda(c.now), time.Time{}, c.now); trip.State != Failing || trip.Recent != 1 {
		t.Fatalf("after the window: %v with %d recent, want failing with 1", trip.State, trip.Recent)
	}
}

func TestFlapGuardOff(t *testing.T) {
	g := New(Options{MaxRestarts: -1})
	c := &clock{now: t0}
	for i := range 10 {
		trip, ok := g.Fatal(pod, cuda(c.now), time.Time{}, c.now)
		if !ok || trip.State != Failing {
			t.Fatalf("cycle %d: %v %v, want failing", i, trip.State, ok)
		}
		g.Restart(pod, "startup line", time.Time{}, c.advance(time.Minute))
	}
}

// TestLogOrder checks the log-time guards: events of one server read out
// of order (two files of one pod) do not clear or trip the wrong run.
func TestLogOrder(t *testing.T) {
	g := New(Options{})
	now := t0.Add(time.Hour)
	// The server restarted at 10:05; a failure logged at 10:00 is from
	// the previous run.
	g.Restart(pod, "startup line", t0.Add(5*time.Minute), now)
	if _, ok := g.Fatal(pod, cuda(t0), t0, now); ok {
		t.Fatal("a failure logged before the latest start tripped the gate")
	}
	if g.Stats().Stale != 1 {
		t.Fatalf("stale = %d, want 1", g.Stats().Stale)
	}
	// A failure at 10:10, then a startup line logged at 10:08 (read late
	// from the other stream): the failure stays.
	if _, ok := g.Fatal(pod, cuda(t0.Add(10*time.Minute)), t0.Add(10*time.Minute), now); !ok {
		t.Fatal("no trip")
	}
	if _, ok := g.Restart(pod, "startup line", t0.Add(8*time.Minute), now); ok || !g.Failing() {
		t.Fatal("a startup line logged before the failure cleared it")
	}
	// Without a log time (uvicorn's line has none) the restart counts.
	if _, ok := g.Restart(pod, "startup line", time.Time{}, now); !ok || g.Failing() {
		t.Fatal("a restart without a log time did not clear the failure")
	}
}

func TestContainerLog(t *testing.T) {
	g := New(Options{})
	now := t0
	if _, ok := g.ContainerLog(pod, "uid-1/0", time.Time{}, now); ok {
		t.Fatal("the first container log is a restart")
	}
	g.Fatal(pod, cuda(now), time.Time{}, now)
	if _, ok := g.ContainerLog(pod, "uid-1/0", time.Time{}, now); ok || !g.Failing() {
		t.Fatal("the same container log (rotated) is a restart")
	}
	rs, ok := g.ContainerLog(pod, "uid-1/1", time.Time{}, now)
	if !ok || !rs.Gated || !strings.Contains(rs.Cause, "uid-1/1") || g.Failing() {
		t.Fatalf("new container log: %+v %v, failing %v", rs, ok, g.Failing())
	}
	// Reading the previous container's file again is no restart.
	g.Fatal(pod, cuda(now), time.Time{}, now)
	if _, ok := g.ContainerLog(pod, "uid-1/0", time.Time{}, now); ok {
		t.Fatal("an older container log is a restart")
	}
	for i := 2; i < 2+2*maxLogs; i++ {
		g.ContainerLog(pod, "uid-1/"+string(rune('0'+i)), time.Time{}, now)
	}
	if n := len(g.targets[pod.id()].Logs); n != maxLogs {
		t.Fatalf("%d container logs kept, want the bound %d", n, maxLogs)
	}
}

// TestRestore checks the gate survives a logmatch restart: failing stays
// failing, resolved stays resolved, and the flap counter carries on.
func TestRestore(t *testing.T) {
	c := &clock{now: t0}
	self := Target{Self: true, Pod: "sglang-0"}
	g := New(Options{MaxRestarts: 2})
	g.Fatal(pod, cuda(c.now), time.Time{}, c.now)
	g.Restart(pod, "startup line", time.Time{}, c.advance(time.Minute)) // resolved
	g.Fatal(self, cuda(c.now), c.now, c.now)                            // failing
	g.ContainerLog(pod, "uid/0", time.Time{}, c.now)
	snap, err := g.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	h := New(Options{MaxRestarts: 2})
	if err := h.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(g.Status(c.now), h.Status(c.now)); diff != "" {
		t.Fatalf("restored status (-before +after):\n%s", diff)
	}
	if !h.Failing() || stateOf(t, h, pod, c.now).State != Healthy {
		t.Fatal("restored gate: want self failing and the pod healthy")
	}
	// The restored flap counter counts: one more gated restart of the pod
	// reaches MaxRestarts.
	h.Fatal(pod, cuda(c.now), time.Time{}, c.now)
	h.Restart(pod, "startup line", time.Time{}, c.advance(time.Minute))
	if trip, _ := h.Fatal(pod, cuda(c.now), time.Time{}, c.now); trip.State != Held {
		t.Fatalf("trip after restore = %v, want held", trip.State)
	}
	if _, ok := h.ContainerLog(pod, "uid/0", time.Time{}, c.now); ok {
		t.Fatal("the restored container log is new again")
	}
}

func TestRestoreErrors(t *testing.T) {
	for name, blob := range map[string]string{
		"not json":       `{`,
		"version":        `{"version":2,"targets":[]}`,
		"unknown state":  `{"version":1,"targets":[{"target":{"pod":"p"},"state":7,"seen":"2026-05-28T10:00:00Z"}]}`,
		"failing reason": `{"version":1,"targets":[{"target":{"pod":"p"},"state":1,"seen":"2026-05-28T10:00:00Z"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			if err := New(Options{}).Restore([]byte(blob)); err == nil || !strings.HasPrefix(err.Error(), "gate state: ") {
				t.Fatalf("Restore(%s) = %v, want a gate state error", blob, err)
			}
		})
	}
	if err := New(Options{}).Restore(nil); err != nil {
		t.Fatalf("empty snapshot: %v", err)
	}
}

func TestBounds(t *testing.T) {
	g := New(Options{MaxTargets: 3, Forget: time.Hour})
	c := &clock{now: t0}
	a := Target{Namespace: "ns", Pod: "a"}
	g.Fatal(a, cuda(c.now), time.Time{}, c.now) // failing, oldest
	for _, p := range []string{"b", "c", "d", "e"} {
		g.Seen(Target{Namespace: "ns", Pod: p}, c.advance(time.Second))
	}
	var keys []string
	for _, s := range g.Status(c.now) {
		keys = append(keys, s.Target.Key())
	}
	if diff := cmp.Diff([]string{"ns/a/", "ns/d/", "ns/e/"}, keys); diff != "" {
		t.Fatalf("targets kept (-want +got):\n%s", diff)
	}
	if g.Stats().Evicted != 2 {
		t.Fatalf("evicted = %d, want 2", g.Stats().Evicted)
	}
	self := Target{Self: true}
	g.Seen(self, c.now)
	gone := g.Expire(c.advance(2 * time.Hour))
	if len(gone) != 2 {
		t.Fatalf("expired %v", gone)
	}
	if st := g.Status(c.now); len(st) != 1 || !st[0].Target.Self {
		t.Fatalf("after Expire: %+v, want only the self target", st)
	}
	long := strings.Repeat("é", MaxLineBytes)
	g.Fatal(self, Reason{Line: long}, time.Time{}, c.now)
	if got := g.Status(c.now)[0].Reason.Line; len(got) > MaxLineBytes || !strings.HasPrefix(long, got) {
		t.Fatalf("reason line of %d bytes not cut on a rune boundary to %d", len(got), MaxLineBytes)
	}
}

func TestGeneration(t *testing.T) {
	g := New(Options{})
	g0 := g.Generation()
	g.Seen(pod, t0)
	g1 := g.Generation()
	g.Seen(pod, t0.Add(time.Second))
	if g1 == g0 || g.Generation() != g1 {
		t.Fatalf("generations %d %d %d: a new target changes it, a repeat entry does not", g0, g1, g.Generation())
	}
	g.Fatal(pod, cuda(t0), time.Time{}, t0)
	if g.Generation() == g1 {
		t.Fatal("a trip did not change the generation")
	}
}

func TestStateString(t *testing.T) {
	for s, want := range map[State]string{Healthy: "healthy", Failing: "failing", Held: "held", 9: "State(9)"} {
		if s.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(s), s.String(), want)
		}
	}
	if (Target{Self: true}).String() != "this server" || pod.String() != "llm/sglang-0/sglang" {
		t.Errorf("target names %q %q", Target{Self: true}.String(), pod.String())
	}
}

// Issue 33 finding 2: log times ahead of the processing time never decide.
// A failure stamped an hour ahead is cleared by the next real start; a
// start stamped a day ahead does not make a real failure stale; a gate
// restored from a checkpoint written under such a clock is brought back.
func TestLogTimesAheadOfTheClock(t *testing.T) {
	now := t0
	g := New(Options{})
	if _, ok := g.Fatal(pod, cuda(now.Add(time.Hour)), now.Add(time.Hour), now); !ok {
		t.Fatal("no trip")
	}
	if r := stateOf(t, g, pod, now).Reason; r == nil || r.Time.After(now) {
		t.Fatalf("reason time = %v, want not after %s", r, now)
	}
	now = now.Add(time.Minute)
	if _, ok := g.Restart(pod, "startup line", now, now); !ok || g.Failing() {
		t.Fatal("a real start after a failure stamped an hour ahead did not clear it")
	}

	g = New(Options{})
	g.Restart(pod, "startup line", now.Add(24*time.Hour), now)
	now = now.Add(time.Minute)
	if _, ok := g.Fatal(pod, cuda(now), now, now); !ok || !g.Failing() {
		t.Fatal("a start stamped a day ahead made a real failure stale")
	}

	// A checkpoint written before the clamp existed, with both times ahead.
	g = New(Options{})
	future := now.Add(time.Hour)
	g.Restart(pod, "startup line", future, future)
	g.Fatal(pod, cuda(future), future.Add(time.Second), future.Add(time.Second))
	blob, err := g.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	g = New(Options{})
	if err := g.Restore(blob); err != nil {
		t.Fatal(err)
	}
	if _, ok := g.Restart(pod, "startup line", now, now); !ok || g.Failing() {
		t.Fatal("a restored failure stamped ahead was not cleared by a real start")
	}
	if _, ok := g.Fatal(pod, cuda(now), now, now.Add(time.Second)); !ok {
		t.Fatal("a restored start stamped ahead made a real failure stale")
	}
}
