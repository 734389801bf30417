package entry

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// bareView is the part of an Entry the bare-exception tests look at.
type bareView struct {
	Lines  string
	Format Format
	Native string
	Exc    string // outermost exception as "Type: message"
	Bare   bool
}

func bareViews(t *testing.T, es []Entry) []bareView {
	t.Helper()
	out := make([]bareView, len(es))
	for i, v := range views(es) {
		out[i] = bareView{Lines: v.Lines, Format: v.Format, Native: v.Native, Exc: v.Exc}
		if tb := es[i].Traceback; tb != nil {
			out[i].Bare = tb.Bare
			if tb.Bare && (len(tb.Links) != 1 || len(tb.Links[0].Frames) != 0) {
				t.Errorf("entry %s: bare chain %+v, want one link without frames", v.Lines, tb)
			}
		}
	}
	return out
}

func TestAssemblerBareExceptions(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []bareView
	}{
		{
			// sgl-project/sglang#5100.
			name: "header-less ImportError",
			in:   "ImportError: /usr/local/lib/python3.11/dist-packages/sgl_kernel/common_ops.abi3.so: undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb",
			want: []bareView{{"1-1", FormatNone, "", "ImportError: /usr/local/lib/python3.11/dist-packages/sgl_kernel/common_ops.abi3.so: undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb", true}},
		},
		{
			// sgl-project/sglang#8131, the import error after its traceback
			// was cut from the paste.
			name: "bare exception then the next record",
			in:   "ImportError: /opt/conda/lib/python3.10/site-packages/sgl_kernel/common_ops.abi3.so: undefined symbol: cuGreenCtxStreamCreate\n[2025-07-18 10:00:00] Received sigquit from a child process. It usually means the child failed.",
			want: []bareView{
				{"1-1", FormatNone, "", "ImportError: /opt/conda/lib/python3.10/site-packages/sgl_kernel/common_ops.abi3.so: undefined symbol: cuGreenCtxStreamCreate", true},
				{"2-2", FormatSRT, "", "", false},
			},
		},
		{
			name: "exception as an sglang record's message",
			in:   "[2026-07-01 09:31:38 TP0] ValueError: Unsupported model architecture Qwen9ForCausalLM",
			want: []bareView{{"1-1", FormatSRT, "", "ValueError: Unsupported model architecture Qwen9ForCausalLM", true}},
		},
		{
			name: "exception as a Python logging record's message",
			in:   "2025-03-08 02:04:48,693 - sglang_launcher - ERROR - torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.11 GiB of which 1.50 GiB is free.",
			want: []bareView{{"1-1", FormatPython, "", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.11 GiB of which 1.50 GiB is free.", true}},
		},
		{
			name: "bare CUDA error keeps torch's epilogue",
			in: "torch.AcceleratorError: CUDA error: an illegal memory access was encountered\n" +
				"Search for `cudaErrorIllegalAddress' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.\n" +
				"CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n" +
				"For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n" +
				"Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
			want: []bareView{{"1-5", FormatNone, "", "torch.AcceleratorError: CUDA error: an illegal memory access was encountered", true}},
		},
		{
			name: "a message ending in a colon announces the exception line",
			in:   "Failed to load the model weights:\nsafetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge\nnext",
			want: []bareView{
				{"1-2", FormatNone, "", "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge", true},
				{"3-3", FormatNone, "", "", false},
			},
		},
		{
			name: "without the colon the exception line is its own entry",
			in:   "Loading weights\nKeyError: 'model.layers.0.self_attn.q_proj.weight'",
			want: []bareView{
				{"1-1", FormatNone, "", "", false},
				{"2-2", FormatNone, "", "KeyError: 'model.layers.0.self_attn.q_proj.weight'", true},
			},
		},
		{
			name: "an unannounced exception line after a logging record is its own entry",
			in:   "2025-03-07 23:50:27,532 - __main__ - WARNING - Attempt 13: Please wait for sglang server to become ready...\nImportError: cannot import name 'flash_attn_varlen_func'",
			want: []bareView{
				{"1-1", FormatPython, "", "", false},
				{"2-2", FormatNone, "", "ImportError: cannot import name 'flash_attn_varlen_func'", true},
			},
		},
		{
			name: "an announced exception line joins a logging record",
			in:   "2025-03-07 23:50:27,532 - __main__ - ERROR - Server process failed:\nImportError: cannot import name 'flash_attn_varlen_func'",
			want: []bareView{{"1-2", FormatPython, "", "ImportError: cannot import name 'flash_attn_varlen_func'", true}},
		},
		{
			name: "exception line in an sglang record's continuation",
			in:   "[2026-07-01 09:31:38 TP0] Load weight failed:\nRuntimeError: Error(s) in loading state_dict for Qwen2ForCausalLM:\n\tsize mismatch for lm_head.weight",
			want: []bareView{{"1-3", FormatSRT, "", "RuntimeError: Error(s) in loading state_dict for Qwen2ForCausalLM:", true}},
		},
		{
			name: "bare name alone",
			in:   "KeyboardInterrupt",
			want: []bareView{{"1-1", FormatNone, "", "KeyboardInterrupt", true}},
		},
		{
			name: "a real traceback is not bare",
			in:   "Traceback (most recent call last):\n  File \"a.py\", line 1, in f\nRuntimeError: CUDA error: an illegal memory access was encountered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
			want: []bareView{{"1-4", FormatNone, "", "RuntimeError: CUDA error: an illegal memory access was encountered", false}},
		},
		{
			name: "not exceptions: warnings, CLI errors, sentences, indented",
			in:   "UserWarning: deprecated\nError: command failed\nRuntimeError when loading\nE   torch.AcceleratorError: CUDA error: an illegal memory access was encountered",
			want: []bareView{
				{"1-1", FormatNone, "", "", false}, {"2-2", FormatNone, "", "", false}, {"3-3", FormatNone, "", "", false},
				{"4-4", FormatNone, "", "", false},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := bareViews(t, assemble(t, Options{}, tt.in))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseBareException(t *testing.T) {
	tests := []struct {
		in       string
		typ, msg string // "" typ: not an exception line
	}{
		{"ValueError: x", "ValueError", "x"},
		{"torch.OutOfMemoryError: CUDA out of memory.", "torch.OutOfMemoryError", "CUDA out of memory."},
		{"socket.gaierror: [Errno -2] Name or service not known", "socket.gaierror", "[Errno -2] Name or service not known"},
		{"triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 262144, Hardware limit: 232448.", "triton.runtime.errors.OutOfResources", "out of resource: shared memory, Required: 262144, Hardware limit: 232448."},
		{"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5", "torch.distributed.DistBackendError", "NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5"},
		{"asyncio.exceptions.CancelledError", "asyncio.exceptions.CancelledError", ""},
		{"StopIteration", "StopIteration", ""},
		{"SystemExit: 1", "SystemExit", "1"},
		{"Exception: Capture cuda graph failed: CUDA out of memory.", "Exception", "Capture cuda graph failed: CUDA out of memory."},
		{"ImportError: ", "ImportError", ""},
		{"UserWarning: x", "", ""},
		{"Error: x", "", ""},
		{"Timeout: x", "", ""},
		{"RuntimeError when loading", "", ""},
		{"ERROR: x", "", ""},
		{"ncclUnhandledCudaError: Call to CUDA function failed.", "", ""},
		{"  ValueError: indented", "", ""},
		{"Process group watchdog thread terminated with exception: x", "", ""},
		{"", "", ""},
	}
	for _, tt := range tests {
		typ, msg, ok := parseBareException(tt.in)
		if ok != (tt.typ != "") || typ != tt.typ || msg != tt.msg {
			t.Errorf("parseBareException(%q) = %q, %q, %v; want %q, %q", tt.in, typ, msg, ok, tt.typ, tt.msg)
		}
	}
}
