package analysis

import (
	"strings"
	"testing"
)

// undefinedUseByWording is UndefinedUse by its definition: a search a
// wording.
func undefinedUseByWording(line string) bool {
	if len(line) > maxImportScan {
		line = line[:maxImportScan]
	}
	return strings.Contains(line, "is not defined") || strings.Contains(line, "has no attribute") ||
		strings.Contains(line, "cannot import name")
}

// UndefinedUse finds each wording wherever it stands, beside other
// words holding "no" (not, none, cannot, unknown), and nothing else.
func TestUndefinedUseWordings(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"NameError: name 'flash_attn_varlen_func' is not defined", true},
		{"AttributeError: module 'vllm._C' has no attribute 'rms_norm'", true},
		{"AttributeError: 'NoneType' object has no attribute 'shape'", true},
		{"ImportError: cannot import name 'get_tp_group' from 'sglang.srt.distributed' (unknown location)", true},
		{"NameError: free variable 'x' referenced before assignment in enclosing scope; not noted; none is not defined", true},
		{"is not defined", true},
		{"cannot import name", true},
		{"has no attributes", true},
		{"no attribute 'x'; has not attribute; cannot import; is not def", false},
		{"RuntimeError: CUDA error: no kernel image is available", false},
		{"nonono", false},
		{"no", false},
		{"", false},
	} {
		if got := UndefinedUse(c.line); got != c.want || got != undefinedUseByWording(c.line) {
			t.Errorf("UndefinedUse(%q) = %v, want %v", c.line, got, c.want)
		}
	}
	long := strings.Repeat("x", maxImportScan-10) + "is not defined"
	if UndefinedUse(long) != undefinedUseByWording(long) {
		t.Errorf("UndefinedUse reads past its bound unlike its definition")
	}
}

// FuzzUndefinedUse checks UndefinedUse, one search for "no", against a
// search a wording.
func FuzzUndefinedUse(f *testing.F) {
	f.Add("AttributeError: module 'vllm._C' has no attribute 'rms_norm'")
	f.Add("nono is not defined")
	f.Fuzz(func(t *testing.T, line string) {
		if UndefinedUse(line) != undefinedUseByWording(line) {
			t.Errorf("UndefinedUse(%q) differs from a search a wording", line)
		}
	})
}
