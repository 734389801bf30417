package analysis_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

// CarriesOn reads the writer's own words: a clause that carries on past
// the failure it reports, and nothing after it that gives up. The
// messages are the writers' wordings without their prefixes; see
// internal/incident's notice tables for the lines as printed.
func TestCarriesOn(t *testing.T) {
	for msg, want := range map[string]bool{
		// Ignores or skips what failed.
		"Ignore import error when loading sglang.srt.models.mindspore: name 'Tensor' is not defined":                    true,
		"Ignored error while writing commit hash to /root/.cache/hub/refs/main: [Errno 30] Read-only file system":       true,
		"Detection rule 'r1' for reasoning_parser raised an exception: KeyError('bos_token'). Skipping.":                true,
		"Failed to grab frame 12 during video loading. This frame will be skipped.":                                     true,
		"Failed to import torch_npu. Please make sure torch_npu is installed correctly. Ascend initialization skipped.": true,
		// Goes on past it.
		"Failed to load generation config for /m: /m does not appear to have a file named generation_config.json. Checkout 'https://huggingface.co//m/tree/main' for available files.. Proceeding without generation config.": true,
		"cuDNN fp8 GEMM tactic failed; falling back to default tactic=-1. (cudnnGraphNotSupportedError: No valid engine configs)":                                                                                             true,
		"Failed to acquire tokenizer in current thread. Retrying (1/3)...":                                                                                                                                                    true,
		"HTTP fetch failed for https://x/cat.png (attempt 1/3): Cannot connect to host x:443 -- retrying in 0.500s":                                                                                                           true,
		"mkstemp: Failed to create /dev/shm/nccl-Xq3bA1, error: No space left on device (28) - retrying":                                                                                                                      true,
		"psutil.virtual_memory() failed (PermissionError: [Errno 13] Permission denied); using default ZMQ buffer size":                                                                                                       true,
		"Failed to determine if RMSNorm weight is centered on zero or one. Defaulting to one.":                                                                                                                                true,
		"Failed to initialize FlashInfer workspace: CUDA driver error. Disabling flashinfer allreduce fusion permanently.":                                                                                                    true,
		"Failed to compile NCCL memory allocator. Symmetric memory will be disabled. Error: fatal error: nccl.h: No such file":                                                                                                true,
		"Couldn't access the Hub to check for update but local file already exists. Defaulting to existing file. (error: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /api)":          true,
		"[Autotuner]: Skipping tactic 3 7, due to failure while profiling: RuntimeError: Unsupported tile shape":                                                                                                              true,
		"NET/Plugin: No plugin found (libnccl-net.so), using internal implementation":                                                                                                                                         true,
		"Connection failure, retry cnt: 3": true,
		// Gives up, or the carrying on failed.
		"Failed to connect to the bootstrap server after 3 retries, giving up: Connection refused":            false,
		"Retrying the KV transfer failed: RDMA error: remote access error":                                    false,
		"Falling back to the triton attention backend failed: CUDA error: out of memory":                      false,
		"Fallback to CPU also failed: RuntimeError: no kernel image":                                          false,
		"Failed to load model weights: CUDA error: out of memory. Skipping the remaining shards and exiting.": false,
		"NCCL error: unhandled system error, retrying (3/3) ... retries exhausted, aborting":                  false,
		"Failed to load generation config. Exiting.":                                                          false,
		// Says nothing of carrying on, or only advises it.
		"CUDA out of memory. Tried to allocate 2.00 GiB. Try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation": false,
		"Capture cuda graph failed: CUDA error: out of memory. Possible solutions: disable CUDA graph by --disable-cuda-graph":                false,
		"Setup Custom allreduce failed with CUDA error: invalid argument. To silence this warning, specify --disable-custom-all-reduce":       true,
		"You can suppress this exception and fall back to eager by setting: torch._dynamo.config.suppress_errors = True":                      false,
		"Scheduler hit an exception: Traceback (most recent call last):":                                                                      false,
		"Error with fallback parsing: Expecting value: line 1 column 1 (char 0)":                                                              false,
	} {
		if got := analysis.CarriesOn(msg); got != want {
			t.Errorf("CarriesOn(%q) = %v, want %v", msg, got, want)
		}
	}
}

// A line too long, or of bytes no writer prints, is read within its bound
// and never panics.
func TestCarriesOnBounded(t *testing.T) {
	long := strings.Repeat("x failed, ", 1000) + "falling back to y"
	if analysis.CarriesOn(long) {
		t.Errorf("the carry-on clause past the bound was read")
	}
	for _, s := range []string{"", ".", ". ", "[", "[x", "(", "'", "İ falling back", "\xff\xfe; skipping", "[" + strings.Repeat("a", 100) + "] skipping"} {
		analysis.CarriesOn(s)
	}
}
