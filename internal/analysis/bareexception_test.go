package analysis

import "testing"

// TestBareExceptionMessage reads a NameError's and a ModuleNotFoundError's
// message printed alone, in CPython's words (NameError's with 3.10's
// suggestion and with its "name " lost, sgl-project/sglang#5134), and no
// line that holds the words among others.
func TestBareExceptionMessage(t *testing.T) {
	for l, want := range map[string]bool{
		"'CompressedTensorsW8A16Fp8' is not defined. Did you mean: 'CompressedTensorsW8A8Fp8'?": true,
		"name 'torch' is not defined":                   true,
		"No module named 'triton_kernels.matmul_ogs'":   true,
		"  No module named 'flash_attn'":                true,
		"No module named 'flash_attn'; falling back":    false,
		"Warning: name 'torch' is not defined":          false,
		"'x y' is not defined":                          false,
		"name 'torch' is not defined yet, importing it": false,
		"No module named ''":                            false,
		"'a' is not defined. Did you mean: 'b c'?":      false,
		"No module named 'a' '":                         false,
	} {
		if got := bareExceptionMessage(l); got != want {
			t.Errorf("bareExceptionMessage(%q) = %v, want %v", l, got, want)
		}
	}
}

// FuzzBareExceptionMessage: bareExceptionMessage never panics and reads a
// line only when it names something in quotes.
func FuzzBareExceptionMessage(f *testing.F) {
	for _, s := range []string{"name 'torch' is not defined", "'A' is not defined. Did you mean: 'B'?", "No module named 'a.b'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if bareExceptionMessage(l) && len(l) < len("'a' is not defined") {
			t.Fatalf("bareExceptionMessage(%q)", l)
		}
	})
}
