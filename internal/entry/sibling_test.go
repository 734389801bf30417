package entry

import "testing"

// TestIndentedSiblings: an entry opened by an indented line (a block
// behind a prefix, a paste indented deeper than any lead) takes the lines
// indented deeper than its first as its own, and leaves a line at the
// same indentation to an entry of its own: the rows of one level in
// kubectl describe, systemctl status or a YAML dump.
func TestIndentedSiblings(t *testing.T) {
	for _, c := range []struct {
		name string
		text string
		want []string // the entries' texts
	}{
		{"describe-states", "" +
			"        State:          Waiting\n" +
			"          Reason:       CrashLoopBackOff\n" +
			"        Last State:     Terminated\n" +
			"          Reason:       OOMKilled\n" +
			"          Exit Code:    137\n",
			[]string{
				"        State:          Waiting\n          Reason:       CrashLoopBackOff",
				"        Last State:     Terminated\n          Reason:       OOMKilled\n          Exit Code:    137",
			}},
		{"systemctl-status", "" +
			"\t  Loaded: loaded (/etc/systemd/system/ollama.service; enabled)\n" +
			"\t  Active: activating (auto-restart) (Result: exit-code)\n" +
			"\t Process: 2741 ExecStart=/usr/bin/ollama serve (code=exited, status=1/FAILURE)\n",
			// (The tab is a paste's lead, taken off.)
			[]string{
				"  Loaded: loaded (/etc/systemd/system/ollama.service; enabled)",
				"  Active: activating (auto-restart) (Result: exit-code)",
				" Process: 2741 ExecStart=/usr/bin/ollama serve (code=exited, status=1/FAILURE)",
			}},
		// Deeper lines continue the entry, as an indented line continues
		// an unindented one.
		{"deeper-continues", "" +
			"        Warning  BackOff  3m  kubelet  Back-off restarting failed container\n" +
			"            in pod sglang-0 (uid 1f2e)\n",
			[]string{"        Warning  BackOff  3m  kubelet  Back-off restarting failed container\n            in pod sglang-0 (uid 1f2e)"}},
		{"unindented-first", "" +
			"Failed to start the engine\n" +
			"  Reason: CUDA out of memory\n" +
			"  Hint: lower --mem-fraction-static\n",
			[]string{"Failed to start the engine\n  Reason: CUDA out of memory\n  Hint: lower --mem-fraction-static"}},
	} {
		var got []string
		for _, e := range assembleText(t, c.text) {
			if e.Raw != "" {
				got = append(got, e.Raw)
			}
		}
		if len(got) != len(c.want) {
			t.Errorf("%s: %d entries %q, want %d %q", c.name, len(got), got, len(c.want), c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: entry %d = %q, want %q", c.name, i, got[i], c.want[i])
			}
		}
	}
}
