package incident_test

import (
	"strings"
	"testing"
)

// Writers' prefixes for the notice tables: each as its writer prints it.
func sglTP(msg string) string   { return "[2026-05-28 00:11:09 TP0] " + msg }
func sglMain(msg string) string { return "[2026-05-28 00:11:09] " + msg }
func vllmLog(level, file, msg string) string {
	return level + " 05-28 00:11:09 [" + file + "] " + msg
}
func vllmCore(level, file, msg string) string {
	return "(EngineCore_DP0 pid=4242) " + vllmLog(level, file, msg)
}
func flashinferJit(level, file, msg string) string {
	return "2026-05-28 00:11:09,123 - " + level + " - " + file + " - flashinfer.jit: " + msg
}
func pyWarn(file, category, msg string) string { return file + ": " + category + ": " + msg }
func hubLog(level, name, msg string) string    { return level + ":" + name + ":" + msg }
func ncclInfo(msg string) string               { return "node-3:4242:4300 [0] NCCL INFO " + msg }
func lmdeployLog(level, file, msg string) string {
	return "2026-05-28 00:11:09,123 - lmdeploy - " + level + " - " + file + " - " + msg
}
func rayPy(level, file, msg string) string {
	return "2026-05-28 00:11:09,123\t" + level + " " + file + " -- " + msg
}
func glogW(file, msg string) string { return "W0528 00:11:09.123456  4242 " + file + "] " + msg }

// noticeWordings are notices of failures their writers tolerate, each in
// its writer's own wording (read from the writers' logging calls) and
// with its real prefix, the values filled with plausible ones: a model
// module skipped on an import error, a config file missing, a kernel
// tactic that failed and a default taken instead, a retry, a feature
// disabled. None may alert, alone or amid a healthy start-up.
var noticeWordings = []struct {
	writer string
	lines  []string
}{
	{"sglang", []string{
		sglTP("Ignore import error when loading sglang.srt.models.mindspore: name 'Tensor' is not defined"),
		sglTP("Ignore import error when loading sglang.srt.models.glm4v_moe: No module named 'transformers.models.glm4v_moe'"),
		sglMain("Ignore import error when loading sglang.srt.multimodal.processors.janus_pro: cannot import name 'SiglipVisionConfig' from 'transformers' (/usr/local/lib/python3.12/dist-packages/transformers/__init__.py)"),
		sglMain("Failed to load generation config for /models/Qwen3-8B: /models/Qwen3-8B does not appear to have a file named generation_config.json. Checkout 'https://huggingface.co//models/Qwen3-8B/tree/main' for available files.. Proceeding without generation config."),
		sglTP("Failed to import mooncake allocator for mooncake: No module named 'mooncake'. Falling back to default memory pool."),
		sglMain("Failed to decode JPEG on GPU, falling back to CPU. Error: nvjpeg error: NVJPEG_STATUS_IMAGE_NOT_SUPPORTED"),
		sglMain("Grammar backend disabled because tokenizer is not supported by XGrammar: Unsupported tokenizer type: TiktokenTokenizer. Falling back to grammar_backend='none'. Structured outputs (JSON schema, regex, EBNF) will not be available."),
		sglTP("Failed to initialize FlashInfer workspace (backend=trtllm): CUDA driver error: operation not supported. Disabling flashinfer allreduce fusion permanently."),
		sglTP("FlashInfer workspace preflight probe failed (cuMemCreate returned CUDA_ERROR_NOT_SUPPORTED). Skipping allreduce fusion."),
		sglMain("Failed to load dynamic modules from auto_map for 'org/model': No module named 'flash_attn'. Skipping remote model compatibility checks."),
		sglMain("Failed to load tokenizer vocab for template detection: Can't load tokenizer for 'org/model'. Vocab-dependent detection rules will be skipped."),
		sglMain("Due to ValueError('token id 151700 out of range'), falling back to decode+retokenize, which may change prompt length (token drift)."),
		sglMain("fail to check sglang ready, retry 3 times, error: [Errno 111] Connection refused"),
		sglMain("retry() failed once (1th try, maximum 3 retries). Will delay 0.50s and retry. Error: Connection reset by peer"),
		sglTP("psutil.virtual_memory() failed (PermissionError: [Errno 13] Permission denied: '/proc/meminfo'); using default ZMQ buffer size"),
		sglTP("HiCache L3 prefetch failed for rid=5c2e91: connection refused; falling back to L2-only LoadingBack"),
		sglMain("Detection rule 'deepseek-r1' for reasoning_parser raised an exception: KeyError('bos_token'). Skipping."),
		sglMain("Breakable CUDA graph is incompatible with multimodal model; disabling prefill CUDA graph."),
		sglTP("Encoder embedding not available, falling back to local mm processing"),
		sglMain("Invalid value for SGLANG_TOOL_STRICT_LEVEL: invalid literal for int() with base 10: 'x', using default \"0\""),
		sglTP("Triton fused mHC kernel failed, disabling fallback path: Triton Error [CUDA]: invalid argument"),
		sglTP("Failed to get GPU memory capacity from mthreads-gmi, falling back to torch.musa.mem_get_info()."),
		sglTP("Setup Custom allreduce failed with CUDA error: invalid argument. To silence this warning, specify --disable-custom-all-reduce explicitly."),
	}},
	{"vLLM", []string{
		vllmLog("WARNING", "custom_all_reduce.py:144", "Custom allreduce is disabled because your platform lacks GPU P2P capability or P2P test failed. To silence this warning, specify disable_custom_all_reduce=True explicitly."),
		vllmCore("WARNING", "pynccl_allocator.py:120", "Failed to compile NCCL memory allocator. Symmetric memory will be disabled. This is expected if NCCL headers are not available. optionally set VLLM_NCCL_INCLUDE_PATH to point to a directory containing the NCCL header. Error: fatal error: nccl.h: No such file or directory"),
		vllmLog("WARNING", "rocm.py:312", "Failed to get GCN arch via amdsmi, falling back to torch.cuda. This will initialize CUDA and may cause issues if CUDA_VISIBLE_DEVICES is not set yet."),
		vllmCore("WARNING", "tensor_ipc.py:88", "Failed to send tensor via IPC queue: [Errno 32] Broken pipe. Falling back to standard serialization."),
		vllmCore("WARNING", "layernorm.py:61", "VLLM_USE_OINK_OPS=1 but failed to initialize Oink RMSNorm; falling back to vLLM RMSNorm. Error: No module named 'oink'"),
		vllmLog("WARNING", "context.py:97", "Failed to acquire tokenizer in current thread. Retrying (1/3)..."),
		vllmLog("WARNING", "video.py:203", "Failed to grab frame 12 during video loading. This frame will be skipped."),
		vllmCore("WARNING", "backends.py:512", "Could not write compile cache metadata at /root/.cache/vllm/torch_compile_cache/5a1f/rank_0_0/metadata.json; continuing without metadata. Compiled cache remains valid; diagnostics may be limited."),
		vllmLog("WARNING", "importing.py:44", "Triton is installed, but `triton.backends` could not be imported. Disabling Triton."),
		vllmLog("WARNING", "importing.py:52", "An unexpected error occurred while checking Triton active drivers: RuntimeError: 0 active drivers ([]). There should only be one.. Disabling Triton."),
		vllmCore("WARNING", "fa_utils.py:77", "Cannot use FA version 3 with ALiBi, defaulting to FA version 2."),
		vllmCore("WARNING", "utils.py:140", "Failed to determine if RMSNorm weight is centered on zero or one. Defaulting to one."),
		vllmLog("WARNING", "connections.py:98", "HTTP fetch failed for https://example.com/cat.png (attempt 1/3, timeout=5.0s): Cannot connect to host example.com:443 ssl:default [Connection refused] -- retrying in 0.500s"),
		vllmCore("WARNING", "eplb_state.py:410", "Rank 3: EPLB buffer_lock acquire failed, retrying (1/5)"),
		vllmLog("WARNING", "tool.py:66", "Code interpreter tool failed to initialize (No module named 'docker'), code interpreter is disabled"),
		vllmCore("WARNING", "nixl_connector.py:301", "Unable to detect current VLLM config. Fallback to default kv cache layout."),
		vllmLog("INFO", "importing.py:40", "Triton is installed but 2 active driver(s) found (expected 1). Disabling Triton to prevent runtime errors."),
	}},
	{"flashinfer", []string{
		pyWarn("/usr/local/lib/python3.12/dist-packages/flashinfer/gemm/gemm_base.py:1520", "UserWarning", "cuDNN fp8 GEMM tactic failed; falling back to default tactic=-1. (cudnnGraphNotSupportedError: No valid engine configs for Matmul_)"),
		flashinferJit("WARNING", "core.py:212", "Failed to load AOT artifact /opt/flashinfer/aot/fused_moe_90.so: /opt/flashinfer/aot/fused_moe_90.so: undefined symbol: cudaGetDriverEntryPointByVersion. Falling back to JIT build."),
		flashinferJit("INFO", "autotuner.py:430", "[Autotuner]: Loading configs for fp8_gemm from file failed; Using default configs instead."),
		pyWarn("/usr/local/lib/python3.12/dist-packages/flashinfer/utils.py:911", "UserWarning", "cutlass.get_max_active_clusters failed (RuntimeError: CUDA driver context is not current); falling back to sm_count. This can happen in spawned subprocesses where the CUDA driver API context is not current."),
		flashinferJit("WARNING", "cpp_ext.py:88", "Could not parse FLASHINFER_EXTRA_CUDAFLAGS with shlex: No closing quotation. Falling back to simple split."),
		flashinferJit("DEBUG", "autotuner.py:512", "[Autotuner]: Skipping tactic 3 7, due to failure while profiling: RuntimeError: Unsupported tile shape for this SM"),
		pyWarn("/usr/local/lib/python3.12/dist-packages/flashinfer/gemm/gdn_prefill.py:140", "UserWarning", "CP delta rule heuristic matched but CP dispatch is unavailable: world size 3 is not a power of two; falling back to non-CP delta rule."),
	}},
	{"huggingface_hub and transformers", []string{
		hubLog("WARNING", "huggingface_hub.file_download", "Couldn't access the Hub to check for update but local file already exists. Defaulting to existing file. (error: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /api/models/org/model/revision/main (Caused by NewConnectionError('Failed to establish a new connection: [Errno 101] Network is unreachable')))"),
		hubLog("WARNING", "huggingface_hub._snapshot_download", "Ignored error while writing commit hash to /root/.cache/huggingface/hub/models--org--model/refs/main: [Errno 30] Read-only file system: '/root/.cache/huggingface/hub/models--org--model/refs/main'."),
		hubLog("WARNING", "huggingface_hub._tree_cache", "Ignoring corrupted tree cache file /root/.cache/huggingface/hub/models--org--model/.tree/main.json: Expecting value: line 1 column 1 (char 0)"),
		hubLog("WARNING", "huggingface_hub._upload_pipeline", "Commit of 25 files failed (HfHubHTTPError('500 Server Error: Internal Server Error for url: https://huggingface.co/api/models/org/model/commit/main')). Retrying in smaller chunks."),
		hubLog("WARNING", "huggingface_hub.utils._fixes", "FileSystem does not appear to support flock. Falling back to SoftFileLock for /mnt/nfs/hf/.locks/models--org--model/abc.lock"),
		"Retrying in 1s [Retry 1/5].",
		"Could not locate the tokenizer configuration file, will try to use the model config instead.",
		"Generation config file not found, using a generation config created from the model config.",
	}},
	{"NCCL", []string{
		ncclInfo("NET/Plugin: No plugin found (libnccl-net.so), using internal implementation"),
		ncclInfo("Call to connect returned Connection refused, retrying"),
		ncclInfo("mkstemp: Failed to create /dev/shm/nccl-Xq3bA1, error: No space left on device (28) - retrying"),
		ncclInfo("Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx5_0:1, curr state INIT, next state RTR, local GID index 3, local GID ::ffff:10.0.0.3, remote GID ::ffff:10.0.0.4, retrying 1/3 after 100 msec of sleep"),
		ncclInfo("NET/Socket : connect to 10.0.0.4<45678> returned Connection refused, retrying (3/34) after sleep for 300 msec"),
	}},
	{"lmdeploy", []string{
		lmdeployLog("WARNING", "model.py:1960", "Failed to load processor from /models/InternVL3-8B for chat template. Fallback to tokenizer only. Error: Unrecognized processing class in /models/InternVL3-8B."),
		lmdeployLog("WARNING", "proxy_conn.py:77", "Connection failure, retry cnt: 3"),
		lmdeployLog("WARNING", "op_backend.py:41", "Failed to import torch_npu. Please make sure torch_npu is installed correctly. Ascend initialization skipped."),
		lmdeployLog("WARNING", "video_loader.py:120", "Failed to grab frame 40 during video loading. This frame will be skipped."),
	}},
	{"Ray", []string{
		rayPy("WARNING", "worker.py:1108", "Task failed: IOError: Failed to send the task to the worker: connection reset. There are 3 retries remaining, so the task will be retried."),
		rayPy("WARNING", "worker.py:2244", "Failed to report metrics to the dashboard agent: [Errno 111] Connection refused. Retrying in 5 seconds."),
		rayPy("WARNING", "utils.py:580", "Unable to read the cgroup memory limit: [Errno 2] No such file or directory: '/sys/fs/cgroup/memory.max'. Using the default limit instead."),
	}},
	{"failed optional imports, the exception quoted by its repr", []string{
		vllmLog("WARNING", "_custom_ops.py:21", `Failed to import from vllm._C with ModuleNotFoundError("No module named 'vllm._C'")`),
		"(VllmWorker rank=1 pid=248) " + vllmLog("WARNING", "rocm.py:28", `Failed to import from amdsmi with ModuleNotFoundError("No module named 'amdsmi'")`),
		vllmLog("WARNING", "_custom_ops.py:33", "Failed to import from vllm._moe_C with ImportError('libcudart.so.12: cannot open shared object file: No such file or directory')"),
		sglTP(`Failed to import from custom_ar with ModuleNotFoundError("No module named 'sgl_kernel'")`),
		sglMain(`Failed to import from sgl_kernel.allreduce with ModuleNotFoundError("No module named 'sgl_kernel'")`),
		hubLog("WARNING", "lmcache.integration", "Could not import lmcache_vllm with ImportError('cannot import name \\'LMCacheConnector\\' from \\'lmcache\\'')"),
	}},
	{"Mooncake and torch (glog)", []string{
		glogW("transfer_engine.cpp:310", "Failed to bind available port, retry 2"),
		glogW("client.cpp:212", "Failed to initialize etcd client, skipping tests."),
		glogW("torch/_inductor/select_algorithm.py:1857", "[0/0] Runtime error during autotuning: out of resource: shared memory, Required: 131072, Hardware limit: 101376. Ignoring this choice."),
		glogW("torch/_dynamo/convert_frame.py:1016", "[0/0] Failed to compile the kernel with Triton: No module named 'triton'; falling back to eager"),
	}},
}

// TestANoticeOfATolerableFailureIsNoIncident: a notice that quotes a
// failure and says its writer carried on is no incident, alone, repeated
// (every rank prints it) or amid a healthy start-up, under every layout.
func TestANoticeOfATolerableFailureIsNoIncident(t *testing.T) {
	m := crashMatcher(t)
	n, writers := 0, 0
	for _, w := range noticeWordings {
		writers++
		for _, line := range w.lines {
			n++
			for _, l := range layouts {
				for _, burst := range [][]string{
					{line},
					{line, line, line},
					{healthy[0], line, healthy[1]},
				} {
					lines := make([]string, len(burst))
					for i, s := range burst {
						lines[i] = l.line(s)
					}
					if got := scanLines(t, m, lines); len(got) != 0 {
						t.Errorf("%s, %s, %d lines: %d incidents, want none:%s\n  %s", w.writer, l.name, len(burst), len(got), describe(got), line)
					}
				}
			}
		}
	}
	if n < 60 || writers < 6 {
		t.Errorf("%d wordings of %d writers: the table keeps at least 60 of six", n, writers)
	}
}

// failuresInNoticeWords are failures printed in a notice's words: a
// fall-back that itself failed, a retry that gave up, an exit after the
// failure, an ERROR record or a traceback after a retry, a notice followed
// by the failure of what it skipped. Each is announced, led as before.
var failuresInNoticeWords = []struct {
	name  string
	lines []string
	lead  string // a word of the lead incident's headline or record
}{
	{"a fall-back that failed", []string{
		sglTP("Falling back to the triton attention backend failed: CUDA error: out of memory"),
	}, "out of memory"},
	{"a retry that gave up", []string{
		sglTP("Failed to connect to the bootstrap server 10.0.0.4:8998 after 3 retries, giving up: [Errno 111] Connection refused"),
	}, "Connection refused"},
	{"retries exhausted", []string{
		sglTP("NCCL error: unhandled system error, retrying (3/3) ... retries exhausted, aborting"),
	}, "unhandled system error"},
	{"a retry that failed", []string{
		sglTP("Retrying the KV transfer failed: RDMA error: remote access error, aborting request"),
	}, "remote access error"},
	{"an exit after the failure", []string{
		sglMain("Failed to load model weights: CUDA error: out of memory. Skipping the remaining shards and exiting."),
	}, "out of memory"},
	{"an ERROR record that says it retries", []string{
		vllmCore("ERROR", "core.py:711", "EngineCore failed to start: CUDA error: out of memory, retrying"),
	}, "out of memory"},
	{"a notice, then the traceback of the same failure at ERROR", []string{
		vllmLog("WARNING", "context.py:97", "Failed to acquire tokenizer in current thread. Retrying (1/3)..."),
		vllmLog("ERROR", "serving_chat.py:210", "Error in preprocessing prompt inputs"),
		"Traceback (most recent call last):",
		`  File "/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/serving_chat.py", line 198, in create_chat_completion`,
		"    tokenizer = await self.engine_client.get_tokenizer(lora_request)",
		"RuntimeError: Already borrowed",
	}, "Already borrowed"},
	{"a skipped model module, then the architecture it served", []string{
		sglTP("Ignore import error when loading sglang.srt.models.deepseek_v2: No module named 'deep_gemm'"),
		sglTP("Scheduler hit an exception: Traceback (most recent call last):"),
		`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2391, in run_scheduler_process`,
		"    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)",
		"ValueError: Model architectures ['DeepseekV3ForCausalLM'] are not supported for now. Supported architectures: dict_keys(['LlamaForCausalLM'])",
	}, ""},
	{"an optional import's notice at ERROR", []string{
		vllmLog("ERROR", "_custom_ops.py:33", "Failed to import from vllm._moe_C with ImportError('libcudart.so.12: cannot open shared object file: No such file or directory')"),
	}, "libcudart"},
	{"an optional import's notice, then the crash of what it skipped", []string{
		sglTP(`Failed to import from custom_ar with ModuleNotFoundError("No module named 'sgl_kernel'")`),
		sglTP("Scheduler hit an exception: Traceback (most recent call last):"),
		`  File "/sgl-workspace/sglang/python/sglang/srt/distributed/device_communicators/custom_all_reduce.py", line 80, in __init__`,
		"    self._ptr = ops.init_custom_ar(meta, rank_data, handles, offsets, rank, full_nvlink)",
		"AttributeError: module 'sgl_kernel' has no attribute 'init_custom_ar'",
	}, ""},
	{"an import that really failed: its traceback", []string{
		"Traceback (most recent call last):",
		`  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/layers/activation.py", line 30, in <module>`,
		"    from sgl_kernel import gelu_and_mul, silu_and_mul",
		"ModuleNotFoundError: No module named 'sgl_kernel'",
	}, "sgl_kernel"},
	{"a failed import that gives up", []string{
		sglMain(`Failed to import from custom_ar with ModuleNotFoundError("No module named 'sgl_kernel'"), exiting`),
	}, "sgl_kernel"},
	{"a notice with the c10d backtrace of the exception it quotes", []string{
		"[W1226 15:44:31.548330712 TCPStore.cpp:358] [c10d] TCP client failed to connect/validate to host node-0:8000 - retrying (try=0, timeout=600000ms, delay=77116ms): The client socket has timed out after 600000ms while trying to connect to (node-0, 8000).",
		"Exception raised from throwTimeoutError at ../torch/csrc/distributed/c10d/socket.cpp:1013 (most recent call first):",
		"frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x7fd08876c446 in /usr/local/lib/python3.11/site-packages/torch/lib/libc10.so)",
	}, "timed out"},
}

// TestAFailureInANoticesWordsIsStillAnIncident: the contrast of the
// notices' table.
func TestAFailureInANoticesWordsIsStillAnIncident(t *testing.T) {
	m := crashMatcher(t)
	for _, tt := range failuresInNoticeWords {
		got := scanLines(t, m, tt.lines)
		if len(got) == 0 {
			t.Errorf("%s: no incident", tt.name)
			continue
		}
		lead := leadOf(got[0]) + " " + got[0].Headline
		if tt.lead != "" && !strings.Contains(lead, tt.lead) {
			t.Errorf("%s: lead %q, want one naming %q:%s", tt.name, lead, tt.lead, describe(got))
		}
	}
}
