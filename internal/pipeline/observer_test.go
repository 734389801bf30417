package pipeline

import (
	"testing"

	"github.com/logmatch/logmatch/internal/source"
)

// Every count the tailer reports other than lines and bytes is exported as
// logmatch_source_events_total by event, without a per-file label.
func TestObserverExportsTailerEvents(t *testing.T) {
	tel := newTelemetryFor(t)
	o := observer{m: tel.Metrics()}
	o.Add("/var/log/containers/a.log", source.CountSymlinksRefused, 1)
	o.Add("/var/log/containers/b.log", source.CountSymlinksRefused, 1)
	o.Add("/var/log/sglang/server.log", source.CountGenerationsLost, 2)
	o.Add("/var/log/sglang/server.log", source.CountFilesSkipped, 4)
	o.Add("/var/log/sglang/server.log", source.CountLines, 10)
	want := map[string]bool{
		`logmatch_source_events_total{event="symlinks_refused"} 2`: true,
		`logmatch_source_events_total{event="generations_lost"} 2`: true,
		`logmatch_source_events_total{event="files_skipped"} 4`:    true,
	}
	got := scrapeSeries(t, tel, "logmatch_source_events_total")
	for _, g := range got {
		if !want[g] {
			t.Errorf("unexpected series %q", g)
		}
		delete(want, g)
	}
	for w := range want {
		t.Errorf("missing %q in %v", w, got)
	}
}
