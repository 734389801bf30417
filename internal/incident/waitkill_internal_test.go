package incident

import "testing"

// TestWaitAndKillWordsNeedTheirLetter holds the letter tests in front of
// waitTimedOut and kernelKill to the searches they spare: a line without
// the letter in either case holds neither word.
func TestWaitAndKillWordsNeedTheirLetter(t *testing.T) {
	for _, line := range []string{
		"timed out waiting for llama runner to start", "WAIT FOR worker: TIMEOUT", "Wait for x timed out",
		"ollama.service: A process of this unit has been killed by the OOM killer.", "OOMKilled", "Out of memory: Killed process 12",
		"Decode batch, #token: 5", "waiting", "kill", "", "\u212aill", "w", "K",
	} {
		for _, c := range []struct {
			letter byte
			word   string
		}{{'w', "wait"}, {'k', "kill"}} {
			if !holdsLetter(line, c.letter) && indexFold(line, c.word) >= 0 {
				t.Errorf("%q holds %q without %q", line, c.word, c.letter)
			}
		}
	}
}
