package analysis

import (
	"testing"
)

// TestWatchdogFired reads the lines a watchdog prints when it fires,
// composed from sglang's releases (the scheduler's first wording, the
// watchdog class's with each component's name and the soft switch) and
// from plain timer threads of Python and C++ programs, behind the
// prefixes a log puts before them, and leaves silent a watchdog's
// settings and prose about one.
func TestWatchdogFired(t *testing.T) {
	for l, want := range map[string]bool{
		"Watchdog timeout (self.watchdog_timeout=300)":                                     true,
		"Watchdog timeout (self.watchdog_timeout=300.0)":                                   true,
		"Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)":          true,
		"DetokenizerManager watchdog timeout (self.watchdog_timeout=20.0, self.soft=True)": true,
		"TokenizerManager watchdog timeout (watchdog_timeout=60, soft=False)":              true,
		"Watchdog timeout":  true,
		"watchdog timeout!": true,
		"Watchdog timed out after 600 seconds, dumping stacks": true,
		"engine_loop watchdog timed out, killing the process":  true,
		"Watchdog timeout (timeout=30)":                        true,

		"Watchdog timeout: 300s":                                          false,
		"watchdog timeout set to 300 seconds":                             false,
		"Setting watchdog timeout to 300":                                 false,
		"watchdog_timeout=300, dist_timeout=None":                         false,
		"--watchdog-timeout 300":                                          false,
		"Why does the scheduler watchdog timeout after upgrading to 0.4?": false,
		"Watchdog timeout (300s) is too short for this model":             false,
		"Watchdog started":                                                false,
		"":                                                                false,
	} {
		if got := watchdogFired(l); got != want {
			t.Errorf("watchdogFired(%q) = %v, want %v", l, got, want)
		}
		if w, _ := exitCandidates(l); want && !w {
			t.Errorf("exitCandidates(%q) says no watchdog", l)
		}
	}
}

// TestWatchdogFiredSignal checks that a fired watchdog's line is a
// failure at no level (sglang's format), at INFO and at WARNING, and that
// its family is a hang.
func TestWatchdogFiredSignal(t *testing.T) {
	for text, want := range map[string]bool{
		"[2025-08-02 19:24:30 TP3] Watchdog timeout (self.watchdog_timeout=300)":                            true,
		"[2026-01-10 08:00:01 TP0] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)": true,
		"2026-01-10 08:00:01,123 - engine - INFO - Watchdog timed out after 600 seconds, dumping stacks":    true,
		"2026-01-10 08:00:01,123 - engine - WARNING - Watchdog timeout":                                     true,
		"[2026-01-10 08:00:01] server_args=ServerArgs(watchdog_timeout=300, dist_timeout=None)":             false,
		"2026-01-10 08:00:01,123 - engine - INFO - watchdog timeout set to 300 seconds":                     false,
	} {
		es := assembleAll(text)
		if len(es) != 1 {
			t.Fatalf("%q: %d entries", text, len(es))
		}
		got := false
		if !quiet(&es[0]) {
			s, _ := signalOf(&es[0])
			got = s != ""
		}
		if got != want {
			t.Errorf("%q: signal %v, want %v", text, got, want)
		}
		if want {
			if f := familyOf("", es[0].Message); f != FamilyHang {
				t.Errorf("%q: family %q, want %q", text, f, FamilyHang)
			}
		}
	}
}

// FuzzWatchdogFired checks that watchdogFired never panics and that
// exitCandidates marks every line it says true of.
func FuzzWatchdogFired(f *testing.F) {
	for _, s := range []string{
		"Watchdog timeout (self.watchdog_timeout=300)",
		"Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)",
		"Watchdog timed out after 5s",
		"watchdog ",
		"W",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if w, _ := exitCandidates(s); watchdogFired(s) && !w {
			t.Fatalf("watchdogFired(%q) without exitCandidates", s)
		}
	})
}
