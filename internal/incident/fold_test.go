package incident

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/sinks"
)

// cons is a consequence occurrence: a record with role "consequence".
func cons(key, scope, rank string, at time.Time) Occurrence {
	o := occ(key, scope, rank, at)
	o.Scope = scope
	o.Alert.Record.Role = "consequence"
	o.Alert.Record.Slug = key
	o.Alert.Headline = key + " line"
	return o
}

func cause(key, scope, rank string, at time.Time) Occurrence {
	o := occ(key, scope, rank, at)
	o.Scope = scope
	o.Alert.Record.Role = "cause"
	o.Alert.Record.Severity = "critical"
	// A curated record says what to do; one without solutions never
	// takes over its burst (see namedCause).
	o.Alert.Record.Solutions = []string{"fix " + key}
	return o
}

// folded is what the tests compare of an alert's consequences.
type folded struct {
	Slug  string
	Count int
	Ranks []string
}

type full struct {
	Kind      string
	ID        string
	Count     int
	FirstRank string
	Cons      []folded
}

func fulls(as []sinks.Alert) []full {
	var out []full
	for _, a := range as {
		f := full{Kind: a.Kind, ID: a.Record.ID, Count: a.Count, FirstRank: a.FirstRank}
		for _, c := range a.Consequences {
			f.Cons = append(f.Cons, folded{c.Slug, c.Count, c.Ranks})
		}
		out = append(out, f)
	}
	return out
}

// event is one step of a folding scenario: an occurrence observed at a
// processing time, or a Tick or Flush, and the alerts it must produce.
type event struct {
	at    time.Duration
	obs   *Occurrence
	tick  bool
	flush bool
	want  []full
}

func runEvents(t *testing.T, g *Grouper, evs []event) {
	t.Helper()
	for i, ev := range evs {
		now := t0.Add(ev.at)
		var got []sinks.Alert
		switch {
		case ev.obs != nil:
			got = g.Observe(*ev.obs, now)
		case ev.tick:
			got = g.Tick(now)
		case ev.flush:
			got = g.Flush(now)
		}
		if diff := cmp.Diff(ev.want, fulls(got)); diff != "" {
			t.Fatalf("event %d (at %v): alerts (-want +got):\n%s", i, ev.at, diff)
		}
	}
}

var foldOpts = Options{Window: 5 * time.Minute, RepeatInterval: time.Hour, Settle: 2 * time.Second, Correlation: 15 * time.Minute}

func TestSettleAndFold(t *testing.T) {
	ptr := func(o Occurrence) *Occurrence { return &o }
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	ms := time.Millisecond
	peers := func(from time.Duration) []event {
		var evs []event
		for _, r := range []string{"rank0", "rank1", "rank2", "rank4", "rank5", "rank6", "rank7"} {
			evs = append(evs, event{at: from, obs: ptr(cons("nccl", "pod:a", r, at(from)))})
		}
		return evs
	}
	sevenPeers := folded{"nccl", 7, []string{"rank0", "rank1", "rank2", "rank4", "rank5", "rank6", "rank7"}}
	tests := []struct {
		name   string
		opts   Options
		events []event
	}{
		{
			name: "one crash: the cause settles, then one alert holds the burst and its consequences",
			opts: foldOpts,
			events: append(append([]event{
				{at: 0, obs: ptr(cause("oom", "pod:a", "DP0 TP3", at(0)))},
				{at: 10 * ms, obs: ptr(cause("oom", "pod:a", "DP0 TP3", at(10*ms)))},
				{at: 20 * ms, obs: ptr(cons("sigquit", "pod:a", "", at(20*ms)))},
			}, peers(500*ms)...),
				event{at: time.Second, tick: true},
				event{at: 2 * time.Second, tick: true, want: []full{{KindNew, "oom", 2, "DP0 TP3", []folded{{"sigquit", 1, nil}, sevenPeers}}}},
				event{at: 3 * time.Second, tick: true},
				// Nothing more happened: no summary at the end of the window.
				event{at: 5*time.Minute + 2*time.Second, tick: true},
				event{at: time.Hour, flush: true},
			),
		},
		{
			name: "settle 0 announces at once",
			opts: Options{Window: time.Minute, Correlation: time.Minute},
			events: []event{
				{at: 0, obs: ptr(cause("oom", "pod:a", "TP3", at(0))), want: []full{{KindNew, "oom", 1, "TP3", nil}}},
				{at: time.Second, obs: ptr(cons("sigquit", "pod:a", "", at(time.Second)))},
				{at: time.Minute, tick: true, want: []full{{KindSummary, "oom", 1, "TP3", []folded{{"sigquit", 1, nil}}}}},
			},
		},
		{
			name: "a consequence read before its cause is adopted when the cause arrives within the settle time",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: ptr(cons("sigquit", "pod:a", "", at(0)))},
				{at: 500 * ms, obs: ptr(cause("oom", "pod:a", "TP3", at(-100*ms)))},
				{at: 2 * time.Second, tick: true},
				{at: 2500 * ms, tick: true, want: []full{{KindNew, "oom", 1, "TP3", []folded{{"sigquit", 1, nil}}}}},
			},
		},
		{
			name: "a late consequence updates the open incident: no new page, a summary when it is quiet",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: ptr(cause("oom", "pod:a", "TP3", at(0)))},
				{at: 2 * time.Second, tick: true, want: []full{{KindNew, "oom", 1, "TP3", nil}}},
				{at: 5*time.Minute + 2*time.Second, tick: true},
				// Ten minutes later (torch's NCCL timeout) the peers report.
				{at: 10 * time.Minute, obs: ptr(cons("nccl", "pod:a", "rank0", at(10*time.Minute)))},
				{at: 10 * time.Minute, obs: ptr(cons("nccl", "pod:a", "rank1", at(10*time.Minute)))},
				{at: 10*time.Minute + 2*time.Second, tick: true, want: []full{{KindUpdate, "oom", 1, "TP3", []folded{{"nccl", 2, []string{"rank0", "rank1"}}}}}},
				{at: 15*time.Minute + 2*time.Second, tick: true, want: []full{{KindSummary, "oom", 1, "TP3", []folded{{"nccl", 2, []string{"rank0", "rank1"}}}}}},
				{at: 20*time.Minute + 2*time.Second, tick: true},
				{at: time.Hour, flush: true},
			},
		},
		{
			name: "a consequence with no visible root cause is alerted on its own",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: ptr(cons("sigquit", "pod:a", "", at(0)))},
				{at: time.Second, obs: ptr(cons("sigquit", "pod:a", "", at(time.Second)))},
				{at: 2 * time.Second, tick: true, want: []full{{KindNew, "sigquit", 2, "", nil}}},
				// A cause after it was announced does not take it back.
				{at: 3 * time.Second, obs: ptr(cause("oom", "pod:a", "TP0", at(3*time.Second)))},
				{at: 5 * time.Second, tick: true, want: []full{{KindNew, "oom", 1, "TP0", nil}}},
			},
		},
		{
			name: "two root causes in one window are two incidents; consequences go to the earliest",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: ptr(cause("oom", "pod:a", "TP3", at(0)))},
				{at: 100 * ms, obs: ptr(cause("nan", "pod:a", "TP5", at(100*ms)))},
				{at: 200 * ms, obs: ptr(cons("sigquit", "pod:a", "", at(200*ms)))},
				{at: 2 * time.Second, tick: true, want: []full{{KindNew, "oom", 1, "TP3", []folded{{"sigquit", 1, nil}}}}},
				{at: 2100 * ms, tick: true, want: []full{{KindNew, "nan", 1, "TP5", nil}}},
			},
		},
		{
			name: "a consequence goes to the burst nearest before it, not to a failure minutes earlier",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: ptr(cause("config", "pod:a", "", at(0)))},
				{at: 2 * time.Second, tick: true, want: []full{{KindNew, "config", 1, "", nil}}},
				{at: 3 * time.Minute, obs: ptr(cause("oom", "pod:a", "TP3", at(3*time.Minute)))},
				{at: 3*time.Minute + 500*ms, obs: ptr(cause("oom2", "pod:a", "TP5", at(3*time.Minute+500*ms)))},
				{at: 3*time.Minute + time.Second, obs: ptr(cons("sigquit", "pod:a", "", at(3*time.Minute+time.Second)))},
				{at: 3*time.Minute + 2*time.Second, tick: true, want: []full{{KindNew, "oom", 1, "TP3", []folded{{"sigquit", 1, nil}}}}},
				{at: 3*time.Minute + 2500*ms, tick: true, want: []full{{KindNew, "oom2", 1, "TP5", nil}}},
			},
		},
		{
			name: "no folding across pods, nor outside the correlation window",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: ptr(cause("oom", "pod:a", "TP3", at(0)))},
				{at: 100 * ms, obs: ptr(cons("sigquit", "pod:b", "", at(100*ms)))},
				{at: 2 * time.Second, tick: true, want: []full{{KindNew, "oom", 1, "TP3", nil}}},
				{at: 2100 * ms, tick: true, want: []full{{KindNew, "sigquit", 1, "", nil}}},
				{at: 16 * time.Minute, obs: ptr(cons("nccl", "pod:a", "rank0", at(16*time.Minute)))},
				{at: 16*time.Minute + 2*time.Second, tick: true, want: []full{{KindNew, "nccl", 1, "rank0", nil}}},
			},
		},
		{
			name: "a quiet root cause stays open for the correlation window, then is forgotten",
			opts: Options{Window: time.Minute, Settle: time.Second, Correlation: 10 * time.Minute},
			events: []event{
				{at: 0, obs: ptr(cause("oom", "pod:a", "TP3", at(0)))},
				{at: time.Second, tick: true, want: []full{{KindNew, "oom", 1, "TP3", nil}}},
				{at: 5 * time.Minute, tick: true},
				{at: 9 * time.Minute, obs: ptr(cons("nccl", "pod:a", "rank0", at(9*time.Minute)))},
				{at: 10 * time.Minute, tick: true, want: []full{{KindSummary, "oom", 1, "TP3", []folded{{"nccl", 1, []string{"rank0"}}}}}},
				{at: 20 * time.Minute, tick: true},
				{at: 21 * time.Minute, obs: ptr(cons("nccl", "pod:a", "rank0", at(21*time.Minute)))},
				{at: 22 * time.Minute, tick: true, want: []full{{KindNew, "nccl", 1, "rank0", nil}}},
			},
		},
		{
			name: "correlation 0: no folding",
			opts: Options{Window: time.Minute, Settle: time.Second},
			events: []event{
				{at: 0, obs: ptr(cause("oom", "pod:a", "TP3", at(0)))},
				{at: 0, obs: ptr(cons("sigquit", "pod:a", "", at(0)))},
				{at: time.Second, tick: true, want: []full{{KindNew, "oom", 1, "TP3", nil}, {KindNew, "sigquit", 1, "", nil}}},
			},
		},
		{
			// One incident per failure and file, as scan reports: a
			// consequence kind is folded whole into the root cause its
			// first occurrence follows; the one with nothing before it
			// stays alone.
			name: "forever (scan): consequences fold, every incident is announced once as new",
			opts: Options{Window: Forever, Correlation: 15 * time.Minute, Settle: 2 * time.Second},
			events: []event{
				{at: 0, obs: ptr(cons("health", "pod:a", "", at(-time.Hour)))},
				{at: 0, obs: ptr(cons("sigquit", "pod:a", "", at(time.Second)))},
				{at: 0, obs: ptr(cause("oom", "pod:a", "TP3", at(0)))},
				{at: 0, obs: ptr(cons("nccl", "pod:a", "rank0", at(10*time.Minute)))},
				{at: 0, obs: ptr(cons("nccl", "pod:a", "rank1", at(time.Hour)))},
				{at: time.Second, flush: true, want: []full{
					{KindNew, "health", 1, "", nil},
					{KindNew, "oom", 1, "TP3", []folded{{"sigquit", 1, nil}, {"nccl", 2, []string{"rank0", "rank1"}}}},
				}},
			},
		},
		{
			name: "flush announces a settling incident as new",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: ptr(cause("oom", "pod:a", "TP3", at(0)))},
				{at: 0, obs: ptr(cons("sigquit", "pod:a", "", at(0)))},
				{at: time.Second, flush: true, want: []full{{KindNew, "oom", 1, "TP3", []folded{{"sigquit", 1, nil}}}}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runEvents(t, New(tt.opts), tt.events)
		})
	}
}

func TestFirstRankIsTheEarliestOccurrence(t *testing.T) {
	g := New(foldOpts)
	g.Observe(cause("oom", "pod:a", "TP5", t0.Add(time.Second)), t0)
	g.Observe(cause("oom", "pod:a", "TP3", t0), t0) // logged earlier, read later
	g.Observe(cause("oom", "pod:a", "TP1", t0.Add(2*time.Second)), t0)
	got := g.Tick(t0.Add(2 * time.Second))
	if len(got) != 1 || got[0].FirstRank != "TP3" || !got[0].Time.Equal(t0) {
		t.Fatalf("alerts = %+v, want one with first rank TP3 at %v", fulls(got), t0)
	}
	if r := sinks.RanksText(&got[0]); r != "TP1,3,5 (first TP3)" {
		t.Fatalf("ranks text = %q", r)
	}
}

func TestUntimedConsequenceUsesTheScopeClock(t *testing.T) {
	// The log is replayed long after it was written: the c10d lines have
	// no timestamp of their own and are read now, the sglang lines are
	// from months ago. The scope's clock places the c10d lines among them.
	g := New(foldOpts)
	now := t0.Add(200 * 24 * time.Hour)
	g.Observe(cause("oom", "pod:a", "TP3", t0), now)
	c := cons("nccl", "pod:a", "rank0", now)
	c.Timed = false
	if got := g.Observe(c, now.Add(time.Second)); got != nil {
		t.Fatalf("observe emitted %v", fulls(got))
	}
	got := g.Tick(now.Add(2 * time.Second))
	want := []full{{KindNew, "oom", 1, "TP3", []folded{{"nccl", 1, []string{"rank0"}}}}}
	if diff := cmp.Diff(want, fulls(got)); diff != "" {
		t.Fatalf("alerts (-want +got):\n%s", diff)
	}
}

func TestNextDeadlineIncludesSettle(t *testing.T) {
	g := New(foldOpts)
	g.Observe(cause("oom", "pod:a", "TP3", t0), t0)
	if d := g.NextDeadline(); !d.Equal(t0.Add(2 * time.Second)) {
		t.Fatalf("next deadline %v, want the end of the settle time", d)
	}
	g.Tick(t0.Add(2 * time.Second))
	if d := g.NextDeadline(); !d.Equal(t0.Add(2*time.Second + 5*time.Minute)) {
		t.Fatalf("next deadline %v, want the end of the window", d)
	}
}

// TestFoldSurvivesRestart restarts the grouper at every point of the crash
// scenario: a folded consequence is neither lost nor announced twice.
func TestFoldSurvivesRestart(t *testing.T) {
	ptr := func(o Occurrence) *Occurrence { return &o }
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	events := []event{
		{at: 0, obs: ptr(cons("sigquit", "pod:a", "", at(0)))},
		{at: 100 * time.Millisecond, obs: ptr(cause("oom", "pod:a", "TP3", at(0)))},
		{at: 200 * time.Millisecond, obs: ptr(cons("nccl", "pod:a", "rank0", at(200*time.Millisecond)))},
		{at: 2100 * time.Millisecond, tick: true},
		{at: 3 * time.Minute, obs: ptr(cons("nccl", "pod:a", "rank1", at(3*time.Minute)))},
		{at: 5*time.Minute + 2100*time.Millisecond, tick: true},
		{at: 10*time.Minute + 2100*time.Millisecond, tick: true},
		{at: time.Hour, flush: true},
	}
	run := func(restartAfter int) []full {
		g := New(foldOpts)
		var out []full
		for i, ev := range events {
			now := t0.Add(ev.at)
			switch {
			case ev.obs != nil:
				out = append(out, fulls(g.Observe(*ev.obs, now))...)
			case ev.tick:
				out = append(out, fulls(g.Tick(now))...)
			case ev.flush:
				out = append(out, fulls(g.Flush(now))...)
			}
			if i == restartAfter {
				b, err := g.Snapshot()
				if err != nil {
					t.Fatal(err)
				}
				g = New(foldOpts)
				if err := g.Restore(b); err != nil {
					t.Fatal(err)
				}
			}
		}
		return out
	}
	want := run(-1)
	wantFirst := full{KindNew, "oom", 1, "TP3", []folded{{"sigquit", 1, nil}, {"nccl", 1, []string{"rank0"}}}}
	if len(want) == 0 || !cmp.Equal(want[0], wantFirst) {
		t.Fatalf("without restart: %+v", want)
	}
	if len(want) != 2 || want[1].Kind != KindSummary || len(want[1].Cons) != 2 || want[1].Cons[1].Count != 2 {
		t.Fatalf("without restart, want the new alert and one summary with both peers: %+v", want)
	}
	for i := range events {
		if diff := cmp.Diff(want, run(i)); diff != "" {
			t.Errorf("restart after event %d (-want +got):\n%s", i, diff)
		}
	}
}

func TestRestoreVersion1(t *testing.T) {
	// A version 1 snapshot: an incident announced when it began.
	v1 := `{"version":1,"seq":1,"groups":{"fp":{"alert":{"fingerprint":"fp","count":2,"kind":"new","record":{"id":"a"}},` +
		`"sent":1,"lastEmit":"2026-05-28T00:11:09Z","windowEnd":"2026-05-28T00:12:09Z","lastSeen":"2026-05-28T00:11:10Z","seq":1}}}`
	g := New(Options{Window: time.Minute})
	if err := g.Restore([]byte(v1)); err != nil {
		t.Fatal(err)
	}
	got := g.Tick(t0.Add(time.Minute))
	want := []brief{{KindSummary, "a", 2, nil}}
	if diff := cmp.Diff(want, briefs(got)); diff != "" {
		t.Fatalf("alerts (-want +got):\n%s", diff)
	}
}

func TestFoldRaisesTheRootCauseSeverity(t *testing.T) {
	g := New(foldOpts)
	w := cause("request-error", "pod:a", "", t0)
	w.Alert.Record.Severity = "error"
	g.Observe(w, t0)
	c := cons("nccl", "pod:a", "rank0", t0.Add(time.Second))
	c.Alert.Record.Severity, c.Alert.Record.Fatal = "critical", true
	g.Observe(c, t0.Add(time.Second))
	got := g.Tick(t0.Add(2 * time.Second))
	if len(got) != 1 || got[0].Record.Severity != "critical" || !got[0].Record.Fatal {
		t.Fatalf("alerts = %+v, want one critical and fatal: the crash that followed decides", got)
	}
}

func TestAWarningIsNoRootCause(t *testing.T) {
	g := New(foldOpts)
	w := cause("retract", "pod:a", "DP1 TP1", t0)
	w.Alert.Record.Severity = "warning"
	g.Observe(w, t0)
	g.Observe(cons("sigquit", "pod:a", "", t0.Add(time.Second)), t0.Add(time.Second))
	got := g.Tick(t0.Add(3 * time.Second))
	want := []full{{KindNew, "retract", 1, "DP1 TP1", nil}, {KindNew, "sigquit", 1, "", nil}}
	if diff := cmp.Diff(want, fulls(got)); diff != "" {
		t.Fatalf("alerts (-want +got):\n%s", diff)
	}
}

func TestWrapperAloneIsTheLastChoiceOfRoot(t *testing.T) {
	g := New(foldOpts)
	w := cause("scheduler-hit-an-exception", "pod:a", "TP3", t0)
	w.Alert.Record.Role = "wrapper"
	g.Observe(w, t0)
	g.Observe(cause("oom", "pod:a", "TP7", t0), t0)
	g.Observe(cons("sigquit", "pod:a", "", t0.Add(time.Second)), t0.Add(time.Second))
	got := g.Flush(t0.Add(time.Second))
	// The consequence folds into the named cause, not into the wrapper;
	// the wrapper, alone in its entry, is the cause's context.
	want := []full{{KindNew, "oom", 1, "TP7", []folded{{"sigquit", 1, nil}}}}
	if diff := cmp.Diff(want, fulls(got)); diff != "" {
		t.Fatalf("alerts (-want +got):\n%s", diff)
	}
}

// wrapperAlone is a wrapper record's occurrence whose entry held no cause.
func wrapperAlone(key, scope, rank string, at time.Time) Occurrence {
	o := cause(key, scope, rank, at)
	o.Alert.Record.Role = "wrapper"
	o.Alert.Record.Fatal = true
	o.Alert.Headline = "Exception in ModelRpcClient:"
	return o
}

func TestLoneWrapperIsContextOfTheCauseReadWithIt(t *testing.T) {
	w := wrapperAlone("legacy-subprocess-exception", "pod:a", "TP0", t0)
	c := cause("attribute-error", "pod:a", "", t0.Add(10*time.Millisecond))
	c.Alert.Record.Severity = "error"
	g := New(foldOpts)
	g.Observe(w, t0)
	g.Observe(c, t0.Add(10*time.Millisecond))
	if !g.Pending(w.Alert.Fingerprint) || !g.Pending(c.Alert.Fingerprint) {
		t.Fatal("both incidents settle")
	}
	got := g.Tick(t0.Add(3 * time.Second))
	if len(got) != 1 {
		t.Fatalf("got %d alerts %+v, want the cause's alone", len(got), fulls(got))
	}
	a := got[0]
	if a.Record.ID != "attribute-error" || a.Record.Severity != "critical" || !a.Record.Fatal {
		t.Errorf("alert %s severity %s fatal %v: want the cause, as severe and fatal as the wrapper says", a.Record.ID, a.Record.Severity, a.Record.Fatal)
	}
	want := []sinks.ContextHit{{ID: "legacy-subprocess-exception", Slug: w.Alert.Record.Slug, Text: "Exception in ModelRpcClient:", Fingerprint: w.Alert.Fingerprint}}
	if diff := cmp.Diff(want, a.Context); diff != "" {
		t.Errorf("context (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"TP0"}, a.Ranks); diff != "" {
		t.Errorf("ranks (-want +got):\n%s", diff)
	}
	if !Holds(&a, w.Alert.Fingerprint) || !Holds(&a, c.Alert.Fingerprint) {
		t.Error("the cause's alert holds the wrapper's incident and its own")
	}
	if st := g.Stats(); st.Folded != 1 {
		t.Errorf("Folded = %d, want 1", st.Folded)
	}
}

func TestLoneWrapperWithoutACauseIsAlerted(t *testing.T) {
	for _, tt := range []struct {
		name  string
		other *Occurrence
	}{
		{"no other failure", nil},
		{"a cause after the settle time", ptrOcc(cause("oom", "pod:a", "", t0.Add(3*time.Second)))},
		{"a cause in another scope", ptrOcc(cause("oom", "pod:b", "", t0))},
		{"only a consequence", ptrOcc(cons("sigquit", "pod:a", "", t0))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := New(foldOpts)
			w := wrapperAlone("scheduler-hit-an-exception", "pod:a", "TP1", t0)
			g.Observe(w, t0)
			if tt.other != nil {
				g.Observe(*tt.other, tt.other.Time)
			}
			got := g.Flush(t0.Add(4 * time.Second))
			if len(got) == 0 || got[0].Record.ID != "scheduler-hit-an-exception" || len(got[0].Context) != 0 {
				t.Fatalf("alerts %+v: want the wrapper's own first", fulls(got))
			}
		})
	}
}

func ptrOcc(o Occurrence) *Occurrence { return &o }

func TestHolds(t *testing.T) {
	g := New(foldOpts)
	root := cause("oom", "pod:a", "TP3", t0)
	c := cons("nccl", "pod:a", "rank0", t0)
	g.Observe(c, t0)
	if !g.Pending(c.Alert.Fingerprint) {
		t.Fatal("a settling consequence is pending")
	}
	g.Observe(root, t0) // adopts the consequence
	if _, own := g.groups[c.Alert.Fingerprint]; own || !g.Pending(c.Alert.Fingerprint) || !g.Pending(root.Alert.Fingerprint) || g.Pending("other") {
		t.Fatal("a consequence folded into a settling root cause is pending, with it")
	}
	got := g.Tick(t0.Add(2 * time.Second))
	if g.Pending(root.Alert.Fingerprint) || g.Pending(c.Alert.Fingerprint) {
		t.Fatal("announced incidents are not pending")
	}
	if len(got) != 1 || !Holds(&got[0], root.Alert.Fingerprint) || !Holds(&got[0], c.Alert.Fingerprint) || Holds(&got[0], "other") {
		t.Fatalf("alerts %+v: want one that holds the root cause and its consequence only", fulls(got))
	}
}

// A crash whose wrapper or cut traceback arrives seconds after its cause,
// behind healthy lines (a parent that reports the child's death late,
// another rank's traceback cut by the paste), is one page, in run mode
// too: the cause is announced after its settle time, and the wrapper read
// later joins it as context instead of paging alone. A restart between
// them, a wrapper with no failure before it in its source, or a cause
// only a generic line, leaves the wrapper its own incident.
func TestLateWrapperJoinsTheCrashBeforeIt(t *testing.T) {
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	late := func(d time.Duration) Occurrence {
		w := wrapperAlone("scheduler-hit-an-exception", "pod:a", "TP1", at(d))
		w.Offset, w.EndOffset = 4000, 4100
		return w
	}
	for _, d := range []time.Duration{5 * time.Second, 30 * time.Second, 10 * time.Minute} {
		g := New(foldOpts)
		c := cause("oom", "pod:a", "TP0", t0)
		c.Offset, c.EndOffset = 0, 900
		g.Observe(c, t0)
		if got := g.Tick(at(3 * time.Second)); len(got) != 1 || got[0].Record.ID != "oom" {
			t.Fatalf("%v: first tick %+v, want the cause announced", d, fulls(got))
		}
		w := late(d)
		g.Observe(w, at(d))
		out := g.Tick(at(d + 3*time.Second))
		if g.Pending(w.Alert.Fingerprint) {
			t.Errorf("%v: the wrapper is still an incident of its own", d)
		}
		// No new page: the cause's next summary (when its window
		// closes) says the process died.
		out = append(out, g.Flush(at(d+time.Hour))...)
		if len(out) != 1 || out[0].Record.ID != "oom" || out[0].Kind != KindSummary || len(out[0].Context) != 1 || !out[0].Record.Fatal {
			t.Errorf("%v: alerts %+v, want only the cause's summary, with the wrapper as context, fatal", d, fulls(out))
		}
	}

	for _, tt := range []struct {
		name   string
		before func(g *Grouper)
	}{
		{"restart between", func(g *Grouper) {
			c := cause("oom", "pod:a", "TP0", t0)
			g.Observe(c, t0)
			g.Tick(at(3 * time.Second))
			g.Restarted("pod:a", at(4*time.Second))
		}},
		{"beyond the correlation window", func(g *Grouper) {
			c := cause("oom", "pod:a", "TP0", at(-20*time.Minute))
			g.Observe(c, at(-20*time.Minute))
			g.Tick(at(-20*time.Minute + 3*time.Second))
		}},
		{"another source", func(g *Grouper) {
			c := cause("oom", "pod:b", "TP0", t0)
			g.Observe(c, t0)
			g.Tick(at(3 * time.Second))
		}},
		{"only a generic line", func(g *Grouper) {
			c := cause("error-line", "pod:a", "", t0)
			c.Generic = true
			c.Alert.Record = sinks.Record{Severity: "error"}
			g.Observe(c, t0)
			g.Tick(at(3 * time.Second))
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := New(foldOpts)
			tt.before(g)
			g.Observe(late(5*time.Second), at(5*time.Second))
			got := g.Tick(at(8 * time.Second))
			if len(got) != 1 || got[0].Record.ID != "scheduler-hit-an-exception" {
				t.Fatalf("alerts %+v: want the wrapper announced alone", fulls(got))
			}
		})
	}
}

// Independent failures stay apart however late the second comes: another
// classified cause, or another exception no record names, after the first
// crash's page is an incident of its own.
func TestLateFailureIsNoWrapper(t *testing.T) {
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	unknown := func(key string, d time.Duration, off int64) Occurrence {
		o := occ(key, "pod:a", "TP0", at(d))
		o.Scope = "pod:a"
		o.Alert.Record = sinks.Record{Severity: "error"}
		o.Traced = true
		o.Offset, o.EndOffset = off, off+500
		return o
	}
	for _, tt := range []struct {
		name        string
		first, next Occurrence
	}{
		{"two classified causes", cause("oom", "pod:a", "TP0", t0), cause("nccl-timeout", "pod:a", "TP0", at(10*time.Second))},
		{"two unknown exceptions", unknown("KeyError: 'x'", 0, 0), unknown("ValueError: bad", 10*time.Second, 4000)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := New(foldOpts)
			g.Observe(tt.first, tt.first.Time)
			g.Tick(tt.first.Time.Add(3 * time.Second))
			g.Observe(tt.next, tt.next.Time)
			got := g.Tick(tt.next.Time.Add(3 * time.Second))
			if len(got) != 1 || got[0].Fingerprint != tt.next.Alert.Fingerprint {
				t.Fatalf("alerts %+v: want the second failure announced on its own", fulls(got))
			}
		})
	}
}

// A consequence printed before its cause (a health check that fails while
// the request that stalled the server waits for its timeout) waits up to
// ConsequenceWait for a cause printed just after it in its source; the
// cause then leads and lists it. Without one it is announced when the wait
// is over; a consequence whose cause came first is folded at its settle
// time, as before, and a cause is never held.
func TestConsequenceWaitsForItsCause(t *testing.T) {
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	opts := foldOpts
	opts.ConsequenceWait = 30 * time.Second
	health := func() Occurrence {
		c := cons("health-check-failed", "pod:a", "", t0)
		c.Offset, c.EndOffset = 100, 250
		return c
	}
	timeout := func(d time.Duration) Occurrence {
		c := cause("bootstrap-timeout", "pod:a", "TP0", at(d))
		c.Offset, c.EndOffset = 600, 900
		return c
	}

	g := New(opts)
	g.Observe(health(), t0)
	if got := g.Tick(at(3 * time.Second)); len(got) != 0 {
		t.Fatalf("the consequence was announced after its settle time: %+v", fulls(got))
	}
	// The wait, and the settle time of a cause that began by its end.
	if d := g.NextDeadline(); !d.Equal(at(32 * time.Second)) {
		t.Errorf("NextDeadline %v, want the end of the wait %v", d, at(32*time.Second))
	}
	g.Observe(timeout(23*time.Second), at(23*time.Second))
	got := g.Tick(at(25 * time.Second))
	want := []full{{Kind: KindNew, ID: "bootstrap-timeout", Count: 1, FirstRank: "TP0", Cons: []folded{{"health-check-failed", 1, nil}}}}
	if diff := cmp.Diff(want, fulls(got)); diff != "" {
		t.Errorf("alerts (-want +got):\n%s", diff)
	}
	if got := g.Tick(at(40 * time.Second)); len(got) != 0 {
		t.Errorf("paged again: %+v", fulls(got))
	}

	// No cause: announced alone once the wait is over.
	g = New(opts)
	g.Observe(health(), t0)
	if got := g.Tick(at(31 * time.Second)); len(got) != 0 {
		t.Fatalf("announced before the wait was over: %+v", fulls(got))
	}
	if got := g.Tick(at(32 * time.Second)); len(got) != 1 || got[0].Record.ID != "health-check-failed" {
		t.Fatalf("alerts %+v, want the consequence alone", fulls(got))
	}

	// A cause before it: folded at the settle time, the cause announced
	// at its own.
	g = New(opts)
	c := timeout(0)
	c.Offset, c.EndOffset = 0, 90
	g.Observe(c, t0)
	h := health()
	h.Time, h.Alert.Time = at(time.Second), at(time.Second)
	g.Observe(h, at(time.Second))
	got = g.Tick(at(2 * time.Second))
	want = []full{{Kind: KindNew, ID: "bootstrap-timeout", Count: 1, FirstRank: "TP0", Cons: []folded{{"health-check-failed", 1, nil}}}}
	if diff := cmp.Diff(want, fulls(got)); diff != "" {
		t.Errorf("cause first: alerts (-want +got):\n%s", diff)
	}
}

// A watchdog's dump of the running batch names no place; the py-spy dump
// of the stuck thread, printed a few lines after it seconds later, does.
// The first waits for the second (ConsequenceWait), which leads: one
// hang, one page. Alone, it is announced once the wait is over.
func TestPlacelessHangWaitsForTheDumpThatNamesWhere(t *testing.T) {
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	opts := foldOpts
	opts.ConsequenceWait = 30 * time.Second
	hang := func(key string, d time.Duration, off int64, where []string) Occurrence {
		o := occ(key, "pod:a", "TP0", at(d))
		o.Scope = "pod:a"
		o.Alert.Record = sinks.Record{Severity: "critical"}
		o.Hang, o.Fragment = true, true
		o.Alert.HungThread = where
		o.Offset, o.EndOffset = off, off+400
		return o
	}
	g := New(opts)
	g.Observe(hang("batch-dump", 0, 0, nil), t0)
	if got := g.Tick(at(3 * time.Second)); len(got) != 0 {
		t.Fatalf("the batch dump was announced before the wait was over: %+v", fulls(got))
	}
	g.Observe(hang("pyspy", 5*time.Second, 700, []string{"draft (eagle_worker.py:397)"}), at(5*time.Second))
	got := g.Tick(at(8 * time.Second))
	got = append(got, g.Tick(at(31*time.Second))...)
	got = append(got, g.Flush(at(time.Hour))...)
	var news []string
	for _, a := range got {
		if a.Kind == KindNew {
			news = append(news, a.Fingerprint)
		}
	}
	if len(news) != 1 || news[0] != Fingerprint("pyspy", "pod:a") {
		t.Fatalf("alerts %+v: want one page, the dump that names where", fulls(got))
	}

	g = New(opts)
	g.Observe(hang("batch-dump", 0, 0, nil), t0)
	if got := g.Tick(at(31 * time.Second)); len(got) != 0 {
		t.Fatalf("announced before the wait was over: %+v", fulls(got))
	}
	if got := g.Tick(at(32 * time.Second)); len(got) != 1 {
		t.Fatalf("alerts %+v: want the batch dump alone once the wait is over", fulls(got))
	}
}

// In a scan (every incident settles until Flush), a wrapper read seconds
// after a native library's routine-looking error line does not make that
// line its cause: alone, the line is no crash, and the wrapper leads.
func TestLateWrapperSkipsARoutineLine(t *testing.T) {
	g := New(Options{Window: Forever, Settle: 2 * time.Second, Correlation: 15 * time.Minute})
	c := cause("glog-error", "pod:a", "", t0)
	c.Native, c.Routine = true, true
	c.Alert.Record = sinks.Record{ID: "glog-error", Severity: "error"}
	g.Observe(c, t0)
	w := wrapperAlone("scheduler-hit-an-exception", "pod:a", "TP1", t0.Add(5*time.Second))
	w.Offset, w.EndOffset = 4000, 4100
	g.Observe(w, t0.Add(5*time.Second))
	got := g.Flush(t0.Add(time.Minute))
	if len(got) != 1 || got[0].Record.ID != "scheduler-hit-an-exception" {
		t.Fatalf("alerts %+v: want the wrapper alone", fulls(got))
	}
}
