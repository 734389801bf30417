package incident

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

var t0 = time.Date(2026, 5, 28, 0, 11, 9, 0, time.UTC)

func occ(key, src, rank string, at time.Time) Occurrence {
	return Occurrence{
		Key: key, SourceKey: src, Time: at, Timed: true, Rank: rank,
		Alert: sinks.Alert{
			Schema: sinks.Schema, Fingerprint: Fingerprint(key, src),
			Time: at, LastTime: at, Count: 1, Kind: KindNew,
			Record: sinks.Record{ID: key},
			Ranks:  ranksOf(rank),
		},
	}
}

func ranksOf(r string) []string {
	if r == "" {
		return nil
	}
	return []string{r}
}

// brief is what the tests compare: kind, record, count and ranks.
type brief struct {
	Kind  string
	ID    string
	Count int
	Ranks []string
}

func briefs(as []sinks.Alert) []brief {
	var out []brief
	for _, a := range as {
		out = append(out, brief{a.Kind, a.Record.ID, a.Count, a.Ranks})
	}
	return out
}

// step is one event in a grouping scenario: an occurrence observed, a Tick
// or a Flush at an offset from t0, and the alerts it must produce.
type step struct {
	at    time.Duration
	obs   *Occurrence
	tick  bool
	flush bool
	want  []brief
}

func TestGrouper(t *testing.T) {
	o := func(key, rank string, at time.Duration) *Occurrence {
		x := occ(key, "pod-a", rank, t0.Add(at))
		return &x
	}
	tests := []struct {
		name  string
		opts  Options
		steps []step
	}{
		{
			name: "first hit at once, repeats summarised when the window closes",
			opts: Options{Window: 5 * time.Minute, RepeatInterval: time.Hour},
			steps: []step{
				{at: 0, obs: o("oom", "TP0", 0), want: []brief{{KindNew, "oom", 1, []string{"TP0"}}}},
				{at: time.Second, obs: o("oom", "TP1", time.Second)},
				{at: 2 * time.Second, obs: o("oom", "TP1", 2*time.Second)},
				{at: 4 * time.Minute, tick: true},
				{at: 5 * time.Minute, tick: true, want: []brief{{KindSummary, "oom", 3, []string{"TP0", "TP1"}}}},
				{at: 10 * time.Minute, tick: true}, // quiet for a whole window: forgotten, nothing pending
				{at: 11 * time.Minute, obs: o("oom", "TP0", 11*time.Minute), want: []brief{{KindNew, "oom", 1, []string{"TP0"}}}},
			},
		},
		{
			name: "a single hit gets no summary",
			opts: Options{Window: time.Minute},
			steps: []step{
				{at: 0, obs: o("x", "", 0), want: []brief{{KindNew, "x", 1, nil}}},
				{at: time.Minute, tick: true},
				{at: 2 * time.Minute, tick: true},
				{at: 3 * time.Minute, flush: true},
			},
		},
		{
			name: "reminder while it keeps happening, final summary when it stops",
			opts: Options{Window: time.Minute, RepeatInterval: 10 * time.Minute},
			steps: []step{
				{at: 0, obs: o("nccl", "", 0), want: []brief{{KindNew, "nccl", 1, nil}}},
				{at: 30 * time.Second, obs: o("nccl", "", 30*time.Second)},
				{at: time.Minute, tick: true, want: []brief{{KindSummary, "nccl", 2, nil}}},
				{at: 90 * time.Second, obs: o("nccl", "", 90*time.Second)},
				{at: 2 * time.Minute, tick: true, want: []brief{{KindUpdate, "nccl", 3, nil}}},
				{at: 150 * time.Second, obs: o("nccl", "", 150*time.Second)},
				{at: 3 * time.Minute, tick: true, want: []brief{{KindUpdate, "nccl", 4, nil}}},
				{at: 210 * time.Second, obs: o("nccl", "", 210*time.Second)},
				{at: 11 * time.Minute, obs: o("nccl", "", 11*time.Minute)},
				{at: 11*time.Minute + 30*time.Second, tick: true, want: []brief{{KindReminder, "nccl", 6, nil}}},
				{at: 12*time.Minute + 30*time.Second, obs: o("nccl", "", 12*time.Minute+30*time.Second)},
				{at: 20 * time.Minute, tick: true, want: []brief{{KindSummary, "nccl", 7, nil}}},
				{at: 30 * time.Minute, flush: true},
			},
		},
		{
			name: "window 0: every hit is its own alert",
			opts: Options{Window: 0},
			steps: []step{
				{at: 0, obs: o("x", "TP0", 0), want: []brief{{KindNew, "x", 1, []string{"TP0"}}}},
				{at: 0, obs: o("x", "TP0", 0), want: []brief{{KindNew, "x", 1, []string{"TP0"}}}},
				{at: time.Hour, tick: true},
				{at: time.Hour, flush: true},
			},
		},
		{
			name: "forever: nothing until flush, then one alert per incident in order",
			opts: Options{Window: Forever},
			steps: []step{
				{at: 0, obs: o("b", "TP10", 0)},
				{at: 0, obs: o("a", "", 0)},
				{at: 0, obs: o("b", "TP2", time.Second)},
				{at: time.Hour, tick: true},
				// Each incident's one announcement: new, with its count.
				{at: time.Hour, flush: true, want: []brief{
					{KindNew, "b", 2, []string{"TP2", "TP10"}},
					{KindNew, "a", 1, nil},
				}},
			},
		},
		{
			name: "flush sends what is pending at shutdown",
			opts: Options{Window: time.Hour},
			steps: []step{
				{at: 0, obs: o("x", "", 0), want: []brief{{KindNew, "x", 1, nil}}},
				{at: time.Second, obs: o("x", "", time.Second)},
				{at: 2 * time.Second, flush: true, want: []brief{{KindSummary, "x", 2, nil}}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := New(tt.opts)
			for i, s := range tt.steps {
				now := t0.Add(s.at)
				var got []sinks.Alert
				switch {
				case s.obs != nil:
					got = g.Observe(*s.obs, now)
				case s.tick:
					got = g.Tick(now)
				case s.flush:
					got = g.Flush(now)
				}
				if diff := cmp.Diff(s.want, briefs(got)); diff != "" {
					t.Fatalf("step %d (at %v): alerts (-want +got):\n%s", i, s.at, diff)
				}
			}
		})
	}
}

// In a storm of distinct incidents that come faster than the bound lets
// them settle, each is evicted before its settle time is over, no deadline
// ever passes and Tick has nothing to do: the index of incidents by scope
// must still hold the open ones alone. It was pruned only by Tick, and
// kept every fingerprint ever seen (27 MB after 500,000 in a run).
func TestScopeIndexBoundedWithoutTicks(t *testing.T) {
	const bound = 50
	g := New(Options{Window: 5 * time.Minute, Settle: 2 * time.Second, Correlation: 15 * time.Minute, MaxGroups: bound})
	now := t0
	for i := range 20 * bound {
		now = now.Add(time.Millisecond)
		g.Observe(cause(fmt.Sprintf("k%d", i), "pod:0", "", now), now)
	}
	if d := g.NextDeadline(); !now.Before(d) {
		t.Fatalf("a deadline passed (%v): the storm is not one Tick ignores", d)
	}
	if n := len(g.byScope["pod:0"]); n > bound {
		t.Errorf("scope index holds %d incidents; at most %d are open", n, bound)
	}
}

// MaxGroups makes room by forgetting first what has nothing left to
// announce (its grouping memory alone is lost), and only when every open
// incident has something to announce does it close the least recently
// seen one, announcing it at once: eviction never loses an alert.
func TestGrouperEviction(t *testing.T) {
	t.Run("announced-first", func(t *testing.T) {
		g := New(Options{Window: time.Hour, MaxGroups: 2})
		g.Observe(occ("a", "s", "", t0), t0)
		g.Observe(occ("a", "s", "", t0), t0.Add(time.Second)) // a has a pending repeat
		g.Observe(occ("b", "s", "", t0), t0.Add(2*time.Second))
		got := g.Observe(occ("c", "s", "", t0), t0.Add(3*time.Second))
		// b, seen after a, announced and not repeated, is forgotten.
		want := []brief{{KindNew, "c", 1, nil}}
		if diff := cmp.Diff(want, briefs(got)); diff != "" {
			t.Fatalf("alerts (-want +got):\n%s", diff)
		}
		if st := g.Stats(); st.Evicted != 1 || st.EvictedEarly != 0 || st.Open != 2 {
			t.Fatalf("stats = %+v, want 1 evicted, none early, 2 open", st)
		}
		if _, ok := g.groups[Fingerprint("b", "s")]; ok {
			t.Errorf("b is still open")
		}
	})
	t.Run("restored-above-the-bound", func(t *testing.T) {
		// A state saved under a larger bound (max_open_incidents lowered
		// across a restart) comes down to the bound at the next new
		// incident, not one eviction per new incident forever above it.
		big := New(Options{Window: time.Hour, MaxGroups: 10})
		for i := range 5 {
			big.Observe(occ(fmt.Sprintf("k%d", i), "s", "", t0), t0.Add(time.Duration(i)*time.Second))
		}
		snap, err := big.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		g := New(Options{Window: time.Hour, MaxGroups: 2})
		if err := g.Restore(snap); err != nil {
			t.Fatal(err)
		}
		g.Observe(occ("new", "s", "", t0), t0.Add(time.Minute))
		if st := g.Stats(); st.Open != 2 || st.Evicted != 4 {
			t.Fatalf("stats = %+v, want 2 open, 4 evicted", st)
		}
	})
	t.Run("repeat-moves-later", func(t *testing.T) {
		// In the one-shot mode every incident waits for Flush; a repeat
		// moves its incident after those seen since, though the eviction
		// order is put right only when the repeat's incident comes first.
		g := New(Options{Window: Forever, MaxGroups: 2})
		g.Observe(occ("a", "s", "", t0), t0)
		g.Observe(occ("b", "s", "", t0), t0.Add(time.Second))
		g.Observe(occ("a", "s", "", t0), t0.Add(2*time.Second))
		got := g.Observe(occ("c", "s", "", t0), t0.Add(3*time.Second))
		want := []brief{{KindNew, "b", 1, nil}}
		if diff := cmp.Diff(want, briefs(got)); diff != "" {
			t.Fatalf("alerts (-want +got):\n%s", diff)
		}
		if _, ok := g.groups[Fingerprint("a", "s")]; !ok {
			t.Errorf("a, seen last, was closed")
		}
	})
	t.Run("oldest-with-summary", func(t *testing.T) {
		g := New(Options{Window: time.Hour, MaxGroups: 2})
		g.Observe(occ("a", "s", "", t0), t0)
		g.Observe(occ("b", "s", "", t0), t0.Add(time.Second))
		g.Observe(occ("a", "s", "", t0), t0.Add(2*time.Second)) // a has a pending repeat
		g.Observe(occ("b", "s", "", t0), t0.Add(3*time.Second)) // so has b, seen later
		got := g.Observe(occ("c", "s", "", t0), t0.Add(4*time.Second))
		want := []brief{{KindSummary, "a", 2, nil}, {KindNew, "c", 1, nil}}
		if diff := cmp.Diff(want, briefs(got)); diff != "" {
			t.Fatalf("alerts (-want +got):\n%s", diff)
		}
		if st := g.Stats(); st.Evicted != 1 || st.EvictedEarly != 1 || st.Open != 2 {
			t.Fatalf("stats = %+v, want 1 evicted early, 2 open", st)
		}
	})
}

func TestSnapshotRestore(t *testing.T) {
	g := New(Options{Window: time.Minute})
	g.Observe(occ("a", "s", "TP0", t0), t0)
	g.Observe(occ("a", "s", "TP1", t0), t0.Add(time.Second))
	b, err := g.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	h := New(Options{Window: time.Minute})
	if err := h.Restore(b); err != nil {
		t.Fatal(err)
	}
	// The restored grouper knows the incident: a repeat is folded, and the
	// summary counts what happened before the restart.
	if got := h.Observe(occ("a", "s", "", t0), t0.Add(2*time.Second)); got != nil {
		t.Fatalf("repeat after restore emitted %v", briefs(got))
	}
	got := h.Tick(t0.Add(time.Minute))
	want := []brief{{KindSummary, "a", 3, []string{"TP0", "TP1"}}}
	if diff := cmp.Diff(want, briefs(got)); diff != "" {
		t.Fatalf("alerts (-want +got):\n%s", diff)
	}
	if err := h.Restore([]byte(`{"version":99}`)); err == nil {
		t.Fatal("restore of a future version succeeded")
	}
	if err := h.Restore([]byte(`{`)); err == nil {
		t.Fatal("restore of junk succeeded")
	}
}

func TestFromDiagnosis(t *testing.T) {
	rec := &patterns.Record{
		ID: "a4a00f79b8728e30", Slug: "ascend-transfer-engine-initialization-failed",
		Severity: patterns.SeverityCritical, ErrorClass: "RuntimeError",
		Solutions: []string{"one", "two"},
	}
	generic := &patterns.Record{ID: "g", Slug: "scheduler-hit-an-exception"}
	tb := &entry.Traceback{Links: []entry.Exception{
		{Type: "KeyError", Message: "'x'", Frames: []entry.Frame{{File: "/a/b.py", Line: 1, Func: "f"}}},
		{Type: "RuntimeError", Message: "Ascend Transfer Engine initialization failed.", Separator: "context"},
	}}
	e := &entry.Entry{
		Source: "/var/log/sglang.log", Stream: "stderr", FirstOffset: 120,
		Time: t0, Ranks: entry.Ranks{DP: 0, PP: -1, AttnCP: -1, MoeDP: -1, TP: 3, EP: -1},
		Text: "Scheduler hit an exception: Traceback (most recent call last):\n  File ...\nRuntimeError: Ascend Transfer Engine initialization failed.",
		Raw:  "[2026-05-28 00:11:09 DP0 TP3] Scheduler hit an exception: ...", Traceback: tb,
	}
	hits := []matcher.Hit{
		{Record: rec, Line: "RuntimeError: Ascend Transfer Engine initialization failed.", ClassAgrees: true},
		{Record: generic, Line: "Scheduler hit an exception: Traceback (most recent call last):"},
	}
	d := &analysis.Diagnosis{
		Cause: &hits[0], Role: patterns.RoleCause, Signal: analysis.SignalRecord,
		Exception: &tb.Links[1], RootCause: &tb.Links[0],
		Context: hits[1:], Severity: patterns.SeverityCritical,
		Headline: hits[0].Line, Key: rec.ID,
	}
	o := FromDiagnosis(e, d, Source{Path: e.Source, Pod: "sglang-0"}, t0.Add(time.Hour))
	if o.Key != rec.ID || o.Rank != "DP0 TP3" || !o.Time.Equal(t0) {
		t.Fatalf("occurrence = key %q rank %q time %v", o.Key, o.Rank, o.Time)
	}
	a := o.Alert
	if a.Record.Slug != rec.Slug || a.Record.Severity != "critical" || len(a.Record.Solutions) != 2 {
		t.Fatalf("record block = %+v", a.Record)
	}
	if a.Match.Exception == nil || a.Match.Exception.Type != "RuntimeError" || a.Match.Exception.RootCause != "KeyError: 'x'" {
		t.Fatalf("exception = %+v", a.Match.Exception)
	}
	if a.Source.Offset != 120 || a.Source.Pod != "sglang-0" || a.Source.Stream != "stderr" {
		t.Fatalf("source = %+v", a.Source)
	}
	if len(a.Secondary) != 1 || a.Secondary[0].ID != "g" {
		t.Fatalf("secondary = %+v", a.Secondary)
	}
	if len(a.Context) != 1 || a.Context[0].Slug != "scheduler-hit-an-exception" || a.Headline != hits[0].Line {
		t.Fatalf("context %+v, headline %q", a.Context, a.Headline)
	}

	// No hit, no traceback: not an incident.
	// Unclassified: named after the cause's exception type, severity
	// from the diagnosis.
	u := &analysis.Diagnosis{Role: patterns.RoleCause, Signal: analysis.SignalException,
		Exception: &tb.Links[1], Severity: patterns.SeverityError, Headline: "RuntimeError: x", Key: "unclassified:abc"}
	o = FromDiagnosis(e, u, Source{Path: "p"}, t0)
	if o.Alert.Record.Slug != UnclassifiedSlug || o.Alert.Record.ID != "" || o.Alert.Record.ErrorClass != "RuntimeError" ||
		o.Alert.Record.Severity != "error" || o.Key != "unclassified:abc" || o.Alert.Match.Text != "RuntimeError: x" {
		t.Fatalf("unclassified = %+v", o.Alert)
	}
	// A traceback the parent re-raised (the entry is marked so) is the
	// child's failure seen again: a consequence, which folds into it.
	re := *e
	re.Reraised = true
	if o := FromDiagnosis(&re, u, Source{Path: "p"}, t0); !isConsequence(o) {
		t.Errorf("a re-raised traceback's occurrence has role %q, want a consequence", o.Alert.Record.Role)
	}
	// It still tells a person where to start and links the reference.
	if r := o.Alert.Record; len(r.Solutions) == 0 || !strings.Contains(r.Solutions[0], "RuntimeError: /a/b.py:1 in f") ||
		r.Documentation != "https://docs.python.org/3/library/exceptions.html#RuntimeError" {
		t.Fatalf("unclassified advice = %q, documentation %q", r.Solutions, r.Documentation)
	}
	// An unclassified cause inside a wrapper carries the wrapper's advice.
	wrapper := &patterns.Record{ID: "w", Slug: "scheduler-hit-an-exception", Role: patterns.RoleWrapper,
		Solutions: []string{"scroll up"}, GithubURL: "https://example.invalid/scheduler.py#L1"}
	u.Context = []matcher.Hit{{Record: wrapper, Line: "Scheduler hit an exception: Traceback (most recent call last):"}}
	o = FromDiagnosis(e, u, Source{Path: "p"}, t0)
	if r := o.Alert.Record; r.ID != "" || len(r.Solutions) != 1 || r.GithubURL != wrapper.GithubURL || len(o.Alert.Context) != 1 {
		t.Fatalf("unclassified in a wrapper = %+v, context %+v", r, o.Alert.Context)
	}
}

func ExampleFingerprint() {
	fmt.Println(Fingerprint("a4a00f79b8728e30", "/var/log/sglang/server.log"))
	// Output: 2137c4f1a56790f5
}

func TestFromDiagnosisBoundsAlertText(t *testing.T) {
	huge := "Traceback (most recent call last):\n" + strings.Repeat("  File \"/x.py\", line 1, in f\n", 10000) + "RecursionError: too deep"
	e := &entry.Entry{Text: huge, Raw: huge, Traceback: &entry.Traceback{Links: []entry.Exception{{Type: "RecursionError", Message: "too deep"}}}}
	o := FromDiagnosis(e, &analysis.Diagnosis{Exception: &e.Traceback.Links[0], Severity: patterns.SeverityError}, Source{Path: "p"}, t0)
	if n := len(o.Alert.Entry); n > MaxAlertText {
		t.Fatalf("alert entry is %d bytes, bound %d", n, MaxAlertText)
	}
	st := o.Alert.Match.Exception.Stacktrace
	if len(st) > MaxAlertText || !strings.HasSuffix(st, "RecursionError: too deep") {
		t.Fatalf("stack trace %d bytes, tail %q: the exception line must survive the bound", len(st), st[len(st)-30:])
	}
}

// Eviction takes the least recently seen incident, oldest creation first
// on a tie, and keeps doing so after a repeat moved one to the back and
// after a snapshot was restored.
func TestGrouperEvictionOrder(t *testing.T) {
	g := New(Options{Window: time.Hour, MaxGroups: 3})
	g.Observe(occ("a", "s", "", t0), t0)
	g.Observe(occ("b", "s", "", t0), t0)
	g.Observe(occ("c", "s", "", t0), t0.Add(time.Second))
	g.Observe(occ("a", "s", "", t0), t0.Add(2*time.Second)) // a is now the most recent
	snap, err := g.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	r := New(Options{Window: time.Hour, MaxGroups: 3})
	if err := r.Restore(snap); err != nil {
		t.Fatal(err)
	}
	for name, gr := range map[string]*Grouper{"live": g, "restored": r} {
		var evicted []string
		for i, key := range []string{"d", "e", "f"} {
			at := t0.Add(time.Duration(3+i) * time.Second)
			for _, a := range gr.Observe(occ(key, "s", "", at), at) {
				if a.Kind == KindSummary {
					evicted = append(evicted, a.Record.ID)
				}
			}
			gr.Observe(occ(key, "s", "", at), at) // a repeat, so its eviction has a summary
		}
		// b and c had no repeats (no summary), a had one: only a's
		// eviction speaks, and it goes third.
		if diff := cmp.Diff([]string{"a"}, evicted); diff != "" {
			t.Errorf("%s: summaries of evicted incidents (-want +got):\n%s", name, diff)
		}
		if st := gr.Stats(); st.Evicted != 3 || st.Open != 3 {
			t.Errorf("%s: stats %+v, want 3 evicted, 3 open", name, st)
		}
	}
}

// Issue 14 item 13: eviction used to scan every open incident for each new
// one, so a storm of distinct incidents took quadratic time (a million had
// not finished after 300 s). With an ordered structure this run takes well
// under a second; the generous limit only tells a hang from a slow
// machine, it measures nothing.
func TestGrouperEvictionScales(t *testing.T) {
	const groups, incidents = 100_000, 400_000
	g := New(Options{Window: Forever, MaxGroups: groups})
	done := make(chan int)
	go func() {
		n := 0
		for i := range incidents {
			at := t0.Add(time.Duration(i) * time.Millisecond)
			o := Occurrence{Alert: sinks.Alert{Fingerprint: fmt.Sprint(i), Count: 1, Time: at}}
			n += len(g.Observe(o, at))
		}
		done <- n
	}()
	select {
	case n := <-done:
		if n != incidents-groups {
			t.Errorf("%d incidents closed early, want %d", n, incidents-groups)
		}
	case <-time.After(time.Minute):
		t.Fatal("eviction did not finish within a minute: it is not logarithmic")
	}
}

func BenchmarkGrouperEviction(b *testing.B) {
	g := New(Options{Window: Forever, MaxGroups: 10_000})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		at := t0.Add(time.Duration(i) * time.Millisecond)
		g.Observe(Occurrence{Alert: sinks.Alert{Fingerprint: fmt.Sprint(i), Count: 1, Time: at}}, at)
	}
}

// A routine-looking native error line alone when its settle time ends is
// dropped and counted, in run mode as at a scan's flush; repeated before
// then, it is announced.
func TestRoutineIncidentAloneIsDropped(t *testing.T) {
	routine := func(at time.Time) Occurrence {
		o := occ("", "s", "", at)
		o.Key, o.Alert.Record = "unclassified:x", sinks.Record{Slug: "unclassified", Severity: "error", Role: "cause"}
		o.Alert.Fingerprint = Fingerprint(o.Key, "s")
		o.Native, o.NativeKind, o.Routine = true, "glog", true
		return o
	}
	g := New(Options{Window: 5 * time.Minute, Settle: 2 * time.Second, Correlation: 15 * time.Minute})
	if out := g.Observe(routine(t0), t0); len(out) != 0 {
		t.Fatalf("observe: %d alerts", len(out))
	}
	if out := g.Tick(t0.Add(3 * time.Second)); len(out) != 0 {
		t.Errorf("alone at settle: %d alerts, want none", len(out))
	}
	if st := g.Stats(); st.Routine != 1 || st.Open != 0 {
		t.Errorf("stats %+v, want one routine incident dropped and none open", st)
	}

	g = New(Options{Window: 5 * time.Minute, Settle: 2 * time.Second, Correlation: 15 * time.Minute})
	g.Observe(routine(t0), t0)
	g.Observe(routine(t0.Add(time.Second)), t0.Add(time.Second))
	if out := g.Tick(t0.Add(3 * time.Second)); len(out) != 1 || out[0].Count != 2 {
		t.Errorf("repeated: %d alerts, want one of count 2", len(out))
	}

	g = New(Options{Window: Forever, Settle: DefaultSettle, Correlation: DefaultCorrelation})
	g.Observe(routine(t0), t0)
	if out := g.Flush(t0.Add(time.Second)); len(out) != 0 {
		t.Errorf("flushed alone: %d alerts, want none", len(out))
	}
}

// Flush closes every incident at once: afterwards none is open, none is
// indexed, Changes deletes each, and the Grouper opens them again anew;
// the alerts Flush returned share no slice with what it opens next.
func TestFlushClosesAllAndReopens(t *testing.T) {
	g := New(Options{Window: Forever, Settle: time.Second, Correlation: time.Minute})
	for i := range 6 {
		g.Observe(cause(fmt.Sprintf("k%d", i), fmt.Sprintf("pod:%d", i%2), "TP0", t0), t0)
		g.Observe(cause(fmt.Sprintf("k%d", i), fmt.Sprintf("pod:%d", i%2), "TP1", t0), t0)
	}
	if _, err := g.Changes(); err != nil {
		t.Fatal(err)
	}
	g.Committed()
	first := g.Flush(t0.Add(time.Hour))
	if len(first) != 6 {
		t.Fatalf("%d alerts, want 6", len(first))
	}
	if s := g.Stats(); s.Open != 0 || len(g.lru) != 0 || len(g.byScope) != 0 || len(g.causeBySource) != 0 {
		t.Errorf("open %d, heap %d, scopes %d, sources %d after Flush; want none", s.Open, len(g.lru), len(g.byScope), len(g.causeBySource))
	}
	c, err := g.Changes()
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Delete) != 6 || len(c.Put) != 0 {
		t.Errorf("Changes after Flush: %d deleted, %d put; want 6 and 0", len(c.Delete), len(c.Put))
	}
	g.Committed()
	first[0].Ranks[0] = "changed"
	g.Observe(cause("k0", "pod:0", "TP2", t0), t0.Add(2*time.Hour))
	again := g.Flush(t0.Add(3 * time.Hour))
	if len(again) != 1 || again[0].Count != 1 || len(again[0].Ranks) != 1 || again[0].Ranks[0] != "TP2" {
		t.Errorf("reopened incident: %+v", again)
	}
	if first[0].Count != 2 || len(first[0].Ranks) != 2 {
		t.Errorf("first alert: count %d, ranks %v; want 2 and two ranks", first[0].Count, first[0].Ranks)
	}
}

// TickHolding holds an incident whose settle time is over while its source
// assembles an entry that began by its deadline (the rest of its burst,
// read but not yet complete), and only then: a routine line joined by that
// entry is not dropped before the entry comes, and an entry begun after
// the deadline holds nothing.
func TestTickHoldsWhileTheBurstIsAssembled(t *testing.T) {
	routine := func(at time.Time) Occurrence {
		o := occ("", "s", "", at)
		o.Key, o.Alert.Record = "unclassified:x", sinks.Record{Slug: "unclassified", Severity: "error", Role: "cause"}
		o.Alert.Fingerprint = Fingerprint(o.Key, "s")
		o.Native, o.NativeKind, o.Routine, o.SourceKey = true, "glog", true, "s"
		return o
	}
	g := New(Options{Window: 5 * time.Minute, Settle: 2 * time.Second, Correlation: 15 * time.Minute})
	g.Observe(routine(t0), t0)
	began := t0 // the next entry began with the routine line's batch
	var pending Assembling
	pending.Began("s", began)
	if out := g.TickHolding(t0.Add(time.Hour), pending); len(out) != 0 || g.Stats().Open != 1 || g.Stats().Routine != 0 {
		t.Fatalf("held: %d alerts, stats %+v; want none, the incident open", len(out), g.Stats())
	}
	// The pending entry completes: a repeat of the line, read in time.
	g.Observe(routine(t0), t0.Add(time.Hour))
	if out := g.TickHolding(t0.Add(time.Hour), Assembling{}); len(out) != 1 || out[0].Count != 2 {
		t.Errorf("after the entry: %d alerts, want one of count 2", len(out))
	}

	g = New(Options{Window: 5 * time.Minute, Settle: 2 * time.Second, Correlation: 15 * time.Minute})
	g.Observe(routine(t0), t0)
	began = t0.Add(3 * time.Second) // after the deadline: another burst
	pending = Assembling{}
	pending.Began("s", began)
	if out := g.TickHolding(t0.Add(time.Hour), pending); len(out) != 0 || g.Stats().Open != 0 || g.Stats().Routine != 1 {
		t.Errorf("not held: %d alerts, stats %+v; want the routine line dropped", len(out), g.Stats())
	}
}

// sortedIDs orders the open incidents by number whether the numbers are
// dense (placed at once) or sparse (sorted), an empty id included.
func TestSortedIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, c := range []struct{ n, spread int }{{0, 1}, {1, 1}, {2, 1}, {50, 1}, {50, 2}, {50, 3}, {300, 10}} {
		for range 20 {
			g := New(Options{Window: Forever})
			seqs := map[int64]bool{}
			for len(seqs) < c.n {
				seqs[int64(rng.IntN(c.n*c.spread)+1)] = true
			}
			var want []string
			i := 0
			for seq := range seqs {
				id := fmt.Sprintf("%016x", rng.Uint64())
				if i == 0 {
					id = ""
				}
				i++
				g.groups[id] = &group{Seq: seq}
			}
			for id := range g.groups {
				want = append(want, id)
			}
			slices.SortFunc(want, func(a, b string) int { return int(g.groups[a].Seq - g.groups[b].Seq) })
			if got := g.sortedIDs(); !slices.Equal(got, want) && len(got)+len(want) > 0 {
				t.Fatalf("%d incidents numbered up to %d: got %q, want %q", c.n, c.n*c.spread, got, want)
			}
		}
	}
}
