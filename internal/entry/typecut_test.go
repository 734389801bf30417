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
		// A built-in exception's name cut by a terminal: vLLM's NIXL
		// connector (vllm-project/vllm#27083), sglang's pynccl
		// wrapper.
		{"a built-in type cut inside a word", hardWrapText("(Worker_DP0_EP0 pid=2823482) ERROR 10-16 17:22:56 [nixl_connector.py:815] RuntimeError: Remote NIXL agent engine ID mismatch.", 80),
			"RuntimeError: Remote NIXL agent engine ID mismatch."},
		{"a built-in type cut between its words", "[2025-01-16 10:11:13 TP0] Scheduler hit an exception while processing: Runtime\nError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)",
			"RuntimeError: NCCL error: unhandled system error"},
		{"a capitalised word, then a line of its own", "2025-01-16 10:11:13 INFO the request was sent by the client to the upstream Server\nError: connection refused", "!ServerError"},
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
		{"Runtim", "eError: Remote NIXL agent engine ID mismatch.", true},
		{"Runtime", "Error: NCCL error", true},
		{"KeyErr", "or: 'lm_head.weight'", true},
		{"Server", "Error: connection refused", false},
		{"None", "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)", false},
		{"runtim", "eError: x", false},
		{"RUNTIM", "EERROR: x", false},
		{"torch.distributed.Dist", "BackendError: NCCL error", true},
		{"requests.exceptions.Connec", "tionError: HTTPSConnectionPool", true},
	} {
		if got := isDottedTypeCut(tc.tok, tc.rest); got != tc.want {
			t.Errorf("isDottedTypeCut(%q, %q) = %v, want %v", tc.tok, tc.rest, got, tc.want)
		}
	}
}

// TestRecordTracebackExceptionCut: a record whose lines each repeat its
// header (vLLM's), its traceback's exception line cut by a terminal
// inside the type's name: the cut line, a dotted name alone, stays in the
// traceback and its rest joins it (vllm-project/vllm#42362's
// EngineDeadError, vllm-project/vllm#46464's HarmonyError).
func TestRecordTracebackExceptionCut(t *testing.T) {
	for _, tc := range []struct{ name, in, exc string }{
		{"EngineDeadError", "(APIServer pid=1) ERROR 05-12 01:48:42 [api_router.py:72] Traceback (most recent call last):\n" +
			"(APIServer pid=1) ERROR 05-12 01:48:42 [api_router.py:72]   File \"/usr/local/lib/python3.12/site-packages/vllm/entrypoints/openai/chat_completion/serving.py\", line 225, in render_chat_request\n" +
			"(APIServer pid=1) ERROR 05-12 01:48:42 [api_router.py:72]     raise self.engine_client.dead_error\n" +
			"(APIServer pid=1) ERROR 05-12 01:48:42 [api_router.py:72] vllm.v1.engine.excepti\n" +
			"ons.EngineDeadError: EngineCore encountered an issue. See stack trace (above) fo\n" +
			"r the root cause.",
			"vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause."},
		{"HarmonyError", "(APIServer pid=1) ERROR 06-23 08:11:44 [serving.py:932] Traceback (most recent call last):\n" +
			"(APIServer pid=1) ERROR 06-23 08:11:44 [serving.py:932]   File \"/usr/local/lib/python3.12/dist-packages/openai_harmony/__init__.py\", line 637, in process\n" +
			"(APIServer pid=1) ERROR 06-23 08:11:44 [serving.py:932]     self._inner.process(token)\n" +
			"(APIServer pid=1) ERROR 06-23 08:11:44 [serving.py:932] openai_harmony.Harmo\n" +
			"nyError: Unexpected token 200002 while expecting start token 200006",
			"openai_harmony.HarmonyError: Unexpected token 200002 while expecting start token 200006"},
	} {
		es := assemble(t, Options{}, tc.in)
		if len(es) != 1 {
			t.Errorf("%s: %d entries, want 1: %+v", tc.name, len(es), views(es))
			continue
		}
		if x := es[0].Traceback.Outermost(); x == nil || x.Type+": "+x.Message != tc.exc {
			t.Errorf("%s: exception %+v, want %q", tc.name, x, tc.exc)
		}
	}
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"vllm.v1.engine.excepti", true}, {"openai_harmony.Harmo", true}, {"Runtim", true},
		{"done", false}, {"x.", false}, {"a..b", false}, {"Hello world", false}, {"RuntimeError", false},
	} {
		if got := isCutTypeStart(tc.s); got != tc.want {
			t.Errorf("isCutTypeStart(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

// TestRecordMessageTypeCut: a record whose message is an exception line
// cut inside its type's name has that exception once rejoined
// (vllm-project/vllm#27083).
func TestRecordMessageTypeCut(t *testing.T) {
	es := assemble(t, Options{}, hardWrapText("(Worker_DP0_EP0 pid=2823482) ERROR 10-16 17:22:56 [nixl_connector.py:815] RuntimeError: Remote NIXL agent engine ID mismatch.", 80))
	if len(es) != 1 || es[0].Traceback == nil || !es[0].Traceback.Bare || es[0].Traceback.Outermost().Type != "RuntimeError" {
		t.Errorf("entries %+v, want one with the bare RuntimeError", bareViews(t, es))
	}
}
