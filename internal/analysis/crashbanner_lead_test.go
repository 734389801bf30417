package analysis_test

import (
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// With no record at all, a crash handler's announcement of a fatal signal
// is a critical native failure led by that line, whichever program printed
// it, also when it ends a script's prints with no header of their own and
// was glued to the end of a progress bar; routine lines that name a
// signal stay quiet.
func TestCrashBannerLeadsWithoutARecord(t *testing.T) {
	m, probs := matcher.Compile(nil, matcher.Options{})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	for _, tt := range []struct{ in, want string }{
		{"[gpu-node-7:12796:1:13303] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x10)\n",
			"[gpu-node-7:12796:1:13303] Caught signal 11 (Segmentation fault: address not mapped to object at address 0x10)"},
		{"*** SIGSEGV (@0x0) received by PID 4242 (TID 0x7f1c) from PID 0; stack trace: ***\n",
			"*** SIGSEGV (@0x0) received by PID 4242 (TID 0x7f1c) from PID 0; stack trace: ***"},
		{"[node3:04567] Signal: Bus error (7)\n", "[node3:04567] Signal: Bus error (7)"},
		{"# SIGSEGV (0xb) at pc=0x00007f3a2b1c, pid=77, tid=78\n", "# SIGSEGV (0xb) at pc=0x00007f3a2b1c, pid=77, tid=78"},
		{"SIGSEGV: segmentation violation\n", "SIGSEGV: segmentation violation"},
		{"!!!!!!! Segfault encountered !!!!!!!\n", "!!!!!!! Segfault encountered !!!!!!!"},
		{"Loading shards: widgets\n 40%|████      | 4/10 [00:02<00:03,  1.9it/s]Segmentation fault (core dumped)\n",
			"Segmentation fault (core dumped)"},
		{"Tokenizing prompts\n100%|##########| 8/8 [00:01<00:00]Illegal instruction (core dumped)\n",
			"Illegal instruction (core dumped)"},
	} {
		got := analyzeText(m, tt.in)
		if !one(t, tt.in, got) {
			continue
		}
		if got[0].Headline != tt.want || got[0].Signal != analysis.SignalNative || got[0].Severity != patterns.SeverityCritical {
			t.Errorf("%q: headline %q, signal %q, severity %q; want %q, native, critical", tt.in, got[0].Headline, got[0].Signal, got[0].Severity, tt.want)
		}
	}
	for _, in := range []string{
		"Caught signal 15 (Terminated), shutting down\n",
		"Received signal SIGTERM, exiting gracefully\n",
		"Installed SIGSEGV handler for stack dumps\n",
		"*** SIGSEGV handler installed ***\n",
		"[2026-02-01 10:00:00] Received SIGINT, stopping the scheduler\n",
		"INFO 02-01 10:00:00 [engine.py:12] faulthandler registered for SIGSEGV, SIGABRT\n",
		"Loading shards: widgets\n 40%|████      | 4/10 [00:02<00:03,  1.9it/s]\n",
		"Segfault handler enabled\n",
	} {
		if got := analyzeText(m, in); len(got) > 0 {
			t.Errorf("%q: read as a failure: %q", in, got[0].Headline)
		}
	}
}
