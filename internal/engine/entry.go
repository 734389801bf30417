package engine

import "strings"

// Entry evidence. A stream is decided for one engine, yet one log can
// carry two engines' lines: a platform relaying another engine
// (Xinference, FastChat, Dynamo's workers), a framework hosting two, two
// logs pasted into one. An entry that carries an engine's own shapes is
// that engine's whatever the stream was decided for. OfEntry reads those
// shapes from the entry's first line and the frames of its traceback,
// with a few substring searches; it is called only for entries a record
// scoped to engines matched, or that failed.

// maxHeader bounds how much of the first line is read for a header.
const maxHeader = 256

// OfEntry names the engine whose own shapes an entry carries, "" when it
// carries none or they do not tell. process is the process prefix the
// entry's header named (vLLM's "EngineCore_DP0 pid=N"), first its first
// line as written (header included), text the whole entry.
//
// The first line decides when it holds a shape that decides a stream by
// itself (Confident): sglang's "[YYYY-MM-DD HH:MM:SS TP0]", vLLM's
// process prefix, TGI's targets, LMDeploy's logger. vLLM's logger header
// alone is no evidence (sglang's older releases log through it when they
// import vLLM's layers), nor are TensorRT-LLM's "[TensorRT-LLM]" tags
// (Triton's backend prints them inside its own lines). Otherwise the
// traceback's frames do: sglang's runtime ("sglang/srt/") before vLLM's
// engine ("vllm/v1/engine/", "vllm/entrypoints/", its workers and
// executors), since older sglang releases import vLLM's layers (never
// its engine); then TGI's server and LMDeploy's package.
func OfEntry(process, first, text string) string {
	if vllmProcess(process) {
		return VLLM
	}
	if len(first) > maxHeader {
		first = first[:maxHeader]
	}
	if name := ofHeader(first); name != "" {
		return name
	}
	return ofFrames(text)
}

// vllmProcess reports whether a process prefix's text, parentheses
// removed, is one of vLLM's (see vllmPrefix).
func vllmProcess(p string) bool {
	for _, n := range [...]string{"EngineCore", "VllmWorker", "APIServer pid=", "RayWorkerWrapper pid="} {
		if strings.HasPrefix(p, n) {
			return true
		}
	}
	return false
}

// ofHeader names the engine whose header line s is, "" when none.
func ofHeader(s string) string {
	if i := strings.Index(s, "[20"); i >= 0 && sglangHeader(s[i:]) == 2 {
		return SGLang
	}
	if i := strings.IndexByte(s, '('); i >= 0 && vllmPrefix(s[i:]) {
		return VLLM
	}
	if strings.Contains(s, "text_generation_") {
		return TGI
	}
	if strings.Contains(s, " - lmdeploy - ") || strings.Contains(s, "[TM][") {
		return LMDeploy
	}
	return ""
}

// vllmEngineFrames are the parts of vLLM's package only its own engine
// runs; another program that imports vllm runs its layers. The Detector
// and OfEntry read them both (vllmEngineFrame).
var vllmEngineFrames = [...]string{"vllm/v1/engine/", "vllm/engine/", "vllm/entrypoints/", "vllm/v1/worker/", "vllm/worker/", "vllm/v1/executor/", "vllm/executor/"}

// vllmEngineFrame reports whether s names a file of vLLM's own engine
// (vllmEngineFrames).
func vllmEngineFrame(s string) bool {
	if !strings.Contains(s, "vllm/") {
		return false
	}
	for _, f := range vllmEngineFrames {
		if strings.Contains(s, f) {
			return true
		}
	}
	return false
}

// ofFrames names the engine whose source a traceback's frames pass
// through, "" when none.
func ofFrames(text string) string {
	// Frames are continuation lines: a one-line entry has none.
	if strings.IndexByte(text, '\n') < 0 || !strings.Contains(text, ".py") {
		return ""
	}
	if strings.Contains(text, "sglang/srt/") {
		return SGLang
	}
	if vllmEngineFrame(text) {
		return VLLM
	}
	if strings.Contains(text, "text_generation_server/") {
		return TGI
	}
	if strings.Contains(text, "lmdeploy/") {
		return LMDeploy
	}
	return ""
}
