package pipeline

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/sinks"
)

// liveRun is a run's processor fed lines as a live server writes them:
// each line is read at t0 plus its distance in log time from the first
// line (an sglang header's time; a line without one is read with the line
// before it), and the processor ticks every second of the clock between.
// The clock is the test's: nothing sleeps. It returns the first alert of
// each incident with the clock time it was queued at.
type liveAlert struct {
	alert sinks.Alert
	at    time.Time
}

func liveRun(t *testing.T, args []string, text string) []liveAlert {
	t.Helper()
	state := t.TempDir()
	cfg, err := runConfig(append([]string{"--path", "-", "--state-dir", state, "--http-addr", ""}, args...),
		func(string) string { return "" }, os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(context.Background(), Options{Config: cfg, Logger: slog.New(slog.DiscardHandler),
		Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	t0 := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	clock := t0
	p.proc.now = func() time.Time { return clock }
	var out []liveAlert
	seen := 0
	collect := func() {
		for _, a := range p.proc.pending[seen:] {
			if a.Kind == incident.KindNew {
				out = append(out, liveAlert{a, clock})
			}
		}
		seen = len(p.proc.pending)
	}
	advance := func(to time.Time) {
		for clock.Add(time.Second).Before(to) || clock.Add(time.Second).Equal(to) {
			clock = clock.Add(time.Second)
			p.proc.idleFlush(clock)
			collect()
		}
		if clock.Before(to) {
			clock = to
		}
	}
	var first time.Time
	var off int64
	for _, text := range strings.SplitAfter(text, "\n") {
		if text == "" {
			continue
		}
		line := strings.TrimSuffix(text, "\n")
		if len(line) > 20 && line[0] == '[' {
			if lt, err := time.Parse("2006-01-02 15:04:05", line[1:20]); err == nil {
				if first.IsZero() {
					first = lt
				}
				advance(t0.Add(lt.Sub(first)))
			}
		}
		var l source.Line
		l.Text, l.Source, l.Offset, l.Time = line, "stdin", off, clock
		off += int64(len(text))
		l.End, l.Next = off, off
		p.proc.line(l)
		collect()
	}
	// The server keeps running: a minute of ticks, then the end.
	advance(clock.Add(time.Minute))
	p.proc.flushAll()
	p.proc.flushGroups()
	collect()
	return out
}

// Issue 32: a consequence printed before its cause is one page in run as
// in scan. A decode server's health check fails 23 seconds before the
// timeout error that stalled it is printed (excerpt 504): run waits for
// the cause of an incident made only of consequences (consequence_wait)
// before announcing it, so the cause leads and the health check is listed
// in it.
func TestRunWaitsForTheCauseOfAConsequence(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("../../testdata/corpus", "504-pd-bootstrap-connect-timeout-after-health-check.log"))
	if err != nil {
		t.Fatal(err)
	}
	got := liveRun(t, nil, string(data))
	if len(got) != 1 || got[0].alert.Record.Slug != "disagg-bootstrap-unreachable" {
		var heads []string
		for _, a := range got {
			heads = append(heads, a.alert.Record.Slug+" | "+a.alert.Headline)
		}
		t.Fatalf("run announced %d incidents:\n  %s\nwant one, led by the bootstrap timeout", len(got), strings.Join(heads, "\n  "))
	}
	if len(got[0].alert.Consequences) == 0 {
		t.Errorf("the health check is not listed in the cause's incident: %+v", got[0].alert)
	}

	// Bounded: a consequence whose cause never comes is announced once
	// the wait is over, not held for good; with the wait at 0, after the
	// settle time, as before.
	health := strings.SplitAfter(string(data), "\n")[1]
	for _, tt := range []struct {
		args []string
		want time.Duration
	}{
		{nil, incident.DefaultConsequenceWait},
		{[]string{"--consequence-wait", "0"}, incident.DefaultSettle},
	} {
		got := liveRun(t, tt.args, health)
		if len(got) != 1 {
			t.Fatalf("%v: %d incidents for a lone health check, want 1", tt.args, len(got))
		}
		t0 := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
		if d := got[0].at.Sub(t0); d < tt.want || d > tt.want+2*time.Second {
			t.Errorf("%v: announced at +%v, want at the first tick after +%v", tt.args, d, tt.want)
		}
	}

	// Whichever comes first: the server answering requests for more
	// than a few lines past the health check, with no cause among them,
	// ends the wait too (scan keeps a cause printed that far after it
	// apart).
	var b strings.Builder
	b.WriteString(health)
	for i := range 80 {
		fmt.Fprintf(&b, "[2025-08-29 11:56:31] INFO:     10.0.3.17:%d - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n", 51000+i)
	}
	got = liveRun(t, nil, b.String())
	if len(got) != 1 || got[0].alert.Record.Slug != "health-check-failed-detokenizer" {
		t.Fatalf("%d incidents for a health check and healthy lines, want the health check alone", len(got))
	}
	t0 := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	if d := got[0].at.Sub(t0); d >= incident.DefaultConsequenceWait {
		t.Errorf("announced at +%v: the wait did not end when its source was read past it", d)
	}
}

// The wait is for consequences only: a cause is announced at the first
// tick after its settle time, as before.
func TestCauseLatencyIsTheSettleTime(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("../../testdata/corpus", "504-pd-bootstrap-connect-timeout-after-health-check.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	cause := lines[len(lines)-1]
	if cause == "" {
		cause = lines[len(lines)-2]
	}
	got := liveRun(t, nil, cause)
	if len(got) != 1 || got[0].alert.Record.Slug != "disagg-bootstrap-unreachable" {
		t.Fatalf("got %d incidents, want the cause's", len(got))
	}
	t0 := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	if d := got[0].at.Sub(t0); d < incident.DefaultSettle || d > incident.DefaultSettle+time.Second {
		t.Errorf("the cause was announced at +%v, want at the first tick after the settle time (+%v)", d, incident.DefaultSettle)
	}
}
