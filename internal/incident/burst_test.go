package incident

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/sinks"
)

// fragment is a traceback cut before its exception line: unclassified,
// no exception type.
func fragment(src string, at time.Time) Occurrence {
	o := traceback("fragment", src, at)
	o.Fragment = true
	o.Alert.Headline = "Traceback (most recent call last):"
	o.Alert.Match.Exception = &sinks.Exception{Stacktrace: "Traceback (most recent call last):\n  File \"x.py\", line 1, in f\n"}
	return o
}

// headerOnly is the fragment o printing no frame: a traceback's first
// line alone.
func headerOnly(o Occurrence) Occurrence {
	o.Frameless = true
	o.Alert.Match.Exception = &sinks.Exception{Stacktrace: "Traceback (most recent call last):"}
	return o
}

// nativeLine is a native library's error line from source src of pod:a;
// key "" makes it unclassified.
func nativeLine(key, src string, at time.Time) Occurrence {
	var o Occurrence
	if key == "" {
		o = traceback("native:"+src+at.String(), src, at)
		o.Alert.Match.Exception = nil
	} else {
		o = classified(key, src, at)
		o.Alert.Record.Slug = key
	}
	o.Native = true
	return o
}

// killed is the shell's report of a killed process: unclassified, a
// consequence.
func killed(at time.Time, timed bool) Occurrence {
	o := cons("unclassified:killed", "pod:a", "", at)
	o.Alert.Record = sinks.Record{Slug: UnclassifiedSlug, Severity: "critical", Role: "consequence"}
	o.Timed = timed
	return o
}

func TestOneCrashIsOneIncident(t *testing.T) {
	ms := time.Millisecond
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	untimed := func(o Occurrence, read time.Time) Occurrence {
		o.Timed = false
		o.Time, o.Alert.Time, o.Alert.LastTime = read, read, read
		return o
	}
	read := t0.Add(400 * 24 * time.Hour) // a scan long after the log was written
	tests := []struct {
		name string
		opts Options
		obs  []Occurrence // each observed at processing time t0 (scan) or its own time
		scan bool
		want []full
	}{
		{
			name: "a traceback read before the scope's first timestamp is dated by it, and the sigquit after it folds",
			opts: Options{Window: Forever, Settle: 2 * time.Second, Correlation: 15 * time.Minute},
			scan: true,
			obs: []Occurrence{
				untimed(cause("illegal-address", "pod:a", "", at(0)), read),
				cons("sigquit", "pod:a", "", at(0)),
			},
			want: []full{{KindNew, "illegal-address", 1, "", []folded{{"sigquit", 1, nil}}}},
		},
		{
			name: "a fragment (a traceback cut before its exception line) is context of the cause of its burst",
			opts: foldOpts,
			obs:  []Occurrence{classified("device-assert", "f", at(0)), fragment("f", at(5*ms))},
			want: []full{{KindNew, "device-assert", 1, "", nil}},
		},
		{
			name: "a wrapper alone and a fragment are one incident, led by the fragment's frames",
			opts: foldOpts,
			obs:  []Occurrence{wrapperAlone("scheduler-hit-an-exception", "pod:a", "TP1", at(0)), fragment("f", at(5*ms))},
			want: []full{{KindNew, "", 1, "", nil}},
		},
		{
			name: "a wrapper alone and a traceback's first line alone, its frames cut: the wrapper names the process and leads",
			opts: foldOpts,
			obs:  []Occurrence{wrapperAlone("asgi-exception", "pod:a", "", at(0)), headerOnly(fragment("f", at(5*ms)))},
			want: []full{{KindNew, "asgi-exception", 1, "", nil}},
		},
		{
			name: "and in the other order",
			opts: foldOpts,
			obs:  []Occurrence{headerOnly(fragment("f", at(0))), wrapperAlone("asgi-exception", "pod:a", "", at(5*ms))},
			want: []full{{KindNew, "asgi-exception", 1, "", nil}},
		},
		{
			name: "a traceback's first line alone is no cause of its own: beside a failure it is its context",
			opts: foldOpts,
			obs:  []Occurrence{classified("device-assert", "f", at(0)), headerOnly(fragment("f", at(5*ms)))},
			want: []full{{KindNew, "device-assert", 1, "", nil}},
		},
		{
			name: "a wrapper alone is context of a failure graded a warning read with it: the process died of it",
			opts: foldOpts,
			obs: func() []Occurrence {
				leak := classified("memory-leak", "f", at(0))
				leak.Alert.Record.Severity = "warning"
				return []Occurrence{leak, wrapperAlone("scheduler-hit-an-exception", "pod:a", "TP3", at(ms))}
			}(),
			want: []full{{KindNew, "memory-leak", 1, "", nil}},
		},
		{
			name: "the shell's Killed is a consequence of the cause before it",
			opts: foldOpts,
			obs:  []Occurrence{classified("oom", "f", at(0)), killed(at(time.Second), true)},
			want: []full{{KindNew, "oom", 1, "", []folded{{UnclassifiedSlug, 1, nil}}}},
		},
		{
			name: "the consequences of one burst with no cause in sight are one incident, led by the informed one",
			opts: foldOpts,
			obs: func() []Occurrence {
				a := cons("stack-trace-not-found", "pod:a", "rank3", at(0))
				b := cons("watchdog-timeout", "pod:a", "rank3", at(ms))
				b.Alert.Record.Solutions = []string{"find the rank that did not reach the collective"}
				return []Occurrence{a, b}
			}(),
			want: []full{{KindNew, "watchdog-timeout", 1, "rank3", []folded{{"stack-trace-not-found", 1, []string{"rank3"}}}}},
		},
		{
			name: "c10d's watchdog lines are one incident: its unclassified E line never leads over the watchdog's",
			opts: foldOpts,
			obs: func() []Occurrence {
				timeout := cons("watchdog-timeout", "pod:a", "rank3", at(0))
				timeout.Native = true
				timeout.Alert.Record.Solutions = []string{"find the rank that did not reach the collective"}
				detected := cons("failure-detected", "pod:a", "rank3", at(ms))
				detected.Native = true
				notFound := nativeLine("", "pod:a", at(2*ms))
				return []Occurrence{timeout, detected, notFound}
			}(),
			want: []full{{KindNew, "watchdog-timeout", 1, "rank3", []folded{{UnclassifiedSlug, 1, nil}, {"failure-detected", 1, []string{"rank3"}}}}},
		},
		{
			name: "a transfer engine's glog burst is one incident: an unclassified E line folds into the named one",
			opts: foldOpts,
			obs: []Occurrence{
				nativeLine("metadata-unreachable", "f", at(0)),
				nativeLine("", "f", at(ms)),
			},
			want: []full{{KindNew, "metadata-unreachable", 1, "", []folded{{UnclassifiedSlug, 1, nil}}}},
		},
		{
			name: "an unclassified native line read before the named cause of its burst yields the lead to it",
			opts: foldOpts,
			obs: []Occurrence{
				nativeLine("", "f", at(0)),
				classified("npu-function-error", "f", at(ms)),
			},
			want: []full{{KindNew, "npu-function-error", 1, "", []folded{{UnclassifiedSlug, 1, nil}}}},
		},
		{
			name: "a native line a record without solutions names yields the lead to the informed cause after it",
			opts: foldOpts,
			obs: func() []Occurrence {
				drafted := nativeLine("transfer-failed", "f", at(0))
				drafted.Alert.Record.Solutions = nil
				return []Occurrence{drafted, nativeLine("tcp-connect-refused", "f", at(ms))}
			}(),
			want: []full{{KindNew, "tcp-connect-refused", 1, "", []folded{{"transfer-failed", 1, nil}}}},
		},
		{
			name: "a native line a record without solutions names stays its own incident with no informed cause in its burst",
			opts: foldOpts,
			obs: func() []Occurrence {
				drafted := nativeLine("transfer-failed", "f", at(0))
				drafted.Alert.Record.Solutions = nil
				return []Occurrence{drafted, nativeLine("tcp-connect-refused", "g", at(ms))}
			}(),
			want: []full{{KindNew, "transfer-failed", 1, "", nil}, {KindNew, "tcp-connect-refused", 1, "", nil}},
		},
		{
			name: "two named causes of one burst, one a native line, are one incident led by the earlier",
			opts: foldOpts,
			obs: []Occurrence{
				nativeLine("ucx-error", "f", at(0)),
				nativeLine("segfault", "f", at(2*ms)),
			},
			want: []full{{KindNew, "ucx-error", 1, "", []folded{{"segfault", 1, nil}}}},
		},
		{
			name: "native lines of different sources are different processes: two incidents",
			opts: foldOpts,
			obs: []Occurrence{
				nativeLine("ucx-error", "f", at(0)),
				nativeLine("segfault", "g", at(2*ms)),
			},
			want: []full{{KindNew, "ucx-error", 1, "", nil}, {KindNew, "segfault", 1, "", nil}},
		},
		{
			name: "native lines separated by more than the settle time are two failures",
			opts: foldOpts,
			obs: []Occurrence{
				nativeLine("ucx-error", "f", at(0)),
				nativeLine("", "f", at(5*time.Second)),
			},
			want: []full{{KindNew, "ucx-error", 1, "", nil}, {KindNew, "", 1, "", nil}},
		},
		{
			name: "an HTTP error line never leads over the unclassified native error of its burst",
			opts: foldOpts,
			obs: []Occurrence{
				nativeLine("", "f", at(0)),
				generic("Decode server returned error status 500", "f", at(ms)),
			},
			want: []full{{KindNew, "", 1, "", []folded{{UnclassifiedSlug, 1, nil}}}},
		},
		{
			name: "a generic line read before the traceback of its burst folds into it",
			opts: foldOpts,
			obs: []Occurrence{
				generic("request failed", "f", at(0)),
				traceback("KeyError", "f", at(ms)),
			},
			want: []full{{KindNew, "", 1, "", []folded{{UnclassifiedSlug, 1, nil}}}},
		},
		{
			name: "unclassified native lines of one event are one incident, led by the first",
			opts: foldOpts,
			obs: []Occurrence{
				nativeLine("", "f", at(0)),
				nativeLine("", "f", at(ms)),
			},
			want: []full{{KindNew, "", 1, "", []folded{{UnclassifiedSlug, 1, nil}}}},
		},
		{
			name: "a raised exception graded a warning, then the parent's sigquit: one incident",
			opts: foldOpts,
			obs: func() []Occurrence {
				leak := classified("memory-leak", "f", at(0))
				leak.Alert.Record.Severity = "warning"
				leak.Alert.Match.Exception = &sinks.Exception{Type: "ValueError", Message: "memory leak detected"}
				return []Occurrence{leak, cons("sigquit", "pod:a", "", at(time.Second))}
			}(),
			want: []full{{KindNew, "memory-leak", 1, "", []folded{{"sigquit", 1, nil}}}},
		},
		{
			name: "lines far apart in their source are two failures, even at one time (a header-less log)",
			opts: foldOpts,
			obs: func() []Occurrence {
				a := nativeLine("ucx-error", "f", at(0))
				b := nativeLine("", "f", at(0))
				b.Offset, b.EndOffset = 1<<20, 1<<20
				c := generic("request failed", "f", at(0))
				c.Offset, c.EndOffset = 2<<20, 2<<20
				return []Occurrence{a, b, c}
			}(),
			want: []full{{KindNew, "ucx-error", 1, "", nil}, {KindNew, "", 1, "", nil}, {KindNew, "", 1, "", nil}},
		},
		{
			name: "two distinct unknown exceptions in one window are two incidents",
			opts: foldOpts,
			obs: []Occurrence{
				traceback("KeyError", "f", at(0)),
				traceback("ValueError", "f", at(ms)),
			},
			want: []full{{KindNew, "", 1, "", nil}, {KindNew, "", 1, "", nil}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := New(tt.opts)
			for _, o := range tt.obs {
				now := o.Time
				if tt.scan || !o.Timed {
					now = t0
				}
				g.Observe(o, now)
			}
			got := g.Flush(t0.Add(time.Minute))
			if diff := cmp.Diff(tt.want, fulls(got)); diff != "" {
				t.Fatalf("alerts (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTheIncidentTakesItsExceptionFromTheBurst(t *testing.T) {
	g := New(foldOpts)
	// The record matched the logged line first; its traceback, the same
	// record again, came in the next entry.
	line := classified("transfer-engine-init-failed", "f", t0)
	line.Alert.Record.ErrorClass = "RuntimeError"
	tb := line
	tb.Alert.Match.Exception = &sinks.Exception{Type: "RuntimeError", Message: "Ascend Transfer Engine initialization failed."}
	g.Observe(line, t0)
	g.Observe(tb, t0.Add(time.Millisecond))
	// A fragment's or a wrapper's exception never replaces one of
	// another type than the record names.
	other := fragment("f", t0.Add(2*time.Millisecond))
	other.Alert.Match.Exception = &sinks.Exception{Type: "KeyError"}
	g.Observe(other, t0.Add(2*time.Millisecond))
	got := g.Flush(t0.Add(time.Minute))
	if len(got) != 1 {
		t.Fatalf("got %d alerts %+v, want one", len(got), fulls(got))
	}
	if x := got[0].Match.Exception; x == nil || x.Type != "RuntimeError" {
		t.Fatalf("exception %+v, want the traceback's RuntimeError", x)
	}
}

func TestAnUntimedIncidentTakesItsScopesLogTime(t *testing.T) {
	g := New(Options{Window: Forever, Settle: 2 * time.Second, Correlation: 15 * time.Minute})
	read := t0.Add(400 * 24 * time.Hour)
	g.Observe(cause("config", "pod:a", "", t0), read)
	tb := traceback("KeyError", "pod:a", read)
	tb.Timed = false
	g.Observe(tb, read)
	got := g.Flush(read)
	if len(got) != 2 {
		t.Fatalf("got %d alerts %+v, want two", len(got), fulls(got))
	}
	if a := got[1]; !a.Time.Equal(t0) || !a.LastTime.Equal(t0) {
		t.Fatalf("untimed incident at %v..%v, want its scope's log time %v, not the read time", a.Time, a.LastTime, t0)
	}
}
