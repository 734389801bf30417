package entry

import (
	"strings"
	"testing"
)

// TestRayCoreLocationCut: Ray core's multi-line record (a fatal signal's
// dump, each line with the header repeated), cut by a terminal just before
// its location's colon on every line (its prefix and header fill 80
// columns), is one record again, its message the first line's and its
// other lines the messages they repeat the header for, for two dumps (a
// SIGSEGV, a SIGABRT, each behind the Ray actor's prefix); a record of another
// location after it stays its own.
func TestRayCoreLocationCut(t *testing.T) {
	hardCut := func(lines []string, width int) string {
		var out []string
		for _, l := range lines {
			for len(l) > width {
				out = append(out, l[:width])
				l = l[width:]
			}
			out = append(out, l)
		}
		return strings.Join(out, "\n")
	}
	segv := []string{
		"(WorkerDict pid=442885) [2024-08-27 17:30:02,927 E 442885 442885] logging.cc:440: *** SIGSEGV received at time=1724779802 on cpu 38 ***",
		"(WorkerDict pid=442885) [2024-08-27 17:30:02,931 E 442885 442885] logging.cc:440: PC: @           0x5266a0  (unknown)  (unknown)",
		"(WorkerDict pid=442885) [2024-08-27 17:30:02,931 E 442885 442885] logging.cc:440:     @     0x7fe5a8a9e520  (unknown)  (unknown)",
	}
	abrt := []string{
		"(WorkerDict pid=124799) [2025-05-19 13:48:05,850 E 124799 140771] logging.cc:361: *** SIGABRT received at time=1747633685 on cpu 74 ***",
		"(WorkerDict pid=124799) [2025-05-19 13:48:05,850 E 124799 140771] logging.cc:361: PC: @     0x7f6d68247e87  (unknown)  raise",
		"(WorkerDict pid=124799) [2025-05-19 13:48:05,851 E 124799 140771] logging.cc:361:     @     0x7f6d660dd070  (unknown)  (unknown)",
	}
	for _, tt := range []struct {
		name, in, msg, text string
	}{
		{"an actor's SIGSEGV at 80 columns", hardCut(segv, 80), "*** SIGSEGV received at time=1724779802 on cpu 38 ***", "PC: @           0x5266a0"},
		{"an actor's SIGABRT at 80 columns", hardCut(abrt, 80), "*** SIGABRT received at time=1747633685 on cpu 74 ***", "@     0x7f6d660dd070"},
	} {
		es := assemble(t, Options{}, tt.in)
		if len(es) != 1 {
			t.Errorf("%s: %d entries, want 1: %+v", tt.name, len(es), views(es))
			continue
		}
		if es[0].Message != tt.msg || !strings.Contains(es[0].Text, tt.text) {
			t.Errorf("%s: message %q, text %q", tt.name, es[0].Message, es[0].Text)
		}
	}
	// Another location's record after the dump is a record of its own.
	in := hardCut(segv, 80) + "\n(WorkerDict pid=442885) [2024-08-27 17:30:02,950 E 442885 442885] core_worker.cc:97: Unhandled exception in the worker"
	if es := assemble(t, Options{}, in); len(es) != 2 {
		t.Errorf("another location's record: %d entries, want 2: %+v", len(es), views(es))
	}
}

// FuzzIsLocationColonRest checks the rule's promise: last is a source
// location alone that the record's text ends with, and next opens with
// its colon and a space.
func FuzzIsLocationColonRest(f *testing.F) {
	f.Add("E 124799 140771] logging.cc:361", "logging.cc:361", ":     @     0x7f6d660dd070  (unknown)  (unknown)")
	f.Add("E 1 2] a.cc:1", "a.cc:1", ":x")
	f.Fuzz(func(t *testing.T, record, last, next string) {
		if !isLocationColonRest(record, last, next) {
			return
		}
		if !strings.HasPrefix(next, ": ") || !strings.HasSuffix(record, last) || strings.Contains(last, " ") || !isSourceLocation(last) {
			t.Fatalf("isLocationColonRest(%q, %q, %q): no location and its rest", record, last, next)
		}
	})
}
