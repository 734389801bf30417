package pipeline

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/sinks"
)

// A pause of the processor is no pause of the log. Run settles an incident
// (announces it, folds it, drops a routine line alone) once its settle time
// has passed on the wall clock; when the machine is loaded, the tick that
// does so can come after the lines of a burst were read but before the
// last of them was completed into an entry (it waits for the next line, or
// the end of the input). TestRunAndScanAgreeOnTheCorpora then failed now
// and then under -race. Here every excerpt is read as one batch at t0 and
// a tick comes at t0 plus an hour before the end of the input is handled:
// the processor must hold an incident while its source has an entry
// pending that began before the incident's deadline, and date the entries
// completed by the end of the input by their own lines, so run still finds
// what scan finds.
func TestRunSettlesByWhatItRead(t *testing.T) {
	state := t.TempDir()
	n := eachCorpusScan(t, func(file string, data []byte, want []string) {
		got := stalledRun(t, state, data)
		if !slices.Equal(got, want) {
			t.Errorf("%s: a stalled run and scan differ\nrun:\n  %s\nscan:\n  %s", filepath.Base(file), strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
	})
	t.Logf("%d excerpts compared", n)
}

// stalledRun gives data to a run's processor as standard input read in one
// batch at t0, ticks an hour later, then ends the input, and returns the
// diagnoses of the incidents announced, as runStdin does.
func stalledRun(t *testing.T, state string, data []byte) []string {
	t.Helper()
	cfg := scanLikeConfig(t, state)
	p, err := New(context.Background(), Options{Config: cfg, Logger: slog.New(slog.DiscardHandler),
		Stdin: bytes.NewReader(data), Stdout: io.Discard, Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	t0 := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	clock := t0
	p.proc.now = func() time.Time { return clock }

	p.proc.at = t0
	var off int64
	for _, text := range strings.SplitAfter(string(data), "\n") {
		if text == "" {
			continue
		}
		var l source.Line
		l.Text, l.Source, l.Offset, l.Time = strings.TrimSuffix(text, "\n"), "stdin", off, t0
		off += int64(len(text))
		l.End, l.Next = off, off
		p.proc.line(l)
	}
	p.proc.at = time.Time{}

	// The stall: the next tick comes long after the batch.
	clock = t0.Add(time.Hour)
	p.proc.idleFlush(clock)
	// The end of the input.
	p.proc.flushAll()
	p.proc.flushGroups()

	var as []sinks.Alert
	for _, a := range p.proc.pending {
		if a.Kind == incident.KindNew {
			as = append(as, a)
		}
	}
	return diagnoses(as)
}
