package entry

import (
	"strings"
	"testing"
)

// TestAssemblerRejoinsDottedTypeCut: an exception line cut inside its
// dotted type's name is rejoined, for three writers' exceptions (vLLM's
// EngineDeadError behind its API server's prefix, torch's
// DistBackendError, the Hub's OfflineModeIsEnabled); a writer's name or a
// path after a dotted token stays a line of its own.
func TestAssemblerRejoinsDottedTypeCut(t *testing.T) {
	tests := []struct {
		name, in, whole string // whole: some entry's text holds it; after "!", none does
	}{
		{"vLLM's EngineDeadError", "(APIServer pid=7) ERROR 10-21 11:25:49 [serving_chat.py:1051] vllm.v1.engine.exc\neptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above\n) for the root cause.",
			"vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue."},
		{"torch's DistBackendError", hardWrapText("(RayWorkerWrapper pid=2667395, ip=10.175.94.190) [rank0]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, unhandled system error", 80),
			"torch.distributed.DistBackendError: NCCL error in:"},
		{"requests' ConnectionError", hardWrapText("2026-12-06 18:42:43,046 - sglang_router - ERROR - requests.exceptions.ConnectionError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded", 80),
			"requests.exceptions.ConnectionError: HTTPSConnectionPool(host='huggingface.co', port=443)"},
		{"a writer's name after a dotted token", "2026-12-06 18:42:43 INFO building the extension sgl_kernel.common_ops with the flags of this machine sgl.x\nninja: build stopped: subcommand failed.", "!sgl.xninja"},
		{"an exception line after a dotted token", "2026-12-06 18:42:43 INFO loading the weights of the model from the directory of this model.safetensors\nValueError: bad weights", "!safetensorsValueError"},
	}
	for _, tc := range tests {
		es := assemble(t, Options{}, tc.in)
		var all []string
		for _, e := range es {
			all = append(all, e.Text)
		}
		text := strings.Join(all, "\n---\n")
		want, not := strings.CutPrefix(tc.whole, "!")
		if strings.Contains(text, want) == not {
			t.Errorf("%s: entries %q, want %q held: %v", tc.name, text, want, !not)
		}
	}
	for _, tc := range []struct {
		tok, rest string
		want      bool
	}{
		{"vllm.v1.engine.exc", "eptions.EngineDeadError: EngineCore encountered an issue.", true},
		{"torch.distributed.DistBac", "kendError: NCCL error", true},
		{"sgl.x", "ninja: build stopped: subcommand failed.", false},
		{"model.safetensors", "ValueError: bad", false},
		{"nodots", "Error: x", false},
		{"torch.distributed.Dist", "BackendError: NCCL error", true},
		{"requests.exceptions.Connec", "tionError: HTTPSConnectionPool", true},
	} {
		if got := isDottedTypeCut(tc.tok, tc.rest); got != tc.want {
			t.Errorf("isDottedTypeCut(%q, %q) = %v, want %v", tc.tok, tc.rest, got, tc.want)
		}
	}
}
