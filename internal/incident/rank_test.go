package incident

import (
	"fmt"
	"testing"
	"time"
)

func TestLeadClasses(t *testing.T) {
	at := t0
	draft := classified("drafted", "f", at)
	draft.Alert.Record.Solutions = nil
	native := traceback("native", "f", at)
	native.Native = true
	tests := []struct {
		name string
		o    Occurrence
		want leadClass
	}{
		{"a record of role cause with solutions", classified("oom", "f", at), classCause},
		{"a drafted record without solutions", draft, classFailure},
		{"an unclassified traceback", traceback("KeyError", "f", at), classFailure},
		{"an unclassified native error line", native, classFailure},
		{"a generic line", generic("ERROR request failed", "f", at), classGeneric},
		{"a fragment", fragment("f", at), classFragment},
		{"a consequence", cons("sigquit", "pod:a", "", at), classConsequence},
		{"a shell's Killed", killed(at, true), classConsequence},
		{"a wrapper alone", wrapperAlone("scheduler-hit-an-exception", "pod:a", "TP0", at), classWrapper},
	}
	for _, tt := range tests {
		g := New(foldOpts)
		g.Observe(tt.o, t0)
		if len(g.groups) != 1 {
			t.Fatalf("%s: %d groups", tt.name, len(g.groups))
		}
		for _, gr := range g.groups {
			if got := classOf(gr); got != tt.want {
				t.Errorf("%s: class %v, want %v", tt.name, got, tt.want)
			}
		}
	}
	for c := classCause; c < classWrapper; c++ {
		if !(c < c+1) || c.String() == (c+1).String() {
			t.Errorf("classes %v and %v are not ordered", c, c+1)
		}
	}
}

// TestEveryOrderOfABurstIsLedByItsCause reads the signals of one crash,
// a classified cause among a generic line, a fragment, a wrapper alone
// and two consequences, in every order they can be printed, each 10 ms
// after the one before, and expects one incident led by the cause with
// the consequences inside it.
func TestEveryOrderOfABurstIsLedByItsCause(t *testing.T) {
	ms := time.Millisecond
	signals := []func(time.Time) Occurrence{
		func(at time.Time) Occurrence { return classified("illegal-address", "f", at) },
		func(at time.Time) Occurrence { return generic("ERROR request failed", "f", at) },
		func(at time.Time) Occurrence { return fragment("f", at) },
		func(at time.Time) Occurrence {
			o := wrapperAlone("scheduler-hit-an-exception", "pod:a", "TP0", at)
			o.SourceKey = "f"
			return o
		},
		func(at time.Time) Occurrence { o := cons("sigquit", "pod:a", "", at); o.SourceKey = "f"; return o },
		func(at time.Time) Occurrence { o := killed(at, true); o.SourceKey = "f"; return o },
	}
	n := 0
	permute(len(signals), func(order []int) {
		n++
		g := New(Options{Window: Forever, Settle: 2 * time.Second, Correlation: 15 * time.Minute})
		for i, k := range order {
			at := t0.Add(time.Duration(i) * 10 * ms)
			o := signals[k](at)
			o.Offset, o.EndOffset = int64(100*i), int64(100*i+80)
			g.Observe(o, at)
		}
		got := g.Flush(t0.Add(time.Minute))
		if len(got) != 1 || got[0].Record.ID != "illegal-address" {
			var leads []string
			for _, a := range got {
				leads = append(leads, fmt.Sprintf("%q (%s)", a.Record.ID, a.Record.Role))
			}
			t.Errorf("order %v: want one incident led by illegal-address, got %v", order, leads)
			return
		}
		if c := len(got[0].Consequences); c < 2 {
			t.Errorf("order %v: %d consequences listed, want the sigquit and Killed at least: %+v / %+v", order, c, got[0].Consequences, got[0].Context)
		}
	})
	if n != 720 {
		t.Fatalf("%d orders, want 720", n)
	}
}

// permute calls f with every permutation of 0..n-1.
func permute(n int, f func([]int)) {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			f(p)
			return
		}
		for i := k; i < n; i++ {
			p[k], p[i] = p[i], p[k]
			rec(k + 1)
			p[k], p[i] = p[i], p[k]
		}
	}
	rec(0)
}

// TestAGuessedYearTakesTheScopesYear: a glog line read before any line of
// its scope said the year was dated in the reader's year; the first full
// timestamp of the scope puts it in the log's own, before it and after it,
// so that it is still one burst with the lines around it.
func TestAGuessedYearTakesTheScopesYear(t *testing.T) {
	real := time.Date(2025, 4, 21, 2, 5, 39, 0, time.UTC)
	guess := func(o Occurrence) Occurrence {
		o.Guessed = true
		o.Native = true
		return o
	}
	for _, tt := range []struct {
		name  string
		first bool // the guessed line comes first
	}{{"guessed line first", true}, {"guessed line after the dated one", false}} {
		g := New(Options{Window: Forever, Settle: 2 * time.Second, Correlation: 15 * time.Minute})
		gloo := guess(classified("gloo-connect-full-mesh-failed", "f", time.Date(2026, 4, 21, 2, 5, 38, 0, time.UTC)))
		w := wrapperAlone("scheduler-hit-an-exception", "pod:a", "TP4", real)
		w.SourceKey = "f"
		if tt.first {
			g.Observe(gloo, t0)
			g.Observe(w, t0)
		} else {
			g.Observe(w, t0)
			g.Observe(gloo, t0)
		}
		got := g.Flush(t0.Add(time.Minute))
		if len(got) != 1 || got[0].Record.ID != "gloo-connect-full-mesh-failed" {
			t.Fatalf("%s: %d incidents, want one led by the gloo line: %+v", tt.name, len(got), fulls(got))
		}
		if want := time.Date(2025, 4, 21, 2, 5, 38, 0, time.UTC); !got[0].Time.Equal(want) {
			t.Errorf("%s: incident time %v, want %v", tt.name, got[0].Time, want)
		}
	}
}

func TestInYearOf(t *testing.T) {
	d := func(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 1, 2, 3, 4, time.UTC) }
	for _, tt := range []struct{ t, ref, want time.Time }{
		{d(2026, 4, 21), d(2025, 4, 21), d(2025, 4, 21)},
		{d(2026, 12, 31), d(2025, 1, 1), d(2024, 12, 31)},
		{d(2026, 1, 1), d(2025, 12, 31), d(2026, 1, 1)},
		{d(2020, 6, 1), d(2025, 6, 2), d(2025, 6, 1)},
	} {
		if got := inYearOf(tt.t, tt.ref); !got.Equal(tt.want) {
			t.Errorf("inYearOf(%v, %v) = %v, want %v", tt.t, tt.ref, got, tt.want)
		}
	}
}
