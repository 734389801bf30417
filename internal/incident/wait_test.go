package incident

import (
	"fmt"
	"testing"
	"time"
)

// The consequence wait ends with whichever comes first: its time, or its
// source read further past the consequence than a cause of it may lie
// (borrowedGap), in run as scan decides from the bytes between them.
func TestTheWaitEndsWhenTheSourceIsReadPastIt(t *testing.T) {
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	opts := foldOpts
	opts.ConsequenceWait = 30 * time.Second
	health := cons("health-check-failed", "pod:a", "", t0)
	health.Offset, health.EndOffset = 100, 250
	read := func(off int64) Assembling {
		var a Assembling
		a.ReadTo("pod:a", off)
		return a
	}

	g := New(opts)
	g.Observe(health, t0)
	if got := g.TickHolding(at(3*time.Second), read(2000)); len(got) != 0 {
		t.Fatalf("announced while its source was read only a few lines past it: %+v", fulls(got))
	}
	if d := g.NextDeadline(); !d.Equal(at(5 * time.Second)) {
		t.Errorf("NextDeadline %v, want a settle time on (%v): the source is looked at again", d, at(5*time.Second))
	}
	got := g.TickHolding(at(5*time.Second), read(250+borrowedGap+1))
	if len(got) != 1 || got[0].Record.ID != "health-check-failed" {
		t.Fatalf("alerts %+v, want the consequence alone once its source was read past it", fulls(got))
	}

	// A cause printed within the bytes it waits for still leads.
	g = New(opts)
	g.Observe(health, t0)
	g.TickHolding(at(3*time.Second), read(2000))
	c := cause("bootstrap-timeout", "pod:a", "TP0", at(4*time.Second))
	c.Offset, c.EndOffset = 2100, 2400
	g.Observe(c, at(4*time.Second))
	got = g.TickHolding(at(6*time.Second), read(2400))
	if len(got) != 1 || got[0].Record.ID != "bootstrap-timeout" || len(got[0].Consequences) != 1 {
		t.Fatalf("alerts %+v, want the cause with the consequence listed", fulls(got))
	}
}

// A wrapper alone printed seconds before its cause (a writer's buffer put
// the process's "Scheduler hit an exception" before the traceback of the
// rank that failed first) waits for it as a consequence does: one page,
// led by the cause, in run as in scan. A cause printed after a stretch of
// serving, or later than the wait, is another failure.
func TestWrapperPrintedBeforeItsCause(t *testing.T) {
	s := time.Second
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	opts := foldOpts
	opts.ConsequenceWait = 30 * time.Second
	wrapper := func() Occurrence {
		w := wrapperAlone("scheduler-hit-an-exception", "pod:a", "TP1", t0)
		w.Offset, w.EndOffset = 0, 100
		return w
	}
	oom := func(d time.Duration, off int64) Occurrence {
		c := cause("oom", "pod:a", "TP0", at(d))
		c.Offset, c.EndOffset = off, off+300
		return c
	}

	// Run.
	g := New(opts)
	g.Observe(wrapper(), t0)
	if got := g.Tick(at(3 * s)); len(got) != 0 {
		t.Fatalf("the wrapper paged before its cause: %+v", fulls(got))
	}
	g.Observe(oom(5*s, 400), at(5*s))
	got := g.Tick(at(7 * s))
	got = append(got, g.Flush(at(time.Hour))...)
	if len(got) != 1 || got[0].Record.ID != "oom" || len(got[0].Context) != 1 {
		t.Fatalf("alerts %+v, want one page led by the cause, the wrapper its context", fulls(got))
	}
	// Alone, it pages once the wait is over.
	g = New(opts)
	g.Observe(wrapper(), t0)
	if got := g.Tick(at(31 * s)); len(got) != 0 {
		t.Fatalf("the wrapper paged before the wait was over: %+v", fulls(got))
	}
	if got := g.Tick(at(32 * s)); len(got) != 1 || got[0].Record.ID != "scheduler-hit-an-exception" {
		t.Fatalf("alerts %+v, want the wrapper alone when the wait is over", fulls(got))
	}

	// Scan.
	for _, tc := range []struct {
		name string
		obs  []Occurrence
		want string
	}{
		{"seconds before, a few lines before", []Occurrence{wrapper(), oom(5*s, 400)}, "[oom ~scheduler-hit-an-exception]"},
		{"at the end of the wait and its settle time", []Occurrence{wrapper(), oom(32*s, 400)}, "[oom ~scheduler-hit-an-exception]"},
		{"beyond them", []Occurrence{wrapper(), oom(33*s, 400)}, "[scheduler-hit-an-exception oom]"},
		{"behind a stretch of serving", []Occurrence{wrapper(), oom(5*s, 100+borrowedGap+200)}, "[scheduler-hit-an-exception oom]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := New(opts)
			g.opts.Window = Forever
			for _, o := range tc.obs {
				g.Observe(o, t0)
			}
			if got := fmt.Sprint(slugsOf(g.Flush(t0))); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// A wrapper alone after a crash reports its death when it comes within the
// consequence wait of it; a minute and a half later, with no restart
// between, it reports another death (a second crash whose cause was cut),
// however close in the correlation window.
func TestLateWrapperWithinTheConsequenceWait(t *testing.T) {
	s := time.Second
	for _, tc := range []struct {
		late time.Duration
		want string
	}{
		{5 * s, "[oom ~scheduler-hit-an-exception]"},
		{30 * s, "[oom ~scheduler-hit-an-exception]"},
		{33 * s, "[oom scheduler-hit-an-exception]"},
		{90 * s, "[oom scheduler-hit-an-exception]"},
	} {
		t.Run(tc.late.String(), func(t *testing.T) {
			g := New(Options{Window: Forever, Settle: DefaultSettle, Correlation: DefaultCorrelation, ConsequenceWait: DefaultConsequenceWait})
			c := cause("oom", "pod:a", "TP0", t0)
			c.Offset, c.EndOffset = 0, 900
			w := wrapperAlone("scheduler-hit-an-exception", "pod:a", "TP1", t0.Add(tc.late))
			w.Offset, w.EndOffset = 6000, 6100
			g.Observe(c, t0)
			g.Observe(w, t0)
			if got := fmt.Sprint(slugsOf(g.Flush(t0))); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}
