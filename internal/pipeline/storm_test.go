package pipeline

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/sinks"
)

// The bound lets a burst through, then folds; tokens come back with time.
func TestRateBound(t *testing.T) {
	t0 := time.Date(2026, 5, 28, 0, 0, 0, 0, time.UTC)
	b := &rateBound{perMinute: 60, burst: 2}
	got := []bool{b.allow(t0), b.allow(t0), b.allow(t0), b.allow(t0.Add(time.Second)), b.allow(t0.Add(time.Second))}
	want := []bool{true, true, false, true, false}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("allow sequence %v, want %v", got, want)
		}
	}
}

// Repeats of an incident sent recently pass without a token: the bound
// brakes distinct incidents.
func TestRateBoundExemptsRepeats(t *testing.T) {
	t0 := time.Date(2026, 5, 28, 0, 0, 0, 0, time.UTC)
	b := &rateBound{perMinute: 1, burst: 1}
	if !b.admit("a", t0) || !b.admit("a", t0) || !b.admit("a", t0.Add(time.Second)) {
		t.Fatal("repeats of a were folded")
	}
	if b.admit("b", t0.Add(time.Second)) {
		t.Fatal("a distinct incident passed with no token left")
	}
}

// A digest being gathered is saved with the grouping state and restored,
// so a restart neither loses nor repeats the overflow.
func TestDigestSurvivesRestart(t *testing.T) {
	t0 := time.Date(2026, 5, 28, 0, 0, 0, 0, time.UTC)
	mk := func() *processor {
		// A new sink each time, as a restart builds it: the digest
		// comes back from the snapshot, not from the sink value.
		s := &builtSink{name: "slack", newPerMinute: 1, newBurst: 1}
		return newProcessor(&processor{sinks: []*builtSink{s}, grouper: incident.New(incident.Options{Window: time.Minute}), now: func() time.Time { return t0 }, log: discardLogger()})
	}
	p := mk()
	for i := range 3 {
		p.queue([]sinks.Alert{{Kind: incident.KindNew, Fingerprint: string(rune('a' + i)), Record: sinks.Record{Slug: "x", Severity: "error"}}})
	}
	if n := len(p.routes[1]) + len(p.routes[2]); n != 0 || len(p.routes[0]) != 1 {
		t.Fatalf("routes %v: want the first alert sent, the others folded", p.routes)
	}
	blob, _, err := p.snapshot()
	if err != nil {
		t.Fatal(err)
	}
	q := mk()
	none := func(func(string, []byte) error) error { return nil }
	if err := q.restore(groupingVersion, blob, none); err != nil {
		t.Fatal(err)
	}
	q.flushDigests(t0.Add(2*digestInterval), false)
	if len(q.pending) != 1 || q.pending[0].Kind != KindDigest || q.pending[0].Count != 2 {
		t.Fatalf("after restart pending %+v, want one digest of 2", q.pending)
	}
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// Issue 31 item 5: a sink's route is one unit, built with the sink. A sink
// that a reload adds has its storm bound and its own queue bounds at once,
// not after a restart, and a sink kept under its name hands its digest to
// its successor.
func TestRouteIsBuiltWithTheSink(t *testing.T) {
	cfgs := []config.Sink{
		{Name: "stdout", Type: config.SinkStdout, Queue: config.Queue{MaxItems: 7, MaxAge: config.Duration(time.Hour)}},
	}
	built, err := buildSinks(context.Background(), cfgs, func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	b := built[0]
	if b.bound == nil || b.bound.perMinute != DefaultNewIncidentRate {
		t.Fatalf("a built sink's storm bound = %+v, want the default rate", b.bound)
	}
	if q := sinkQueues(built)["stdout"]; q.MaxItems != 7 || q.MaxAge != time.Hour {
		t.Errorf("queue bounds %+v, want the sink's own", q)
	}
	old := &builtSink{name: "stdout"}
	old.routeBound()
	old.bound.digest = &digest{Count: 3}
	b.adopt(old)
	if b.bound.digest == nil || b.bound.digest.Count != 3 || old.bound.digest != nil {
		t.Errorf("after adopt: new digest %+v, old %+v; want the digest moved", b.bound.digest, old.bound.digest)
	}
}

// A sink's min_severity is applied where alerts are routed: an alert goes
// to the sinks whose bound it meets, and only to them.
func TestRouteFiltersBySeverity(t *testing.T) {
	cfgs := []config.Sink{
		{Name: "all", Type: config.SinkStdout, MinSeverity: "info"},
		{Name: "loud", Type: config.SinkStdout, MinSeverity: "error"},
	}
	built, err := buildSinks(context.Background(), cfgs, func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	p := newProcessor(&processor{log: slog.New(slog.DiscardHandler), sinks: built, now: time.Now})
	severities := []string{"info", "warning", "error", "critical"}
	for i, sev := range severities {
		p.queue([]sinks.Alert{{Kind: incident.KindSummary, Fingerprint: sev, Count: i + 1, Record: sinks.Record{Severity: sev}}})
	}
	got := map[string][]string{}
	for i, route := range p.routes {
		for _, s := range route {
			got[s.name] = append(got[s.name], p.pending[i].Record.Severity)
		}
	}
	want := map[string][]string{"all": severities, "loud": {"error", "critical"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("alerts routed per sink (-want +got):\n%s", diff)
	}
}
