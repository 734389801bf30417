package catalog_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// The messages the development corpus most often leads with, in the
// wordings their writers used across releases since 2023 and in their
// sister writers' twins, each composed the ways it arrives (bare, in a
// traceback, behind a logger's or glog's header):
//   - torch's c10d times a collective out two ways: the watchdog thread
//     ("Watchdog caught collective operation timeout: WorkNCCL(...)"), and,
//     with blocking wait on, the waiting call itself ("Work WorkNCCL(...)
//     timed out in blocking wait", with the variable that turned it on in
//     parentheses: NCCL_BLOCKING_WAIT=1 in 1.x, TORCH_NCCL_BLOCKING_WAIT=1
//     from 2.2, nothing from 2.5). The waiting call raises it as
//     DistBackendError (RuntimeError before 2.1). torch_npu's HCCL,
//     torch_musa's MCCL and torch_mlu's CNCL process groups print the same
//     sentence with their own work class and variable;
//   - huggingface_hub refuses a token or a gated repository in the wording of
//     the HTTP client it runs on: requests until 0.x ("401 Client Error:
//     Unauthorized for url: ..."), httpx from 1.0 ("Client error '401
//     Unauthorized' for url '...'"), and the Hub's own explanation of a
//     gated repository on a line of its own ("Access to model <repo> is
//     restricted ...") that a paste or a logger may keep alone;
//   - sglang's launcher logs a child's death from its SIGCHLD handler with
//     the wait status: "with an exit code N" until 0.4.5, "with exitcode=N"
//     after; a status under 128 is the signal that ended it (9 SIGKILL),
//     plus 128 when it dumped core (139 is SIGSEGV with a core), 256 and up
//     an exit status;
//   - torch's caching allocator words an exhausted device the same on every
//     accelerator it is built for: CUDA, HIP, XPU, and torch_mlu's MLU
//     (torch_npu's NPU has its own record);
//   - NCCL's IB transport names an ibverbs async event by libibverbs' own
//     text for it, with the device and port before "Got" in later releases; the event decides the record (a fatal work queue or CQ error, a
//     port event, a routine one);
//   - a missing generation_config.json is one engines proceed without
//     (sglang and vLLM log it and go on), unlike the config, tokenizer or
//     processor files a model needs;
//   - sglang's model registry logs each model module it cannot import and
//     skips it ("Ignore import error when loading <module>: <error>"): the
//     quoted error is no failure of the server;
//   - a container killed at its own memory limit is reported by its
//     runtime, not the kernel's log: Kubernetes' container state (describe,
//     YAML, JSON, the STATUS column) says Reason OOMKilled, Docker's inspect
//     "OOMKilled": true; the kernel's memory-cgroup report of the same kill
//     stays linux-oom-killer's;
//   - Mooncake's Python transfer engine logs a synchronous transfer that ran
//     past its timeout at glog's INFO level, for one buffer ("Sync data
//     transfer timeout after <ns>ns, local buffer ...") or a batch ("Sync
//     batch data transfer timeout after <ns>ns"), then returns the failure
//     its caller reports;
//   - sglang's scheduler, out of KV cache slots for a batch, printed
//     "Prefill (Decode) out of memory. This should never happen." in its 2024
//     releases and raises "... out of memory. Try to lower your batch size."
//     since.

func releaseWordings() []writerWording {
	blocking := func(work, suffix string) string {
		return fmt.Sprintf("Work %s(SeqNum=7, OpType=ALLREDUCE, NumelIn=1048576, NumelOut=1048576, Timeout(ms)=600000) timed out in blocking wait%s.", work, suffix)
	}
	glog := func(file, msg string) string { return "[rank1]:[E1105 10:11:12.123456789 " + file + "] " + msg }
	return []writerWording{
		{family: "c10d: a collective timed out in a blocking wait (NCCL, RCCL)", want: "nccl-watchdog-collective-timeout", lines: []string{
			glog("ProcessGroupNCCL.cpp:700", "[PG ID 0 PG GUID 0(default_pg) Rank 1] "+blocking("WorkNCCL", "")),
			glog("ProcessGroupNCCL.cpp:583", "[Rank 1] "+blocking("WorkNCCL", " (TORCH_NCCL_BLOCKING_WAIT=1)")),
			"[E ProcessGroupNCCL.cpp:456] [Rank 1] Work WorkNCCL(OpType=ALLREDUCE, TensorShape=[1024], Timeout(ms)=1800000) timed out in blocking wait (NCCL_BLOCKING_WAIT=1).",
			rawTB("torch.distributed.DistBackendError: [PG ID 0 PG GUID 0(default_pg) Rank 1] " + blocking("WorkNCCL", "")),
			tb("RuntimeError: [Rank 1] " + blocking("WorkNCCL", " (TORCH_NCCL_BLOCKING_WAIT=1)")),
		}},
		{family: "c10d: a collective timed out in a blocking wait (HCCL)", want: "hccl-watchdog-collective-timeout", lines: []string{
			glog("compiler_depend.ts:574", "[Rank 1] "+blocking("WorkHCCL", " (HCCL_BLOCKING_WAIT=1)")),
			rawTB("RuntimeError: [PG ID 0 PG GUID 0(default_pg) Rank 1] " + blocking("WorkHCCL", "")),
		}},
		{family: "c10d: a collective timed out in a blocking wait (MCCL, CNCL)", want: "vendor-ccl-watchdog-collective-timeout", lines: []string{
			glog("ProcessGroupMCCL.cpp:1043", "[PG ID 0 PG GUID 0 Rank 1] "+blocking("WorkMCCL", "")),
			glog("ProcessGroupCNCL.cpp:688", "[Rank 1] "+blocking("WorkCNCL", " (TORCH_CNCL_BLOCKING_WAIT=1)")),
		}},
		{family: "c10d: blocking wait and timeouts in routine lines", want: "", lines: []string{
			"[rank0]:[W1105 10:11:12.123456789 ProcessGroupNCCL.cpp:960] Warning: TORCH_NCCL_BLOCKING_WAIT is enabled, NO watchdog aborts for blocking wait (function operator())",
			"[W ProcessGroupNCCL.cpp:1015] Warning: Environment variable NCCL_BLOCKING_WAIT is deprecated; use TORCH_NCCL_BLOCKING_WAIT instead (function getCvarBool)",
			"[rank0]:[I1105 10:11:12.123456789 ProcessGroupNCCL.cpp:913] [PG ID 0 PG GUID 0 Rank 0] ProcessGroupNCCL initialization options: size: 8, global rank: 0, TIMEOUT(ms): 600000, USE_HIGH_PRIORITY_STREAM: 0, SPLIT_FROM: 0, SPLIT_COLOR: 0, PG Name: 0",
			"INFO 05-28 00:11:09 [parallel_state.py:1208] blocking wait disabled; collectives that time out are reported by the watchdog",
		}},
		{family: "Hugging Face: a token refused, in the requests and the httpx wordings", want: "hf-unauthorized-401", lines: []string{
			rawTB("requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://huggingface.co/api/models/org/private-model/revision/main"),
			rawTB("huggingface_hub.errors.HfHubHTTPError: 401 Client error: Unauthorized for url: https://huggingface.co/api/models/org/private-model"),
			rawTB("huggingface_hub.errors.HfHubHTTPError: Client error '401 Unauthorized' for url 'https://huggingface.co/api/whoami-v2'"),
			tb("huggingface_hub.errors.HfHubHTTPError: Client error '401 Unauthorized' for url 'https://huggingface.co/api/models/org/private-model/revision/main'"),
		}},
		{family: "Hugging Face: a gated repository, in the requests and the httpx wordings", want: "hf-gated-repo", lines: []string{
			rawTB("huggingface_hub.errors.GatedRepoError: Client error '403 Forbidden' for url 'https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json'"),
			"Access to model meta-llama/Llama-3.1-8B-Instruct is restricted. You must have access to it and be authenticated to access it. Please log in.",
			"Access to model meta-llama/Llama-3.1-8B is restricted and you are not in the authorized list. Visit https://huggingface.co/meta-llama/Llama-3.1-8B to ask for access.",
			"(APIServer pid=1) ERROR 10-20 03:20:50 [api_server.py:1408] Access to model google/gemma-3-27b-it is restricted. You must have access to it and be authenticated to access it. Please log in.",
		}},
		{family: "sglang's launcher: a child killed by SIGKILL, in the 0.4 and the later wording", want: "scheduler-exit-code-sigkill", lines: []string{
			mainLog("Child process unexpectedly failed with an exit code 9. pid=293198"),
			mainLog("Child process unexpectedly failed with exitcode=9. pid=293198"),
		}},
		{family: "sglang's launcher: a child ended by a native crash signal, with or without a core dump", want: "scheduler-exit-code-native-crash", lines: []string{
			mainLog("Child process unexpectedly failed with an exit code 11. pid=293198"),
			mainLog("Child process unexpectedly failed with exitcode=11. pid=293198"),
			mainLog("Child process unexpectedly failed with exitcode=134. pid=293198"),
			mainLog("Child process unexpectedly failed with exitcode=139. pid=293198"),
		}},
		{family: "sglang's launcher: a child that exited with a status is no signal's", want: "", lines: []string{
			mainLog("Child process unexpectedly failed with exitcode=256. pid=293198"),
			mainLog("Child process unexpectedly failed with an exit code 256. pid=32885"),
		}},
		{family: "torch's allocators: device memory exhausted on each accelerator", want: "cuda-out-of-memory", lines: []string{
			rawTB("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.02 GiB is free."),
			rawTB("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total capacity; 14.10 GiB already allocated; 4.75 MiB free; 14.50 GiB reserved in total by PyTorch)"),
			rawTB("torch.OutOfMemoryError: HIP out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 191.98 GiB of which 1.02 GiB is free."),
			rawTB("torch.OutOfMemoryError: XPU out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 64.00 GiB of which 0 bytes is free."),
			rawTB("RuntimeError: MLU out of memory. Tried to allocate 2.00 GiB (MLU 0; 47.98 GiB total capacity; 45.10 GiB already allocated)"),
		}},
		{family: "NCCL's IB transport: a fatal async event, before and after NCCL named the device and port", want: "nccl-ib-async-fatal-event", lines: []string{
			"node201:127799:127863 [0] transport/net_ib.cc:101 NCCL WARN NET/IB : mlx5_0:1 Got async event : local access violation work queue error",
			"node201:127799:127863 [0] transport/net_ib.cc:89 NCCL WARN NET/IB : Got async event : local access violation work queue error",
			"gpu-3:4411:4502 [2] NCCL WARN NET/IB : mlx5_2:1 Got async event : local work queue catastrophic error",
			"gpu-3:4411:4502 [2] NCCL WARN NET/IB : mlx5_2:1 Got async event : CQ error",
			"> node201:127799:127863 [0] transport/[net_ib.cc:101](http://net_ib.cc:101/) NCCL WARN NET/IB : mlx5_0:1 Got async event : invalid request local work queue error",
		}},
		{family: "NCCL's IB transport: port and routine async events", want: "", lines: []string{
			"gpu-3:4411:4502 [2] NCCL INFO NET/IB : mlx5_2:1 Got async event : communication established",
			"gpu-3:4411:4502 [2] NCCL INFO NET/IB : mlx5_2:1 Got async event : port active",
			"gpu-3:4411:4502 [2] NCCL INFO NET/IB : Got async event : last WQE reached",
		}},
		{family: "an optional generation config the engine proceeds without", want: "", lines: []string{
			"[2026-07-14 13:17:12] Failed to load generation config for /models/Qwen3.5-4B: /models/Qwen3.5-4B does not appear to have a file named generation_config.json. Checkout 'https://huggingface.co//models/Qwen3.5-4B/tree/main' for available files. Proceeding without generation config.",
			"WARNING 05-28 00:11:09 [config.py:1211] Failed to load generation config: /models/llama does not appear to have a file named generation_config.json.",
		}},
		{family: "a model file the engine cannot do without", want: "hf-config-file-missing", lines: []string{
			rawTB("OSError: /models/Qwen3.5-4B does not appear to have a file named config.json. Checkout 'https://huggingface.co//models/Qwen3.5-4B/tree/main' for available files."),
			rawTB("OSError: Qwen/Qwen3-8B does not appear to have a file named preprocessor_config.json. Checkout 'https://huggingface.co/Qwen/Qwen3-8B/tree/main' for available files."),
		}},
		{family: "sglang's model registry skipping a module it cannot import", want: "", lines: []string{
			"[2026-07-14 13:17:12] Ignore import error when loading sglang.srt.models.mindspore: name 'Tensor' is not defined",
			"[2026-07-14 13:17:12] Ignore import error when loading sglang.srt.models.mindspore: No module named 'mindspore'",
			"[2026-07-14 13:17:12] Ignore import error when loading sglang.srt.models.gemma3n: module 'transformers' has no attribute 'Gemma3nConfig'",
		}},
		{family: "a NameError raised, or quoted by its caller, is still read", want: "python-name-not-defined", lines: []string{
			rawTB("NameError: name 'launch_server_cmd' is not defined"),
			tb("NameError: name 'flashinfer' is not defined"),
		}},
		{family: "a container killed at its memory limit, as Kubernetes and Docker report it", want: "k8s-container-oom-killed", lines: []string{
			"    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137",
			"    State:          Terminated\n      Reason:       OOMKilled\n      Exit Code:    137",
			"sglang-0                         0/1     OOMKilled   3 (40s ago)   2m",
			`            "OOMKilled": true,`,
			`      lastState: {terminated: {containerID: "containerd://3f2a", exitCode: 137, reason: OOMKilled}}`,
			`{"lastState":{"terminated":{"exitCode":137,"reason":"OOMKilled","startedAt":"2026-05-28T00:10:01Z"}}}`,
		}},
		{family: "a container killed by SIGKILL with no OOM reason, in the status kubectl get -o yaml/-o json, KServe and docker inspect print", want: "process-killed-sigkill", lines: []string{
			// KServe's lastFailureInfo, Kubernetes' pod status as JSON,
			// docker inspect's State.
			"        exitCode: 137",
			`                    "exitCode": 137,`,
			`        "ExitCode": 137,`,
		}},
		{family: "a name one of sglang's own modules lacks is sglang's inconsistency, not a mismatch between installed packages", want: "", lines: []string{
			rawTB("AttributeError: module 'sglang.srt.layers.quantization.deep_gemm_wrapper' has no attribute 'get_col_major_tma_aligned_tensor'. Did you mean: 'get_mn_major_tma_aligned_tensor'?"),
			rawTB("AttributeError: module 'sglang.srt.model_loader.fsdp_load' has no attribute 'set_default_dtype'. Did you mean: 'set_default_torch_dtype'?"),
		}},
		{family: "a name another package or sglang's public module lacks stays a mismatch between packages", want: "python-import-name-mismatch", lines: []string{
			rawTB("AttributeError: module 'sglang' has no attribute 'set_default_backend'"),
			rawTB("AttributeError: module 'vllm._custom_ops' has no attribute 'silu_and_mul'"),
		}},
		{family: "a container's exit status that is no kill", want: "", lines: []string{
			"        exitCode: 0",
			`        "ExitCode": 1,`,
			`        exitCode: 1370`,
		}},
		{family: "a container's memory state with no kill", want: "", lines: []string{
			`            "OOMKilled": false,`,
			`            "OOMKilled":false,`,
			// kube-state-metrics' series, scraped or dumped, and an alert
			// rule that matches on it.
			`kube_pod_container_status_last_terminated_reason{namespace="llm",pod="sglang-0",container="sglang",reason="OOMKilled"} 0`,
			`  expr: kube_pod_container_status_last_terminated_reason{reason="OOMKilled"} == 1`,
		}},
		{family: "the kernel's own report of the kill stays the kernel's", want: "linux-oom-killer", lines: []string{
			"[Sat Dec  5 10:11:12 2026] Memory cgroup out of memory: Killed process 4321 (python3) total-vm:123456789kB, anon-rss:98765432kB",
			"[12345.678901] Out of memory: Killed process 4321 (python3) total-vm:123456789kB, anon-rss:98765432kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:123456kB oom_score_adj:0",
		}},
		{family: "Mooncake's transfer engine: a synchronous transfer timing out, one buffer or a batch", want: "mooncake-transfer-batch-timeout", lines: []string{
			"I0331 02:49:30.617945 803444 transfer_engine_py.cpp:454] Sync batch data transfer timeout after 33061142969ns",
			"I0331 02:49:30.617945 803444 transfer_engine_py.cpp:312] Sync data transfer timeout after 30000512345ns, local buffer 0x7f3a2c000000 remote buffer 0x7f1b40000000 length 65536",
			"(Worker_DP0_TP1_EP1 pid=782969) I0331 02:49:30.618026 803443 transfer_engine_py.cpp:454] Sync batch data transfer timeout after 33061132986ns",
		}},
		{family: "sglang's scheduler out of KV slots for a prefill, in the 2024 and the later wording", want: "prefill-out-of-memory", lines: []string{
			"Prefill out of memory. This should never happen.",
			mainLog("Prefill out of memory. This should never happen."),
			tb("RuntimeError: Prefill out of memory. Try to lower your batch size."),
		}},
		{family: "sglang's scheduler out of KV slots for a decode, in the 2024 and the later wording", want: "decode-out-of-memory", lines: []string{
			"Decode out of memory. This should never happen.",
			tb("RuntimeError: Decode out of memory. Try to lower your batch size."),
		}},
		{family: "HTTP clients: a 4xx from another server stays the generic record's", want: "http-client-request-rejected", lines: []string{
			rawTB("httpx.HTTPStatusError: Client error '401 Unauthorized' for url 'http://localhost:30000/v1/chat/completions'"),
			rawTB("httpx.HTTPStatusError: Client error '403 Forbidden' for url 'http://10.0.0.5:8000/v1/completions'"),
		}},
	}
}

// TestWriterReleaseWordings checks each family's wordings across releases and
// sister writers.
func TestWriterReleaseWordings(t *testing.T) {
	checkWordings(t, compileCatalog(t), releaseWordings())
}

var releaseWordingsWidened = map[string]example{
	"nccl-watchdog-collective-timeout": {
		match: []string{"torch.distributed.DistBackendError: [PG ID 0 PG GUID 0(default_pg) Rank 1] Work WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) timed out in blocking wait."},
		miss: []string{
			"Warning: TORCH_NCCL_BLOCKING_WAIT is enabled, NO watchdog aborts for blocking wait (function operator())",
			// The cut form reads a line that stops inside the work's
			// parameters or its sentence, never one that goes on.
			"[PG ID 0 PG GUID 0 Rank 1] Work WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) completed in 12 ms",
		},
	},
	"hccl-watchdog-collective-timeout": {
		match: []string{"RuntimeError: [Rank 1] Work WorkHCCL(SeqNum=7, OpType=ALLREDUCE, Timeout(ms)=600000) timed out in blocking wait (HCCL_BLOCKING_WAIT=1)."},
	},
	"vendor-ccl-watchdog-collective-timeout": {
		match: []string{"RuntimeError: [Rank 1] Work WorkCNCL(SeqNum=7, OpType=ALLREDUCE, Timeout(ms)=600000) timed out in blocking wait (TORCH_CNCL_BLOCKING_WAIT=1)."},
	},
	"hf-unauthorized-401": {
		match: []string{"huggingface_hub.errors.HfHubHTTPError: Client error '401 Unauthorized' for url 'https://huggingface.co/api/whoami-v2'"},
		miss:  []string{"httpx.HTTPStatusError: Client error '401 Unauthorized' for url 'http://localhost:30000/v1/chat/completions'"},
	},
	"hf-gated-repo": {
		match: []string{
			"huggingface_hub.errors.GatedRepoError: Client error '403 Forbidden' for url 'https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json'",
			"Access to model meta-llama/Llama-3.1-8B is restricted and you are not in the authorized list. Visit https://huggingface.co/meta-llama/Llama-3.1-8B to ask for access.",
		},
		miss: []string{"httpx.HTTPStatusError: Client error '403 Forbidden' for url 'http://10.0.0.5:8000/v1/completions'"},
	},
	"scheduler-exit-code-sigkill": {
		match: []string{"[2026-05-28 00:11:09] Child process unexpectedly failed with exitcode=9. pid=293198"},
		miss:  []string{"[2026-05-28 00:11:09] Child process unexpectedly failed with exitcode=91. pid=293198"},
	},
	"scheduler-exit-code-native-crash": {
		match: []string{"[2026-05-28 00:11:09] Child process unexpectedly failed with exitcode=139. pid=293198"},
		miss:  []string{"[2026-05-28 00:11:09] Child process unexpectedly failed with exitcode=256. pid=293198"},
	},

	"cuda-out-of-memory": {
		match: []string{"RuntimeError: MLU out of memory. Tried to allocate 2.00 GiB (MLU 0; 47.98 GiB total capacity; 45.10 GiB already allocated)"},
	},
	"nccl-ib-async-fatal-event": {
		match: []string{"node201:127799:127863 [0] transport/net_ib.cc:101 NCCL WARN NET/IB : mlx5_0:1 Got async event : local access violation work queue error"},
		miss:  []string{"node201:127799:127863 [0] transport/net_ib.cc:101 NCCL INFO NET/IB : mlx5_0:1 Got async event : communication established"},
	},
	"hf-config-file-missing": {
		miss: []string{"[2026-07-14 13:17:12] Failed to load generation config for /models/Qwen3.5-4B: /models/Qwen3.5-4B does not appear to have a file named generation_config.json. Proceeding without generation config."},
	},
	"python-name-not-defined": {
		miss: []string{"[2026-07-14 13:17:12] Ignore import error when loading sglang.srt.models.mindspore: name 'Tensor' is not defined"},
	},
	"mooncake-transfer-batch-timeout": {
		match: []string{"I0331 02:49:30.617945 803444 transfer_engine_py.cpp:454] Sync batch data transfer timeout after 33061142969ns"},
		miss:  []string{"I0331 02:49:30.617945 803444 transfer_engine_py.cpp:454] Sync batch data transfer completed in 1234ns"},
	},
	"prefill-out-of-memory": {
		match: []string{"[2026-05-28 00:11:09] Prefill out of memory. This should never happen."},
	},
	"decode-out-of-memory": {
		match: []string{"[2026-05-28 00:11:09] Decode out of memory. This should never happen."},
	},
	"triton-gcc-build-failed": {
		match: []string{`subprocess.CalledProcessError: Command '['C:\\venv\\Lib\\site-packages\\triton\\runtime\\tcc\\tcc.exe', 'C:\\Us`},
	},
}

var releaseWordingsExamples = map[string]example{
	"k8s-container-oom-killed": {
		match: []string{
			"    Last State:     Terminated\n      Reason:       OOMKilled",
			"sglang-decode-0   0/1     OOMKilled   2          45s",
			`            "OOMKilled": true,`,
		},
		miss: []string{
			`            "OOMKilled": false,`,
			"    Last State:     Terminated\n      Reason:       Completed",
		},
	},
}

func init() { addExamples(releaseWordingsExamples, releaseWordingsWidened) }

// Where the patterns of two records both read a line, the catalog's rules
// (the matcher's rank: the exception's class, then the longer literal;
// then the analysis: cause before consequence before wrapper, informed
// before uninformed) must let the narrower record lead. A record is the
// narrower of a pair when its pattern reads none of the other's examples
// while the other's reads some of its own: the broader one is then the
// family's generic record, and a line of the narrow family must not fall
// to it when the line arrives behind a logger's header or in a traceback
// rather than bare. The lines are every such shared example, composed the
// ways a process writes it.

// narrowYields are the pairs "narrow <- broader" where the broader record
// rightly leads the narrow one's shared lines: the narrow record's line is
// a wrapper or a consequence that quotes the broader one's failure, which
// is the cause. Each says why; the list only shrinks.
var narrowYields = map[string]string{
	"grammar-invalid-json-schema <- xgrammar-grammar-parse-error":                "the grammar that failed to compile is EBNF with a parse error",
	"router-service-discovery-failed <- k8s-rbac-forbidden":                      "the watcher failed because its service account may not watch pods",
	"torch-inductor-cpp-compile-error <- triton-gcc-build-failed":                "the failed command builds Triton's C launcher, not Inductor's C++",
	"torch-memory-saver-after-kernel-fault <- cuda-illegal-memory-access":        "the saver's sticky result is the kernel fault itself",
	"kserve-model-server-start-failed <- vllm-engine-core-initialization-failed": "KServe's start failure quotes the engine core's failure that stopped it",
	"torch-memory-saver-after-kernel-fault <- cuda-device-side-assert":           "the saver's sticky result is the failed device assert itself",
	"torch-memory-saver-hook-load-failed <- cuda-shared-library-missing":         "the hook failed to load because the CUDA runtime it links is absent",
	"vllm-worker-failed-rpc <- cuda-illegal-memory-access":                       "the worker's RPC failure quotes the CUDA fault that killed it",
	"vllm-worker-failed-rpc <- nccl-unhandled-cuda-error":                        "the worker's RPC failure quotes the NCCL error that killed it",
}

// TestNarrowerLeadsSharedLines checks every shared example of a narrow
// and a broad record in each shape a process writes it.
func TestNarrowerLeadsSharedLines(t *testing.T) {
	m := compileCatalog(t)
	texts := allExampleTexts(t)
	bySlug := defaultBySlug()
	reads := func(text string) map[string]bool {
		hits, _ := m.Match(matcher.Subject{Text: text})
		s := map[string]bool{}
		for _, h := range hits {
			s[h.Record.Slug] = true
		}
		return s
	}
	pairs := map[[2]string]bool{} // {a, b}: a's pattern reads an example of b
	for _, b := range slices.Sorted(maps.Keys(texts)) {
		for _, text := range texts[b] {
			for a := range reads(text) {
				if a != b {
					pairs[[2]string{a, b}] = true
				}
			}
		}
	}
	shown := map[string]bool{}
	checked := 0
	for _, b := range slices.Sorted(maps.Keys(texts)) {
		rb := bySlug[b]
		if rb == nil {
			continue
		}
		for _, text := range texts[b] {
			if strings.Contains(text, "\n") {
				continue
			}
			var broader []string
			for a := range reads(text) {
				if a != b && !pairs[[2]string{b, a}] && bySlug[a] != nil && !bySlug[a].Role.Is(patterns.RoleWrapper) {
					broader = append(broader, a)
				}
			}
			if len(broader) == 0 {
				continue
			}
			shapes := []string{text}
			if exceptionLine.MatchString(text) {
				// A Python exception line: logged by Python's logging,
				// and raised in a traceback on stderr and in a scheduler's.
				shapes = append(shapes, "2026-05-28 00:11:09,123 - root - ERROR - "+text, rawTB(text), tb(text))
			}
			for _, s := range shapes {
				checked++
				ok, leader := leadsExample(m, rb, s)
				if ok {
					continue
				}
				pair := b + " <- " + leader
				shown[pair] = true
				if _, yes := narrowYields[pair]; yes {
					continue
				}
				if _, yes := acceptedLeads[pair]; yes {
					continue
				}
				t.Errorf("%s (broader %v): led by %s, not by the narrower record\n%s", b, broader, leader, s)
			}
		}
	}
	t.Logf("%d shapes of shared lines checked", checked)
	for pair := range narrowYields {
		if !shown[pair] {
			t.Errorf("pair %q no longer shows: drop it from narrowYields", pair)
		}
	}
}

// A library raises some classes for every failure it reports: subprocess's
// CalledProcessError for any command that exits non-zero, requests'
// HTTPError and huggingface_hub's HfHubHTTPError for any status, the
// ServiceUnavailableError of the OpenAI 0.x client and LiteLLM as well as
// NATS JetStream's, httpx's RequestError for any transport failure, and
// torch.distributed's DistBackendError for every backend error. A record
// whose errorClass is one of them is read on every line of that class no
// pattern reads (the analysis's class record), so such a line is claimed
// by a narrow record that says something else. The records need their
// class (a raised example ranks by it), so the fix is the class rule's:
// it should not read a class its library raises for every failure, or
// compare the module when the line names one. generalClassLines are lines
// of those classes that no record's pattern reads; each must not be led by
// the narrow record, unless generalClassClaims lists it (the list only
// shrinks).
var generalClassLines = []struct{ text, narrow string }{
	{rawTB("subprocess.CalledProcessError: Command '['nvidia-smi', '--query-gpu=memory.used', '--format=csv']' returned non-zero exit status 9."), "triton-gcc-build-failed"},
	{rawTB("subprocess.CalledProcessError: Command '['git', 'rev-parse', 'HEAD']' returned non-zero exit status 128."), "triton-gcc-build-failed"},
	{rawTB("subprocess.CalledProcessError: Command '['/usr/bin/python3', '-m', 'pip', 'install', 'flash-attn']' returned non-zero exit status 1."), "triton-gcc-build-failed"},
	{rawTB("huggingface_hub.utils._errors.HfHubHTTPError: 416 Client Error: Requested Range Not Satisfiable for url: https://cdn-lfs.huggingface.co/repos/ab/cd/model-00001-of-00004.safetensors"), "hf-rate-limited"},
	{rawTB("openai.error.ServiceUnavailableError: The server is overloaded or not ready yet."), "dynamo-nats-jetstream-unavailable"},
	{rawTB("litellm.exceptions.ServiceUnavailableError: litellm.ServiceUnavailableError: OpenAIException - Connection error."), "dynamo-nats-jetstream-unavailable"},
	{rawTB("httpx.RequestError: peer closed connection without sending complete message body"), "trtllm-prompt-exceeds-max-num-tokens"},
	{rawTB("torch.distributed.DistBackendError: [PG ID 0 PG GUID 0(default_pg) Rank 1] Received a remote error from rank 3 while waiting for the barrier"), "c10d-nccl-unique-id-exchange-failed"},
	{rawTB("requests.exceptions.HTTPError: 500 Server Error: Internal Server Error for url: https://api.example.com/v1/score"), "hf-unauthorized-401"},
}

// generalClassClaims are the lines of generalClassLines (by index) that
// the class rule still gives to the narrow record.
var generalClassClaims = map[int]bool{}

// TestGeneralClassClaims checks that a library's general class is not read
// as one narrow record's failure, and lists where it still is.
func TestGeneralClassClaims(t *testing.T) {
	m := compileCatalog(t)
	claimed := 0
	for i, c := range generalClassLines {
		lead, _ := vocabLead(m, c.text)
		got := lead != nil && lead.Slug == c.narrow
		if got {
			claimed++
		}
		switch {
		case got && !generalClassClaims[i]:
			t.Errorf("line %d of a general class led by the narrow record %s:\n%s", i, c.narrow, c.text)
		case !got && generalClassClaims[i]:
			t.Errorf("line %d is no longer led by %s: drop it from generalClassClaims", i, c.narrow)
		}
	}
	t.Logf("%d of %d lines of a general class led by a narrow record", claimed, len(generalClassLines))
}
