package incident

import (
	"slices"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/engine"
)

// sglangEngine is the engine whose options the triage steps name.
const sglangEngine = engine.SGLang

// The steps of the families whose words hold on sglang and every other
// engine alike.
const (
	driverStep = "The CUDA driver or the GPU the process asked for is not usable: run nvidia-smi where the server runs (in a container: " +
		"the runtime's GPU option or the device plugin), check that the driver supports the CUDA version torch was built with " +
		"(python -c 'import torch; print(torch.version.cuda)'), that CUDA_VISIBLE_DEVICES names as many GPUs as the server uses, " +
		"and, for 'no kernel image', that the build supports this GPU's architecture"
	npuStep = "An Ascend NPU operator or the CANN runtime failed: the error code (E19999, EZ9999, ...) is CANN's; set ASCEND_LAUNCH_BLOCKING=1 " +
		"to find the operator, read the plog under ~/ascend/log for the inner error, and check that CANN, torch_npu and the NPU driver are " +
		"versions released together and support the model's operators on this NPU"
	parseStep = "A JSON, YAML or TOML text could not be parsed: 'Expecting value: line 1 column 1 (char 0)' means it was empty or not " +
		"JSON at all (an HTML error page, a Git LFS pointer, a cut download); the frame above the parser's names what was read: check that " +
		"file (the model's config.json, tokenizer_config.json or generation_config.json, a chat template, a JSON argument) or the HTTP response it fetched"
	envStep = "A process reads its place in the job from environment variables that are not set: torch.distributed's env:// rendezvous needs RANK, " +
		"WORLD_SIZE, MASTER_ADDR and MASTER_PORT (and LOCAL_RANK), which torchrun sets for every process it starts; start the program with torchrun " +
		"(or the launcher its documentation names) instead of python, or set them yourself for a single process (RANK=0 WORLD_SIZE=1 " +
		"MASTER_ADDR=127.0.0.1 MASTER_PORT=29500)"
	libraryStep = "A native library reported the error itself, in a line that says no more: the source file it names is the library's; read its " +
		"lines just before this one at every level (INFO and WARNING too) for what it was doing, check that the library is the version this " +
		"server release pins (pip show, or the image's), and search that library's own issues for the message"
	diedStep = "Another component reported that this one died abnormally (an exception while it was created or ran, an exit that was " +
		"not expected): the dead component's own log holds the cause; read it for its exception, its OOM kill or its exit status " +
		"(for a Ray actor: ray logs, or the dashboard's actor view; for a supervised program: its own output), then restart it once that is fixed"
	valueStep = "A value check failed: the message names the value and what it must be. When it is a server argument, change " +
		"that argument; when it is a tensor's shape or a field of the model's config, this version does not handle the model's checkpoint " +
		"or architecture this way: check the model against the version's supported models, and try the release the model's card recommends"
	buildStep = "A compiler or linker failed (a package built from source, or a kernel compiled just in time): 'use of undeclared " +
		"identifier', 'was not declared in this scope' or 'no member named' in the package's own source usually mean a missing #include of " +
		"the header that declares it, or a source that does not build against the installed torch, CUDA or ROCm: take the commit or release " +
		"that fixes it (search the package's issues and pull requests for the identifier), build the release the engine pins, or install its " +
		"prebuilt wheel or docker image; 'No such file or directory' for a header, or 'cannot find -l...', means a toolkit or development " +
		"package is missing (the CUDA or ROCm toolkit of torch's version, python3-dev)"
	// callerBugStep is the step for a code bug raised in the program's
	// own code, engine-neutral.
	callerBugStep = "The exception was raised in the program's own code, not in an installed package (its innermost frame is outside " +
		"site-packages): it met an object or value it did not expect, most often because a library it calls returns or takes something " +
		"else in the installed version (pip show that library; compare with the version the program was written for), or an option it " +
		"reads was left unset; read that frame and the call above it"
	diskStep = "A file system is full: run df -h where the process runs (and df -h /dev/shm); the model cache (HF_HOME), the kernel " +
		"caches (~/.triton, ~/.cache), /tmp and logs fill up first; free space or point them at a larger volume. In a container /dev/shm " +
		"defaults to 64 MB, too little for NCCL and data loaders: give it more (--shm-size, or --ipc=host)"
	limitStep = "The process reached a per-process limit: 'Too many open files' is the open-file limit (ulimit -n; raise it in the " +
		"container's or the service's limits, e.g. LimitNOFILE or docker --ulimit nofile=65535:65535), 'can't start new thread' the " +
		"limit on processes and threads (ulimit -u, a container's pids limit)"
	corruptStep = "A file the process read is cut short or not the format its name says: a partial download, a Git LFS pointer in place " +
		"of the weights (a few hundred bytes: git lfs pull), a disk that filled during the download; compare each file's size with " +
		"its source's (the Hub's file list), delete the bad one and download it again"
	supportStep = "The server rejected a combination it does not support: the message names the feature and what it needs " +
		"(a GPU generation, a backend, a model type, a package); choose another backend or option, as the message suggests, or the " +
		"hardware or version it names"
)

// familyNeutral are the first steps for each family of failure in words
// that hold on every serving engine: what to check, not which option of
// one server to change.
var familyNeutral = map[string]string{
	analysis.FamilyImport: "A compiled package does not match the others: install the serving engine, its kernel packages and torch of one " +
		"release together (the versions the engine pins, or its official docker image); 'undefined symbol' means a build against another torch, " +
		"a missing name or an unexpected argument Python packages of different versions",
	analysis.FamilyConfig: "A check on the configuration failed: the asserted expression or the message names the values that disagree " +
		"(for example the tensor parallel size against the model's heads or experts); change the server's arguments so the check holds. When no " +
		"argument given sets what it checks (the server changed its own settings, for a draft model or a backend), it is a bug of this " +
		"release: upgrade the serving engine to its newest release, or report it with the launch command",
	analysis.FamilyFile: "A file or directory is missing or unreadable: check that the path in the message exists inside the container " +
		"(volume mounts, HF_HOME, the model directory) and that the server's user may read it",
	analysis.FamilyNetwork: familySteps[analysis.FamilyNetwork],
	analysis.FamilyPanic:   panicStep,
	analysis.FamilyShape:   shapeStep,
	analysis.FamilyMemory: "Memory ran out: give the server more of the GPU (no other process on it, nvidia-smi), reserve less of it for the KV cache, " +
		"shorten the longest context or the batch it accepts, or shard the model over more GPUs; the engine's own options for each follow when it is known",
	analysis.FamilyGPU: "A GPU kernel failed: rerun with CUDA_LAUNCH_BLOCKING=1 to find the kernel, then switch off or replace the optional " +
		"kernel it belongs to (attention backend, quantized kernel, CUDA graphs) to confirm",
	analysis.FamilyKilled: familySteps[analysis.FamilyKilled],
	analysis.FamilyNative: "The process crashed in native code: the frames of the current thread say which library; rerun with " +
		"CUDA_LAUNCH_BLOCKING=1 and without optional kernels (CUDA graphs, custom attention or all-reduce kernels) to isolate it",
	analysis.FamilyBug:        familySteps[analysis.FamilyBug],
	analysis.FamilyHTTP:       familySteps[analysis.FamilyHTTP],
	analysis.FamilyCollective: familySteps[analysis.FamilyCollective],
	analysis.FamilyHang: "The process stopped making progress: the stuck thread's frames show where it waits. A wait in a collective " +
		"(all_reduce, barrier, broadcast, recv) means another rank stopped first: find the rank that failed or fell behind; a wait on a " +
		"lock or a queue is a deadlock: report it with a py-spy dump of every rank's process",
	analysis.FamilyWeights: "The checkpoint's weight names or shapes are not what the model code expects: check the model's architecture " +
		"and revision against this engine version, and that a fine-tuned or quantized checkpoint was saved with the names of its base model",
	analysis.FamilyDriver: driverStep,
	analysis.FamilyNPU:    npuStep,
	analysis.FamilyParse:  parseStep,
	analysis.FamilyHub: "The model could not be found or fetched from the Hugging Face Hub: the model argument takes a local directory that " +
		"exists or a repo id (owner/name: letters, digits, '-', '_', '.'); a branch or tag goes in the revision option, not after ':' or '@'; " +
		"a gated or private repo needs HF_TOKEN of an account with access; a host without internet needs the model in HF_HOME's cache (HF_HUB_OFFLINE=1); " +
		"a repo that lacks a file the model needs (its config, processor or tokenizer files) needs that file added, by its maintainer or from the base model it was fine-tuned from",
	analysis.FamilyTokenizer: "The tokenizer rejected a value: check that the tokenizer in use is the one the model and its parsers expect: " +
		"the tokens a reasoning or tool-call parser, a chat template or a stop string relies on must exist in its vocabulary, and the " +
		"transformers version the model asks for must be installed",
	analysis.FamilyValue:   valueStep,
	analysis.FamilySupport: supportStep,
	analysis.FamilyEnv:     envStep,
	analysis.FamilyLibrary: libraryStep,
	analysis.FamilyDied:    diedStep,
	analysis.FamilyDropped: droppedStep,
	analysis.FamilySchema:  schemaStep,
	analysis.FamilyTemplate: "The model's chat template raised while it rendered the conversation: templates reject messages they cannot " +
		"render (roles that do not alternate user and assistant, a system message the model has none for, tool calls or tool results); " +
		"send the messages in the order the template expects, or serve the model with a template that accepts them (the engine's chat " +
		"template option, or the model's updated tokenizer_config.json)",
	analysis.FamilyScript:    scriptStep,
	analysis.FamilyBuild:     buildStep,
	analysis.FamilyCallerBug: callerBugStep,
	analysis.FamilyDisk:      diskStep,
	analysis.FamilyLimit:     limitStep,
	analysis.FamilyCorrupt:   corruptStep,

	// A device's failure and a memory checker's report are worded for
	// no engine.
	analysis.FamilyDevice:    familySteps[analysis.FamilyDevice],
	analysis.FamilyMemCheck:  familySteps[analysis.FamilyMemCheck],
	analysis.FamilyModelLoad: familySteps[analysis.FamilyModelLoad],
}

// phaseNeutral are the first steps for a failure in each phase, in
// words that hold on every engine.
var phaseNeutral = map[string]string{
	"loading weights": "It failed while loading the checkpoint: check that the model directory holds a complete download of a model this engine version supports " +
		"(every safetensors shard, config.json of the same revision), and that the load format, quantization and revision the server is given match the checkpoint",
	"initialising the memory pool": "It failed while sizing the KV cache: the share of GPU memory the server may use for weights and KV cache leaves too little " +
		"after the weights; when the GPU is the server's alone, raise that share (to at least the fraction the message names), lower it only when other " +
		"processes hold part of the GPU; or shorten the longest context the server accepts, or shard the model over more GPUs",
	"initialising the distributed backend": "It failed while the ranks met: check that the rendezvous address and port are reachable from every node and free, " +
		"that every node agrees on the number of nodes and its rank, and pin the interface with NCCL_SOCKET_IFNAME and GLOO_SOCKET_IFNAME",
	"capturing CUDA graphs": "It failed while capturing CUDA graphs: start once with CUDA graphs turned off; if the server then runs, capture fewer batch sizes " +
		"or leave more memory for the capture",
	"warming up": "The server started but its warmup request failed: the error above is what any first request would hit; fix the cause before serving",
	"serving requests": "It failed while running a batch: reproduce with the request that was running, and try turning off the optional features in use " +
		"(prefix caching, speculative decoding, another attention backend) one at a time",
	"loading the tokenizer": "It failed while loading the tokenizer: check the tokenizer files of the model, trust-remote-code for custom tokenizers, " +
		"and the transformers version the model asks for",
	"reading the model config": "It failed while reading the model's config: check config.json of the model, trust-remote-code for custom architectures, " +
		"and that this engine and transformers version support the architecture",
	"compiling kernels": "It failed while compiling a kernel just in time (Triton, torch.compile, a JIT-built extension): clear the kernel " +
		"caches (~/.triton/cache, the torchinductor cache under /tmp, the extension's build directory) and retry, check that the toolchain " +
		"they call (nvcc of the CUDA torch was built with, ninja, the Triton release this torch pins) is installed, and to confirm start " +
		"without the feature that compiles (torch.compile, CUDA graphs)",
	"checking its arguments": "The server arguments do not agree: the message names the ones that conflict; check them against the --help of this engine version",
	"starting": "It failed while starting: the lines before it name the step (model, tokenizer, distributed init, memory); start once with the smallest " +
		"configuration (one GPU, no CUDA graphs) to find the option involved",
}

// componentNeutral are the first steps for a failure in each component,
// in words that hold on every engine.
var componentNeutral = map[string]string{
	"transfer engine": "The KV transfer engine failed: check that prefill and decode use the same transfer backend and network devices, that the " +
		"bootstrap and metadata addresses are reachable, and the transfer engine's own lines just before; install the transfer engine package " +
		"(mooncake-transfer-engine, nixl) of the version the serving engine pins, since another may not open the same NIC or speak the same protocol",
	"grammar backend": "A structured-output grammar failed: retry the request with another grammar backend and check its JSON schema, regex or EBNF",
	"attention backend": "An attention kernel failed: try another attention backend to isolate it, and check that the kernel library was built " +
		"for this GPU and torch",
	"quantization": "The quantized path failed: check that the server's quantization setting matches the checkpoint's quantization_config and that " +
		"this GPU supports its kernel; try another kernel",
	"speculative decoding": "Speculative decoding failed: start once without it to confirm, and check that the draft model matches the target model " +
		"and this engine version",
	analysis.ComponentLoRA: "A LoRA adapter failed: check each adapter's adapter_config.json (r, target_modules) against the LoRA limits the " +
		"engine was started with (the largest rank, the target modules, the adapters per batch), that its files are readable and were trained for " +
		"this base model, and start once without LoRA to confirm the base model serves",
	analysis.ComponentEP: "DeepEP's NVSHMEM transport failed, often while its ranks met: check that every node was started with its own " +
		"node rank and the same number of nodes and rendezvous address (two nodes given one rank fail NVSHMEM's bootstrap), that the nodes reach " +
		"each other on the bootstrap interface (NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME), that the RDMA NICs and GPUDirect RDMA work, and that " +
		"DeepEP and NVSHMEM are the builds the engine pins",
	analysis.ComponentToolParser: "The tool-call parser could not read the model's output: check that the engine's tool-call (and " +
		"reasoning) parser is the one of this model's family, that the chat template renders tools the way that parser expects, and " +
		"whether the model emitted a complete tool call (max_tokens, a stop string cutting it)",
	analysis.ComponentKVConnector: kvConnectorStep,
	analysis.ComponentMultimodal: "The multimodal path failed: check the request's images, video or audio (format, size, how many per " +
		"request) against what the model's processor takes, that transformers is the version the model asks for, and retry the request " +
		"without its media to confirm",
	analysis.ComponentTraining: "A training framework that drives an inference engine for its rollouts failed: its own frames say the step " +
		"(rollout, weight sync, training); check that its options agree with each other and with the engine's, and that the installed " +
		"engine is the version the framework's release pins; run the engine alone with the same model and parallel sizes to tell the " +
		"engine's failure from the framework's, and search the framework's own issues",
	"custom all-reduce": "The custom all-reduce kernel failed: turn it off to confirm (the engine then all-reduces with NCCL); it needs " +
		"peer-to-peer access between the GPUs (nvidia-smi topo -m; none across PCIe switches without P2P, nor in some VMs)",
}

// processNeutral are the process steps that name no sglang option.
var processNeutral = map[string]bool{"scheduler": true, "HTTP server": true, "router": true, "launcher": true, "Ray driver": true,
	analysis.ProcessThread: true, analysis.ProcessClient: true}

// neutralSteps returns the triage's steps in words that hold on every
// engine: the component's, the phase's, then the family's, or the
// process's when nothing else is known.
func neutralSteps(t analysis.Triage) []string {
	var out []string
	steps := [...]string{subjectStep(t), componentNeutral[t.Component], phaseNeutral[t.Phase], familyNeutral[t.Family], ""}
	switch t.Family {
	case analysis.FamilyHang:
		steps[0], steps[3] = steps[3], steps[0] // see triageSteps
		steps[2] = stoppedStep(steps[2])
	case analysis.FamilyEnv:
		steps[1], steps[3] = steps[3], steps[1] // see triageSteps
	}
	if (t.Component == "" && t.Phase == "" && t.Family == "" || consequenceProcess[t.Process]) && processNeutral[t.Process] {
		steps[4] = processSteps[t.Process]
	}
	for _, s := range steps {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
