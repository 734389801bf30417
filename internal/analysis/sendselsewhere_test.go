package analysis

import (
	"strings"
	"testing"
)

// sendsElsewhereByIndex is SendsElsewhere as it searched before, for each
// wording with strings.Index: the reference the rarest-letter search must
// agree with on every text.
func sendsElsewhereByIndex(msg string) bool {
	if len(msg) > 4096 {
		msg = msg[:4096]
	}
	if strings.Contains(msg, "ee inner exception") || strings.Contains(msg, "ee the inner exception") {
		return true
	}
	for rest := msg; ; {
		j := strings.Index(rest, " above")
		if j < 0 {
			return false
		}
		sentence := rest[:j]
		if k := strings.LastIndexAny(sentence, ".!?\n"); k >= 0 {
			sentence = sentence[k+1:]
		}
		if hasWordFold(sentence, "see ") || hasWordFold(sentence, "check ") {
			return true
		}
		rest = rest[j+len(" above"):]
	}
}

// sendsElsewhereSeeds are lines of several writers that send their reader
// elsewhere, and near misses.
var sendsElsewhereSeeds = []string{
	"torch.distributed.DistNetworkError: The connection to the C10d store has failed. See inner exception for details.",
	"RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
	"Please see the error messages above.", "check the stack trace above", "Check the logs above!",
	"see the inner exception", "foresee inner exception", "See the logs. Above all, retry", "three above",
	"see above above", "x above", " above", "above", "see  above", "SEE above", "see\n above", "see. above",
	"inner exception", "ee inner exceptio", "xx see above vv", "Exception: see x above",
}

func TestSendsElsewhereAgreesWithIndex(t *testing.T) {
	for _, s := range sendsElsewhereSeeds {
		if got, want := SendsElsewhere(s), sendsElsewhereByIndex(s); got != want {
			t.Errorf("SendsElsewhere(%q) = %v, by index %v", s, got, want)
		}
	}
	long := strings.Repeat("a v x ", 700) + "see above"
	if SendsElsewhere(long) != sendsElsewhereByIndex(long) {
		t.Errorf("a text past 4096 bytes reads otherwise")
	}
}

func FuzzSendsElsewhere(f *testing.F) {
	for _, s := range sendsElsewhereSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := SendsElsewhere(s), sendsElsewhereByIndex(s); got != want {
			t.Fatalf("SendsElsewhere(%q) = %v, by index %v", s, got, want)
		}
	})
}
