package incident

import (
	"fmt"
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

// generic is a generic error line: unclassified, its signal from its level.
func generic(sig, src string, at time.Time) Occurrence {
	o := occ("unclassified:"+sig, src, "", at)
	o.Scope = "pod:a"
	o.Generic = true
	o.Alert.Record = sinks.Record{Slug: UnclassifiedSlug, Severity: "error", Role: "cause"}
	o.Alert.Headline = sig
	return o
}

// traceback is an unclassified exception with frames: not generic.
func traceback(sig, src string, at time.Time) Occurrence {
	o := generic(sig, src, at)
	o.Generic = false
	return o
}

// classified is a cause record's occurrence from source src of pod:a.
func classified(key, src string, at time.Time) Occurrence {
	o := cause(key, "pod:a", "", at)
	o.SourceKey = src
	o.Alert.Fingerprint = Fingerprint(key, src)
	return o
}

func TestGenericLinesFoldIntoTheirCause(t *testing.T) {
	ptr := func(o Occurrence) *Occurrence { return &o }
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	ms := time.Millisecond
	s := time.Second
	gen := func(n int) folded { return folded{UnclassifiedSlug, n, nil} }
	unclassified := func(kind string, n int) full { return full{Kind: kind, Count: n} }
	warning := func(key, src string, t time.Time) *Occurrence {
		o := classified(key, src, t)
		o.Alert.Record.Severity = "warning"
		return &o
	}
	// refusal is a warning record of a request the server refused.
	refusal := func(key, src string, t time.Time) *Occurrence {
		o := warning(key, src, t)
		o.Alert.Record.Tags = []string{"http", "request"}
		return o
	}
	tests := []struct {
		name   string
		opts   Options
		events []event
	}{
		{
			name: "generic lines read before their cause: the cause leads, one page, the lines listed in it",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: ptr(generic("request failed", "router", at(0)))},
				{at: 0, obs: ptr(generic("server error 503", "router", at(0)))},
				{at: 1 * ms, obs: ptr(generic("request failed", "router", at(0)))},
				{at: 2 * ms, obs: ptr(classified("no-workers", "router", at(0)))},
				{at: 2 * s, tick: true},
				{at: 2*s + 2*ms, tick: true, want: []full{{KindNew, "no-workers", 1, "", []folded{gen(2), gen(1)}}}},
				{at: time.Hour, flush: true},
			},
		},
		{
			name: "a generic line read after its cause is folded as it is read",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: ptr(classified("no-workers", "router", at(0)))},
				{at: 500 * ms, obs: ptr(generic("request failed", "router", at(500*ms)))},
				{at: 2 * s, tick: true, want: []full{{KindNew, "no-workers", 1, "", []folded{gen(1)}}}},
				// After the announcement, another one of the burst goes
				// into the cause's summary, not a page of its own.
				{at: 2100 * ms, obs: ptr(generic("request failed", "router", at(1900*ms)))},
				{at: 4100 * ms, tick: true},
				{at: 5*time.Minute + 2*s, tick: true, want: []full{{KindSummary, "no-workers", 1, "", []folded{gen(2)}}}},
				{at: time.Hour, flush: true},
			},
		},
		{
			name: "a generic incident already announced stays announced: no second page, no lost alert",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: ptr(generic("request failed", "router", at(0)))},
				{at: 2 * s, tick: true, want: []full{unclassified(KindNew, 1)}},
				// The cause of its burst is read late (another stream).
				{at: 2500 * ms, obs: ptr(classified("no-workers", "router", at(1*s)))},
				{at: 2600 * ms, obs: ptr(generic("request failed", "router", at(1*s)))},
				{at: 4500 * ms, tick: true, want: []full{{KindNew, "no-workers", 1, "", nil}}},
				{at: 5*time.Minute + 2*s, tick: true, want: []full{unclassified(KindSummary, 2)}},
				{at: time.Hour, flush: true},
			},
		},
		{
			name: "a generic line outside the settle time of the cause is not of its burst",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: ptr(generic("request failed", "router", at(0)))},
				{at: 1 * s, obs: ptr(classified("no-workers", "router", at(2100*ms)))},
				{at: 2 * s, tick: true, want: []full{unclassified(KindNew, 1)}},
				{at: 3 * s, tick: true, want: []full{{KindNew, "no-workers", 1, "", nil}}},
				{at: time.Hour, flush: true},
			},
		},
		{
			name: "a generic line of another source in the pod is not of the burst",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: ptr(generic("request failed", "client", at(0)))},
				{at: 1 * ms, obs: ptr(classified("no-workers", "router", at(0)))},
				{at: 2 * s, tick: true, want: []full{unclassified(KindNew, 1)}},
				{at: 2*s + 1*ms, tick: true, want: []full{{KindNew, "no-workers", 1, "", nil}}},
				{at: time.Hour, flush: true},
			},
		},
		{
			name: "an unclassified traceback is the failure itself: it is not folded and leads",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: ptr(traceback("ValueError", "router", at(0)))},
				{at: 1 * ms, obs: ptr(classified("no-workers", "router", at(0)))},
				{at: 2 * s, tick: true, want: []full{unclassified(KindNew, 1)}},
				{at: 2*s + 1*ms, tick: true, want: []full{{KindNew, "no-workers", 1, "", nil}}},
				{at: time.Hour, flush: true},
			},
		},
		{
			name: "a warning record does not outrank a generic error line",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: ptr(generic("request failed", "router", at(0)))},
				{at: 1 * ms, obs: warning("slow-step", "router", at(0))},
				{at: 2 * s, tick: true, want: []full{unclassified(KindNew, 1)}},
				{at: 2*s + 1*ms, tick: true, want: []full{{KindNew, "slow-step", 1, "", nil}}},
				{at: time.Hour, flush: true},
			},
		},
		{
			name: "a refused request takes the client's own words for it, read after it",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: refusal("prompt-too-long", "client", at(0))},
				{at: 1 * ms, obs: ptr(generic("error occurs at http://10.0.0.7:30000/v1", "client", at(time.Second)))},
				{at: 2*s + 1*ms, tick: true, want: []full{{KindNew, "prompt-too-long", 1, "", []folded{gen(1)}}}},
				{at: time.Hour, flush: true},
			},
		},
		{
			name: "a refused request takes the client's own words for it, read before it",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: ptr(generic("request failed", "client", at(0)))},
				{at: 1 * ms, obs: refusal("prompt-too-long", "client", at(0))},
				{at: 2*s + 1*ms, tick: true, want: []full{{KindNew, "prompt-too-long", 1, "", []folded{gen(1)}}}},
				{at: time.Hour, flush: true},
			},
		},
		{
			name: "another source's generic line is not the refusal's",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: refusal("prompt-too-long", "client", at(0))},
				{at: 1 * ms, obs: ptr(generic("request failed", "router", at(0)))},
				{at: 2 * s, tick: true, want: []full{{KindNew, "prompt-too-long", 1, "", nil}}},
				{at: 2*s + 1*ms, tick: true, want: []full{unclassified(KindNew, 1)}},
				{at: time.Hour, flush: true},
			},
		},
		{
			name: "an unclassified failure of the burst takes the generic line before a refusal does",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: refusal("prompt-too-long", "client", at(0))},
				{at: 0, obs: ptr(traceback("ValueError: bad", "client", at(0)))},
				{at: 1 * ms, obs: ptr(generic("request failed", "client", at(0)))},
				{at: 2 * s, tick: true, want: []full{{KindNew, "prompt-too-long", 1, "", nil}, {Kind: KindNew, Count: 1, Cons: []folded{gen(1)}}}},
				{at: time.Hour, flush: true},
			},
		},
		{
			name: "a generic line settling when a repeat of the cause comes into its burst folds at its settle time",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: ptr(classified("no-workers", "router", at(0)))},
				{at: 2 * s, tick: true, want: []full{{KindNew, "no-workers", 1, "", nil}}},
				{at: 30 * s, obs: ptr(generic("request failed", "router", at(30*s)))},
				{at: 30500 * ms, obs: ptr(classified("no-workers", "router", at(30500*ms)))},
				{at: 32 * s, tick: true},
				// Between repeats of the cause and far from them, a
				// generic line is a failure of its own.
				{at: 60 * s, obs: ptr(generic("request failed", "router", at(60*s)))},
				{at: 62 * s, tick: true, want: []full{unclassified(KindNew, 1)}},
				{at: 5*time.Minute + 2*s, tick: true, want: []full{{KindSummary, "no-workers", 2, "", []folded{gen(1)}}}},
				{at: time.Hour, flush: true},
			},
		},
		{
			name: "a consequence of a burst with a generic line and a cause folds into the cause",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: ptr(generic("request failed", "router", at(0)))},
				{at: 10 * ms, obs: ptr(cons("sigquit", "pod:a", "", at(10*ms)))},
				{at: 20 * ms, obs: ptr(classified("no-workers", "router", at(20*ms)))},
				{at: 2020 * ms, tick: true, want: []full{{KindNew, "no-workers", 1, "", []folded{gen(1), {"sigquit", 1, nil}}}}},
				{at: time.Hour, flush: true},
			},
		},
		{
			name: "what a generic incident took moves with it to the cause",
			opts: foldOpts,
			events: []event{
				{at: 0, obs: ptr(cons("sigquit", "pod:a", "", at(-10*ms)))},
				// The generic line adopts the consequence read before it.
				{at: 10 * ms, obs: ptr(generic("request failed", "router", at(0)))},
				{at: 20 * ms, obs: ptr(classified("no-workers", "router", at(500*ms)))},
				{at: 2020 * ms, tick: true, want: []full{{KindNew, "no-workers", 1, "", []folded{gen(1), {"sigquit", 1, nil}}}}},
				{at: time.Hour, flush: true},
			},
		},
		{
			name: "without a settle time the rule is off",
			opts: Options{Window: time.Minute, Correlation: time.Minute},
			events: []event{
				{at: 0, obs: ptr(generic("request failed", "router", at(0))), want: []full{unclassified(KindNew, 1)}},
				{at: 1 * ms, obs: ptr(classified("no-workers", "router", at(0))), want: []full{{KindNew, "no-workers", 1, "", nil}}},
				{at: time.Hour, flush: true},
			},
		},
		{
			name: "the one-shot scan mode folds at the end",
			opts: Options{Window: Forever, Settle: DefaultSettle, Correlation: DefaultCorrelation},
			events: []event{
				{at: 0, obs: ptr(generic("request failed", "router", at(0)))},
				{at: 0, obs: ptr(generic("server error 503", "router", at(0)))},
				{at: 0, obs: ptr(classified("no-workers", "router", at(0)))},
				{at: 0, obs: ptr(generic("request failed", "router", at(1*s)))},
				{at: 0, obs: ptr(generic("request failed", "router", at(10*s)))},
				{at: 0, flush: true, want: []full{
					{KindNew, "no-workers", 1, "", []folded{gen(2), gen(1)}},
					unclassified(KindNew, 1),
				}},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runEvents(t, New(tc.opts), tc.events)
		})
	}
}

// The incident of a folded generic line is found in its cause's first
// alert, the way the pipeline's liveness gate looks for it.
func TestGenericPendingInCause(t *testing.T) {
	g := New(foldOpts)
	gl := generic("request failed", "router", t0)
	g.Observe(gl, t0)
	g.Observe(classified("no-workers", "router", t0), t0)
	if !g.Pending(gl.Alert.Fingerprint) {
		t.Fatal("the folded generic line is not pending in its cause")
	}
	out := g.Tick(t0.Add(foldOpts.Settle))
	if len(out) != 1 || !Holds(&out[0], gl.Alert.Fingerprint) {
		t.Fatalf("the first alert does not hold the generic line: %+v", fulls(out))
	}
	if st := g.Stats(); st.Folded != 1 {
		t.Errorf("Folded = %d, want 1", st.Folded)
	}
}

// A generic incident restored from a checkpoint is still generic: the
// cause read after the restart claims it.
func TestGenericSurvivesRestore(t *testing.T) {
	g := New(foldOpts)
	g.Observe(generic("request failed", "router", t0), t0)
	snap, err := g.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	h := New(foldOpts)
	if err := h.Restore(snap); err != nil {
		t.Fatal(err)
	}
	h.Observe(classified("no-workers", "router", t0.Add(time.Millisecond)), t0.Add(time.Millisecond))
	got := fulls(h.Flush(t0.Add(time.Minute)))
	want := []full{{KindNew, "no-workers", 1, "", []folded{{UnclassifiedSlug, 1, nil}}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("alerts (-want +got):\n%s", diff)
	}
}

func TestIsGeneric(t *testing.T) {
	rec := &patterns.Record{ID: "x", Slug: "x"}
	frames := &entry.Traceback{Links: []entry.Exception{{Type: "ValueError", Frames: []entry.Frame{{File: "a.py", Line: 1}}}}}
	bare := &entry.Traceback{Bare: true, Links: []entry.Exception{{Type: "ValueError", Message: "bad"}}}
	tests := []struct {
		name string
		e    entry.Entry
		d    analysis.Diagnosis
		want bool
	}{
		{"an ERROR line no record names", entry.Entry{}, analysis.Diagnosis{Signal: analysis.SignalLevel}, true},
		{"an exception line printed alone", entry.Entry{Traceback: bare}, analysis.Diagnosis{Signal: analysis.SignalException}, true},
		{"a traceback with frames", entry.Entry{Traceback: frames}, analysis.Diagnosis{Signal: analysis.SignalException}, false},
		{"a native error", entry.Entry{}, analysis.Diagnosis{Signal: analysis.SignalNative}, false},
		{"a native error at error level", entry.Entry{}, analysis.Diagnosis{Signal: analysis.SignalNative, Severity: patterns.SeverityError}, false},
		{"a native crash", entry.Entry{}, analysis.Diagnosis{Signal: analysis.SignalNative, Severity: patterns.SeverityCritical}, false},
		{"a native warning no record names (NCCL WARN)", entry.Entry{}, analysis.Diagnosis{Signal: analysis.SignalNative, Severity: patterns.SeverityWarning}, true},
		{"a record names it", entry.Entry{}, analysis.Diagnosis{Signal: analysis.SignalRecord, Cause: &matcher.Hit{Record: rec}}, false},
		{"a wrapper frames it", entry.Entry{}, analysis.Diagnosis{Signal: analysis.SignalLevel, Context: []matcher.Hit{{Record: rec}}}, false},
		{"a hung thread's stack", entry.Entry{}, analysis.Diagnosis{Signal: analysis.SignalLevel, Stack: []string{"f"}}, false},
	}
	for _, tc := range tests {
		if got := isGeneric(&tc.e, &tc.d); got != tc.want {
			t.Errorf("%s: isGeneric = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The indexes of generic incidents and of causes by source hold the open
// incidents alone, in a storm that never lets Tick run (see
// TestScopeIndexBoundedWithoutTicks).
func TestGenericIndexesBoundedWithoutTicks(t *testing.T) {
	const bound = 50
	g := New(Options{Window: 5 * time.Minute, Settle: 2 * time.Second, Correlation: 15 * time.Minute, MaxGroups: bound})
	now := t0
	for i := range 20 * bound {
		now = now.Add(time.Minute) // no two of one burst
		if i%2 == 0 {
			g.Observe(classified(fmt.Sprintf("k%d", i), "router", now), now)
		} else {
			g.Observe(generic(fmt.Sprintf("line %d", i), "router", now), now)
		}
	}
	gens := len(g.genByScope["pod:a"])
	causes := len(g.causeBySource[sourceKey{"pod:a", "router"}])
	if gens == 0 || causes == 0 {
		t.Fatalf("indexes hold %d generic incidents and %d causes: the storm did not use them", gens, causes)
	}
	if gens+causes > bound {
		t.Errorf("indexes hold %d generic incidents and %d causes; at most %d are open", gens, causes, bound)
	}
}

// TestWriterOf: a generic line's writer is its header without digits, one
// logger's or one rank's lines alike whatever their times; no header, or
// one without a name, is no writer.
func TestWriterOf(t *testing.T) {
	writer := func(line string) string {
		a := entry.NewAssembler(entry.Options{})
		es := append(a.Push(entry.Line{Text: line}), a.Flush()...)
		if len(es) != 1 {
			t.Fatalf("%q: %d entries", line, len(es))
		}
		return writerOf(&es[0])
	}
	for _, tt := range []struct{ a, b string }{
		{"[2025-09-04 01:00:51,159] KVPool ERROR: fetch failed", "[2025-09-04 01:00:52,160] KVPool ERROR: 0 of 15 blocks fetched"},
		{"2025-06-01 12:00:01,120 - app.client - ERROR - one", "2025-06-01 12:00:09,999 - app.client - ERROR - two"},
	} {
		wa, wb := writer(tt.a), writer(tt.b)
		if wa == "" || wa != wb {
			t.Errorf("%q and %q: writers %q and %q, want one", tt.a, tt.b, wa, wb)
		}
	}
	for _, tt := range []struct{ a, b string }{
		{"2025-06-01 12:00:01,120 - app.watcher - ERROR - one", "2025-06-01 12:00:01,120 - app.loader - ERROR - two"},
		{"ERROR 09-04 01:00:51 [connector.py:360] one", "ERROR 09-04 01:00:51 [loader.py:88] two"},
	} {
		if wa, wb := writer(tt.a), writer(tt.b); wa == wb {
			t.Errorf("%q and %q: one writer %q, want two", tt.a, tt.b, wa)
		}
	}
	for _, line := range []string{"Error: request failed", "ERROR: request failed"} {
		if w := writer(line); w != "" {
			t.Errorf("%q: writer %q, want none", line, w)
		}
	}
}

// FuzzWriterOf: writerOf never panics, keeps no digit, and names a writer
// only when the line's header names one.
func FuzzWriterOf(f *testing.F) {
	for _, s := range []string{
		"[2025-09-04 01:00:51,159] KVPool ERROR: fetch failed",
		"2025-06-01 12:00:01,120 - app.client - ERROR - one",
		"ERROR 09-04 01:00:51 [connector.py:360] one", "ERROR: x", "", "[2026-05-28 00:11:09 TP0] Error: x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a := entry.NewAssembler(entry.Options{})
		es := append(a.Push(entry.Line{Text: s}), a.Flush()...)
		for i := range es {
			w := writerOf(&es[i])
			if strings.ContainsAny(w, "0123456789") {
				t.Fatalf("writerOf(%q) = %q keeps digits", s, w)
			}
			if w != "" && !namesWriter(w) {
				t.Fatalf("writerOf(%q) = %q names no one", s, w)
			}
		}
	})
}

// codedVague reads a line past its header up to an error code: a coded
// line that only says something failed is vague, one that says what failed
// is not, a line without a code is never read as coded. Any line: it
// never panics, and a line without a capital letter has no code.
func FuzzCodedVague(f *testing.F) {
	for _, s := range []string{
		"[ERROR] 2024-05-17-18:46:14 (PID:40093, Device:0, RankID:-1) ERR01005 OPS internal error",
		"[ERROR] 2026-01-21-06:59:30 (PID:555, Device:0, RankID:-1) ERR00100 PTA call acl api failed.",
		"EZ9999: 2024-05-17-18:46:14.721.067  Op Equal does not has any binary.",
		"ERR", "E1234", "", "request failed",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if codedVague(s) && strings.ToLower(s) == s {
			t.Fatalf("codedVague(%q) without a capital letter", s)
		}
	})
}

func TestCodedVague(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"[ERROR] 2024-05-17-18:46:14 (PID:40093, Device:0, RankID:-1) ERR01005 OPS internal error", true},
		{"[ERROR] 2026-01-21-06:59:30 (PID:555, Device:0, RankID:-1) ERR00100 PTA call acl api failed.", true},
		{"[ERROR] 2026-01-21-06:59:30 (PID:555, Device:0, RankID:-1) ERR00100 call aclnnCast failed, detail: EZ9999", false},
		{"ERROR: request failed", false},
		{"Error limit reached.", false},
	} {
		if got := codedVague(tc.line); got != tc.want {
			t.Errorf("codedVague(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}
