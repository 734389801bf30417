package scan_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/scan"
)

// TestBuildAndQuotedCauseLeads scans composed logs through the real
// assembler: a torch extension build of another package than FlashInfer
// is led by the neutral extension record (or by the compiler's own error
// above it), FlashInfer's JIT build keeps its record, a compiler killed
// for memory leads even when pip's output wrapped the program's name
// onto the next line, and a status wrapper gives way to the Python error
// it quotes.
func TestBuildAndQuotedCauseLeads(t *testing.T) {
	const (
		extTB = "Traceback (most recent call last):\n" +
			"  File \"/usr/local/lib/python3.10/dist-packages/torch/utils/cpp_extension.py\", line 2100, in _run_ninja_build\n" +
			"    subprocess.run(\n" +
			"  File \"/usr/lib/python3.10/subprocess.py\", line 526, in run\n" +
			"    raise CalledProcessError(retcode, process.args,\n" +
			"subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.\n" +
			"\n" +
			"The above exception was the direct cause of the following exception:\n" +
			"\n" +
			"Traceback (most recent call last):\n" +
			"  File \"/app/train.py\", line 40, in <module>\n" +
			"    optimizer = DeepSpeedCPUAdam(model.parameters())\n" +
			"  File \"/usr/local/lib/python3.10/dist-packages/deepspeed/ops/adam/cpu_adam.py\", line 94, in __init__\n" +
			"    self.ds_opt_adam = CPUAdamBuilder().load()\n" +
			"  File \"/usr/local/lib/python3.10/dist-packages/torch/utils/cpp_extension.py\", line 2116, in _run_ninja_build\n" +
			"    raise RuntimeError(message) from e\n" +
			"RuntimeError: Error building extension 'cpu_adam'\n"
		compileErr = "[1/3] c++ -MMD -MF cpu_adam.o.d -DTORCH_EXTENSION_NAME=cpu_adam -O3 -c /opt/deepspeed/ops/csrc/adam/cpu_adam.cpp -o cpu_adam.o\n" +
			"FAILED: cpu_adam.o\n" +
			"/opt/deepspeed/ops/csrc/includes/simd.h:63:10: fatal error: immintrin.h: No such file or directory\n" +
			"compilation terminated.\n" +
			"ninja: build stopped: subcommand failed.\n"
		flashinfer = "[2026-05-28 00:11:09 TP0] Scheduler hit an exception: Traceback (most recent call last):\n" +
			"  File \"/sgl/python/sglang/srt/managers/scheduler.py\", line 3120, in run_scheduler_process\n" +
			"    scheduler.event_loop_overlap()\n" +
			"  File \"/usr/local/lib/python3.12/dist-packages/flashinfer/jit/cpp_ext.py\", line 299, in run_ninja\n" +
			"    subprocess.run(command, check=True)\n" +
			"subprocess.CalledProcessError: Command '['ninja', '-v', '-C', '/root/.cache/flashinfer/0.5.3/90/cached_ops', '-f', '/root/.cache/flashinfer/0.5.3/90/cached_ops/build.ninja']' returned non-zero exit status 1.\n"
		pipKilled = "      [12/48] /usr/local/cuda/bin/nvcc -c csrc/flash_attn/flash_fwd_hdim128_bf16_sm80.cu -o build/flash_fwd_hdim128_bf16_sm80.o\n" +
			"      x86_64-linux-gnu-g++: fatal error: Killed signal terminated program\n" +
			"      cc1plus\n" +
			"      compilation terminated.\n" +
			"      ninja: build stopped: subcommand failed.\n" +
			"      error: subprocess-exited-with-error\n"
		oldGCCKilled = "  building 'flash_attn_2_cuda' extension\n" +
			"  c++: internal compiler error: Killed (program cc1plus)\n" +
			"  Please submit a full bug report,\n" +
			"  with preprocessed source if appropriate.\n" +
			"  error: command '/usr/bin/c++' failed with exit code 4\n"
		triton = "I0615 10:01:02.123456 1 model_lifecycle.cc:469] loading: postprocessing:1\n" +
			"E0615 10:01:03.234567 1 model_lifecycle.cc:638] failed to load 'postprocessing' version 1: Internal: ModuleNotFoundError: No module named 'tokenizers'\n" +
			"I0615 10:01:03.234600 1 model_lifecycle.cc:773] failed to load 'postprocessing'\n"
	)
	const (
		mooncake = "[2025-06-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):\n" +
			"  File \"/sgl/python/sglang/srt/disaggregation/mooncake/transfer_engine.py\", line 120, in register\n" +
			"    ret_value = self.engine.batch_register_memory(ptrs, lengths)\n" +
			"TypeError: batch_register_memory(): incompatible function arguments. The following argument types are supported:\n" +
			"    1. (self: mooncake.engine.TransferEngine, arg0: list[int], arg1: list[int]) -> int\n" +
			"\n" +
			"Invoked with: <mooncake.engine.TransferEngine object at 0x7f00>, [1], [2]\n"
		deepgemm = "[2025-06-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):\n" +
			"  File \"/sgl/python/sglang/srt/layers/deep_gemm_wrapper/compile_utils.py\", line 120, in _compile\n" +
			"    deep_gemm.m_grouped_fp8_gemm_nt_contiguous(a, b, d, m_indices)\n" +
			"TypeError: m_grouped_fp8_gemm_nt_contiguous(): incompatible function arguments. The following argument types are supported:\n" +
			"    1. (arg0: tuple[torch.Tensor, torch.Tensor], arg1: tuple[torch.Tensor, torch.Tensor], arg2: torch.Tensor) -> None\n" +
			"\n" +
			"Invoked with: (tensor([1]),)\n"
	)
	m := corpusMatcher(t)
	for _, c := range []struct{ name, log, want string }{
		{"another package's extension, traceback only", extTB, "torch-extension-build-failed"},
		{"another package's extension after its compiler error", compileErr + extTB, "jit-compile-missing-header"},
		{"FlashInfer's JIT build", flashinfer, "flashinfer-ninja-build-failed"},
		{"compiler killed, program name wrapped", pipKilled, "compiler-killed-out-of-memory"},
		{"compiler killed, older gcc", oldGCCKilled, "compiler-killed-out-of-memory"},
		{"a status wrapper quoting the module error", triton, "python-module-not-found"},
		{"a pybind signature mismatch in Mooncake's binding", mooncake, "mooncake-api-version-skew"},
		{"a pybind signature mismatch in another module", deepgemm, "extension-incompatible-function-arguments"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := scan.New(m, scan.Options{Entry: entry.Options{}, Now: func() time.Time { return corpusNow }})
			res, err := s.Scan(context.Background(), []scan.Input{{Name: "build.log", R: strings.NewReader(c.log)}})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Alerts) != 1 {
				t.Fatalf("%d incidents, want 1: %v", len(res.Alerts), headlines(res))
			}
			if got := lead(res.Alerts).Record.Slug; got != c.want {
				t.Errorf("lead %s, want %s: %v", got, c.want, headlines(res))
			}
		})
	}
}

// TestClientSummaryLeadsItsCutTraceback: a client that gives up on a
// request logs its classified summary and then the call's traceback, cut
// before its exception line in the HTTP library; the traceback says less
// than the classified line of the same event, so the summary leads and
// the traceback is its context, with the shell's "Killed" folded in.
func TestClientSummaryLeadsItsCutTraceback(t *testing.T) {
	const log = "RuntimeError: Request to http://10.0.0.5:30000/generate failed after 3 retries. Last error: Server disconnected\n" +
		"Killed\n" +
		"ERROR:concurrent.futures:exception calling callback for <Future at 0x7f00 state=finished raised RuntimeError>\n" +
		"Traceback (most recent call last):\n" +
		"  File \"/usr/lib/python3/dist-packages/requests/adapters.py\", line 667, in send\n" +
		"    resp = conn.urlopen(\n" +
		"  File \"/usr/lib/python3/dist-packages/urllib3/connectionpool.py\", line 787, in urlopen\n" +
		"    response = self._make_request(\n"
	m := corpusMatcher(t)
	s := scan.New(m, scan.Options{Entry: entry.Options{}, Now: func() time.Time { return corpusNow }})
	res, err := s.Scan(context.Background(), []scan.Input{{Name: "client.log", R: strings.NewReader(log)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Alerts) != 1 {
		t.Fatalf("%d incidents, want 1: %v", len(res.Alerts), headlines(res))
	}
	a := lead(res.Alerts)
	if a.Record.Slug != "http-upstream-disconnected" {
		t.Errorf("lead %s, want http-upstream-disconnected: %v", a.Record.Slug, headlines(res))
	}
	if len(a.Context) == 0 {
		t.Errorf("the cut traceback is not the summary's context: %v", headlines(res))
	}
}
