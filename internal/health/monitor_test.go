package health

import (
	"log/slog"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

func TestContainerLogAndStartupLine(t *testing.T) {
	for path, want := range map[string]string{
		"/var/log/pods/llm_sglang-0_u1/sglang/0.log":                 "u1/0",
		"/var/log/pods/llm_sglang-0_u1/sglang/12.log":                "u1/12",
		"/var/log/pods/llm_sglang-0_u1/sglang/0.log.20260528-001100": "",
		"/var/log/pods/llm_sglang-0_u1/sglang/0.log.1.gz":            "",
		"/var/log/pods/llm_sglang-0_u1/sglang/x.log":                 "",
	} {
		got, ok := containerLog(&Log{Path: path, Namespace: "llm", Pod: "sglang-0", UID: "u1", Container: "sglang"})
		if got != want || ok != (want != "") {
			t.Errorf("containerLog(%s) = %q %v, want %q", path, got, ok, want)
		}
	}
	if _, ok := containerLog(&Log{Path: "/var/log/sglang/0.log"}); ok {
		t.Error("a file outside a kubelet pod directory is a container log")
	}
	for msg, want := range map[string]bool{
		"Started server process [1234]":                                                     true,
		"The server is fired up and ready to roll!":                                         true,
		"server_args=ServerArgs(model_path='Qwen/Qwen3-8B', tp_size=2)":                     true,
		"Load weight end. type=Qwen3ForCausalLM":                                            false,
		"Waiting for application startup.":                                                  false,
		"Scheduler hit an exception: Started server process":                                false,
		"Receive: obj=GenerateReqInput(text='The server is fired up and ready to roll!')":   false,
		"Finish: obj=GenerateReqInput(rid='a'), out={'text': 'Started server process [1]'}": false,
	} {
		if _, got := startupLine(&entry.Entry{Message: msg}); got != want {
			t.Errorf("startupLine(%q) = %v, want %v", msg, got, want)
		}
	}
	if _, ok := startupLine(&entry.Entry{Message: "Started server process", Traceback: &entry.Traceback{}}); ok {
		t.Error("a traceback quoting a startup line is a startup line")
	}
}

func TestFatalHitReadsCauseThenContext(t *testing.T) {
	fatal := &patterns.Record{ID: "f", Fatal: true}
	plain := &patterns.Record{ID: "p"}
	wrapper := &patterns.Record{ID: "w", Role: patterns.RoleWrapper, Fatal: true}
	tests := []struct {
		name string
		d    analysis.Diagnosis
		want string
	}{
		{"fatal cause", analysis.Diagnosis{Cause: &matcher.Hit{Record: fatal}}, "f"},
		{"plain cause in a fatal wrapper", analysis.Diagnosis{Cause: &matcher.Hit{Record: plain}, Context: []matcher.Hit{{Record: wrapper}}}, "w"},
		{"unclassified in a fatal wrapper", analysis.Diagnosis{Context: []matcher.Hit{{Record: wrapper}}}, "w"},
		{"plain cause", analysis.Diagnosis{Cause: &matcher.Hit{Record: plain}}, ""},
		{"unclassified", analysis.Diagnosis{}, ""},
	}
	for _, tt := range tests {
		got := ""
		if h := fatalHit(&tt.d); h != nil {
			got = h.Record.ID
		}
		if got != tt.want {
			t.Errorf("%s: fatal hit %q, want %q", tt.name, got, tt.want)
		}
	}
}

// BenchmarkMonitorEntry is what the gate adds to every entry of a kubelet
// log: the target lookup, the container-log and startup-line checks.
func BenchmarkMonitorEntry(b *testing.B) {
	m := NewMonitor(MonitorOptions{Logger: slog.New(slog.DiscardHandler)})
	l := &Log{Path: "/var/log/pods/llm_sglang-0_u1/sglang/0.log", Namespace: "llm", Pod: "sglang-0", UID: "u1", Container: "sglang"}
	e := &entry.Entry{Message: "Decode batch, #running-req: 12, #token: 4096, token usage: 0.31, cuda graph: True, gen throughput (token/s): 1234.5, #queue-req: 0"}
	now := time.Date(2026, 5, 28, 10, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		m.Entry(l, e, now)
	}
}

// TestMonitorAnnouncesEveryTrip follows one server through a real grouper:
// a trip is announced on its incident's first alert, on the first alert of
// an incident still settling (once it settles), and, when the incident is
// a repeat that sends nothing, on an alert of its own; a restart clears
// the gate in between.
func TestMonitorAnnouncesEveryTrip(t *testing.T) {
	t0 := time.Date(2026, 5, 28, 10, 0, 0, 0, time.UTC)
	for _, settle := range []time.Duration{0, 2 * time.Second} {
		t.Run("settle "+settle.String(), func(t *testing.T) {
			g := incident.New(incident.Options{Window: time.Hour, Settle: settle})
			m := NewMonitor(MonitorOptions{Pending: g.Pending, Probed: true, Self: Target{Self: true, Pod: "sglang-0"}})
			l := &Log{Path: "/var/log/sglang/server.log"}
			fatal := &analysis.Diagnosis{Cause: &matcher.Hit{Record: &patterns.Record{ID: "cuda", Slug: "cuda-illegal-memory-access", Fatal: true}, Line: "CUDA error: an illegal memory access was encountered"}}
			now := t0
			crash := func() []sinks.Alert {
				o := incident.Occurrence{Key: "cuda", SourceKey: "file:server.log", Time: now, Timed: true, Scope: "node:", Alert: sinks.Alert{
					Fingerprint: "fp-cuda", Count: 1, Time: now, LastTime: now, Record: sinks.Record{ID: "cuda", Severity: "critical", Role: "cause"},
				}}
				e := &entry.Entry{Message: "CUDA error: an illegal memory access was encountered", Time: now}
				as := m.Observe(l, e, fatal, &o, g.Observe(o, now), now)
				now = now.Add(time.Minute)
				return append(as, m.Attach(g.Tick(now))...)
			}
			restart := func() {
				m.Observe(l, &entry.Entry{Message: "The server is fired up and ready to roll!", Time: now}, &analysis.Diagnosis{}, nil, nil, now)
				now = now.Add(time.Minute)
			}
			type announced struct{ Kind, State string }
			var got []announced
			for _, step := range []func() []sinks.Alert{crash, func() []sinks.Alert { restart(); return crash() }} {
				for _, a := range step() {
					if a.Liveness != nil {
						got = append(got, announced{a.Kind, a.Liveness.State})
					}
				}
			}
			want := []announced{{incident.KindNew, "failing"}, {KindLiveness, "failing"}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("trips announced (-want +got):\n%s", diff)
			}
			if st := m.Status(now); len(st) != 1 || st[0].State != Failing || st[0].Recent != 1 {
				t.Errorf("gate = %+v, want the server failing after one gated restart", st)
			}
		})
	}
}
