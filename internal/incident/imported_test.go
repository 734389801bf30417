package incident_test

import (
	"strings"
	"testing"
)

// An import that failed at start-up, logged at any level, and the code
// error that later names what it should have defined are one incident, led
// by the import failure, whether the use fails seconds or minutes later.
// Composed after a server's optional attention kernel logged as a
// fallback warning, a kernel package's bare ModuleNotFoundError, and a
// warning about a shared library its fused kernels need; the uses as a
// bare NameError, a scheduler's traceback and a module AttributeError.
func TestAFailedImportLeadsTheNamesItShouldHaveDefined(t *testing.T) {
	m := crashMatcher(t)
	sched := func(last string) []string {
		return []string{"[2025-06-01 12:03:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
			`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2300, in run_scheduler_process`,
			"    scheduler.event_loop_overlap()",
			`  File "/sgl-workspace/sglang/python/sglang/srt/layers/layernorm.py", line 80, in forward_cuda`,
			"    return fused_add_rmsnorm(x, residual, self.weight.data, self.variance_epsilon)",
			last}
	}
	cases := []struct {
		name     string
		imp, use []string
	}{
		{"a fallback warning, then a bare NameError",
			[]string{"2025-06-01 12:00:00 | WARNING | flashinfer not found, falling back to triton attention: No module named 'flashinfer'"},
			[]string{"2025-06-01 12:00:03 | ERROR | NameError: name 'flashinfer' is not defined"}},
		{"a kernel package's ModuleNotFoundError, then a scheduler's NameError",
			[]string{"ModuleNotFoundError: No module named 'sgl_kernel'"},
			sched("NameError: name 'sgl_kernel' is not defined")},
		{"a fallback warning, then a module's missing attribute",
			[]string{"2025-06-01 12:00:00 | WARNING | flashinfer not found, falling back to triton attention: No module named 'flashinfer'"},
			sched("AttributeError: 'NoneType' object has no attribute 'flashinfer_rmsnorm'")},
	}
	for _, c := range cases {
		alone := scanLines(t, m, c.imp)
		want := "no-module-flashinfer"
		if strings.Contains(c.imp[0], "falling back") {
			// A warning that it fell back is a notice of a tolerated
			// failure: alone it raises nothing (analysis's notice.go),
			// and the use after it is what makes it one.
			if len(alone) != 0 {
				t.Fatalf("%s: the fallback notice alone gives %d incidents:%s", c.name, len(alone), describe(alone))
			}
		} else if len(alone) != 1 {
			t.Fatalf("%s: the import failure alone gives %d incidents:%s", c.name, len(alone), describe(alone))
		} else {
			want = leadOf(alone[0])
		}
		for _, gap := range []int{0, 30} {
			for _, l := range layouts {
				var lines []string
				for _, s := range c.imp {
					lines = append(lines, l.line(s))
				}
				for i := 0; i < gap; i++ {
					lines = append(lines, l.line(healthy[i%len(healthy)]))
				}
				for _, s := range c.use {
					lines = append(lines, l.line(s))
				}
				got := scanLines(t, m, lines)
				if len(got) != 1 || leadOf(got[0]) != want {
					t.Errorf("%s, %d lines apart, %s: want one incident led by %s, got %d:%s\n%s", c.name, gap, l.name, want, len(got), describe(got), strings.Join(lines, "\n"))
				}
			}
		}
	}
}

// A code error that names something the failed import did not provide is
// its own failure.
func TestAFailedImportDoesNotLeadAnotherName(t *testing.T) {
	m := crashMatcher(t)
	lines := []string{
		"2025-06-01 12:00:00 | WARNING | flashinfer not found, falling back to triton attention: No module named 'flashinfer'",
		"2025-06-01 12:00:03 | ERROR | NameError: name 'tokenizer' is not defined",
	}
	// The fallback warning is a notice of a tolerated failure: alone it
	// raises nothing (analysis's notice.go), and the NameError is its own.
	if got := scanLines(t, m, lines); len(got) != 1 || got[0].Record.Slug != "python-name-not-defined" {
		t.Errorf("want the NameError alone, got %d:%s", len(got), describe(got))
	}
	// Past the correlation window: another failure of the same name.
	lines = []string{
		"[2025-06-01 12:00:00] WARNING server.py:40: flashinfer not found, falling back to triton attention: No module named 'flashinfer'",
		"[2025-06-01 12:40:03] ERROR server.py:90: NameError: name 'flashinfer' is not defined",
	}
	if got := scanLines(t, m, lines); len(got) != 1 || got[0].Record.Slug != "python-name-not-defined" {
		t.Errorf("an hour later: want the NameError alone, got %d:%s", len(got), describe(got))
	}
}

// A failed import that only a warning line says, which no record reads,
// still names the cause of the code error after it: its headline says
// which import failed (the warning's own line, when the traceback was
// logged under it), and the warning alone raises nothing. Composed
// after vLLM's custom ops warning, a kernel package's guarded import in a
// Python logging format and a level word without a time.
func TestAWarnedImportNamesTheCodeError(t *testing.T) {
	m := crashMatcher(t)
	cases := []struct {
		name, warn string
		use        []string
	}{
		{"vLLM's custom ops",
			`WARNING 06-01 12:00:00 [_custom_ops.py:20] Failed to import from vllm._C with ModuleNotFoundError("No module named 'vllm._C'")`,
			[]string{"Traceback (most recent call last):",
				`  File "/usr/local/lib/python3.12/dist-packages/vllm/_custom_ops.py", line 300, in rms_norm`,
				"    torch.ops._C.rms_norm(out, input, weight, epsilon)",
				"AttributeError: '_OpNamespace' '_C' object has no attribute 'rms_norm'"}},
		{"a kernel package's guarded import",
			"2025-06-01 12:00:00,123 - sglang.srt.layers.quantization - WARNING - Failed to import deep_gemm: cannot import name 'get_num_sms' from 'deep_gemm' (/usr/lib/python3/dist-packages/deep_gemm/__init__.py)",
			[]string{"[2025-06-01 12:03:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
				`  File "/sgl-workspace/sglang/python/sglang/srt/layers/quantization/fp8_kernel.py", line 900, in w8a8_block_fp8_matmul`,
				"    return deep_gemm_gemm_nt_f8f8bf16(A, B, C)",
				"NameError: name 'deep_gemm_gemm_nt_f8f8bf16' is not defined"}},
		{"a level word without a time",
			"WARNING: flash_attn is not installed: No module named 'flash_attn'",
			[]string{"NameError: name 'flash_attn' is not defined"}},
	}
	for _, c := range cases {
		if got := scanLines(t, m, []string{c.warn}); len(got) != 0 {
			t.Errorf("%s: the warning alone raises %d incidents:%s", c.name, len(got), describe(got))
		}
		for _, l := range layouts {
			lines := []string{l.line(c.warn)}
			for _, s := range c.use {
				lines = append(lines, l.line(s))
			}
			got := scanLines(t, m, lines)
			if len(got) != 1 || !strings.Contains(strings.ToLower(got[0].Headline), "import") {
				var h []string
				for _, a := range got {
					h = append(h, a.Headline)
				}
				t.Errorf("%s, %s: want one incident whose headline names the import, got %d: %q", c.name, l.name, len(got), h)
			}
		}
	}
}

// A library the system lacks and a package's loader that then gave up on
// its native library are one incident, led by the missing library.
func TestAMissingLibraryLeadsTheLoaderThatGaveUp(t *testing.T) {
	m := crashMatcher(t)
	for _, lib := range []string{
		"ImportError: libnuma.so.1: cannot open shared object file",
		"ImportError: libnvrtc.so.12: cannot open shared object file: No such file or directory",
		"OSError: libcudart.so.12: cannot open shared object file: No such file or directory",
	} {
		alone := scanLines(t, m, []string{lib})
		if len(alone) != 1 {
			t.Fatalf("%s alone: %d incidents", lib, len(alone))
		}
		for _, l := range layouts {
			lines := []string{l.line(lib), l.line("[sgl_kernel] CRITICAL: Could not load any common_ops library!")}
			got := scanLines(t, m, lines)
			if len(got) != 1 || leadOf(got[0]) != leadOf(alone[0]) {
				t.Errorf("%s: want one incident led by %s, got %d:%s\n%s", l.name, leadOf(alone[0]), len(got), describe(got), strings.Join(lines, "\n"))
			}
		}
	}
}

// A build that misses a symbol and its loader that then gave up are one
// incident, in either order, led by the loader's record as when both are
// one entry.
func TestABuildMissingASymbolAndItsLoaderAreOneIncident(t *testing.T) {
	m := crashMatcher(t)
	loader := "[sgl_kernel] CRITICAL: Could not load any common_ops library!"
	want := leadOf(scanLines(t, m, []string{loader})[0])
	for _, sym := range []string{
		"ImportError: /usr/local/lib/python3.10/dist-packages/sgl_kernel/sm100/common_ops.abi3.so: undefined symbol: _ZNK3c106SymInt6sym_neERKS0_",
		"ImportError: /usr/local/lib/python3.12/dist-packages/sgl_kernel/sm90/common_ops.abi3.so: undefined symbol: cuGreenCtxStreamCreate",
	} {
		for _, order := range [][]string{{sym, loader}, {loader, sym}} {
			for _, l := range layouts {
				lines := []string{l.line(order[0]), l.line(order[1])}
				got := scanLines(t, m, lines)
				if len(got) != 1 || leadOf(got[0]) != want {
					t.Errorf("%s: want one incident led by %s, got %d:%s\n%s", l.name, want, len(got), describe(got), strings.Join(lines, "\n"))
				}
			}
		}
	}
}
