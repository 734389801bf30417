package incident

import (
	"cmp"
	"fmt"
	"testing"
	"time"

	"github.com/logmatch/logmatch/sinks"
)

// placed is o at byte offset off of its source, one line long.
func placed(o Occurrence, off int64) Occurrence {
	o.Offset, o.EndOffset = off, off
	return o
}

// slugsOf is each alert's record id (or its headline when unclassified),
// then its consequences' slugs and context ids.
func slugsOf(as []sinks.Alert) []string {
	var out []string
	for _, a := range as {
		s := a.Record.ID
		if s == "" {
			s = a.Headline
		}
		for _, c := range a.Consequences {
			s += " +" + cmp.Or(c.Slug, c.ID)
		}
		for _, c := range a.Context {
			s += " ~" + c.ID
		}
		out = append(out, s)
	}
	return out
}

func scanned(obs ...Occurrence) []string {
	g := New(Options{Window: Forever, Settle: DefaultSettle, Correlation: DefaultCorrelation})
	for _, o := range obs {
		g.Observe(o, t0)
	}
	return slugsOf(g.Flush(t0))
}

func TestOneCrashSeveralExceptions(t *testing.T) {
	s := time.Second
	bare := func(key string, at time.Time) Occurrence {
		o := classified(key, "f", at)
		o.Bare = true
		return o
	}
	traced := func(key string, at time.Time) Occurrence {
		o := classified(key, "f", at)
		o.Traced = true
		return o
	}
	unknown := func(sig string, at time.Time) Occurrence {
		o := traceback(sig, "f", at)
		o.SourceKey, o.Traced = "f", true
		o.Alert.Fingerprint = Fingerprint(o.Key, "f")
		return o
	}
	c10d := func(key, severity string, at time.Time) Occurrence {
		o := classified(key, "f", at)
		o.Native, o.NativeKind, o.Alert.Record.Severity = true, "c10d", severity
		return o
	}
	for _, tc := range []struct {
		name string
		obs  []Occurrence
		want string
	}{
		{"an unknown exception after a classified cause is its consequence",
			[]Occurrence{placed(bare("cublas", t0), 0), placed(unknown("no output", t0), 100)},
			"[cublas +unclassified]"},
		{"an unknown exception before a classified cause stays its own",
			[]Occurrence{placed(unknown("no output", t0), 0), placed(bare("cublas", t0), 100)},
			"[no output cublas]"},
		{"an unknown exception after the burst stays its own",
			[]Occurrence{placed(bare("cublas", t0), 0), placed(unknown("no output", t0.Add(10*s)), 100)},
			"[cublas no output]"},
		{"two unknown exceptions stay two",
			[]Occurrence{placed(unknown("first", t0), 0), placed(unknown("second", t0), 100)},
			"[first second]"},
		{"a classified exception line alone, then a classified traceback: one chain led by the traceback",
			[]Occurrence{placed(bare("maxretry", t0), 0), placed(traced("offline", t0), 300)},
			"[offline ~maxretry]"},
		{"the same line far before the traceback stays its own",
			[]Occurrence{placed(bare("maxretry", t0), 0), placed(traced("offline", t0), 64<<10)},
			"[maxretry offline]"},
		{"a classified line that is no traceback leaves the line alone",
			[]Occurrence{placed(bare("gated", t0), 0), placed(classified("401", "f", t0), 300)},
			"[gated 401]"},
		{"one library's warning and error lines are one event led by the first",
			[]Occurrence{placed(c10d("should-dump", "warning", t0), 0), placed(c10d("recv-failed", "error", t0), 200)},
			"[should-dump +recv-failed]"},
		{"and in the other order",
			[]Occurrence{placed(c10d("recv-failed", "error", t0), 0), placed(c10d("should-dump", "warning", t0), 200)},
			"[recv-failed +should-dump]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fmt.Sprint(scanned(tc.obs...)); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestConsequencePrintedAwayFromItsCausesTime(t *testing.T) {
	s := time.Second
	cons := func(key string, at time.Time) Occurrence {
		o := cons(key, "pod:a", "", at)
		o.SourceKey = "f"
		o.Alert.Fingerprint = Fingerprint(key, "f")
		return o
	}
	for _, tc := range []struct {
		name string
		obs  []Occurrence
		want string
	}{
		{"a stall reported 23 s before the timeout that caused it, a few lines apart",
			[]Occurrence{placed(cons("health", t0), 0), placed(classified("bootstrap", "f", t0.Add(23*s)), 400)},
			"[bootstrap +health]"},
		{"the same with a restart's worth of lines between stays apart",
			[]Occurrence{placed(cons("health", t0), 0), placed(classified("bootstrap", "f", t0.Add(23*s)), 40<<10)},
			"[health bootstrap]"},
		{"a consequence dated hours before the cause printed just before it",
			[]Occurrence{placed(classified("watchdog", "f", t0), 0), placed(cons("pyspy", t0.Add(-13*time.Hour)), 200)},
			"[watchdog +pyspy]"},
		{"a cause in its own time is preferred to one printed just before",
			[]Occurrence{placed(classified("early", "f", t0.Add(-13*time.Hour)), 0), placed(classified("watchdog", "f", t0), 100),
				placed(cons("pyspy", t0.Add(-13*time.Hour)), 200)},
			"[early +pyspy watchdog]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fmt.Sprint(scanned(tc.obs...)); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// An undated traceback is dated by the first dated line of its scope only
// when that line comes just after it: with a stretch of serving between,
// it happened before that stretch, and the failure after it is another.
func TestAnUntimedIncidentIsDatedOnlyByTheLineJustAfter(t *testing.T) {
	read := t0.Add(400 * 24 * time.Hour)
	for _, tc := range []struct {
		name string
		off  int64
		want int
	}{
		{"just after", 300, 1},
		{"after a stretch of serving", 7 << 10, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := New(Options{Window: Forever, Settle: 2 * time.Second, Correlation: 15 * time.Minute})
			tb := placed(classified("oom", "f", read), 0)
			tb.Timed = false
			g.Observe(tb, read)
			native := placed(classified("nccl", "f", t0), tc.off)
			native.Native, native.NativeKind = true, "c10d" // joins the cause of its burst
			g.Observe(native, read)
			if got := g.Flush(read); len(got) != tc.want {
				t.Errorf("got %d incidents %v, want %d", len(got), slugsOf(got), tc.want)
			}
		})
	}
}

// A restart of its source closes an incident: announced if it had not
// been, and the same failure after the restart is an incident of its own,
// in a scan as in a run. Other sources' incidents stay open.
func TestRestartClosesTheSourcesIncidents(t *testing.T) {
	for _, opts := range []Options{
		{Window: Forever, Settle: DefaultSettle, Correlation: DefaultCorrelation},
		{Window: time.Hour, Settle: DefaultSettle, Correlation: DefaultCorrelation},
	} {
		g := New(opts)
		g.Observe(placed(classified("oom", "f", t0), 0), t0)
		g.Observe(placed(classified("oom", "other", t0), 0), t0)
		closed := g.Restarted("f", t0.Add(time.Second))
		if len(closed) != 1 || closed[0].Record.ID != "oom" || closed[0].Kind != KindNew {
			t.Fatalf("window %v: restart closed %v, want the oom incident announced", opts.Window, slugsOf(closed))
		}
		if out := g.Observe(placed(classified("oom", "f", t0.Add(time.Minute)), 5000), t0.Add(time.Minute)); len(out) != 0 {
			t.Fatalf("window %v: observe after the restart: %d alerts", opts.Window, len(out))
		}
		if st := g.Stats(); st.Open != 2 {
			t.Errorf("window %v: %d open incidents, want the new one and the other source's", opts.Window, st.Open)
		}
		got := g.Flush(t0.Add(time.Hour))
		if len(got) != 2 || got[0].Kind != KindNew || got[1].Kind != KindNew {
			t.Errorf("window %v: flushed %v, want two new incidents", opts.Window, fulls(got))
		}
	}
}
