package analysis

import "testing"

// TestCrashBanner reads the announcement of a fatal signal as crash
// handlers of several programs print it, and leaves alone the routine
// lines that name a signal: handlers installed, a termination asked for,
// prose about a crash.
func TestCrashBanner(t *testing.T) {
	for l, want := range map[string]bool{
		"[host-1:12796:1:13303] Caught signal 11 (Segmentation fault: invalid permissions for mapped object at address 0x7f)": true,
		"*** SIGSEGV (@0x0) received by PID 1234 (TID 0x7f00) from PID 0; stack trace: ***":                                   true,
		"*** Aborted at 1700000000 (unix time) try \"date -d @1700000000\" if you are using GNU date ***":                     true,
		"[node1:01234] Signal: Segmentation fault (11)":                                                                       true,
		"# SIGSEGV (0xb) at pc=0x00007f3a2b, pid=1234, tid=5678":                                                              true,
		"SIGSEGV: segmentation violation":                                                                                     true,
		"SIGBUS: bus error":                                                                                                   true,
		"!!!!!!! Segfault encountered !!!!!!!":                                                                                true,
		"Caught SIGSEGV (Segmentation Fault)":                                                                                 true,
		"CRASH: Caught 11 (Segmentation fault)":                                                                               true,
		"Received signal 6, aborting":                                                                                         true,
		" 12%|####   | 59/473 [00:19<00:10, 39.09it/s]Segmentation fault (core dumped)":                                       true,
		"100%|##########| 8/8 [00:01<00:00]Aborted (core dumped)":                                                             true,
		"Bus error (core dumped)":                                                                                             true,

		"Caught signal 15 (Terminated), shutting down":       false,
		"Received signal SIGTERM, exiting gracefully":        false,
		"Received SIGINT, stopping workers":                  false,
		"Caught signal 110 in test":                          false,
		"Installed SIGSEGV handler for stack dumps":          false,
		"[faulthandler] registered SIGSEGV, SIGABRT":         false,
		"*** SIGTERM received by PID 12 ***":                 false,
		"*** SIGSEGV handler installed ***":                  false,
		"Signal: Terminated (15)":                            false,
		"SIGSEGV handler installed":                          false,
		"SIGSEGVS: x":                                        false,
		"# SIGSEGV is handled by the runtime":                false,
		"the job died with Segmentation fault (core dumped)": false,
		"Segfault handler enabled":                           false,
		"Got 11 requests":                                    false,
		"Received 4 (four) replies":                          false,
		"[a b] Caught signal 11":                             false,
		"":                                                   false,
	} {
		if got := crashBanner(l); got != want {
			t.Errorf("crashBanner(%q) = %v, want %v", l, got, want)
		}
		if crashBanner(l) && !crashBannerStart(l) {
			t.Errorf("crashBannerStart(%q) = false for a banner", l)
		}
	}
}
