package catalog_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/patterns"
)

// firstFixes names, for the records that lead most often, the key token
// their first solution must hold: the step that most often fixed the
// failure in reported threads (the flag, the version move, the
// environment variable, the command). An alert's first step is the one
// read, so a reordering that puts a diagnosis or a rarer cause first
// fails here instead of drifting unnoticed. engine, when set, checks the
// first of that engine's remedies as well. threads, when set, names the
// public threads the fix was read from, so a later review can weigh the
// lead against the same evidence.
var firstFixes = []struct {
	slug, first   string
	engine, remed string
	threads       []string
}{
	// Most illegal accesses are kernel bugs a later release fixes.
	{slug: "cuda-illegal-memory-access", first: "Upgrade the engine, its kernel packages and torch together",
		engine: "sglang", remed: "--attention-backend"},
	// Containers with docker's small /dev/shm are the usual cause.
	{slug: "nccl-unhandled-system-error", first: "--ipc=host"},
	// Missing or unexpected weight names are mostly fixed by a newer release.
	{slug: "load-weights-key-error", first: "Upgrade the engine to its newest release"},
	// Lowering the engine's memory reservation is what most often works.
	{slug: "cuda-out-of-memory", first: "Reserve less of the GPU",
		engine: "sglang", remed: "--mem-fraction-static"},
	{slug: "cuda-out-of-memory", engine: "vllm", remed: "--gpu-memory-utilization"},
	// Driver-side allocations need room outside the reservation.
	{slug: "cuda-error-out-of-memory", first: "lower the engine's memory share",
		engine: "sglang", remed: "--mem-fraction-static"},
	{slug: "cuda-error-out-of-memory", engine: "vllm", remed: "--gpu-memory-utilization"},
	// The model, and the models it loads by name, must be in the cache.
	{slug: "hf-offline-cache-miss", first: "huggingface-cli download"},
	{slug: "hf-offline-cache-miss", first: "every other model the checkpoint loads by name"},
	{slug: "address-already-in-use", first: "ss -ltnp"},
	{slug: "hf-gated-repo", first: "Accept the model's licence"},
	{slug: "cuda-no-kernel-image", first: "compute capability"},
	{slug: "sgl-kernel-undefined-symbol", first: "pip install \"sglang[all]=="},
	{slug: "nccl-watchdog-collective-timeout", engine: "sglang", remed: "--dist-timeout"},
	{slug: "hip-no-binary-for-gpu", first: "Reinstall (or rebuild) the kernel library"},
	// Peer-to-peer the platform does not support is the usual cause.
	{slug: "nccl-unhandled-cuda-error", first: "NCCL_P2P_DISABLE=1"},
	// A newer transfer engine fixed most KV transfer failures.
	{slug: "disagg-decode-transfer-failed", first: "mooncake-transfer-engine"},
	// Later releases pick block sizes that fit GPUs with less shared memory.
	{slug: "triton-out-of-resources", first: "Upgrade the serving engine",
		engine: "sglang", remed: "a newer sglang first"},
	// Compiling inside graph capture is the most reported cause.
	{slug: "capture-cuda-graph-failed", first: "--enable-torch-compile"},
	// A stuck scheduler is mostly a bug a later release fixed.
	{slug: "watchdog-timeout-legacy", first: "Upgrade sglang to its newest release"},
	// Asserts on valid requests are mostly engine bugs fixed since.
	{slug: "cuda-device-side-assert", first: "upgrade the engine"},
	// Mismatched native builds are the usual cause of a segfault.
	{slug: "fatal-python-error-segfault", first: "that the engine's release pins"},
	// Multi-node timeouts: a newer release with a longer collective timeout,
	// then the interface NCCL and gloo use.
	{slug: "nccl-watchdog-collective-timeout", first: "update to the latest release and raise the collective timeout",
		engine: "sglang", remed: "--dist-timeout 3600",
		threads: []string{
			"https://github.com/sgl-project/sglang/issues/3932",
			"https://github.com/sgl-project/sglang/issues/3836",
			"https://github.com/sgl-project/sglang/issues/3783",
		}},
	// GPU memory registration needs GPUDirect RDMA on the host.
	{slug: "mooncake-memory-registration-failed", first: "modprobe nvidia_peermem",
		threads: []string{
			"https://github.com/kvcache-ai/Mooncake/issues/351",
			"https://github.com/kvcache-ai/Mooncake/pull/3538",
			"https://github.com/sgl-project/sglang/issues/4655",
		}},
	// One UCX, built with multi-thread support, is what NIXL's UCX backend needs.
	{slug: "nixl-ucx-backend-create-failed", first: "--enable-mt",
		threads: []string{
			"https://github.com/ai-dynamo/nixl/issues/96",
			"https://github.com/sgl-project/sglang/issues/5709",
			"https://github.com/ai-dynamo/nixl/issues/616",
		}},
	{slug: "nixl-ucx-backend-create-failed", first: "bundled in the nixl wheel"},
	// Colocated RL: the trainer's memory must be gone before the engine resumes.
	{slug: "torch-memory-saver-resume-oom", first: "before resuming the engine",
		threads: []string{
			"https://github.com/fzyzcjy/torch_memory_saver/issues/99",
			"https://github.com/THUDM/slime/pull/579",
			"https://github.com/THUDM/slime/pull/573",
		}},
	// Prefill, router and decode must agree on the bootstrap port.
	{slug: "disagg-bootstrap-unreachable", first: "--disaggregation-bootstrap-port",
		threads: []string{
			"https://github.com/sgl-project/sglang/pull/11747",
			"https://github.com/NVIDIA/srt-slurm/pull/155",
			"https://github.com/ai-dynamo/dynamo/issues/4855",
		}},
	// Ascend operator failures: a matching, newer torch_npu and CANN.
	{slug: "npu-function-error", first: "torch_npu",
		threads: []string{
			"https://github.com/hiyouga/LlamaFactory/issues/7986",
			"https://github.com/vllm-project/vllm-ascend/issues/4859",
		}},
	// DeepEP's timeouts were mostly fixed in DeepEP itself.
	{slug: "deepep-timeout", first: "Upgrade DeepEP",
		threads: []string{
			"https://github.com/deepseek-ai/DeepEP/pull/181",
			"https://github.com/ishandhanani/srt-slurm/pull/133",
			"https://github.com/sgl-project/sglang/issues/9582",
		}},
	// ROCm queue aborts: turn off the AITER path that faults.
	{slug: "rocm-hsa-queue-aborted", first: "AITER_",
		engine: "sglang", remed: "SGLANG_USE_AITER_AR=false",
		threads: []string{
			"https://github.com/sgl-project/sglang/pull/23581",
			"https://github.com/vllm-project/vllm/issues/43605",
		}},
	// Out-of-range ids: a tokenizer and a checkpoint that disagree on the vocabulary.
	{slug: "cuda-kernel-assertion-failed", first: "vocab_size",
		threads: []string{
			"https://github.com/pytorch/torchtitan/pull/1495",
			"https://github.com/sillsdev/silnlp/issues/1033",
			"https://github.com/thunlp/FR-Spec/issues/1",
		}},
	// The kernel package's common ops load only beside the torch and CUDA it was built for.
	{slug: "sgl-kernel-common-ops-load-failed", first: "pip install \"sglang[all]==",
		threads: []string{
			"https://github.com/sgl-project/sglang/issues/5100",
			"https://github.com/sgl-project/sglang/issues/29646",
			"https://github.com/sgl-project/sglang/pull/30562",
		}},
	// RoCE handshakes fail on a GID the peer cannot route to.
	{slug: "mooncake-handshake-modify-qp-failed", first: "MC_GID_INDEX",
		threads: []string{
			"https://github.com/ROCm/ATOM/issues/1748",
			"https://github.com/kvcache-ai/Mooncake/issues/1026",
			"https://github.com/kvcache-ai/Mooncake/pull/1597",
		}},
	// The idle-time leak check finds release bugs: move to a release without them.
	{slug: "memory-leak-detected", first: "upgrade to the newest release",
		threads: []string{
			"https://github.com/sgl-project/sglang/issues/11970",
			"https://github.com/sgl-project/sglang/pull/16067",
			"https://github.com/sgl-project/sglang/issues/7130",
		}},
	// ROCm page faults: route around the faulting kernel until a release fixes it.
	{slug: "rocm-memory-access-fault", first: "Turn off the kernel path that faults",
		engine: "vllm", remed: "VLLM_ROCM_USE_AITER=0",
		threads: []string{
			"https://github.com/vllm-project/vllm/issues/35169",
			"https://github.com/vllm-project/vllm/pull/36376",
			"https://github.com/vllm-project/vllm/issues/48043",
			"https://github.com/ROCm/aiter/issues/4323",
		}},
	{slug: "rocm-memory-access-fault", engine: "sglang", remed: "SGLANG_USE_AITER=0"},
	// A proxy answering the server's own warmup request.
	{slug: "warmup-request-rejected", first: "no_proxy",
		threads: []string{
			"https://github.com/sgl-project/sglang/issues/9814",
			"https://github.com/sgl-project/sglang/issues/9155",
		}},
	// Strict templates: send the conversation shape they accept.
	{slug: "chat-template-render-error", first: "send conversations of the shape it accepts",
		threads: []string{
			"https://github.com/mcowger/generic-copilot/pull/43",
			"https://github.com/eclipse-theia/theia/issues/17104",
			"https://github.com/nextai-translator/raycast-openai-translator/issues/34",
		}},
	// Over-long prompts: cut them on the client, with room left for the answer.
	{slug: "input-longer-than-context-length", first: "Truncate or shorten prompts on the client",
		threads: []string{
			"https://github.com/sgl-project/sglang/issues/8096",
			"https://github.com/sgl-project/sglang/issues/9398",
			"https://github.com/sgl-project/sglang/issues/5409",
		}},
	// Invalid arguments during graph capture are mostly the custom all-reduce.
	{slug: "cuda-invalid-argument", first: "turn the engine's custom all-reduce off",
		engine: "sglang", remed: "--disable-custom-all-reduce",
		threads: []string{
			"https://github.com/vllm-project/vllm/issues/5613",
			"https://github.com/THUDM/slime/issues/1998",
			"https://github.com/sgl-project/sglang/pull/28672",
			"https://github.com/sgl-project/sglang/issues/11957",
		}},
	{slug: "cuda-invalid-argument", engine: "vllm", remed: "--disable-custom-all-reduce"},
	// NPU out of memory: a smaller memory share, as on GPUs.
	{slug: "npu-out-of-memory", first: "Lower the share of NPU memory",
		engine: "sglang", remed: "--mem-fraction-static",
		threads: []string{
			"https://github.com/sgl-project/sglang/issues/29838",
			"https://github.com/vllm-project/vllm-ascend/issues/5020",
		}},
	// HCCL's device-id mapping failure was fixed in CANN itself.
	{slug: "hccl-comm-init-failed", first: "CANN 8.1.RC1",
		threads: []string{
			"https://github.com/vllm-project/vllm-ascend/issues/672",
		}},
	// Outlines renamed its API: install the release the caller was written for.
	{slug: "outlines-version-mismatch", first: "Install the outlines release that code was written for",
		threads: []string{
			"https://github.com/sgl-project/sglang/issues/194",
			"https://github.com/vllm-project/vllm/issues/11411",
			"https://github.com/sgl-project/sglang/issues/2552",
		}},
	// ggml asserts on new models and backends are mostly fixed in a later build.
	{slug: "ggml-assert-failed", first: "Update llama.cpp to its newest build",
		threads: []string{
			"https://github.com/ggml-org/llama.cpp/issues/5928",
			"https://github.com/ggml-org/llama.cpp/issues/4901",
			"https://github.com/ggml-org/llama.cpp/issues/20570",
			"https://github.com/ollama/ollama/issues/10551",
		}},
	// A runner that dies is mostly fixed by a newer Ollama (or a rollback after a bad upgrade).
	{slug: "ollama-runner-terminated", first: "Update Ollama to its newest release",
		threads: []string{
			"https://github.com/ollama/ollama/issues/4630",
			"https://github.com/ollama/ollama/issues/6541",
			"https://github.com/ollama/ollama/issues/5628",
			"https://github.com/ollama/ollama/issues/6946",
			"https://github.com/ollama/ollama/issues/5643",
		}},
	// CUDA's unknown error is mostly an nvidia_uvm module left unusable by a suspend.
	{slug: "cuda-unknown-error", first: "sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm",
		threads: []string{
			"https://github.com/pop-os/default-settings/pull/64",
			"https://github.com/pytorch/pytorch/issues/49081",
			"https://github.com/pytorch/pytorch/issues/88639",
			"https://github.com/ollama/ollama/issues/2934",
			"https://github.com/ggml-org/llama.cpp/issues/7218",
		}},
	{slug: "cuda-unknown-error", first: "nvidia-modprobe -c 0 -u"},
	// Docker without a GPU device driver: the NVIDIA container toolkit.
	{slug: "docker-gpu-device-driver-missing", first: "Install the NVIDIA container toolkit",
		threads: []string{
			"https://github.com/NVIDIA/nvidia-docker/issues/1034",
			"https://github.com/NVIDIA/nvidia-docker/issues/1243",
			"https://github.com/NVIDIA/nvidia-docker/issues/1642",
			"https://github.com/NVIDIA/dcgm-exporter/issues/33",
			"https://github.com/eduidl/ElasticFusion-Dockerfile/issues/11",
		}},
	// An architecture the bundled llama.cpp does not know: a release that does.
	{slug: "llamacpp-unknown-model-architecture", first: "Update llama.cpp",
		threads: []string{
			"https://github.com/ollama/ollama/issues/4002",
			"https://github.com/ollama/ollama/issues/3974",
			"https://github.com/ollama/ollama/issues/10454",
			"https://github.com/abetlen/llama-cpp-python/issues/1994",
			"https://github.com/utilityai/llama-cpp-rs/pull/866",
		}},
	// A library newer than the loaded kernel module: reboot so they match.
	{slug: "nvml-driver-library-mismatch", first: "Reboot the node",
		threads: []string{
			"https://github.com/illinois-scicomp/machine-shop-maintenance/issues/60",
			"https://github.com/NVIDIA/nvidia-container-toolkit/issues/394",
			"https://github.com/NVIDIA/deepops/issues/1186",
			"https://github.com/oddmario/NVIDIA-Ubuntu-Driver-Guide/issues/4",
		}},
	// A KV cache too small for the model's full context: a shorter --max-model-len.
	{slug: "vllm-kv-cache-smaller-than-max-model-len", first: "--max-model-len at or below",
		threads: []string{
			"https://github.com/vllm-project/vllm/issues/2418",
			"https://github.com/QwenLM/Qwen3/issues/295",
			"https://github.com/vllm-project/vllm/issues/11391",
			"https://github.com/xusenlinzy/api-for-open-llm/issues/225",
		}},
	// TensorRT-LLM's KV cache manager asserts mostly under block reuse: turn it off.
	{slug: "trtllm-kv-cache-manager-assertion", first: "Turn KV cache block reuse off",
		threads: []string{
			"https://github.com/NVIDIA/TensorRT-LLM/issues/699",
			"https://github.com/NVIDIA/TensorRT-LLM/issues/2660",
			"https://github.com/NVIDIA/TensorRT-LLM/issues/13123",
		}},
	{slug: "trtllm-kv-cache-manager-assertion", first: "enable_kv_cache_reuse false"},
	// RDMA completions that time out from the start: the RoCE GID NCCL uses.
	{slug: "nccl-ib-completion-error", first: "NCCL_IB_GID_INDEX",
		threads: []string{
			"https://github.com/NVIDIA/nccl/issues/426",
			"https://github.com/pytorch/pytorch/issues/81628",
			"https://github.com/NVIDIA/nccl/issues/902",
			"https://github.com/NVIDIA/nccl/issues/1170",
		}},
	// A manifest the registry does not have: a name or tag written wrong.
	{slug: "ollama-pull-manifest-not-found", first: "Use a name and tag that exist in the library",
		threads: []string{
			"https://github.com/tschechlovdev/rag_chatbot/issues/1",
			"https://github.com/pingcap/pytidb/pull/102",
			"https://github.com/ollama/ollama/issues/9230",
			"https://github.com/ollama/ollama/issues/5499",
		}},
	// The TensorRT-LLM backend's JSON parse error: an engine directory without the engine's config.json.
	{slug: "triton-model-load-failed", first: "the one holding config.json",
		threads: []string{
			"https://github.com/triton-inference-server/tensorrtllm_backend/issues/61",
			"https://github.com/triton-inference-server/tensorrtllm_backend/issues/207",
			"https://github.com/triton-inference-server/tensorrtllm_backend/issues/500",
		}},
	// cuInit's CUDA_ERROR_NOT_INITIALIZED (3) with nvidia-smi working: the
	// UVM module's HMM support on the host's kernel.
	{slug: "ollama-cuda-driver-init-failed", first: "uvm_disable_hmm=1",
		threads: []string{
			"https://github.com/ollama/ollama/issues/11593",
			"https://github.com/NVIDIA/open-gpu-kernel-modules/issues/901",
			"https://github.com/NVIDIA/open-gpu-kernel-modules/issues/947",
		}},
	// VRAM registered as host memory: UCX without its CUDA transports.
	{slug: "nixl-memory-registration-failed", first: "UCX_TLS",
		threads: []string{
			"https://github.com/NVIDIA/TensorRT-LLM/pull/18373",
			"https://github.com/ai-dynamo/nixl/issues/1628",
		}},
	// More shards than the GPUs the container sees.
	{slug: "tgi-not-enough-cuda-devices", first: "--num-shard",
		threads: []string{
			"https://github.com/huggingface/text-generation-inference/issues/425",
			"https://github.com/huggingface/text-generation-inference/issues/2432",
		}},
	{slug: "trtllm-max-num-tokens-not-block-aligned", first: "multiple of the KV cache's tokens_per_block",
		threads: []string{
			"https://github.com/ai-dynamo/aiconfigurator/pull/307",
			"https://github.com/ai-dynamo/aiconfigurator/pull/459",
		}},
	// AutoAWQ's extension built for another torch.
	{slug: "awq-kernels-not-loaded", first: "AutoAWQ_kernels",
		threads: []string{
			"https://github.com/QwenLM/Qwen3/issues/221",
			"https://github.com/casper-hansen/AutoAWQ/issues/466",
			"https://github.com/hiyouga/LlamaFactory/issues/3465",
		}},
}

// firstFixRecords returns the embedded records a first fix is checked
// on: the curated sglang file's first, so a slug it shares with another
// engine's file is checked where it was first written, then every other
// embedded file's (llama.cpp, Ollama, vLLM and the rest), whose records
// lead on those engines' logs.
func firstFixRecords(t *testing.T) []patterns.Record {
	t.Helper()
	recs := curated(t)
	all, _ := patterns.Default()
	for _, r := range all {
		if r.Origin.File != patterns.EmbeddedPrefix+"sglang.jsonl" {
			recs = append(recs, r)
		}
	}
	return recs
}

func TestFirstSolutionNamesTheFix(t *testing.T) {
	recs := firstFixRecords(t)
	bySlug := map[string]int{}
	for i, r := range recs {
		if _, ok := bySlug[r.Slug]; !ok {
			bySlug[r.Slug] = i
		}
	}
	for _, c := range firstFixes {
		i, ok := bySlug[c.slug]
		if !ok {
			t.Errorf("%s: no such record in the catalog", c.slug)
			continue
		}
		r := recs[i]
		for _, u := range c.threads {
			if !strings.HasPrefix(u, "https://github.com/") || strings.ContainsAny(u, "#? ") {
				t.Errorf("%s: thread %q is not a plain GitHub thread address", c.slug, u)
			}
		}
		if c.first != "" {
			if len(r.Solutions) == 0 || !strings.Contains(r.Solutions[0], c.first) {
				t.Errorf("%s: the first solution does not name %q: %q", c.slug, c.first, r.Solutions)
			}
		}
		if c.engine != "" {
			rem := r.Remedies[c.engine]
			if len(rem) == 0 || !strings.Contains(rem[0], c.remed) {
				t.Errorf("%s: the first %s remedy does not name %q: %q", c.slug, c.engine, c.remed, rem)
			}
		}
	}
}
