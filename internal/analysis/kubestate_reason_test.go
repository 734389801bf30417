package analysis

import (
	"testing"

	"github.com/logmatch/logmatch/internal/entry"
)

// TestKubeStateReasonFor finds, for the line of kubectl describe's
// container state a record read ("Exit Code: 137", "Reason:
// CrashLoopBackOff"), the kubelet's reason in that state that says why
// the container died or cannot start; a reason that says only that the
// process exited, a reason of another state, and another line give none.
func TestKubeStateReasonFor(t *testing.T) {
	for _, c := range []struct{ text, matched, want string }{
		{"Last State:     Terminated\n  Reason:       OOMKilled\n  Exit Code:    137\n  Started:      Fri, 15 Sep 2023 09:56:14 +0200",
			"  Exit Code:    137", "Reason:       OOMKilled"},
		{"    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    1",
			"      Reason:       CrashLoopBackOff", "Reason:       OOMKilled"},
		{"    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    137", "      Exit Code:    137", ""},
		{"    State:          Waiting\n      Reason:       ImagePullBackOff\n    Last State:     Terminated\n      Exit Code:    137", "      Exit Code:    137", ""},
		{"    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Ready:          False\n      Reason:       OOMKilled", "      Reason:       CrashLoopBackOff", ""},
		{"    Last State:     Terminated\n      Reason:       OOMKilled\n      Message:      killed", "      Message:      killed", ""},
	} {
		e := &entry.Entry{Message: c.text, Text: c.text}
		if got := kubeStateReasonFor(e, c.matched); got != c.want {
			t.Errorf("%q in %q: got %q, want %q", c.matched, c.text, got, c.want)
		}
	}
}

// TestKubeExitOfState finds, for describe's "Reason: Error" (the process
// exited, no more), the exit code of the same state, as users pasted
// their last states (a SIGKILL's 137, a program's own 2); a zero exit, a
// reason that says why, and an exit code of the next state give none.
func TestKubeExitOfState(t *testing.T) {
	for _, c := range []struct{ text, reason, want string }{
		{"    State:          Running\n      Started:      Sun, 11 Aug 2024 19:00:04 +0200\n    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    137\n      Started:      Sun, 11 Aug 2024 17:16:14 +0200",
			"Reason:       Error", "Exit Code:    137"},
		{"    Last State: Terminated\n      Reason: Error\n      Exit Code: 137\n      Started: Mon, 13 Nov 2023 03:48:52 +0100",
			"Reason: Error", "Exit Code: 137"},
		{"    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    2\n      Started:      Wed, 20 Dec 2017 20:07:22 +0000",
			"Reason:       Error", "Exit Code:    2"},
		{"    State:          Terminated\n      Reason:       Error\n      Exit Code:    0", "Reason:       Error", ""},
		{"    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137", "Reason:       OOMKilled", ""},
		{"    State:          Terminated\n      Reason:       Error\n    Last State:     Terminated\n      Exit Code:    137", "Reason:       Error", ""},
	} {
		e := &entry.Entry{Message: c.text, Text: c.text}
		if got := kubeExitOfState(e, c.reason); got != c.want {
			t.Errorf("%q in %q: got %q, want %q", c.reason, c.text, got, c.want)
		}
	}
}
