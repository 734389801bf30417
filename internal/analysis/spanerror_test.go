package analysis

import (
	"strings"
	"testing"
)

// TestSpanError reads an error line a user quotes in a code span inside a
// sentence (ollama's runner, docker's daemon, git's error), and leaves
// silent a span without the bytes "rror" (git's fatal), a span of a command or a setting, an
// exception's name in prose, a span not closed, an error the sentence
// says is gone, and a span of an error word with no message after it.
func TestSpanError(t *testing.T) {
	for l, want := range map[string]bool{
		"When I ran `ollama run llama3.2:3b` , the model weights are downloaded as I can see but I am getting the error `Error: llama runner process has terminated: exit status 0xc0000409`": true,
		"i get this error: `Error response from daemon: could not select device driver \"nvidia\" with capabilities: [[gpu]]`":                                                                true,
		"getting `Error: llama runner process has terminated` like _immediately_ after running `ollama run open-orca`":                                                                        true,
		"the push fails with `error: RPC failed; curl 56 GnuTLS recv error (-9)` every time":                                                                                                  true,

		"run `docker compose -f docker-compose-gpu.yml up -d` and then `ollama run llama3`":                            false,
		"set `--error-log-level debug` to see more":                                                                    false,
		"the `ValueError` handling in `serving_chat.py` looks wrong":                                                   false,
		"getting `Error: llama runner process has terminated":                                                          false,
		"I used to get `Error: llama runner process has terminated` but 0.1.4 works":                                   false,
		"the clone stops with `fatal: unable to access 'https://huggingface.co/x/'` (another reader's: no error word)": false,
		"`Error:` is printed before the prompt":                                                                        false,
		"":                                                                                                             false,
	} {
		if got := spanError(l); got != want {
			t.Errorf("spanError(%q) = %v, want %v", l, got, want)
		}
	}
}

// FuzzSpanError checks that spanError never panics and says true only of
// a line with a backtick and the bytes "rror" (quiet's test for it).
func FuzzSpanError(f *testing.F) {
	for _, s := range []string{
		"getting `Error: x` now",
		"`Error response from daemon: y`",
		"``",
		"`",
		"a `fatal: b` c `Error: d`",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if spanError(s) && (!strings.Contains(s, "`") || !quotedFailureCandidate(s)) {
			t.Fatalf("spanError(%q) without a backtick or %q", s, "rror")
		}
	})
}
