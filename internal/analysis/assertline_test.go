package analysis

import "testing"

// TestAssertionLine reads failed assertions in the wordings of several C
// and C++ runtimes and libraries with their locations lost (a CUDA
// kernel's, HIP's, glibc's without its program and file, ggml's and
// other assert macros, glog's and Abseil's CHECK, musl's, newlib's), and
// leaves alone lines that only speak of assertions or end in "failed".
func TestAssertionLine(t *testing.T) {
	for l, want := range map[string]bool{
		"vectorized_gather_kernel: Assertion `ind >= 0 && ind < ind_dim_size` failed":  true,
		"vectorized_gather_kernel: Assertion `ind >= 0 && ind < ind_dim_size` failed.": true,
		"void f(): Device-side assertion `i < n' failed.":                              true,
		"Assertion `n > 0' failed.":                                                    true,
		"GGML_ASSERT(ggml_nelements(a) == ne0*ne1) failed":                             true,
		"llama_model_load: GGML_ASSERT(hparams.n_expert <= LLAMA_MAX_EXPERTS) failed":  true,
		"XGRAMMAR_ASSERT(state.IsValid()) failed":                                      true,
		"Check failed: x == y (1 vs. 2)":                                               true,
		"Check failed: status.ok() Failed to connect":                                  true,
		"Assertion failed: n > 0 (x.c: main: 12)":                                      true,
		"assertion \"n > 0\" failed: file \"x.c\", line 12, function: main":            true,
		"The download failed":                                                          false,
		"Assertion checks: 3 failed":                                                   false,
		"Assertion `x` is checked at start, then failed":                               false,
		"assert(x) failed":                    false,
		"my_assert(x) failed":                 false,
		"ASSERT failed":                       false,
		"Check failed: ":                      false,
		"Assertion failed: see the log above": false,
		"assertion \"x\" is what failed":      false,
		"3 tests failed":                      false,
		"":                                    false,
		"failed":                              false,
	} {
		if got := assertionLine(l); got != want {
			t.Errorf("assertionLine(%q) = %v, want %v", l, got, want)
		}
	}
}

// FuzzAssertionLine: assertionLine never panics, and accepts only lines
// its byte test or its three prefixes let through.
func FuzzAssertionLine(f *testing.F) {
	for _, s := range []string{"k: Assertion `x` failed", "GGML_ASSERT(x) failed", "Check failed: x", "Assertion failed: x (a: b: 1)", "assertion \"x\" failed: line 1", "(ASSERT) failed."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if assertionLine(l) && !assertionEnd(l) && len(l) > 0 && l[0] != 'C' && l[0] != 'A' && l[0] != 'a' {
			t.Fatalf("assertionLine(%q) past its byte test", l)
		}
	})
}
