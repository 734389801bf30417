package entry

import "testing"

func TestBuiltinException(t *testing.T) {
	for _, n := range []string{"RuntimeError", "KeyError", "BaseExceptionGroup", "UnicodeTranslateError", "KeyboardInterrupt"} {
		if !BuiltinException(n) {
			t.Errorf("BuiltinException(%q) = false, want true", n)
		}
	}
	// A library's class, a dotted name and a near miss name no built-in.
	for _, n := range []string{"OutOfMemoryError", "torch.OutOfMemoryError", "builtins.RuntimeError", "runtimeerror", "RuntimeErrors", ""} {
		if BuiltinException(n) {
			t.Errorf("BuiltinException(%q) = true, want false", n)
		}
	}
}
