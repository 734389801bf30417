package incident

import (
	"slices"
	"strings"

	"github.com/logmatch/logmatch/internal/analysis"
)

// What an operator says of a failure no record names. The catalog's
// records carry the fixes of known failures; a new one still deserves the
// first steps a senior operator of sglang would take, and those follow
// from where it happened (the phase), what kind of failure it is (the
// family) and which optional component failed. They come before the
// generic steps (the frame to start at, the search of known issues).

// died are the processes whose failure ends them: their incident says so.
var died = map[string]bool{
	"scheduler": true, "detokenizer": true, "tokenizer manager": true,
	"data parallel controller": true, "launcher": true,
}

// triageHeadline is the headline of a failure no record names: the
// process, its rank, the phase and the component, then the line itself
// ("scheduler TP1 died while loading weights: KeyError: 'lm_head.weight'").
// line alone when the triage says nothing.
func triageHeadline(t analysis.Triage, rank, line string, fragment bool) string {
	if t.Process == "" && t.Phase == "" && t.Component == "" {
		return line
	}
	if where, ok := strings.CutPrefix(line, analysis.StoppedByHand); ok && !fragment {
		return stoppedHeadline(t, rank, where)
	}
	phase, component := t.Phase, t.Component
	if p := draftPhases[phase]; p != "" && component == "speculative decoding" {
		phase, component = p, ""
	}
	var h string
	switch {
	case t.Process != "":
		h = t.Process
		if rank != "" {
			h += " " + rank
		}
		if died[t.Process] {
			h += " died"
		} else {
			h += " failed"
		}
		if phase != "" {
			h += " while " + phase
		}
		if component != "" {
			h += " in " + componentNoun(component)
		}
	case phase != "":
		h = "failed while " + phase
		if rank != "" {
			h = rank + " " + h
		}
		if component != "" {
			h += " in " + componentNoun(component)
		}
	default:
		h = componentNoun(t.Component) + " failed"
		if rank != "" {
			h += " on " + rank
		}
	}
	if fragment {
		return h + " (its traceback lost its exception line): " + line
	}
	return h + ": " + line
}

// stoppedHeadline is the headline of a process stopped by hand (Ctrl+C's
// KeyboardInterrupt, analysis.StoppedByHand): it did not die of a failure
// but was stopped, and where its work stood is what it says ("scheduler
// TP0 was stopped by hand while serving requests: KeyboardInterrupt in
// broadcast_pyobj (...) < recv_requests (...)").
func stoppedHeadline(t analysis.Triage, rank, where string) string {
	h := "stopped by hand"
	if t.Process != "" {
		h = t.Process + " was stopped by hand"
		if rank != "" {
			h = t.Process + " " + rank + " was stopped by hand"
		}
	} else if rank != "" {
		h = rank + " was stopped by hand"
	}
	if t.Phase != "" {
		h += " while " + t.Phase
	}
	return h + ": KeyboardInterrupt in " + where
}

// draftPhases say the start-up phases of speculative decoding's code as
// what they are: sglang's draft worker loads, sizes and captures a model
// of its own, the draft model, after the target model did.
var draftPhases = map[string]string{
	"capturing CUDA graphs":        "capturing the draft model's CUDA graphs",
	"loading weights":              "loading the draft model's weights",
	"initialising the memory pool": "initialising the draft model's memory pool",
}

// componentNoun is how a headline names a component.
func componentNoun(c string) string {
	switch c {
	case "speculative decoding":
		return c
	case "quantization":
		return "the quantized kernels"
	case analysis.ComponentEP:
		return "DeepEP/NVSHMEM"
	}
	return "the " + c
}

// hangHeadline is the headline of a hang: the process and its rank, the
// phase, then where its thread is stuck ("scheduler TP0 hangs while
// serving requests: stuck in all_reduce (...) < ...").
func hangHeadline(t analysis.Triage, rank, line string) string {
	what, ok := strings.CutPrefix(line, "no progress: ")
	if !ok {
		return line
	}
	h := "hang"
	if t.Process != "" {
		h = t.Process
		if rank != "" {
			h += " " + rank
		}
		h += " hangs"
	} else if rank != "" {
		h = rank + " hangs"
	}
	if t.Phase != "" {
		h += " while " + t.Phase
	}
	return h + ": " + what
}

// phaseSteps are the first steps for a failure in each phase.
var phaseSteps = map[string]string{
	"loading weights": "It failed while loading the checkpoint: check that --model-path holds a complete download of the model this sglang version supports " +
		"(every safetensors shard, config.json of the same revision), and that --load-format, --quantization and --revision match the checkpoint",
	"initialising the memory pool": "It failed while sizing the KV cache: the share of GPU memory for weights and KV cache (--mem-fraction-static) leaves too " +
		"little after the weights; when the GPU is the server's alone, raise --mem-fraction-static (to at least the fraction the message names), " +
		"lower it only when other processes hold part of the GPU; or lower --context-length / --max-total-tokens, or shard the model over more GPUs (--tp-size)",
	"initialising the distributed backend": "It failed while the ranks met: check that --dist-init-addr (or MASTER_ADDR and the NCCL port) is reachable from every node " +
		"and free, that --nnodes, --node-rank and --tp-size agree on every node, and pin the interface with NCCL_SOCKET_IFNAME and GLOO_SOCKET_IFNAME",
	"capturing CUDA graphs": "It failed while capturing CUDA graphs: start once with --disable-cuda-graph; if the server then runs, capture fewer sizes " +
		"(--cuda-graph-max-bs) or raise the memory left for capture (lower --mem-fraction-static)",
	"warming up": "The server started but its warmup request failed: the error above is what any first request would hit; " +
		"--skip-server-warmup only confirms that, fix the cause before serving",
	"serving requests": "It failed while running a batch: reproduce with the request that was running (--log-requests), and try turning off the " +
		"optional features in use one at a time (--disable-overlap-schedule, --disable-radix-cache, another --attention-backend)",
	"loading the tokenizer": "It failed while loading the tokenizer: check --tokenizer-path (or the model's tokenizer files), " +
		"--trust-remote-code for custom tokenizers, and the transformers version the model asks for",
	"reading the model config": "It failed while reading the model's config: check config.json of --model-path, --trust-remote-code for " +
		"custom architectures, and that this sglang and transformers version support the architecture",
	"checking its arguments": "The server arguments do not agree: the message names the ones that conflict; check them against " +
		"python -m sglang.launch_server --help of this version",
	"starting": "It failed while starting: the lines before it name the step (model, tokenizer, distributed init, memory); " +
		"start once with the smallest configuration (--tp-size 1, --disable-cuda-graph) to find the option involved",
	"compiling kernels": "It failed while compiling a kernel just in time (Triton, torch.compile, flashinfer or DeepGEMM): clear their caches " +
		"(~/.triton/cache, ~/.cache/flashinfer, the torchinductor cache under /tmp) and retry, check that the toolchain they call (nvcc of the " +
		"CUDA torch was built with, ninja, the Triton release this torch pins) is installed, and to confirm start without the feature that " +
		"compiles (without --enable-torch-compile, with --disable-cuda-graph, another --attention-backend)",
}

// familySteps are the first steps for each family of failure.
var familySteps = map[string]string{
	analysis.FamilyImport: "Installed packages do not match each other: install the server, its kernel packages and torch of one release together " +
		"(the versions its packaging pins, or its official docker image); 'undefined symbol' means a compiled extension built against " +
		"another torch, a missing name or an unexpected argument Python packages of different versions",
	analysis.FamilyConfig: "A check on the configuration failed: the asserted expression or the message names the values that disagree " +
		"(for example --tp-size against the model's heads or experts); change the arguments so the check holds. When no argument given sets " +
		"what it checks (the server changed its own settings, for a draft model or a backend), it is a bug of this release: upgrade sglang " +
		"to the newest release, or report it with the launch command",
	analysis.FamilyFile: "A file or directory is missing or unreadable: check that the path in the message exists inside the container " +
		"(volume mounts, HF_HOME, --model-path, --download-dir) and that the server's user may read it",
	analysis.FamilyNetwork: "A connection failed: check that the address and port in the message are reachable from this host (firewall, " +
		"security group, the right interface) and that no other process holds the port (ss -ltnp)",
	analysis.FamilyMemory: "Memory ran out: give the server less to hold at once (a smaller share of GPU memory reserved for the KV cache, " +
		"a lower maximum batch or sequence length, smaller CUDA graphs), or shard the model over more GPUs",
	analysis.FamilyGPU: "A GPU kernel failed: rerun with CUDA_LAUNCH_BLOCKING=1 to find the kernel, then switch the backend it belongs to " +
		"(the attention or sampling backend) or the GPU-specific option in use",
	analysis.FamilyKilled: "The process was killed by a signal: 'Killed' is usually the kernel's OOM killer or the container's memory limit " +
		"(dmesg, kubectl describe pod: OOMKilled); otherwise the lines before it name the failure that made the launcher stop it",
	analysis.FamilyNative: "The process crashed in native code: the frames of the current thread say which library; rerun with " +
		"CUDA_LAUNCH_BLOCKING=1 and without optional kernels (CUDA graphs off, another attention backend) to isolate it",
	analysis.FamilyBug: "The code met a state it did not expect: the innermost frame of its traceback is where; this is often a bug fixed in a later " +
		"release of that package, or a mismatch between its version and its callers'; upgrade it, or report it with the traceback and the server arguments",
	analysis.FamilyHTTP: "An HTTP call failed with the status in the message: a 4xx is the caller's request (path, body, parameters for this " +
		"server's version), a 5xx the called server's own failure, whose log holds the cause",
	analysis.FamilyCollective: "A collective did not complete: one rank stopped (crashed, hung or lost its network) and the others waited for it; " +
		"find the rank whose own log shows a failure first, and check NCCL_DEBUG=INFO output and the network between the nodes",
	analysis.FamilyHang: "The process stopped making progress: the stuck thread's frames show where it waits. A wait in a collective " +
		"(all_reduce, barrier, broadcast, recv) means another rank stopped first: find the rank that failed or fell behind; a wait on a " +
		"lock or a queue is a deadlock: report it with a dump of every rank (py-spy dump --pid); raise the server's watchdog timeout only for a step that is legitimately long",
	analysis.FamilyWeights: "The checkpoint's weight names or shapes are not what the model code expects: check the model's architecture " +
		"and revision against this sglang version, and that a fine-tuned or quantized checkpoint was saved with the names of its base model",
	analysis.FamilyPanic:  panicStep + " (for sglang's: pip install -U sglang-router, or the sgl-model-gateway image)",
	analysis.FamilyShape:  shapeStep,
	analysis.FamilyDriver: driverStep,
	analysis.FamilyNPU:    npuStep,
	analysis.FamilyParse:  parseStep,
	analysis.FamilyHub: "The model could not be found or fetched from the Hugging Face Hub: --model-path (and --tokenizer-path) take a local " +
		"directory that exists or a repo id (owner/name: letters, digits, '-', '_', '.'); a branch or tag goes in --revision, not after ':' or '@'; " +
		"a gated or private repo needs HF_TOKEN of an account with access; a host without internet needs the model in HF_HOME's cache " +
		"(HF_HUB_OFFLINE=1) or a local --model-path; a repo that lacks a file the model needs (its config, processor or tokenizer files) " +
		"needs that file added, by its maintainer or from the base model it was fine-tuned from",
	analysis.FamilyTokenizer: "The tokenizer rejected a value: check that the tokenizer in use (--tokenizer-path, or the model's own) is the one " +
		"the model and its parsers expect: the tokens a reasoning or tool-call parser (--reasoning-parser, --tool-call-parser), a chat template " +
		"or a stop string relies on must exist in its vocabulary, and the transformers version the model asks for must be installed",
	analysis.FamilyValue:   valueStep,
	analysis.FamilySupport: supportStep,
	analysis.FamilyEnv:     envStep,
	analysis.FamilyLibrary: libraryStep,
	analysis.FamilyDied:    diedStep,
	analysis.FamilyDropped: droppedStep,
	analysis.FamilySchema:  schemaStep,
	analysis.FamilyTemplate: "The model's chat template raised while it rendered the conversation: templates reject messages they cannot " +
		"render (roles that do not alternate user and assistant, a system message the model has none for, tool calls or tool results); " +
		"send the messages in the order the template expects, or start the server with a template that accepts them (--chat-template, " +
		"or the model's updated tokenizer_config.json)",
	analysis.FamilyScript:    scriptStep,
	analysis.FamilyBuild:     buildStep,
	analysis.FamilyCallerBug: callerBugStep,
	analysis.FamilyDisk:      diskStep,
	analysis.FamilyLimit:     limitStep,
	analysis.FamilyCorrupt:   corruptStep,

	analysis.FamilyDevice: "The kernel reports that a device failed: a GPU hung, faulted, was reset or fell off the bus, or its PCIe link " +
		"had an uncorrected error. The driver's lines around it (dmesg -T, journalctl -k) say which: an NVIDIA Xid's number (look it up in " +
		"NVIDIA's Xid table), a ring or job timeout or a page fault (the kernel or shader that ran; the driver, ROCm or Mesa version), a GPU " +
		"fallen off the bus or an uncorrected PCIe error (power, cooling, the slot or riser: check nvidia-smi -q and the BMC's event log). " +
		"A device the driver could not reset needs the node rebooted before the server is restarted",
	analysis.FamilyModelLoad: "The server could not load this model and serves without it: the reason in its state cell says why. An " +
		"engine or plan that cannot be created was built for another GPU or another version of TensorRT or the backend: rebuild it on " +
		"this GPU with the version the server ships; a file or shared library not found is missing from the model repository or the " +
		"image; an invalid argument is the model's configuration. Read the server's lines about loading that model, before the table, " +
		"for the full error",
	analysis.FamilyMemCheck: "A memory checker caught an invalid memory access: its first report names the kernel or function that made it " +
		"and the frames that called it (compute-sanitizer's 'at' and 'Host Frame' lines, a sanitizer's stack); the reports after it are " +
		"consequences. Check the sizes, offsets and devices of the buffers that call was given (a peer copy without peer access, a tensor " +
		"smaller than the kernel assumes), and report it to that library with the checker's report",
}

// consequenceProcess are the processes whose failure is, whatever its
// phase or family, the consequence of another's: the launcher stops when
// the process it waits for fails. Their step (look at that process's own
// lines) follows the others even when the triage says more.
var consequenceProcess = map[string]bool{"launcher": true}

// processSteps are the first steps for a failure of each process, for
// when nothing says more.
var processSteps = map[string]string{
	"scheduler": "This rank's scheduler died, which stops the whole server: its own traceback is in this rank's output around this line " +
		"(with several ranks the lines interleave: filter on the rank's prefix, such as 'TP4]'); the first rank to fail names the cause, " +
		"so keep every rank's log before restarting",
	"detokenizer": "The detokenizer died, so no request gets its output: check that --tokenizer-path matches the model and that " +
		"the model's ids decode with it, and restart the server",
	"tokenizer manager": "The tokenizer manager failed, which fails the requests it was handling: check the request that was running, " +
		"--tokenizer-path and --chat-template",
	"data parallel controller": "The data parallel controller died: check that --dp-size, --tp-size and the GPUs visible to the server agree",
	"HTTP server": "The HTTP server failed a request: the request's body and parameters, or the server's state, are in the lines around it; " +
		"reproduce with the same request",
	"router": "The router failed: check that its worker URLs are up and healthy (curl each /health) and that its policy and timeouts fit them",
	"launcher": "The launcher stopped the server: the process it waited for (a scheduler, the detokenizer) failed first; its lines " +
		"just before say why",
	analysis.ProcessThread: "A background thread of the process died with an uncaught exception; Python prints its traceback right after " +
		"the 'Exception in thread' line, so the full log (not a cut excerpt) names the exception. The name in parentheses is the function the " +
		"thread ran: it says which feature lost its worker (a cache's backup or prefetch thread, a watchdog, a metrics exporter); the server " +
		"may keep serving without it and fail later, so restart it once the exception is understood",
	analysis.ProcessClient: clientStep,
	"Ray driver": "A Ray task or actor failed and ray.get re-raised its exception in the driver: the remote task's own traceback, after the " +
		"'RayTaskError(...)' line, and its last exception line name the cause; when this log does not show them, the worker's log on its node " +
		"does (ray logs, or /tmp/ray/session_latest/logs/worker-*.err)",
}

// componentSteps are the first steps for a failure in each component.
var componentSteps = map[string]string{
	"transfer engine": "The KV transfer engine failed: check that prefill and decode use the same --disaggregation-transfer-backend and " +
		"--disaggregation-ib-device, that the bootstrap and metadata addresses are reachable, and the transfer engine's own lines just before; " +
		"install the transfer engine package (mooncake-transfer-engine, nixl) of the version this sglang release pins, since another may not " +
		"open the same NIC or speak the same protocol",
	"grammar backend": "A structured-output grammar failed: retry the request with another --grammar-backend (xgrammar, outlines, llguidance) " +
		"and check its JSON schema, regex or EBNF",
	"attention backend": "An attention kernel failed: try another --attention-backend (triton, flashinfer, fa3) to isolate it, and check that " +
		"the kernel library was built for this GPU and torch",
	"quantization": "The quantized path failed: check that --quantization matches the checkpoint's quantization_config and that this GPU " +
		"supports its kernel; try without --quantization or with another kernel",
	"speculative decoding": "Speculative decoding failed: start once without --speculative-algorithm to confirm, and check that the draft " +
		"model matches the target model (--speculative-draft-model-path) and this sglang version",
	analysis.ComponentLoRA: "A LoRA adapter failed: check each adapter's adapter_config.json (r, target_modules) against the pool the server " +
		"sized at start-up (--max-lora-rank, --lora-target-modules, --max-loras-per-batch), that its files are readable and were trained for this " +
		"base model, and start once without --enable-lora to confirm the base model serves",
	analysis.ComponentEP: "DeepEP's NVSHMEM transport failed, often while its ranks met: check that every node was started with its own " +
		"--node-rank and the same --nnodes and --dist-init-addr (two nodes given one rank fail NVSHMEM's bootstrap), that the nodes reach each " +
		"other on the bootstrap interface (NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME, NCCL_SOCKET_IFNAME), that the RDMA NICs and GPUDirect RDMA " +
		"(nvidia-peermem, or the IBGDA driver options DeepEP documents) work, and that DeepEP and NVSHMEM are the builds this sglang pins; " +
		"start once without the DeepEP all-to-all (--moe-a2a-backend) to confirm",
	analysis.ComponentToolParser: "The tool-call parser could not read the model's output: check that --tool-call-parser (and " +
		"--reasoning-parser) name the parser of this model's family, that the chat template renders tools the way that parser expects " +
		"(the model's own template, or the one its card names), and whether the model emitted a complete tool call (max_tokens, a stop string cutting it)",
	analysis.ComponentKVConnector: kvConnectorStep,
	analysis.ComponentMultimodal: "The multimodal path failed: check the request's images, video or audio (format, size, how many per " +
		"request) against what the model's processor takes, that transformers is the version the model asks for, and retry the request " +
		"without its media (or with the feature it enabled turned off) to confirm",
	analysis.ComponentTraining: "A training framework that drives sglang for its rollouts failed: its own frames say the step (rollout, " +
		"weight sync, training); check that its options agree with each other and with the engine's, and that the installed sglang is the " +
		"version the framework's release pins; run the engine alone (python -m sglang.launch_server with the same model and parallel sizes) " +
		"to tell the engine's failure from the framework's, and search the framework's own issues",
	"custom all-reduce": "The custom all-reduce kernel failed: start with --disable-custom-all-reduce to confirm (NCCL then does the " +
		"all-reduce); it needs peer-to-peer access between the GPUs (nvidia-smi topo -m; none across PCIe switches without P2P, nor in some VMs)",
}

// shapeStep is the step for a tensor whose shape an operation does not
// take, engine-neutral.
const shapeStep = "A tensor's shape is not what the operation takes: while the weights load, the checkpoint (its quantization scheme, " +
	"packed or fused weights, a fine-tune's changed sizes) does not match what this version's model code and weight loader expect: check " +
	"the checkpoint's quantization config against the server's quantization option, and try the release before this one, which may still " +
	"load it; while serving, a kernel got a shape it does not handle: note the model, the parallel sizes and the request, and turn off the " +
	"optional kernels in use (CUDA graphs, another attention backend) one at a time"

// droppedStep is the step for a connection the other end closed before
// it answered, engine-neutral.
const droppedStep = "The other end closed the connection before it answered: the server called crashed, restarted, or dropped the " +
	"request (a proxy's or load balancer's idle timeout, a request too long for its limit); read the called server's log at that time for " +
	"its own failure, and compare the client's, the proxy's and the server's timeouts with how long the request runs"

// schemaStep is the step for a message that does not fit its schema.
const schemaStep = "A message did not fit the schema its receiver expects (pydantic's 'validation error for <Model>'): the lines after it " +
	"name each field and what it must be; when one program sent it to another (a worker to its server, a client SDK to an API), the two " +
	"are usually of different releases: run both at the same version, and check the field's value on the sending side"

// scriptStep is the step for a launch script that failed.
const scriptStep = "The launch script failed before the program it starts: read its lines just before this one; 'source: not found' " +
	"means the script ran under sh (dash), which has no 'source': run it with bash (bash run.sh, or a #!/bin/bash line) or use '.'; " +
	"'command not found' a tool missing from PATH on this node; an environment that does not activate a conda or venv path that does " +
	"not exist on this node. Run it with bash -x to see the failing command"

// clientStep is the step for an HTTP client whose call failed, when
// nothing says more.
const clientStep = "A client's call to a server failed before a response came back (the traceback ends in the HTTP library): the server " +
	"it called closed the connection, crashed or did not answer in time; read that server's log at the same time for its own failure, " +
	"and check the client's timeout and any proxy between them"

// kvConnectorStep is the step for the component that stores KV cache
// outside the GPU, engine-neutral.
const kvConnectorStep = "The KV cache connector (LMCache, HiCache's storage, Mooncake Store) failed to store or fetch cached KV: " +
	"check that the connector, its storage backend's client (mooncake, redis, a file system) and the engine are versions released " +
	"together (a missing attribute or method means the connector calls an API the installed backend lacks), that the backend is " +
	"reachable, and start once without the connector to confirm the engine serves"

// panicStep is the engine-neutral step for a Rust panic.
const panicStep = "A Rust program hit a bug, not a setting: the message after 'panicked at' says what broke and the location where " +
	"(a crate under the cargo registry, such as tokio or hyper, is a dependency the program misused); until it is fixed, the engine " +
	"servers behind it can be reached directly. If it is the router, gateway or launcher in front of the engine, install its newest release, " +
	"whose changelog may name the panic, and if that still panics, report it with the output of a run with RUST_BACKTRACE=1 and the command line"

// sglangFamilySteps are sglang's own ways out of a family of failure, added
// after the engine-neutral step when the failing code is sglang's.
var sglangFamilySteps = map[string]string{
	analysis.FamilyMemory: "On sglang: lower --mem-fraction-static, --max-running-requests or --chunked-prefill-size, " +
		"or capture fewer CUDA graphs (--cuda-graph-max-bs-decode)",
	analysis.FamilyImport: "On sglang: install sglang, sglang-kernel, flashinfer and torch of one release (the versions sglang's pyproject pins, or its docker image)",
	analysis.FamilySupport: "On sglang: the backends are chosen with --attention-backend, --sampling-backend, --grammar-backend and " +
		"--moe-runner-backend; python -m sglang.launch_server --help lists what this version accepts",
	analysis.FamilyValue: "On sglang: python -m sglang.launch_server --help lists each argument's accepted values for this version; " +
		"a value the model's config.json sets is checked against the model's support in sglang/srt/models",
}

// triageSteps returns the first steps the triage of a failure calls for:
// its component's, its phase's, then its family's. These name sglang's
// options and life cycle: they are given only when the log is sglang's
// (Triage.SGLang, see FromDiagnosis); another engine's log, or one that
// does not say, gets the engine-neutral steps (neutralSteps).
func triageSteps(t analysis.Triage) []string {
	if !t.SGLang {
		return neutralSteps(t)
	}
	var out []string
	steps := [...]string{subjectStep(t), componentSteps[t.Component], phaseSteps[t.Phase], familySteps[t.Family], sglangFamilySteps[t.Family], ""}
	switch t.Family {
	case analysis.FamilyHang:
		// A hang did not fail in its phase: it stopped there. How to
		// read a stuck thread comes first, and the phase's step says
		// it stopped.
		steps[0], steps[3] = steps[3], steps[0]
		steps[2] = stoppedStep(steps[2])
	case analysis.FamilyEnv:
		// A variable the launcher sets is missing: how the process was
		// started, not what it runs, is the fix.
		steps[1], steps[3] = steps[3], steps[1]
	}
	if t.Component == "" && t.Phase == "" && t.Family == "" || consequenceProcess[t.Process] {
		steps[5] = processSteps[t.Process]
	}
	for _, s := range steps {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// stoppedStep is a phase's step said of a hang or a stop by hand, which
// did not fail in its phase but stopped there: "It stopped while running
// a batch: ..." for "It failed while running a batch: ...".
func stoppedStep(step string) string {
	if rest, ok := strings.CutPrefix(step, "It failed while "); ok {
		return "It stopped while " + rest
	}
	return step
}

// subjectStep is the step that points at the triage's subject, the one
// concrete thing the message names (analysis.Subject): "" when there is
// none. The subject is log text, bounded and of a narrow alphabet; it is
// quoted where a shell would read it.
func subjectStep(t analysis.Triage) string {
	s := t.Subject
	if s == "" {
		return ""
	}
	switch t.Family {
	case analysis.FamilyHub:
		return "Check the model id or path '" + s + "' the server was given: it must be a local directory that exists, or a Hugging Face " +
			"repo id (owner/name) that exists and this host may read; anything after the name (':branch', '@tag') is not part of an id"
	case analysis.FamilyFile:
		return "Check that '" + s + "' exists where the server runs and that the server's user may read it (ls -l '" + s + "' inside the container)"
	case analysis.FamilyParse:
		return "Check '" + s + "': it must hold complete, valid JSON, YAML or TOML (not an empty file, an HTML error page or a Git LFS pointer)"
	case analysis.FamilyImport:
		if strings.Contains(s, ".so") {
			return "Find which package ships '" + s + "' (ldconfig -p, pip show -f on the CUDA and torch packages) and install the version the others were built against"
		}
		top, _, _ := strings.Cut(s, ".")
		if t.Importer != "" {
			return "The code at '" + t.Importer + "' imports from '" + s + "': install the " + top + " release that code was written for " +
				"(pip show " + top + " for the one installed), or a version of that code written for the installed " + top
		}
		return "Check the installed " + top + " (pip show " + top + "): '" + s + "' must come from the version the other packages were built or written for"
	case analysis.FamilyValue, analysis.FamilySupport, analysis.FamilyConfig, analysis.FamilyTokenizer:
		if strings.HasPrefix(s, "--") {
			return "The message names " + s + ": set it to a value the message and this version's help accept, or leave it out to take the default"
		}
		return "Check '" + s + "': it is what the check rejected; compare what it holds with what the message says it must hold"
	case analysis.FamilyLibrary:
		if !sourceFileName(s) {
			// A program's diagnostic ("slurmstepd: error: ..."), not
			// a library's source file.
			return "The line is " + s + "'s own report of its failure: its message is the cause; " + s + "'s other lines around this one say what it was doing"
		}
		return "The line comes from " + s + ": the library that holds that file failed; its other lines around this one say what it was doing"
	case analysis.FamilyEnv:
		return "Set " + s + " in the environment the process starts with (env | grep " + s + " inside the container shows what it got), or start it under the launcher that sets it"
	case analysis.FamilyNetwork:
		return "Check that " + s + " is reachable from this host (nc -vz with its host and port) and that no other process holds the port (ss -ltnp)"
	}
	return ""
}

// withTriage returns sol with the triage's steps in front, in a new slice
// (sol may be a catalog record's).
func withTriage(t analysis.Triage, sol []string) []string {
	steps := triageSteps(t)
	if len(steps) == 0 {
		return sol
	}
	out := make([]string, 0, len(steps)+len(sol))
	out = append(out, steps...)
	for _, s := range sol {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// sourceFileName reports whether s names a C, C++ or CUDA source or
// header file by its extension, as a native library's line names where
// it was written; a program's name is none.
func sourceFileName(s string) bool {
	dot := strings.LastIndexByte(s, '.')
	if dot < 0 {
		return false
	}
	switch s[dot+1:] {
	case "c", "cc", "cpp", "cxx", "cu", "cuh", "h", "hpp", "hh", "hxx":
		return true
	}
	return false
}
