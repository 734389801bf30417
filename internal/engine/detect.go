package engine

import "strings"

// Detection weighs each line's shapes. A shape that only one engine
// writes (a process prefix, a logger name, a binary's name) is worth
// Confident by itself; a shape others may share (a module path in a
// traceback, glog's header, a loader function of a library several
// engines link) is worth less and, where another engine's traceback can
// hold it (sglang's older releases import vllm), is capped, so it never
// decides alone. An engine is decided once its score reaches Confident
// and is higher than every other engine's.
const (
	// Confident is the score that decides an engine.
	Confident = 4
	// MaxLines is how many lines a Detector reads before it gives up,
	// undecided: a stream of another program costs nothing after that.
	MaxLines = 2000
)

// index of each engine in a Detector's scores, in Names order.
const (
	iSGLang = iota
	iVLLM
	iTGI
	iTRTLLM
	iTriton
	iLMDeploy
	iOllama
	iLlamaCPP
	nEngines
)

// Detector tells which engine writes one stream. The zero value is ready
// to use. It is not safe for concurrent use; one stream feeds one
// Detector.
type Detector struct {
	engine string
	done   bool
	set    bool // decided by Set, not by reading
	lines  int
	scores [nEngines]int
	weak   [nEngines]int // the part of scores that came from capped shapes
}

// Engine is the decided engine, or "" while undecided (and forever when
// the stream never showed one).
func (d *Detector) Engine() string { return d.engine }

// Done reports whether the Detector has stopped reading: it decided, was
// set, or gave up after MaxLines.
func (d *Detector) Done() bool { return d.done }

// Set decides the engine without reading (a configured override). An
// empty name makes the Detector stop undecided.
func (d *Detector) Set(name string) { d.engine, d.done, d.set = name, true, true }

// Configured reports whether the engine was Set rather than read from
// the stream's lines.
func (d *Detector) Configured() bool { return d.set }

// Line reads one line of the stream. Once Done it returns at once.
func (d *Detector) Line(s string) {
	if d.done {
		return
	}
	d.lines++
	d.read(s)
	d.decide()
	if !d.done && d.lines >= MaxLines {
		d.done = true
	}
}

// decide settles on the best engine when it is confident.
func (d *Detector) decide() {
	best, second := -1, 0
	for i, s := range d.scores {
		switch {
		case best < 0 || s > d.scores[best]:
			if best >= 0 {
				second = max(second, d.scores[best])
			}
			best = i
		default:
			second = max(second, s)
		}
	}
	if d.scores[best] >= Confident && d.scores[best] > second {
		d.engine, d.done = Names[best], true
	}
}

// add scores a shape of engine i.
func (d *Detector) add(i, w int) { d.scores[i] += w }

// addWeak scores a shared shape of engine i, up to limit from all of
// its shared shapes.
func (d *Detector) addWeak(i, w, limit int) {
	if d.weak[i] >= limit {
		return
	}
	w = min(w, limit-d.weak[i])
	d.weak[i] += w
	d.scores[i] += w
}

// read scores the shapes of one line. Each test is a substring search or
// a look at a few bytes, cheapest first where one rules others out.
func (d *Detector) read(s string) {
	// sglang: "[2026-05-28 00:11:08 TP0] ", "[... DP1 TP3 EP3] "; the
	// main process's "[2026-05-28 00:11:08] " is the same logger.
	if i := strings.Index(s, "[20"); i >= 0 {
		switch sglangHeader(s[i:]) {
		case 2:
			d.add(iSGLang, Confident)
		case 1:
			d.addWeak(iSGLang, 2, 2)
		}
	}
	if strings.Contains(s, "sglang") || strings.Contains(s, "SGLang") || strings.Contains(s, "sgl_kernel") {
		d.addWeak(iSGLang, 2, Confident)
	}

	// vLLM: process prefixes of the V1 engine and its executors, its
	// logger's "LEVEL MM-DD HH:MM:SS [file.py:N]" header, its package.
	if i := strings.IndexByte(s, '('); i >= 0 && vllmPrefix(s[i:]) {
		d.add(iVLLM, Confident)
	} else if strings.Contains(s, "VllmWorker") || strings.Contains(s, "vllm.entrypoints") || strings.Contains(s, "vllm serve ") ||
		vllmEngineFrame(s) {
		// A worker process's name in its own messages, the server's
		// entry point on the command line that started it, a frame of
		// vLLM's own engine, entry points, workers or executors
		// (another program that imports vllm, as sglang's older
		// releases did, runs its layers, never its engine: the list
		// OfEntry reads too).
		d.add(iVLLM, Confident)
	}
	if vllmHeader(s) {
		d.add(iVLLM, 1)
	}
	if strings.Contains(s, "vLLM") {
		d.addWeak(iVLLM, 2, Confident)
	} else if strings.Contains(s, "vllm") {
		d.addWeak(iVLLM, 1, 2)
	}

	// TGI: the launcher's, router's, server's and client's targets.
	if strings.Contains(s, "text_generation_") {
		d.add(iTGI, Confident)
	}

	// TensorRT-LLM: the C++ runtime's "[TensorRT-LLM]" and the Python
	// logger's "[TRT-LLM]"; Triton's TensorRT-LLM backend prints them too.
	if strings.Contains(s, "[TensorRT-LLM]") || strings.Contains(s, "[TRT-LLM]") {
		d.add(iTRTLLM, 3)
	} else if strings.Contains(s, "tensorrt_llm") {
		d.addWeak(iTRTLLM, 2, Confident)
	}

	// Triton: the server's binary and sources; glog's header alone is
	// shared by every C++ library that logs with glog.
	if strings.Contains(s, "tritonserver") || strings.Contains(s, "model_repository_manager") ||
		strings.Contains(s, "model_lifecycle.cc") || strings.Contains(s, "backend_model") {
		d.add(iTriton, Confident)
	} else if glogHeader(s) {
		d.addWeak(iTriton, 1, 2)
	}

	// LMDeploy: its logger's " - lmdeploy - " and TurboMind's "[TM][".
	if strings.Contains(s, " - lmdeploy - ") || strings.Contains(s, "[TM][") {
		d.add(iLMDeploy, Confident)
	} else if strings.Contains(s, "lmdeploy") || strings.Contains(s, "turbomind") {
		d.addWeak(iLMDeploy, 2, Confident)
	}

	// Ollama: Go's slog "time=… level=… source=… msg=…", gin's access
	// lines; its runner's llama.cpp lines count for llama.cpp.
	if strings.Contains(s, "level=") && strings.Contains(s, "time=") && strings.Contains(s, "source=") && strings.Contains(s, "msg=") {
		d.add(iOllama, Confident)
	} else if strings.Contains(s, "[GIN]") {
		d.add(iOllama, 2)
	} else if strings.Contains(s, "ollama") {
		d.addWeak(iOllama, 1, 2)
	}

	// llama.cpp: the loader's and ggml's function names. Ollama passes
	// them through, so one line is little: four decide.
	if strings.Contains(s, "llama_model_load") || strings.Contains(s, "llm_load_") ||
		strings.Contains(s, "ggml_") || strings.Contains(s, "GGML_") || strings.Contains(s, "llama_new_context") ||
		strings.Contains(s, "llama.cpp") || strings.Contains(s, "load_tensors:") {
		d.add(iLlamaCPP, 1)
	}
}

// sglangHeader looks at s, which starts with "[20", for sglang's header:
// 2 for "[YYYY-MM-DD HH:MM:SS" then a rank (" TP0", " DP1", " PP0",
// " EP2") or a fraction of a second and a rank, 1 for the bare
// "[YYYY-MM-DD HH:MM:SS] " of the main process, 0 otherwise.
func sglangHeader(s string) int {
	const stamp = len("[2026-05-28 00:11:08")
	if len(s) < stamp+2 || !digits(s, 1, 4) || s[5] != '-' || !digits(s, 6, 2) || s[8] != '-' ||
		!digits(s, 9, 2) || s[11] != ' ' || !clock(s[12:]) {
		return 0
	}
	rest := s[stamp:]
	if rest[0] == '.' { // milliseconds, as some releases print
		i := 1
		for i < len(rest) && isDigit(rest[i]) {
			i++
		}
		rest = rest[i:]
	}
	switch {
	case strings.HasPrefix(rest, "] "):
		return 1
	case len(rest) >= 4 && rest[0] == ' ' && isRank(rest[1:3]) && isDigit(rest[3]):
		return 2
	}
	return 0
}

func isRank(s string) bool {
	switch s {
	case "TP", "DP", "PP", "EP", "CP":
		return true
	}
	return false
}

// vllmPrefix reports whether s, which starts with "(", is a process
// prefix of vLLM: "(EngineCore_DP0 pid=N)", "(EngineCore pid=N)",
// "(VllmWorker rank=0 pid=N)", "(VllmWorkerProcess pid=N)",
// "(APIServer pid=N)" or "(RayWorkerWrapper pid=N, ip=…)".
func vllmPrefix(s string) bool {
	for _, p := range [...]string{"(EngineCore", "(VllmWorker", "(APIServer pid=", "(RayWorkerWrapper pid="} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// vllmLevels are the level names vLLM's logger prints, each with the
// space after it.
var vllmLevels = [...]string{"INFO ", "WARNING ", "ERROR ", "DEBUG ", "CRITICAL "}

// importTime are the modules whose lines vLLM's package logs when it is
// imported: sglang imports vllm, so its logs hold them too.
var importTime = map[string]bool{"__init__": true, "env_override": true}

// vllmHeader reports whether s holds vLLM's header "LEVEL MM-DD
// HH:MM:SS [file.py:N]" (older releases: no opening bracket), from a
// module other than those logging at import time.
func vllmHeader(s string) bool {
	for _, lv := range vllmLevels {
		i := strings.Index(s, lv)
		if i < 0 {
			continue
		}
		r := s[i+len(lv):]
		// "05-01 12:00:00 "
		if len(r) < 15 || !digits(r, 0, 2) || r[2] != '-' || !digits(r, 3, 2) || r[5] != ' ' || !clock(r[6:]) || r[14] != ' ' {
			continue
		}
		loc := r[15:]
		if len(loc) > 0 && loc[0] == '[' {
			loc = loc[1:]
		}
		end := strings.IndexByte(loc, ']')
		if end < 0 || end > 64 {
			continue
		}
		file, _, ok := strings.Cut(loc[:end], ".py:")
		if ok && file != "" && !importTime[file] {
			return true
		}
	}
	return false
}

// glogHeader reports whether s starts with glog's "E0625 12:00:00.123456 ".
func glogHeader(s string) bool {
	if len(s) < 22 {
		return false
	}
	switch s[0] {
	case 'I', 'W', 'E', 'F':
	default:
		return false
	}
	return digits(s, 1, 4) && s[5] == ' ' && clock(s[6:]) && s[14] == '.' && digits(s, 15, 6)
}

// clock reports whether s starts with "HH:MM:SS".
func clock(s string) bool {
	return len(s) >= 8 && digits(s, 0, 2) && s[2] == ':' && digits(s, 3, 2) && s[5] == ':' && digits(s, 6, 2)
}

// digits reports whether s[at:at+n] are ASCII digits.
func digits(s string, at, n int) bool {
	if at+n > len(s) {
		return false
	}
	for i := at; i < at+n; i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
