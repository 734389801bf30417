package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
)

// Triage is what a failure that no record names still says about itself,
// read the way an operator of an sglang server reads a traceback: which
// process died, in which phase of its life, what family of failure the
// exception belongs to, and which optional component was running. Each
// field is "" when the entry does not say.
type Triage struct {
	// Process is the process that failed: "scheduler", "detokenizer",
	// "tokenizer manager", "HTTP server", "router", "launcher", "data
	// parallel controller".
	Process string
	// Phase is what the process was doing, as a phrase that follows
	// "while": "loading weights", "capturing CUDA graphs", "serving
	// requests", ...
	Phase string
	// Family is the kind of failure: FamilyImport, FamilyConfig, ...
	Family string
	// Component is the optional component whose code failed:
	// "transfer engine", "grammar backend", "attention backend",
	// "quantization", "speculative decoding", "custom all-reduce",
	// "LoRA adapters".
	Component string
	// Subject is the one concrete thing the message names that the first
	// step can point at: the missing path, the model id the Hub rejected,
	// the module that does not import, the flag a check rejected (see
	// Subject). A short token of a narrow alphabet, or "".
	Subject string
	// Importer is, for an import that failed, where the code that
	// imported the subject lives: the last parts of its innermost
	// frame's file ("fastchat/serve/sglang_worker.py"), when that is not
	// the subject's own package. "" otherwise.
	Importer string
	// SGLang is set when the failing code is sglang's own (its frames or
	// text name sglang): only then do steps that name sglang's flags and
	// phases fit. Another engine's log, or one that does not say, gets
	// the engine-neutral steps of its family.
	SGLang bool
}

// ProcessClient is the process a Triage names for a program whose
// traceback ends in an HTTP client library: it called a server.
const ProcessClient = "HTTP client"

// ProcessThread is the process a Triage names for a thread's exception
// header cut from its traceback: a background thread of the server.
const ProcessThread = "background thread"

// The families of failure a Triage names.
const (
	FamilyImport     = "import or ABI mismatch"
	FamilyConfig     = "configuration check"
	FamilyFile       = "file or path"
	FamilyNetwork    = "network or port"
	FamilyMemory     = "memory"
	FamilyGPU        = "GPU fault"
	FamilyDriver     = "CUDA driver or device"
	FamilyNPU        = "NPU fault"
	FamilyParse      = "JSON or config parse"
	FamilyHub        = "Hugging Face Hub"
	FamilyTokenizer  = "tokenizer"
	FamilyValue      = "value check"
	FamilySupport    = "unsupported combination"
	FamilyKilled     = "killed by a signal"
	FamilyNative     = "native crash"
	FamilyWeights    = "checkpoint mismatch"
	FamilyBug        = "code bug"
	FamilyHTTP       = "HTTP error"
	FamilyCollective = "collective failure"
	FamilyHang       = "hang"
	FamilyPanic      = "Rust panic"
	FamilyShape      = "tensor shape mismatch"
	FamilyEnv        = "environment variable"
	FamilyLibrary    = "native library error"
	// FamilyDropped is a connection the other end closed before it
	// answered: the called server died, restarted or timed the request
	// out, unlike FamilyNetwork's connection that never opened.
	FamilyDropped = "connection dropped by the peer"
	// FamilySchema is a message one program sent another that does not
	// fit the receiver's schema (pydantic's "N validation error for X").
	FamilySchema = "schema validation"
	// FamilyTemplate is a chat template (Jinja) that raised while it
	// rendered a conversation.
	FamilyTemplate = "chat template"
	// FamilyScript is a launch script that failed before the program it
	// starts: a command or shell builtin missing, an environment that
	// does not activate.
	FamilyScript = "launch script"
	// FamilyDevice is a device the kernel reports failed: a GPU that
	// hung, faulted, was reset or fell off the bus, an uncorrected PCIe
	// error (kernel.go).
	FamilyDevice = "device failure reported by the kernel"
	// FamilyMemCheck is an invalid memory access a checker caught:
	// compute-sanitizer, a compiler's sanitizer, glibc's heap checks
	// (memcheck.go).
	FamilyMemCheck = "invalid memory access caught by a checker"
	// FamilyDisk is a file system that is full: a disk, /dev/shm.
	FamilyDisk = "disk full"
	// FamilyLimit is a per-process limit reached: open files, threads.
	FamilyLimit = "process limit"
	// FamilyCorrupt is a file cut short or not what its name says: a
	// partial download, a Git LFS pointer in place of the weights.
	FamilyCorrupt = "corrupt or partial file"
	// FamilyCallerBug is FamilyBug raised in the program's own code
	// (a script, a training loop), not in an installed package's.
	FamilyCallerBug = "code bug in the caller"
	// FamilyBuild is a compiler's or linker's error: a package built
	// from source, or a kernel compiled just in time.
	FamilyBuild = "build failure"
	// FamilyModelLoad is a model a server reports it could not load,
	// with the reason, in its model status table (statusline.go).
	FamilyModelLoad = "model failed to load"
	// FamilyDied is another component's death as a routine line
	// reports it (deathReport): an actor, a supervised program, a
	// worker group; its own log holds the cause.
	FamilyDied = "component died"
)

// marker maps a piece of a frame's file path or function name to what it
// says. Frames are read innermost first, so the most specific marker of a
// field wins: a KeyError in a model's load_weights called from the
// scheduler's start-up is "loading weights", not "starting".
type marker struct {
	file, fn string // either may be "" (any); both set: both must hold
	value    string
}

// processMarkers name the process from any frame of the chain.
var processMarkers = []marker{
	{file: "detokenizer_manager", value: "detokenizer"},
	{file: "tokenizer_manager", value: "tokenizer manager"},
	{file: "data_parallel_controller", value: "data parallel controller"},
	{file: "managers/scheduler", value: "scheduler"},
	{fn: "run_scheduler_process", value: "scheduler"},
	{fn: "event_loop_", value: "scheduler"},
	{file: "tp_worker", value: "scheduler"},
	{file: "srt/model_executor/", value: "scheduler"},
	{file: "ray/_private/worker.py", fn: "get", value: "Ray driver"},
	{file: "sglang_router", value: "router"},
	{file: "sgl_router", value: "router"},
	{file: "entrypoints/http_server", value: "HTTP server"},
	{file: "entrypoints/openai/", value: "HTTP server"},
	// The older frontend Runtime lived in srt/server.py, next to the
	// HTTP server: its constructor is the launcher's.
	{file: "srt/server.py", fn: "__init__", value: "launcher"},
	{file: "srt/server.py", value: "HTTP server"},
	// The web framework under the HTTP server: a traceback of its frames
	// alone (a streamed response cut, an exception group it collapsed)
	// is still the HTTP server's.
	{file: "/starlette/", value: "HTTP server"},
	{file: "/fastapi/", value: "HTTP server"},
	{file: "/uvicorn/", value: "HTTP server"},
	{file: "entrypoints/engine", value: "launcher"},
	// sglang's frontend Runtime starts the server in a subprocess and
	// waits for it: a program that embeds sglang fails in it when the
	// server does not come up.
	{file: "sglang/api.py", fn: "Runtime", value: "launcher"},
	{file: "launch_server", value: "launcher"},
	// sglang's first releases called the process that runs the model
	// workers the router (managers/router/manager.py, ModelRpcClient).
	{file: "managers/router/", value: "scheduler"},
	// The 0.2 and 0.3 releases ran them in a controller process
	// (controller_single.py; controller_multi.py in front of several).
	{file: "managers/controller_single", value: "scheduler"},
	{file: "managers/controller_multi", value: "data parallel controller"},
}

// phaseMarkers name the phase, innermost frame first.
var phaseMarkers = []marker{
	// A kernel compiled just in time: Triton, torch.compile's workers,
	// a C++/CUDA extension built with ninja, flashinfer's and DeepGEMM's
	// builders.
	{file: "triton/compiler/", value: "compiling kernels"},
	{file: "torch/_inductor/compile_worker", value: "compiling kernels"},
	{file: "torch/_inductor/codecache", value: "compiling kernels"},
	{fn: "_run_ninja_build", value: "compiling kernels"},
	{file: "flashinfer/jit/", value: "compiling kernels"},
	{file: "deep_gemm/jit/compiler", value: "compiling kernels"},
	{fn: "capture", file: "cuda_graph", value: "capturing CUDA graphs"},
	{fn: "init_cuda_graphs", value: "capturing CUDA graphs"},
	{fn: "capture", file: "graph_runner", value: "capturing CUDA graphs"},
	{fn: "load_weights", value: "loading weights"},
	// A model class built: the model loader constructs it before it
	// reads the checkpoint into it.
	{file: "srt/models/", fn: "__init__", value: "loading weights"},
	{file: "model_loader/", value: "loading weights"},
	{fn: "load_model", value: "loading weights"},
	{file: "weight_utils", value: "loading weights"},
	{fn: "init_memory_pool", value: "initialising the memory pool"},
	{fn: "profile_max_num_token", value: "initialising the memory pool"},
	{fn: "init_torch_distributed", value: "initialising the distributed backend"},
	{fn: "init_distributed_environment", value: "initialising the distributed backend"},
	{fn: "initialize_model_parallel", value: "initialising the distributed backend"},
	{fn: "init_process_group", value: "initialising the distributed backend"},
	{fn: "rendezvous", value: "initialising the distributed backend"},
	{fn: "warmup", value: "warming up"},
	{fn: "get_tokenizer", value: "loading the tokenizer"},
	{fn: "init_tokenizer", value: "loading the tokenizer"},
	{file: "configs/model_config", value: "reading the model config"},
	{file: "hf_transformers_utils", fn: "get_config", value: "reading the model config"},
	{file: "server_args", value: "checking its arguments"},
	{fn: "event_loop", value: "serving requests"},
	{fn: "run_batch", value: "serving requests"},
	{fn: "forward_batch_generation", value: "serving requests"},
	// sglang's first releases ran batches in forward_step.
	{fn: "forward_step", value: "serving requests"},
	{fn: "forward_fill_batch", value: "serving requests"},
	{fn: "forward_decode_batch", value: "serving requests"},
	{fn: "process_input_requests", value: "serving requests"},
	{fn: "handle_loop", value: "serving requests"},
	{fn: "generate_request", value: "serving requests"},
	// vLLM's engine loops: the multiprocessing engine's (run_engine_loop,
	// engine_step) and the engine core's (run_busy_loop).
	{fn: "run_engine_loop", value: "serving requests"},
	{fn: "engine_step", value: "serving requests"},
	{fn: "run_busy_loop", value: "serving requests"},
	{fn: "__init__", file: "managers/scheduler", value: "starting"},
	// vLLM's API server (or a model server around it, KServe's) building
	// its engine client, which starts the engine core and waits for it.
	{fn: "build_async_engine_client", value: "starting"},
	{file: "v1/engine/async_llm", fn: "__init__", value: "starting"},
	{file: "v1/engine/core_client", fn: "__init__", value: "starting"},
	{fn: "wait_for_engine_startup", value: "starting"},
	{fn: "launch_server", value: "starting"},
	{fn: "start_router_process", value: "starting"},
	{fn: "ModelRpcClient(", value: "starting"},
	{fn: "start_controller_process", value: "starting"},
	{fn: "_launch_subprocesses", value: "starting"},
	{file: "sglang/api.py", fn: "Runtime", value: "starting"},
}

// componentMarkers name the optional component, innermost frame first.
var componentMarkers = []marker{
	{file: "disaggregation/", value: "transfer engine"},
	{file: "mooncake", value: "transfer engine"},
	{file: "nixl", value: "transfer engine"},
	{file: "transfer_engine", value: "transfer engine"},
	{file: "constrained/", value: "grammar backend"},
	{fn: "grammar", value: "grammar backend"},
	{file: "xgrammar", value: "grammar backend"},
	{file: "outlines", value: "grammar backend"},
	{file: "llguidance", value: "grammar backend"},
	{file: "speculative/", value: "speculative decoding"},
	{file: "eagle", value: "speculative decoding"},
	{file: "/lora/", value: ComponentLoRA},
	{file: "quantization/", value: "quantization"},
	{file: "marlin", value: "quantization"},
	{file: "deep_ep", value: ComponentEP},
	{file: "deepep", value: ComponentEP},
	{file: "nvshmem", value: ComponentEP},
	{file: "custom_all_reduce", value: "custom all-reduce"},
	{fn: "custom_all_reduce", value: "custom all-reduce"},
	{file: "layers/attention/", value: "attention backend"},
	{file: "attention_backend", value: "attention backend"},
	{file: "mha_backend", value: "attention backend"},
	{file: "mla_backend", value: "attention backend"},
	{file: "flashinfer", value: "attention backend"},
	{fn: "flashinfer", value: "attention backend"},
	{file: "flash_attn", value: "attention backend"},
	// The parsers of a model's tool calls and reasoning: sglang's
	// function_call package, vLLM's tool_parsers.
	{file: "function_call/", value: ComponentToolParser},
	{file: "tool_parsers/", value: ComponentToolParser},
	{file: "/lmcache/", value: ComponentKVConnector},
	{file: "/multimodal/", value: ComponentMultimodal},
	{file: "mm_utils", value: ComponentMultimodal},
}

// trainingMarkers name an RL or fine-tuning framework that drives the
// engine for its rollouts from its own frames. They are read only when
// no frame names a component or a process: the engine's own, or the Ray
// driver the framework runs in, say more.
var trainingMarkers = []marker{
	{file: "/verl/", value: ComponentTraining},
	{file: "/slime/", value: ComponentTraining},
	{file: "/areal/", value: ComponentTraining},
	{file: "/realhf/", value: ComponentTraining},
	{file: "/openrlhf/", value: ComponentTraining},
	{file: "/trl/", value: ComponentTraining},
	{file: "/nemo_rl/", value: ComponentTraining},
}

// clientMarkers name an HTTP client's process from its library's frames,
// when no frame names a process of the server: a program that called a
// server and lost the connection.
var clientMarkers = []marker{
	{file: "/urllib3/", value: ProcessClient},
	{file: "/requests/", value: ProcessClient},
	{file: "/httpx/", value: ProcessClient},
	{file: "/httpcore/", value: ProcessClient},
	{file: "/aiohttp/", value: ProcessClient},
	{file: "http/client.py", value: ProcessClient},
	{file: "/openai/_base_client", value: ProcessClient},
}

func (m *marker) matches(f *entry.Frame) bool {
	if m.file != "" && !strings.Contains(f.File, m.file) {
		return false
	}
	return m.fn == "" || strings.Contains(f.Func, m.fn)
}

// phaseCall returns the call that entered the phase a traceback's frames
// name, as the traceback printed it: the source line under the caller of
// the innermost frame a phase marker matches ("self.init_cuda_graphs()"),
// else that frame's own source line. "" when no frame names a phase other
// than serving requests (whose entry, the event loop, says nothing), or
// the line is not printed. It reads at most maxTextFrames frames.
func phaseCall(text string) string { return phaseCallOf(sourcedFrames(text)) }

// sourcedFrame is a traceback frame and the source line printed under it.
type sourcedFrame struct {
	f   entry.Frame
	src string
}

// sourcedFrames reads at most maxTextFrames frames of a traceback's text,
// each with its source line: the first line under it indented deeper than
// the frame line, as Python prints it (four spaces under two). A copy that
// took the same columns off both (a rank's prefix and the space after it)
// keeps the one deeper than the other; a line a copy interleaved (a time,
// a host's name) is not.
func sourcedFrames(text string) []sourcedFrame {
	return framesWith(text, func(line, t string, frameIndent int) (string, bool) {
		return t, t != "" && indentOf(line) > frameIndent && indentOf(line) >= 2
	})
}

// indentOf is the number of spaces line opens with.
func indentOf(line string) int {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	return n
}

// framesWith reads at most maxTextFrames frames of a traceback's text,
// each with the first line after its frame line that source takes for its
// source line (given the line, the line trimmed and the frame line's
// indentation; it returns the text to keep).
func framesWith(text string, source func(line, t string, frameIndent int) (string, bool)) []sourcedFrame {
	var frs []sourcedFrame
	frameIndent := 0
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, `File "`) {
			if len(frs) == maxTextFrames {
				break
			}
			if f, _, ok := frameOfLine(t); ok {
				frs = append(frs, sourcedFrame{f: f})
				frameIndent = indentOf(line)
			}
			continue
		}
		if n := len(frs); n > 0 && frs[n-1].src == "" {
			if src, ok := source(line, t, frameIndent); ok {
				frs[n-1].src = src
			}
		}
	}
	return frs
}

// phaseCallOf is phaseCall of frames read by sourcedFrames. The call the
// innermost frame was making (calledPhase) comes first: it is where the
// traceback ends.
func phaseCallOf(frs []sourcedFrame) string {
	if _, call := calledPhase(frs); call != "" {
		return call
	}
	for i := len(frs) - 1; i >= 0; i-- {
		for k := range phaseMarkers {
			if !phaseMarkers[k].matches(&frs[i].f) {
				continue
			}
			if phaseMarkers[k].value == phaseServing {
				return ""
			}
			src := frs[i].src
			if i > 0 && frs[i-1].src != "" {
				src = frs[i-1].src
			}
			return cutRunes(src, maxFrameSource)
		}
	}
	return ""
}

// phaseCallAt is phaseCall: the source line of the innermost frame when
// that line is itself the call into a phase ("self.capture()" under a
// constructor), else the call into the innermost phase a frame names. The
// wrapper record of a phase points at it (leadWithPhaseWrapper).
func phaseCallAt(text string) string { return phaseCall(text) }

// calledPhase reads the source line under the innermost frame of frs as a
// frame of its own: the phase its call enters ("self.init_cuda_graphs()"
// under a draft worker's constructor: capturing CUDA graphs) and the line.
// In a traceback cut short that call is the innermost thing known of
// where the process was, inside every frame printed: its phase is the
// most specific. "" when the line names no phase, only serving requests,
// or the phase the innermost frame is in already (a line of the memory
// pool's own function: the call that entered the phase is its caller's).
func calledPhase(frs []sourcedFrame) (phase, call string) {
	if len(frs) == 0 {
		return "", ""
	}
	last := frs[len(frs)-1]
	if last.src == "" {
		return "", ""
	}
	code := entry.Frame{File: last.f.File, Func: last.src}
	phase = first(phaseMarkers, []entry.Frame{code})
	if phase == "" || phase == phaseServing || phase == first(phaseMarkers, []entry.Frame{last.f}) {
		return "", ""
	}
	return phase, cutRunes(last.src, maxFrameSource)
}

// phaseServing is the phase of a process that serves requests.
const phaseServing = "serving requests"

// first returns the value of the first marker that matches a frame, the
// frames read from the innermost; "" when none does.
func first(markers []marker, frames []entry.Frame) string {
	for i := len(frames) - 1; i >= 0; i-- {
		for k := range markers {
			if markers[k].matches(&frames[i]) {
				return markers[k].value
			}
		}
	}
	return ""
}

// triageStack sets t's process, phase and component from the frames of a
// dump that printed no traceback (faulthandler's, py-spy's, gdb's), each
// frame read as stackFrames reads it; a component no frame names keeps
// what t had.
func triageStack(t *Triage, stack []string) {
	fs := stackFrames(stack)
	t.Process = first(processMarkers, fs)
	t.Phase = first(phaseMarkers, fs)
	if c := first(componentMarkers, fs); c != "" {
		t.Component = c
	}
}

// TriageOf reads what a failure no record names says about itself: from
// the frames of every link of its traceback (the root cause's too: the
// process and phase are where the chain began), from the exception's type
// and message, and, for a native entry, from its kind and the frames and
// file names its lines print. exc is the link that is the cause (nil for
// none).
func TriageOf(e *entry.Entry, exc *entry.Exception) Triage {
	var t Triage
	if hasFrames(e, exc) {
		t.Process = firstInChain(processMarkers, e, exc)
		t.Phase = firstInChain(phaseMarkers, e, exc)
		t.Component = firstInChain(componentMarkers, e, exc)
	} else {
		frames := textFrames(e.Text)
		t.Process = first(processMarkers, frames)
		t.Phase = first(phaseMarkers, frames)
		t.Component = first(componentMarkers, frames)
	}
	if t.Process == "" && e.Traceback != nil {
		t.Process = firstInChain(clientMarkers, e, exc)
	}
	if t.Process == "" && t.Component == "" && e.Traceback != nil {
		t.Component = firstInChain(trainingMarkers, e, exc)
	}
	if t.Process == "" && e.Traceback == nil && entry.ThreadExceptionHeader(e.Message) {
		t.Process = ProcessThread
	}
	if e.Traceback != nil && (exc == nil || exc.Type == "") {
		// A traceback cut before its exception line: the call its last
		// frame was making ("self.init_cuda_graphs()" under the draft
		// worker's constructor, itself under the scheduler's) is where
		// it died, inside every phase its frames name.
		if p, _ := calledPhase(sourcedFrames(e.Text)); p != "" {
			t.Phase = p
		}
	}
	if t.Phase == "" && e.Traceback != nil {
		// A traceback cut short: the source line under its last frame
		// ("scheduler.event_loop_pp()") says what it was calling.
		code := textFrames(e.Text)
		t.Phase = first(phaseMarkers, code)
		if t.Component == "" {
			t.Component = first(componentMarkers, code)
		}
	}
	if t.Component == "" {
		t.Component = componentOfText(e.Text)
	}
	t.SGLang = strings.Contains(e.Text, "sglang") || strings.Contains(e.Text, "sgl_kernel")
	// excLower is the exception's message lowercased once for the
	// family, phase and component read from it.
	excLower := ""
	if exc != nil {
		excLower = strings.ToLower(exc.Message)
		t.Family = familyOfLower(exc.Type, exc.Message, excLower)
	}
	if t.Family == "" {
		t.Family = nativeFamily(e)
	}
	if t.Family == FamilyPanic && t.Process == "" {
		t.Process = panicProcess(e.Text)
	}
	if t.Family == "" {
		t.Family = familyOf("", e.Message)
	}
	if t.Family == "" && e.Traceback == nil && (e.Level == "INFO" || e.Level == "DEBUG" || e.Level == "") && deathReport(FirstLine(e.Message)) {
		t.Family = FamilyDied
	}
	if t.Family == "" && e.Traceback == nil && e.Level == "" {
		t.Family = levelLessReportFamily(FirstLine(e.Message))
	}
	if t.Family == "" && exc == nil && e.Traceback == nil {
		line := FirstLine(e.Message)
		if l, ok := summaryAcrossWrap(e); ok {
			line = l
		}
		if typ := entry.RejectedType(line); typ != "" {
			// A component handed an object it has no handler for (a
			// request type this version or mode does not support).
			t.Family, t.Subject = FamilySupport, typ
		}
	}
	if t.Family == "" && t.Component == "" && exc == nil && libraryLine(e) {
		// A native library's own error line that says no more: the
		// library, named by its source file, is where to look.
		t.Family = FamilyLibrary
		t.Subject = nativeSource(e)
		if e.Native == entry.NativeDiagnostic {
			t.Subject = DiagnosticProgram(e.Message)
		}
	}
	if t.Family == "" && t.Component == "" && exc == nil && e.Native == "" && e.Level == "" && e.Traceback == nil {
		if l := FirstLine(e.Message); strings.HasPrefix(l, "[Errno ") && errnoLine(l) {
			// An OSError's str (liberror.go's errnoLine): its errno
			// says what kind of failure.
			t.Family = errnoFamily(l)
		} else if taggedFailureLine(l) || libraryErrorLine(l) {
			// A library's own failure line with no level
			// (liberror.go, tagchain.go): the library it names is
			// where to look.
			t.Family, t.Subject = FamilyLibrary, ownLibraryName(l)
		} else if strings.HasSuffix(strings.TrimRight(l, " \r"), "}") && errorBody(strings.TrimRight(l, " \r")) {
			// A server's error body a client printed: the call
			// failed with the status and message it holds.
			t.Family = FamilyHTTP
		} else if statusTableRowLine(l) {
			// A server's model status table: the model in the row
			// failed to load, for the reason in its state cell.
			t.Family = FamilyModelLoad
		} else if statusFailure(l, e.Text) || statusNameLead(l) {
			// A call's status (statusline.go): the library that
			// made the call reported it.
			t.Family = FamilyLibrary
		}
	}
	if t.Family == FamilyNetwork || t.Family == FamilyValue {
		m := excLower
		if exc == nil {
			m = e.Message
			if len(m) > maxFamilyMessage {
				m = m[:maxFamilyMessage]
			}
			m = strings.ToLower(m)
		}
		t.Family = refineFamily(t.Family, m)
	}
	if t.Family == FamilyShape && t.Phase == "loading weights" {
		// A shape that does not fit while the checkpoint is read: the
		// checkpoint is not what the model code expects.
		t.Family = FamilyWeights
	}
	if t.Family == "" && t.Phase == "loading weights" && exc != nil && exc.Type != "" {
		// A KeyError, a shape mismatch: the checkpoint is not what the
		// model code expects.
		t.Family = FamilyWeights
	}
	if t.Family == "" && exc != nil {
		t.Family = bugFamily(exc.Type)
	}
	if t.Family == FamilyBug && exc != nil && exc.Type != "" {
		if f, ok := innermostFrame(e, exc); ok && callerCode(f.File) {
			t.Family = FamilyCallerBug
		}
	}
	if t.Family == "" && exc != nil && exc.Type == "" {
		// A traceback that lost its exception line may still print an
		// exception inside it: Ray's "RayTaskError(OutOfMemoryError): ..."
		// heading the remote task's frames.
		if typ, msg := innerException(e.Text); typ != "" {
			t.Family = familyOf(typ, msg)
		}
	}
	if t.Family == "" && e.Traceback != nil && (exc == nil || exc.Type == "") && hubClientText(e.Text) {
		// A traceback cut inside the Hugging Face Hub's client: it
		// died fetching a model's file.
		t.Family = FamilyHub
	}
	if t.Family == "" && (collectiveText(e.Text) || exc != nil && collectiveText(exc.Message)) {
		// The entry opens with the collective's line, or its exception
		// says a collective library failed ("NCCL error in: ...").
		t.Family = FamilyCollective
	}
	if t.Family == FamilyNetwork && t.Phase == "" && t.Component == "" && strings.Contains(e.Text, "c10d") {
		t.Phase = "initialising the distributed backend"
	}
	if t.Component == "" && exc == nil && e.Traceback == nil {
		// A log line of its own: its message names the component as an
		// exception's would.
		m := e.Message
		if len(m) > maxFamilyMessage {
			m = m[:maxFamilyMessage]
		}
		lower := strings.ToLower(m)
		t.Component = componentOfLower(lower)
		if t.Phase == "" {
			t.Phase = phaseOfLower(m, lower)
		}
	}
	if t.Phase == "" && exc != nil && exc.Type == "" {
		// A traceback cut before its exception line: the line that
		// introduced it may say what was going on.
		t.Phase = phaseOfMessage(e.Message)
	}
	if exc != nil && exc.Type != "" {
		// The exception's own message, never the lines around it (a
		// wrapper's header, a dumped request), names the phase,
		// component and subject.
		if t.Phase == "" {
			t.Phase = phaseOfLower(exc.Message, excLower)
		}
		if t.Component == "" {
			t.Component = componentOfLower(excLower)
		}
		if t.Component == "" && loraName(exc.Message) {
			t.Component = ComponentLoRA
		}
		t.Subject = Subject(t.Family, exc.Message)
		if t.Family == FamilyImport && t.Subject != "" {
			t.Importer = importer(e, exc, t.Subject)
		}
	}
	return t
}

// maxHubText bounds the text hubClientText reads.
const maxHubText = 16 << 10

// hubClientText reports whether a traceback's text runs through the
// Hugging Face Hub's client (its package, or transformers' and
// sglang's calls of its download functions), whatever path separator
// its frames print.
func hubClientText(text string) bool {
	if len(text) > maxHubText {
		text = text[:maxHubText]
	}
	for _, k := range [...]string{"huggingface_hub", "hf_hub_download", "snapshot_download"} {
		if strings.Contains(text, k) {
			return true
		}
	}
	return false
}

// loraName reports whether msg names a LoRA class or object in its own
// spelling ("BaseLayerWithLoRA", "LoRAManager", "LoRA adapter"): the
// mixed case is LoRA's, never a word's.
func loraName(msg string) bool {
	if len(msg) > maxFamilyMessage {
		msg = msg[:maxFamilyMessage]
	}
	return strings.Contains(msg, "LoRA")
}

// innermostFrame is the frame that raised exc: its own innermost, or
// that of the nearest link before it that printed frames.
func innermostFrame(e *entry.Entry, exc *entry.Exception) (entry.Frame, bool) {
	if n := len(exc.Frames); n > 0 {
		return exc.Frames[n-1], true
	}
	if e.Traceback == nil {
		return entry.Frame{}, false
	}
	for i := len(e.Traceback.Links) - 1; i >= 0; i-- {
		if fs := e.Traceback.Links[i].Frames; len(fs) > 0 {
			return fs[len(fs)-1], true
		}
	}
	return entry.Frame{}, false
}

// callerCode reports whether a frame's file is the program's own code: a
// path outside every installed package and the standard library
// (site-packages, dist-packages, lib/pythonX), and not in the tree of a
// package the triage knows by name when it runs from a checkout.
func callerCode(file string) bool {
	if !strings.HasSuffix(file, ".py") || strings.HasPrefix(file, "<") {
		return false
	}
	f := strings.ReplaceAll(file, "\\", "/")
	for _, k := range [...]string{"site-packages/", "dist-packages/", "/lib/python", "/lib64/python", "/sglang/", "/vllm/", "/torch/",
		"/transformers/", "/sgl_kernel/", "/flashinfer/", "/ray/", "/megatron/", "/verl/", "/slime/", "/areal/", "/openrlhf/", "/trl/"} {
		if strings.Contains(f, k) {
			return false
		}
	}
	return true
}

// hasFrames reports whether e's traceback, or exc's group member, has a
// frame.
func hasFrames(e *entry.Entry, exc *entry.Exception) bool {
	if exc != nil && len(exc.MemberFrames) > 0 {
		return true
	}
	if e.Traceback != nil {
		for i := range e.Traceback.Links {
			if len(e.Traceback.Links[i].Frames) > 0 {
				return true
			}
		}
	}
	return false
}

// firstInChain is first over the frames of the whole chain, read from the
// innermost: exc's group member's frames, then each link's from the
// outermost link to the root cause. It copies no frame: it runs for every
// failure no record names.
func firstInChain(markers []marker, e *entry.Entry, exc *entry.Exception) string {
	if exc != nil {
		if v := first(markers, exc.MemberFrames); v != "" {
			return v
		}
	}
	if e.Traceback == nil {
		return ""
	}
	for i := len(e.Traceback.Links) - 1; i >= 0; i-- {
		if v := first(markers, e.Traceback.Links[i].Frames); v != "" {
			return v
		}
	}
	return ""
}

// maxTextFrames bounds the frames textFrames reads from a native entry.
const maxTextFrames = 64

// textFrames reads the Python frames a native entry prints (faulthandler's
// `  File "x.py", line 12 in f`, innermost first) and the C++ frames
// c10d prints ("frame #3: f + 0x1 (0x... in lib.so)"), innermost last.
func textFrames(text string) []entry.Frame {
	var out []entry.Frame
	faulthandler := false
	file := "" // the file of the frame line just read, for its source line
	for line := range strings.Lines(text) {
		if len(out) >= maxTextFrames {
			break
		}
		t := strings.TrimSpace(line)
		if t == "" {
			// A blank line of a double-spaced paste parts nothing:
			// a frame's source line may follow it.
			continue
		}
		switch {
		case file != "" && !strings.HasPrefix(t, `File "`) && strings.HasPrefix(line, "    "):
			// The source line a traceback prints under a frame: as a
			// frame of its own, its call names what the frame called.
			out = append(out, entry.Frame{File: file, Func: t})
			file = ""
			continue
		case strings.HasPrefix(t, `File "`):
			f, after, ok := frameOfLine(t)
			if !ok {
				continue
			}
			out = append(out, f)
			file = f.File
			faulthandler = faulthandler || !strings.Contains(after, ", in ")
			continue
		case strings.HasPrefix(t, "frame #"):
			if c := strings.Index(t, ": "); c > 0 {
				fn := t[c+2:]
				if p := strings.Index(fn, " + 0x"); p > 0 {
					fn = fn[:p]
				}
				file := ""
				if i := strings.LastIndex(t, " in "); i > 0 {
					file = strings.TrimSuffix(t[i+len(" in "):], ")")
				}
				out = append(out, entry.Frame{File: file, Func: fn})
			}
		}
		file = ""
	}
	if faulthandler {
		// faulthandler prints the innermost frame first.
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out
}

// ComponentLoRA is the component that serves LoRA adapters over the base
// model: their loading, memory pool and kernels.
const ComponentLoRA = "LoRA adapters"

// ComponentToolParser is the component that reads a model's tool calls
// (and its reasoning) out of its output.
const ComponentToolParser = "tool-call parser"

// ComponentKVConnector is the component that stores and fetches KV cache
// outside the GPU for the engine: LMCache, HiCache's storage backends.
const ComponentKVConnector = "KV cache connector"

// ComponentMultimodal is the component that prepares images, video and
// audio for a model, and the engine's image and video generation.
const ComponentMultimodal = "multimodal path"

// ComponentTraining is an RL or fine-tuning framework that drives the
// engine (verl, slime, AReaL, OpenRLHF, TRL, NeMo RL).
const ComponentTraining = "training framework"

// ComponentEP is the component of expert-parallel communication: DeepEP's
// all-to-all kernels and the NVSHMEM runtime under them, whose bootstrap
// joins the ranks of every node.
const ComponentEP = "DeepEP and NVSHMEM"

// componentOfText names the component of a native line from the source
// file glog, UCX and the transfer engines print in it.
func componentOfText(text string) string {
	line := FirstLine(text)
	lower := strings.ToLower(line) // once, not once a key
	if strings.Contains(lower, "lmcache") {
		// LMCache's lines name their module; it may store through a
		// transfer engine (Mooncake Store) but is the connector.
		return ComponentKVConnector
	}
	for _, k := range [...]string{"transfer_engine", "transfer_metadata", "transfer_task", "_transport", "mooncake", "nixl", "ucx", "rdma_", "hccl", "ascend"} {
		if strings.Contains(lower, k) {
			return "transfer engine"
		}
	}
	for _, k := range [...]string{"nvshmem", "deep_ep", "deepep", "ibgda", "internode.cu", "intranode.cu"} {
		if strings.Contains(lower, k) {
			return ComponentEP
		}
	}
	for _, k := range [...]string{"xgrammar", "grammar_parser", "llguidance", "outlines"} {
		if strings.Contains(line, k) {
			return "grammar backend"
		}
	}
	if strings.Contains(line, "flashinfer") || strings.Contains(line, "fmha") {
		return "attention backend"
	}
	return ""
}

// nativeFamily is the family a native entry's kind says.
func nativeFamily(e *entry.Entry) string {
	switch e.Native {
	case entry.NativeShell:
		return shellFamily(e)
	case entry.NativeCUDA, entry.NativeCUDAAssert, entry.NativeROCm:
		return FamilyGPU
	case entry.NativeNCCL, entry.NativeUCX:
		return FamilyNetwork
	case entry.NativeFaulthandler, entry.NativeTerminate, entry.NativeAssert:
		return FamilyNative
	case entry.NativeCompiler:
		return FamilyBuild
	case entry.NativeAscend:
		// CANN's and ACL's own lines: an Ascend operator or the
		// runtime under it failed.
		return FamilyNPU
	case entry.NativeRustPanic:
		return FamilyPanic
	case "":
		if e.Level == "" {
			return recordFreeNativeFamily(e.Message)
		}
	}
	return ""
}

// recordFreeNativeFamily is the family of a line without a level that
// the kernel, a memory checker or a failed assertion printed (kernel.go,
// memcheck.go, assertline.go, crashbanner.go): the OOM killer's choice
// of a victim is a process killed, any other kernel report a device's
// failure, an assertion or a crash banner a native crash. "" for any other line.
func recordFreeNativeFamily(msg string) string {
	first := FirstLine(msg)
	switch {
	case memoryCheckReport(first):
		return FamilyMemCheck
	case assertionLine(first), crashBanner(first):
		// An assertion ended the process, as the entry package's
		// located forms do; a crash handler's or a runtime's banner
		// (crashbanner.go) says the process died.
		return FamilyNative
	case !kernelFailure(msg):
		return ""
	}
	if body, _ := kernelBody(FirstLine(msg)); oomKill(body) {
		return FamilyKilled
	}
	return FamilyDevice
}

// bugFamily is the family of an exception that says code met a state it
// did not expect: a bug in the frame that raised it, or a version of it
// that does not match its callers.
func bugFamily(typ string) string {
	switch lastDotted(typ) {
	case "AttributeError", "TypeError", "IndexError", "KeyError", "ZeroDivisionError", "UnboundLocalError",
		"RecursionError", "NotImplementedError":
		return FamilyBug
	}
	return ""
}

// collectiveText reports whether a failure is a collective's: c10d, NCCL
// or gloo report it.
func collectiveText(text string) bool {
	line := FirstLine(text)
	for _, k := range [...]string{"ProcessGroupNCCL", "ProcessGroupGloo", "c10d", "NCCL", "gloo", "monitoredBarrier",
		// NCCL's result codes, as torch and NCCL's own lines name them.
		"ncclSystemError", "ncclInternalError", "ncclRemoteError", "ncclUnhandledCudaError", "ncclInvalidUsage", "ncclInvalidArgument"} {
		if strings.Contains(line, k) {
			return true
		}
	}
	return false
}

// maxInnerLines bounds the lines innerException reads.
const maxInnerLines = 256

// innerException returns the type and message of the last line of text
// that reads as an exception line ("pkg.SomeError: msg"), the wrapped type
// for a wrapper that names it in parentheses ("RayTaskError(OutOfMemoryError)").
func innerException(text string) (typ, msg string) {
	n := 0
	for line := range strings.Lines(text) {
		if n++; n > maxInnerLines {
			break
		}
		if line == "" || line[0] == ' ' || line[0] == '\t' {
			continue
		}
		head, rest, ok := strings.Cut(strings.TrimSpace(line), ": ")
		if !ok || strings.ContainsAny(head, " \"'") {
			continue
		}
		name := head
		if i := strings.IndexByte(head, '('); i > 0 && strings.HasSuffix(head, ")") {
			name = head[i+1 : len(head)-1]
			head = head[:i]
		}
		if b := lastDotted(head); strings.HasSuffix(b, "Error") || strings.HasSuffix(b, "Exception") {
			typ, msg = name, rest
		}
	}
	return typ, msg
}

// frameOfLine reads a traceback's frame line t (trimmed, starting with
// `File "`): the file and, after the last " in ", the function. after is
// the line from the file name's closing quote on. ok is false when the
// quote is not closed.
func frameOfLine(t string) (f entry.Frame, after string, ok bool) {
	rest := t[len(`File "`):]
	q := strings.IndexByte(rest, '"')
	if q < 0 {
		return entry.Frame{}, "", false
	}
	f.File = rest[:q]
	if i := strings.LastIndex(rest, " in "); i > q {
		f.Func = strings.TrimSpace(rest[i+len(" in "):])
	}
	return f, rest[q:], true
}

// libraryLine reports whether e is a native library's own log line that
// names its source file (glog's, UCX's, a located line) or a program's
// diagnostic that names the program.
func libraryLine(e *entry.Entry) bool {
	switch e.Native {
	case entry.NativeGlog, entry.NativeUCX, entry.NativeLocated, entry.NativeDiagnostic:
		return true
	}
	return false
}

// maxSourceName bounds the source file name nativeSource takes.
const maxSourceName = 64

// nativeSource is the source file a native line names in front of its
// message ("client.cpp" of glog's "... client.cpp:353] ", of UCX's
// "ib_mlx5_dv.c:452", of a located "/src/x/topo.cpp:526: "), its
// directory left out; "" when it names none of a narrow alphabet.
func nativeSource(e *entry.Entry) string {
	line := FirstLine(e.Text)
	head := line
	if msg := FirstLine(e.Message); msg != "" && strings.HasSuffix(line, msg) && len(msg) < len(line) {
		head = line[:len(line)-len(msg)]
	}
	if len(head) > 1024 {
		head = head[:1024]
	}
	for _, w := range strings.Fields(head) {
		w = strings.TrimRight(w, "]")
		c := strings.IndexByte(w, ':')
		if c <= 0 {
			continue
		}
		name := w[strings.LastIndexByte(w[:c], '/')+1 : c]
		dot := strings.LastIndexByte(name, '.')
		if dot <= 0 || dot == len(name)-1 || len(name) > maxSourceName || !isSourceName(name) {
			continue
		}
		return name
	}
	return ""
}

// isSourceName reports whether s is a file name of letters, digits and
// "._-".
func isSourceName(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '.' && c != '_' && c != '-' {
			return false
		}
	}
	return s != ""
}

// errnoFamily is the family of an OSError printed as its str ("[Errno 98]
// ..."), by its errno as Linux numbers them: a socket's errors are the
// network's (a port that cannot be bound, even for want of permission, is
// the network's too), a full disk, a missing or unreadable path, a
// process limit. "" for the others.
func errnoFamily(l string) string {
	n, _, _ := strings.Cut(l[len("[Errno "):], "]")
	switch n {
	case "98", "99", "101", "103", "104", "110", "111", "113", "-2", "-3":
		return FamilyNetwork
	case "13":
		if strings.Contains(l, " bind") {
			return FamilyNetwork
		}
		return FamilyFile
	case "2", "20", "21":
		return FamilyFile
	case "28", "122":
		return FamilyDisk
	case "12":
		return FamilyMemory
	case "24", "23":
		return FamilyLimit
	}
	return ""
}
