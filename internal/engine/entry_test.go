package engine

import (
	"strings"
	"testing"
)

// ofEntryCases are entries as OfEntry sees them: the process prefix the
// header named, the first line as written, the whole text.
var ofEntryCases = []struct {
	name, process, first, text, want string
}{
	{"sglang's ranked header", "", "[2026-05-28 00:11:09 TP0] Scheduler hit an exception: Traceback (most recent call last):", "", SGLang},
	{"sglang's header with milliseconds and ranks", "", "[2026-05-28 00:11:09.123 DP1 TP3 EP3] Decode transfer failed", "", SGLang},
	{"sglang's main process, bare", "", "[2026-05-28 00:11:09] INFO:     127.0.0.1:5000 - \"GET /health HTTP/1.1\" 200 OK", "", ""},
	{"vLLM's process prefix, taken off", "EngineCore_DP0 pid=17374", "ERROR 09-28 15:47:21 [core.py:708] EngineCore failed to start.", "", VLLM},
	{"vLLM's process prefix, in the line", "", "(VllmWorker rank=0 pid=9) ERROR 09-28 15:47:21 [multiproc_executor.py:596] WorkerProc failed", "", VLLM},
	{"vLLM's logger header alone", "", "ERROR 09-28 15:47:21 [core.py:708] EngineCore failed to start.", "", ""},
	{"vLLM's import-time header", "", "INFO 09-28 15:47:21 [__init__.py:216] Automatically detected platform cuda.", "", ""},
	{"TGI's launcher", "", "2023-09-26T21:48:00.969072Z ERROR text_generation_launcher: Method Warmup encountered an error.", "", TGI},
	{"LMDeploy's logger", "", "2024-05-01 12:00:00,000 - lmdeploy - ERROR - engine failed", "", LMDeploy},
	{"TensorRT-LLM's tag inside Triton's line", "", `E1113 01:00:58.469718 3545 backend_model.cc:692] "[TensorRT-LLM][ERROR] Assertion failed"`, "", ""},
	{"sglang's frames", "", "Traceback (most recent call last):",
		"Traceback (most recent call last):\n  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 3120, in run\nValueError: x", SGLang},
	{"sglang's frames through vLLM's layers", "", "Traceback (most recent call last):",
		"  File \"/usr/lib/python3/vllm/model_executor/layers/linear.py\", line 9, in f\n  File \"/x/sglang/srt/models/llama.py\", line 2, in g\nValueError: x", SGLang},
	{"vLLM's layers alone", "", "Traceback (most recent call last):",
		"  File \"/usr/lib/python3/vllm/model_executor/layers/linear.py\", line 9, in f\nValueError: x", ""},
	{"vLLM's engine frames, short", "", `File "vllm/v1/engine/utils.py", line 1178, in wait_for_engine_startup`,
		"File \"vllm/v1/engine/utils.py\", line 1178, in wait_for_engine_startup\nRuntimeError: Engine core initialization failed.", VLLM},
	{"TGI's server frames", "", "Traceback (most recent call last):",
		"  File \"/opt/conda/lib/python3.9/site-packages/text_generation_server/models/flash_causal_lm.py\", line 755, in warmup\nRuntimeError: x", TGI},
	{"the header decides before the frames", "", "(EngineCore_DP0 pid=9) ERROR 09-28 15:47:21 [core.py:708] Traceback (most recent call last):",
		"  File \"/x/sglang/srt/models/llama.py\", line 2, in g\nValueError: x", VLLM},
	{"no engine's shapes", "", "ValueError: [address=127.0.0.1:37657, pid=3125985] User-specified max_model_len (4096)", "ValueError: [address=127.0.0.1:37657, pid=3125985] User-specified max_model_len (4096)", ""},
}

func TestOfEntry(t *testing.T) {
	for _, c := range ofEntryCases {
		text := c.text
		if text == "" {
			text = c.first
		}
		if got := OfEntry(c.process, c.first, text); got != c.want {
			t.Errorf("%s: OfEntry = %q, want %q", c.name, got, c.want)
		}
	}
}

// OfEntry reads any bytes without panicking, and names a known engine or
// none.
func FuzzOfEntry(f *testing.F) {
	for _, c := range ofEntryCases {
		f.Add(c.process, c.first, c.text)
	}
	f.Add("", "[20", "File ")
	f.Add("(", "(EngineCore", "vllm/")
	f.Add("", "INFO 01-02 03:04:05 [", ".py")
	f.Fuzz(func(t *testing.T, process, first, text string) {
		if got := OfEntry(process, first, text); got != "" && !Known(got) {
			t.Errorf("OfEntry(%q, %q, %q) = %q, not a known engine", process, first, text, got)
		}
	})
}

// A long first line is read only up to maxHeader bytes for a header.
func TestOfEntryBoundsHeader(t *testing.T) {
	first := strings.Repeat("x", maxHeader) + " text_generation_launcher: failed"
	if got := OfEntry("", first, ""); got != "" {
		t.Errorf("a header past %d bytes counted: %q", maxHeader, got)
	}
}

// TestDetectorAndOfEntryShareVLLMEngineFrames: a frame of any part of
// vLLM's own engine (vllmEngineFrames) decides a stream for the Detector
// as it decides an entry for OfEntry; a frame of vLLM's layers, which
// other programs import, decides neither.
func TestDetectorAndOfEntryShareVLLMEngineFrames(t *testing.T) {
	const site = `  File "/usr/local/lib/python3.12/dist-packages/`
	for _, part := range vllmEngineFrames {
		frame := site + part + `runner.py", line 1, in run`
		if got := detect(frame); got != VLLM {
			t.Errorf("Detector on a frame of %s: %q, want %q", part, got, VLLM)
		}
		if got := OfEntry("", "Traceback (most recent call last):", "Traceback (most recent call last):\n"+frame+"\nValueError: x"); got != VLLM {
			t.Errorf("OfEntry on a frame of %s: %q, want %q", part, got, VLLM)
		}
	}
	layer := site + `vllm/model_executor/layers/linear.py", line 1, in f`
	if got := detect(layer); got != "" {
		t.Errorf("Detector on a layer's frame: %q, want none", got)
	}
	if got := OfEntry("", "Traceback (most recent call last):", "Traceback (most recent call last):\n"+layer+"\nValueError: x"); got != "" {
		t.Errorf("OfEntry on a layer's frame: %q, want none", got)
	}
}
