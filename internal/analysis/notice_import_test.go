package analysis

import "testing"

// TestImportNotice reads a failed optional import its writer reports
// with the exception's repr (vLLM's and sglang's "Failed to import from
// X with ModuleNotFoundError(...)"), behind launchers' and loggers'
// prefixes, and leaves alone the same error raised, quoted in its printed
// form, after an error word, or given up on.
func TestImportNotice(t *testing.T) {
	for l, want := range map[string]bool{
		`Failed to import from vllm._C with ModuleNotFoundError("No module named 'vllm._C'")`:                                              true,
		`Failed to import from custom_ar with ModuleNotFoundError("No module named 'sgl_kernel'")`:                                         true,
		"Failed to import from vllm._moe_C with ImportError('libcudart.so.12: cannot open shared object file: No such file or directory')": true,
		`0: [2026-05-28 00:11:09 TP0] Failed to import from custom_ar with ModuleNotFoundError("No module named 'sgl_kernel'")`:            true,
		`[rocm.py:28] Failed to import from amdsmi with ModuleNotFoundError("No module named 'amdsmi'")`:                                   true,
		"Could not import lmcache_vllm with ImportError('cannot import name LMCacheConnector')":                                            true,
		`Unable to import flash_attn: got exceptions.FlashAttnError("undefined symbol: _ZN3c10")`:                                          true,

		"ModuleNotFoundError: No module named 'sgl_kernel'":                                              false,
		"Failed to import from custom_ar: No module named 'sgl_kernel'":                                  false,
		"ImportError: Failed to import from custom_ar with ModuleNotFoundError(\"No module named 'x'\")": false,
		"error: failed to import from custom_ar with ModuleNotFoundError(\"No module named 'x'\")":       false,
		"Failed to import from custom_ar with ModuleNotFoundError(\"No module named 'x'\"), exiting":     false,
		"Failed to import from custom_ar with ModuleNotFoundError(\"No module named 'x'\"); giving up":   false,
		"We import from custom_ar with ModuleNotFoundError(\"x\")":                                       false,
		"Failed to import from custom_ar with modulenotfounderror(\"x\")":                                false,
		"Failed to import from custom_ar with ModuleNotFoundError(x)":                                    false,
		"Failed to load model with ValueError('bad config')":                                             false,
		"":                   false,
		"Failed to import (": false,
	} {
		if _, _, got := importNotice(l); got != want {
			t.Errorf("importNotice(%q) = %v, want %v", l, got, want)
		}
	}
}

// FuzzImportNotice checks that importNotice never panics and that the
// words it returns are a failed import's, inside the line.
func FuzzImportNotice(f *testing.F) {
	for _, s := range []string{`Failed to import from x with ImportError('y')`, `0: [t] Could not import x with E.SomeError("y")`, "failed to import (", "x] cannot import  with Error('"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		at, end, ok := importNotice(l)
		if !ok {
			return
		}
		if at < 0 || end <= at || end > len(l) || end > maxNoticeScan {
			t.Fatalf("importNotice(%q) = %d, %d", l, at, end)
		}
		if !containsImportWords(lowerASCII(l[at:end])) {
			t.Fatalf("importNotice(%q) words %q", l, l[at:end])
		}
	})
}

func containsImportWords(w string) bool {
	for _, f := range importFailures {
		if w == f {
			return true
		}
	}
	return false
}
