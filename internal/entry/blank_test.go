package entry

import (
	"strings"
	"testing"
)

// isBlank, isChainSeparator and isFrameLine decide most lines on a byte
// at either end; they must agree with trimming the whole line and parsing
// what is left. hasNCCLError must agree with strings.Contains.
func FuzzLineShortcuts(f *testing.F) {
	for _, s := range []string{
		"", " ", "\t\n\v\f\r ", "x", "  x  ", "\u00a0", " \u0085 ", "\u3000x", "\xff", " \xc2",
		sepCause, sepContext, "  " + sepCause + "  ", "\r" + sepContext, "\u00a0" + sepCause,
		"\v" + sepCause + "\n", sepCause[:20], "T", "D", "During", "The above",
		sepCause + "\u00a0", sepContext + " x", "Decode batch, #running-req: 91",
		"NCCL error", "NNCCL error in: x", "NCCL erro", "x NCCL NCCL error", "NCCL Error", "ncclSystemError: x",
		`  File "a.py", line 3, in f`, `> File "a.py", line 3, in f`, "\tFile", "F", ">", " > File \"x\", line 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isBlank(s), strings.TrimSpace(s) == ""; got != want {
			t.Errorf("isBlank(%q) = %v, want %v", s, got, want)
		}
		trimmed := strings.TrimSpace(s)
		if got, want := isChainSeparator(s), trimmed == sepCause || trimmed == sepContext; got != want {
			t.Errorf("isChainSeparator(%q) = %v, want %v", s, got, want)
		}
		if got, want := hasNCCLError(s), strings.Contains(s, "NCCL error"); got != want {
			t.Errorf("hasNCCLError(%q) = %v, want %v", s, got, want)
		}
		_, frame := parseFrame(strings.TrimLeft(s, " \t"))
		if got := isFrameLine(s); got != frame {
			t.Errorf("isFrameLine(%q) = %v, want %v", s, got, frame)
		}
	})
}
