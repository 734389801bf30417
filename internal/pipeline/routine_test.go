package pipeline

import (
	"strings"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/internal/state"
)

// A native library's lone error-level line amid its own thread's INFO
// lines is dropped unannounced once it settles, and counted where an
// operator sees it: logmatch_incidents_dropped_total{reason="routine"}.
// The same line with the process's death after it is announced and not
// counted as dropped.
func TestRoutineIncidentDroppedIsCounted(t *testing.T) {
	info := "I0925 00:24:39.140945  4418 store_client.cpp:214] Connecting to the master at 10.0.0.1:50051"
	errLine := "E0925 00:24:39.141773  4418 store_client.cpp:353] Failed to get the storage directory from the master"
	after := "I0925 00:24:39.141781  4418 store_client.cpp:103] auto discovery set by env"
	for _, tt := range []struct {
		name          string
		lines         []string
		alerts, drops int
	}{
		{"alone", []string{info, errLine, after}, 0, 1},
		{"then the process dies", []string{info, errLine, "Killed"}, 1, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			store := openTestStore(t, state.Options{})
			p := newTestProcessor(t, store)
			p.grouper = incident.New(groupOptions(config.Default()))
			tel := meter(t, p)
			feedFrom(p, "/var/log/pods/llm_sglang-0_u/sglang/0.log", source.FileID{Dev: 1, Ino: 7, Size: 1024}, tt.lines, 0)
			p.flushAll()
			p.idleFlush(p.now().Add(time.Hour))
			p.flushGroups()
			if _, err := p.commit(); err != nil {
				t.Fatal(err)
			}
			if got := queued(t, store); len(got) != tt.alerts {
				t.Errorf("queued %d alerts, want %d: %v", len(got), tt.alerts, got)
			}
			got := scrapeSeries(t, tel, "logmatch_incidents_dropped_total")
			switch {
			case tt.drops == 0 && len(got) != 0:
				t.Errorf("dropped incidents scraped as %v, want none", got)
			case tt.drops > 0 && (len(got) != 1 || !strings.HasPrefix(got[0], `logmatch_incidents_dropped_total{reason="routine"`) || !strings.HasSuffix(got[0], " 1")):
				t.Errorf("dropped incidents scraped as %v, want routine 1", got)
			}
		})
	}
}
