package incident_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/sinks"
)

// A runtime's report that a hook or child failed, ending in the child's
// output that goes on on the next line, yields the lead to the child's own
// line there: the runtime's line is listed as its context. The reports
// are composed from the writers that print them (docker's CLI, kubelet's
// event, containerd's task error), the children's lines from
// nvidia-container-cli's stages, under every layout.

var runtimeReports = []struct{ name, line string }{
	{"docker's CLI", `docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'`},
	{"kubelet's event", `  Warning  Failed     12s (x3 over 40s)  kubelet  Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running prestart hook #0: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'`},
	{"containerd's task error, nothing quoted yet", `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running prestart hook #0: exit status 1, stdout: , stderr: `},
}

var childLines = []string{
	"nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown",
	"nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.4, please update your driver to a newer version, or use an earlier cuda container: unknown",
	"nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown.",
}

func contextSlugs(a sinks.Alert) []string {
	var s []string
	for _, c := range a.Context {
		s = append(s, c.Slug)
	}
	return s
}

func TestAChildsLineLeadsTheReportThatQuotesIt(t *testing.T) {
	m := crashMatcher(t)
	for _, child := range childLines {
		alone := scanLines(t, m, []string{child})
		if len(alone) != 1 || alone[0].Record.ID == "" {
			t.Fatalf("%q alone: want one classified incident, got %d:%s", child, len(alone), describe(alone))
		}
		want := leadOf(alone[0])
		for _, r := range runtimeReports {
			report := leadOf(scanLines(t, m, []string{r.line})[0])
			for _, l := range layouts {
				got := scanLines(t, m, []string{l.line(r.line), l.line(child)})
				if len(got) != 1 || leadOf(got[0]) != want {
					t.Errorf("%s then %q, %s: want one incident led by %s, got %d:%s", r.name, child, l.name, want, len(got), describe(got))
					continue
				}
				// The report is the lead's context, or the lines were read
				// as one entry (a quote opened at the line's end goes on
				// on the next), the child's record reading it.
				if !slices.Contains(contextSlugs(got[0]), report) && !strings.Contains(got[0].Entry, "OCI runtime create failed") {
					t.Errorf("%s then %q, %s: want the report's %s as context, got %v", r.name, child, l.name, report, contextSlugs(got[0]))
				}
			}
		}
	}
}

// TestAReportThatQuotesNothingStillLeads: a runtime's report that quotes
// no output of a child, followed by another failure's line, is led by the
// earlier line as two classified lines of one burst are; a child's line
// printed apart from the report, healthy lines between, is its own
// incident.
func TestAReportThatQuotesNothingStillLeads(t *testing.T) {
	m := crashMatcher(t)
	closed := `docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "python3": executable file not found in $PATH: unknown.`
	want := leadOf(scanLines(t, m, []string{closed})[0])
	for _, child := range childLines {
		got := scanLines(t, m, []string{closed, child})
		if len(got) != 1 || leadOf(got[0]) != want {
			t.Errorf("a closed report then %q: want one incident led by %s, got %d:%s", child, want, len(got), describe(got))
		}
	}
	for _, r := range runtimeReports {
		lines := []string{"[2025-06-01 12:00:00] " + r.line}
		for k := 0; k < 20; k++ {
			lines = append(lines, strings.Replace(healthy[0], "2025-06-01 12:00:00", fmt.Sprintf("2025-06-01 12:%02d:00", 10+k), 1))
		}
		lines = append(lines, "[2025-06-01 12:40:00] "+childLines[0])
		if got := scanLines(t, m, lines); len(got) != 2 {
			t.Errorf("%s, healthy lines, then the child's line: want two incidents, got %d:%s", r.name, len(got), describe(got))
		}
	}
}
