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
