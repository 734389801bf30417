package analysis

import "testing"

// TestGoExitFailure reads a child's fatal end as Go's os/exec words it,
// quoted by the programs that run children (Ollama's server about its
// runner in each release's words, a supervisor, a hook runner, a
// structured logger's error field) and by a user's report, and leaves
// silent a stop a user or a supervisor asked for, an ordinary exit
// status, and lines that only name a signal.
func TestGoExitFailure(t *testing.T) {
	for l, want := range map[string]bool{
		"Error: llama runner process has terminated: signal: illegal instruction (core dumped)":                           true,
		"the logs say `llama runner stopped with error: signal: illegal instruction (core dumped)`":                       true,
		`time=2024-05-01T10:00:00Z level=ERROR source=server.go:500 msg="llama runner terminated" error="signal: killed"`: true,
		"Error: llama runner process has terminated: signal: segmentation fault (core dumped)":                            true,
		"runner exited: exit status 137":                         true,
		"worker exited with: signal: aborted (core dumped)":      true,
		"error running prestart hook #0: signal: bus error":      true,
		"model server crashed: signal: floating point exception": true,
		"process has terminated: exit status 139":                true,

		"received signal: terminated, shutting down":                     false,
		"llama runner process has terminated: signal: interrupt":         false,
		"server exited: signal: terminated":                              false,
		"runner exited: exit status 1":                                   false,
		"runner exited: exit status 1370":                                false,
		"llama runner started in 2.01 seconds":                           false,
		"signal: killed":                                                 false,
		"handling signal: killed processes are reaped by the supervisor": false,
		"exited: signal: killedfoo":                                      false,
		`error="signal: killed"`:                                         false,
		`err=\"exit status 137\"`:                                        false,
		"":                                                               false,
	} {
		got := goExitFailure(l)
		if got != want {
			t.Errorf("goExitFailure(%q) = %v, want %v", l, got, want)
		}
		if _, x := exitCandidates(l); got && !x {
			t.Errorf("exitCandidates(%q) says no exit", l)
		}
	}
}

// TestGoExitFamily checks that a SIGKILL (or its exit status 137) is a
// kill from outside the process and any other fatal signal its own native
// crash.
func TestGoExitFamily(t *testing.T) {
	for msg, want := range map[string]string{
		"llama runner process has terminated: signal: killed":                            FamilyKilled,
		"runner exited: exit status 137":                                                 FamilyKilled,
		"llama runner process has terminated: signal: segmentation fault (core dumped)":  FamilyNative,
		"llama runner process has terminated: signal: illegal instruction (core dumped)": FamilyNative,
	} {
		if got := familyOf("", msg); got != want {
			t.Errorf("familyOf(%q) = %q, want %q", msg, got, want)
		}
	}
}

// TestGoExitSignal checks that the line is a failure at no level, at INFO
// and in a structured logger's WARN, and that a stop stays silent.
func TestGoExitSignal(t *testing.T) {
	for text, want := range map[string]bool{
		"Error: llama runner process has terminated: signal: illegal instruction (core dumped)":                             true,
		`time=2024-05-01T10:00:00Z level=INFO source=server.go:500 msg="llama runner terminated" error="signal: killed"`:    true,
		`time=2024-05-01T10:00:00Z level=WARN source=sched.go:120 msg="runner exited" error="exit status 139"`:              true,
		`time=2024-05-01T10:00:00Z level=INFO source=server.go:500 msg="llama runner terminated" error="signal: interrupt"`: false,
		"2026-01-10 08:00:01,123 - supervisor - INFO - received signal: terminated, shutting down":                          false,
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
	}
}

// FuzzGoExitFailure checks that goFatalExitAt returns an index inside its
// line or -1, that exitCandidates marks every line goExitFailure says
// true of, and that neither panics.
func FuzzGoExitFailure(f *testing.F) {
	for _, s := range []string{
		"process has terminated: signal: illegal instruction (core dumped)",
		"runner exited: exit status 137",
		"signal: ",
		"exit status 13",
		"error: signal: killed",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		at := goFatalExitAt(s)
		if at < -1 || at >= len(s) {
			t.Fatalf("goFatalExitAt(%q) = %d", s, at)
		}
		if _, x := exitCandidates(s); goExitFailure(s) && !x {
			t.Fatalf("goExitFailure(%q) without exitCandidates", s)
		}
		_ = goExitKilled(s)
	})
}
