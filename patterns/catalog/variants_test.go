package catalog_test

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/patterns"
)

// A record's examples are its lines as one tool printed them once. Real
// logs alter them on the way: a paste loses the closing quote, a chat or
// an issue puts the line in inline code or bold, a caller logs the
// exception's repr, syslog, srun, glog or a Python logger puts its prefix
// before it, a terminal or a collector cuts it, a newer release
// capitalises a word or writes a plural as "(s)". TestExampleVariants
// derives each of these variants from every single-line example of every
// record and checks that the record still leads it, so a pattern spelled
// to the whole sentence, rather than to the failure's keyphrase, shows up
// before a real log finds it.

// A lineVariant is one way a log alters a line: apply returns the altered
// line, or false when the variant does not alter this line.
type lineVariant struct {
	name  string
	apply func(line string) (string, bool)
	// cut, when set instead of apply, also takes where the record's
	// match begins in the line (-1 when its pattern alone does not
	// match it).
	cut func(line string, start int) (string, bool)
}

// exceptionHead splits a Python exception line into its type and message.
var exceptionHead = regexp.MustCompile(`^((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt|Warning)): (.+)$`)

// pyRepr quotes s the way Python's repr quotes a str.
func pyRepr(s string) string {
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}

// countedPlural is a count before a plural noun of the units logs count
// (events, seconds, bytes, tokens, nodes, ranks, tasks, retries aside),
// which other releases print as "(s)".
var countedPlural = regexp.MustCompile(`\b(\d+ (?:oom[_-]kill event|event|second|minute|byte|token|node|rank|task|time|error|request|attempt|GPU|device|worker|process|thread))s\b`)

// lowerURL and upperURL are the word url in its two spellings.
var (
	lowerURL = regexp.MustCompile(`\burl\b`)
	upperURL = regexp.MustCompile(`\bURL\b`)
)

// cutAfter cuts a line n columns after the start of the record's
// distinctive words (where its pattern's match begins), as a terminal
// without wrapping or a collector's line limit cuts a line whose prefix is
// short: a pattern that spells a whole sentence, rather than the failure's
// keyphrase, no longer reads it.
func cutAfter(n int) func(string, int) (string, bool) {
	return func(line string, start int) (string, bool) {
		if start < 0 || len(line) <= start+n+10 {
			return "", false
		}
		return line[:start+n], true
	}
}

// prefixed puts a writer's prefix before the line.
func prefixed(p string) func(string) (string, bool) {
	return func(line string) (string, bool) { return p + line, true }
}

// lineVariants are the alterations TestExampleVariants derives.
var lineVariants = []lineVariant{
	{name: "closing-lost", apply: func(line string) (string, bool) {
		// The closing quote, backtick or period a paste lost.
		if n := len(line); n > 1 && strings.ContainsRune(`'".`+"`", rune(line[n-1])) {
			return line[:n-1], true
		}
		return "", false
	}},
	{name: "trailing-spaces", apply: func(line string) (string, bool) { return line + "  ", true }},
	{name: "inline-code", apply: func(line string) (string, bool) { return "`" + line + "`", true }},
	{name: "inline-code-open", apply: func(line string) (string, bool) { return "`" + line, true }},
	{name: "bold", apply: func(line string) (string, bool) { return "**" + line + "**", true }},
	{name: "repr", apply: func(line string) (string, bool) {
		// An exception logged by its repr: Type('message').
		if m := exceptionHead.FindStringSubmatch(line); m != nil {
			typ := m[1][strings.LastIndexByte(m[1], '.')+1:]
			return typ + "(" + pyRepr(m[2]) + ")", true
		}
		return "", false
	}},
	{name: "syslog", apply: prefixed("Dec  6 03:19:11 gpu-node-3 python3[7748]: ")},
	{name: "journal-kernel", apply: prefixed("Dec 06 03:19:11 gpu-node-3 kernel: ")},
	{name: "srun-label", apply: prefixed("3: ")},
	{name: "glog", apply: prefixed("E1206 03:19:11.123456  7748 worker.cc:212] ")},
	{name: "python-logger", apply: prefixed("2026-12-06 03:19:11,123 - serving.worker - ERROR - ")},
	{name: "vllm-logger", apply: prefixed("(EngineCore_DP0 pid=7748) ERROR 12-06 03:19:11 [core.py:918] ")},
	{name: "cut-120", cut: cutAfter(120)},
	{name: "cut-80", cut: cutAfter(80)},
	{name: "url-case", apply: func(line string) (string, bool) {
		switch {
		case lowerURL.MatchString(line):
			return lowerURL.ReplaceAllString(line, "URL"), true
		case upperURL.MatchString(line):
			return upperURL.ReplaceAllString(line, "url"), true
		}
		return "", false
	}},
	{name: "plural-s", apply: func(line string) (string, bool) {
		if !countedPlural.MatchString(line) {
			return "", false
		}
		return countedPlural.ReplaceAllString(line, "$1(s)"), true
	}},
}

// variantLimits are the records a variant of whose examples they do not
// lead, by variant, each group with why: the variant removes what tells
// the failure apart, or the shape is the entry layer's to undo rather than
// each record's. The lists only shrink.
var variantLimits = map[string]variantLimit{
	"cut-80": {
		why: "the words that tell this failure from its neighbours lie more than 80 columns after where the pattern's match begins (a second clause, an error code, a file name the family is told by), so the cut line cannot be told apart and the family's generic record or none reads it",
		slugs: []string{
			"address-already-in-use", "aiter-hip-call-failed", "alloc-req-slots-out-of-memory",
			"attention-backend-unsupported", "c10d-client-socket-connect-failed",
			"c10d-client-socket-connect-retry", "c10d-default-group-not-initialized",
			"c10d-nccl-unique-id-exchange-failed", "c10d-rendezvous-env-unset",
			"c10d-server-socket-address-in-use", "c10d-store-socket-wait-timeout",
			"chat-template-not-found", "chat-template-render-error", "context-length-exceeds-derived",
			"cuda-get-device-count-failed", "cudnn-version-incompatible",
			"deepep-device-check-failed", "deepep-host-check-failed",
			"deepspeed-launcher-rank-failed", "disagg-kv-wait-timeout", "disagg-staging-buffer-too-small",
			"docker-daemon-unreachable", "fatal-python-error-at-shutdown", "flashinfer-cubin-cache-stale",
			"flashinfer-kernel-error", "flashinfer-unsupported-kernel-config", "ggml-metal-out-of-memory",
			"grammar-matcher-terminated", "grpc-keepalive-too-many-pings", "hccl-call-failed",
			"health-check-failed-detokenizer", "hf-config-file-missing", "hf-gated-repo",
			"hf-hub-unreachable", "hf-offline-cache-miss", "hf-repository-not-found", "hf-transfer-failed",
			"hicache-not-enough-host-memory", "hip-no-binary-for-gpu", "http-client-server-error-status",
			"http-upstream-connect-failed", "http-upstream-disconnected",
			"input-longer-than-context-length", "k8s-gpu-allocation-failed", "k8s-gpu-unschedulable",
			"k8s-rbac-forbidden", "lmcache-memory-allocation-failed", "lmdeploy-turbomind-cuda-error",
			"model-config-unrecognized", "model-load-ranks-out-of-step",
			"mooncake-store-api-version-mismatch", "mooncake-store-setup-option-unsupported",
			"mooncake-tcp-gpu-buffer-failed", "multiprocessing-bootstrap-phase-error",
			"multiprocessing-leaked-resources-at-shutdown", "native-cuda-error-at-function",
			"nccl-library-load-failed", "nccl-net-device-count-mismatch", "nccl-unhandled-cuda-error",
			"nccl-unhandled-system-error", "no-cuda-gpus-available",
			"npu-function-error", "npu-out-of-memory", "nvshmem-version-mismatch",
			"ollama-models-dir-permission-denied", "ollama-runner-terminated", "output-for-deleted-request",
			"python-import-name-mismatch", "python-module-not-found",
			"quantization-scheme-needs-newer-gpu", "quantized-weight-tp-split-misaligned",
			"ray-object-lost", "ray-worker-register-failed", "rccl-host-tuning-notice",
			"remote-code-missing-package", "rocm-kfd-not-accessible", "router-workers-startup-timeout",
			"sglang-grpc-frontend-not-installed", "sglang-platform-plugin-unavailable",
			"shared-library-not-found", "shared-memory-bus-error", "sigquit-received-child-failed",
			"speculative-draft-vocab-mismatch",
			"torch-allocator-nvml-assert", "torch-dtype-mismatch", "torch-extension-version-skew",
			"torch-memory-saver-cuda-error", "torch-memory-saver-expandable-segments",
			"torch-memory-saver-vmm-unavailable", "torch-tensor-shape-mismatch",
			"transformers-unknown-model-type",
			"triton-model-config-dims-mismatch", "trtllm-prompt-exceeds-max-num-tokens",
			"trust-remote-code-required", "ucx-ib-completion-error", "ucx-memory-registration-failed",
			"ucx-no-transport-to-peer", "vllm-auto-tool-choice-not-enabled",
			"vllm-kv-cache-smaller-than-max-model-len",
			"vllm-lora-not-enabled",

			"xgrammar-token-rejected",
		},
	},
	"cut-120": {
		why: "the words that tell this failure from its neighbours lie more than 120 columns after where the pattern's match begins (a second clause, an error code, a file name the family is told by), so the cut line cannot be told apart and the family's generic record or none reads it",
		slugs: []string{
			"aiter-hip-call-failed", "c10d-server-socket-address-in-use", "cuda-get-device-count-failed",
			"fatal-python-error-at-shutdown", "flashinfer-cubin-cache-stale",
			"flashinfer-unsupported-kernel-config", "hf-config-file-missing",
			"http-upstream-connect-failed", "native-cuda-error-at-function",

			"transformers-unknown-model-type", "ucx-no-transport-to-peer",
		},
	},
	"closing-lost": {
		why: "the closing quote or period is part of what the pattern spells to tell this failure from a neighbour's (a name read whole, a sentence's end), or the family's generic record reads the cut name (NCCL's \"Cuda failure '<name>\" is then nccl-cuda-failure's)",
		slugs: []string{
			"anthropic-thinking-needs-reasoning-parser", "c10d-server-socket-address-in-use",
			"cuda-error-out-of-memory", "cuda-initialization-error", "cuda-invalid-device-ordinal",
			"cuda-no-kernel-image", "cuda-operation-not-supported", "cuda-toolkit-not-found",
			"gloo-enforce-not-met", "hf-repository-not-found", "host-compiler-too-old",
			"http-upstream-connect-failed", "lmdeploy-session-finished-error", "load-weights-key-error",
			"nccl-net-plugin-fallback-warning", "nvcc-unsupported-gpu-architecture",
			"ollama-runner-connection-lost", "tgi-launcher-argument-rejected",
			"vllm-engine-core-died-unexpectedly",
		},
	},
	"repr": {
		why: "the pattern reads the exception as 'Type: message' or from the line's start; a logged repr Type('message') is the same exception in another shape, which belongs where an entry's exception is parsed, not in each record",
		slugs: []string{
			"c10d-client-socket-connect-failed", "c10d-store-socket-wait-timeout",
			"c10d-tcpstore-recv-failed", "checkpoint-file-corrupt", "context-length-exceeds-derived",
			"cublas-status-error", "cuda-unknown-error", "filesystem-access-denied",
			"h11-local-protocol-error", "http-client-read-timeout", "http-client-request-rejected",
			"http-client-server-error-status", "http-upstream-connect-failed", "http-upstream-disconnected",
			"image-decode-failed", "lmdeploy-engine-config-invalid", "load-weights-key-error",
			"multiprocessing-start-method-already-set", "path-not-found", "python-import-name-mismatch",
			"python-module-not-found", "sglang-launch-flags-rejected", "tokenizer-decode-id-out-of-range",
			"torch-dynamo-internal-error", "torch-elastic-signal-exception", "torch-extension-build-failed",
			"torch-inductor-lowering-failed", "torch-spawn-process-exited", "tp-size-not-divisible",
			"vllm-engine-args-rejected", "vllm-engine-core-died-unexpectedly", "zmq-context-terminated",
		},
	},
	"bold": {
		why: "the pattern anchors the failure at the line's start or after a log header (a shell's report, a glog or Go logger line, an exit status); Markdown bold around the whole line hides that start, and taking a paste's Markdown off is the entry layer's work, not each record's",
		slugs: []string{
			"c10d-server-socket-address-in-use", "cpu-illegal-instruction", "cuda-toolkit-not-found",
			"glibc-heap-corruption", "k8s-container-exited-error", "mooncake-master-ping-missed",
			"mooncake-store-client-setup-failed", "nixl-ucx-backend-create-failed", "nvml-query-failed",
			"ollama-runner-connection-lost", "process-floating-point-exception", "python-name-not-defined",
			"scheduler-exit-code-native-crash", "scheduler-exit-code-sigkill", "shared-memory-bus-error",
			"shell-command-not-found", "shell-permission-denied", "shell-source-not-found",
		},
	},
	"glog": {
		why: "the pattern anchors the line's start or reads the exception's own first line, and a glog header in front of a Python exception is not taken off by the entry layer",
		slugs: []string{
			"cuda-unknown-error", "ninja-not-installed", "ollama-runner-connection-lost",
		},
	},
	"srun-label": {
		why: "the pattern anchors the line's start (an exit status, a launcher's 'Error:' line, a Go logger's key=value line); srun's task label in front is the entry layer's to take off",
		slugs: []string{
			"ollama-runner-connection-lost", "scheduler-exit-code-sigkill", "tgi-download-error",
		},
	},
	"python-logger": {
		why: "the record reads Ollama's Go logger line (time=... level=ERROR) from its start; another logger's header in front of it is not taken off",
		slugs: []string{
			"ollama-runner-connection-lost",
		},
	},
	"vllm-logger": {
		why: "the record reads Ollama's Go logger line (time=... level=ERROR) from its start; another logger's header in front of it is not taken off",
		slugs: []string{
			"ollama-runner-connection-lost",
		},
	},
	"trailing-spaces": {
		why: "the pattern anchors the line's end to tell a final exit status from a longer line",
		slugs: []string{
			"scheduler-exit-code-sigkill",
		},
	},
	"inline-code": {
		why: "the pattern anchors the line's end to tell a final exit status from a longer line; a closing backtick is the entry layer's to take off",
		slugs: []string{
			"scheduler-exit-code-sigkill",
		},
	},
}

// A variantLimit is why the records of slugs do not lead a variant.
type variantLimit struct {
	why   string
	slugs []string
}

// limited reports whether variantLimits lists slug under variant.
func limited(variant, slug string) bool {
	return slices.Contains(variantLimits[variant].slugs, slug)
}

// variantMiss is one variant its record does not lead.
type variantMiss struct {
	variant, slug, text, leader string
}

// auditVariants derives every variant of every single-line example and
// returns the misses and the number of variants tried.
func auditVariants(t *testing.T) ([]variantMiss, int) {
	t.Helper()
	m := compileCatalog(t)
	all, _ := patterns.Default()
	recs := map[string]*patterns.Record{}
	for i := range all {
		recs[all[i].Slug] = &all[i]
	}
	texts := allExampleTexts(t)
	slugs := make([]string, 0, len(texts))
	for slug := range texts {
		slugs = append(slugs, slug)
	}
	sort.Strings(slugs)
	var misses []variantMiss
	tried := 0
	for _, slug := range slugs {
		r := recs[slug]
		if r == nil {
			continue
		}
		re, err := patterns.Compile(r.MessagePattern)
		if err != nil {
			t.Fatalf("%s: %v", slug, err)
		}
		for _, text := range texts[slug] {
			if strings.Contains(text, "\n") {
				continue
			}
			start := -1
			if mt, err := re.FindStringMatch(text); err == nil && mt != nil {
				start, _ = mt.ByteRange()
			}
			if ok, _ := leadsExample(m, r, text); !ok {
				// TestExampleLeads judges the example itself.
				continue
			}
			for _, v := range lineVariants {
				var alt string
				var ok bool
				if v.cut != nil {
					alt, ok = v.cut(text, start)
				} else {
					alt, ok = v.apply(text)
				}
				if !ok {
					continue
				}
				tried++
				if ok, leader := leadsExample(m, r, alt); !ok {
					misses = append(misses, variantMiss{v.name, slug, alt, leader})
				}
			}
		}
	}
	return misses, tried
}

// TestExampleVariants checks that every record leads each variant of its
// single-line examples, or that variantLimits names why not. With
// LOGMATCH_VARIANTS_AUDIT set it logs every miss and a count per variant.
func TestExampleVariants(t *testing.T) {
	misses, tried := auditVariants(t)
	audit := os.Getenv("LOGMATCH_VARIANTS_AUDIT") != ""
	byVariant := map[string]int{}
	shown := map[string]bool{}
	for _, ms := range misses {
		key := ms.variant + " " + ms.slug
		shown[key] = true
		byVariant[ms.variant]++
		if audit {
			t.Logf("MISS %s <- %s\n%s", key, ms.leader, ms.text)
			continue
		}
		if !limited(ms.variant, ms.slug) {
			t.Errorf("%s: %s variant led by %s, not by its record\n%s", ms.slug, ms.variant, ms.leader, ms.text)
		}
	}
	var counts []string
	for _, v := range lineVariants {
		counts = append(counts, fmt.Sprintf("%s %d", v.name, byVariant[v.name]))
	}
	t.Logf("%d variants tried, %d not led by their record (%s)", tried, len(misses), strings.Join(counts, ", "))
	if audit {
		return
	}
	for variant, l := range variantLimits {
		for _, slug := range l.slugs {
			if !shown[variant+" "+slug] {
				t.Errorf("variant limit %s %s no longer shows: drop it", variant, slug)
			}
		}
	}
}

// The wordings below are the same failures as their sources print them
// in other releases and through other callers, each family read from the
// source's own format strings: the kernel's OOM kill report before and
// after it became one line, Slurm's step OOM reports across its releases
// (and kept apart from the kernel's), NCCL's result string behind any
// caller's prefix, vLLM's adapter load failures in its engine core and
// worker, the Hub's 404 and 429 through requests and httpx, torch_npu's
// task queue statuses, and an import error whose closing quote a paste
// lost. Each must be led by want; the near misses must not be read as a
// failure of it.

// TestWordingVariants checks wordingVariants on the real path.
func TestWordingVariants(t *testing.T) {
	checkVocabularies(t, []vocabulary{
		kernelOOMWordings, slurmOOMWordings, ncclResultCallers,
		vllmLoRALoadWordings, hubStatusWordings, npuQueueStatuses, importPasteWordings,
	})
}

// kernelOOMWordings are mm/oom_kill.c's reports: until 5.0 the choice
// ("Kill process N (comm) score S or sacrifice child") and the kill
// ("Killed process N (comm) total-vm:...") on two lines, since then one
// "<reason>: Killed process" line; in dmesg, syslog and journal form.
var kernelOOMWordings = vocabulary{
	name: "kernel OOM killer across releases",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "[1234567.890123] %s"},
		{Field: fieldText, Format: "Aug 18 03:19:11 gpu-node-3 kernel: %s"},
		{Field: fieldText, Format: "Dec 06 09:00:01 gpu-node-3 kernel: [1234567.890123] %s"},
	},
	terms: []vocabTerm{
		{"Killed process 7748 (python) total-vm:12907828kB, anon-rss:11500204kB, file-rss:0kB", "", "", "linux-oom-killer"},
		{"Killed process 4021 (python3) total-vm:123456789kB, anon-rss:120000000kB, file-rss:0kB, shmem-rss:0kB", "", "", "linux-oom-killer"},
		{"Out of memory: Kill process 4021 (python3) score 912 or sacrifice child", "", "", "linux-oom-killer"},
		{"Memory cgroup out of memory: Kill process 4021 (pt_main_thread) score 1998 or sacrifice child", "", "", "linux-oom-killer"},
		{"Out of memory (oom_kill_allocating_task): Killed process 4021 (python3) total-vm:123456789kB, anon-rss:120000000kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:240000kB oom_score_adj:0", "", "", "linux-oom-killer"},
		{"oom_reaper: reaped process 4021 (python3), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB", "", "", ""},
		{"Killed process group 4021 after timeout", "", "", ""},
	},
}

// slurmOOMWordings are slurmstepd's and srun's reports of a step killed
// at its memory limit, in the wordings of Slurm's releases (oom-kill
// event(s) in step N.batch cgroup; in StepId=; oom_kill event(s) with the
// step tasks OOM Killed) and of the accounting plugin's own limit; a
// step's other ends stay theirs.
var slurmOOMWordings = vocabulary{
	name: "Slurm step OOM across releases",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "[2026-03-28T14:27:13.072] %s"},
		{Field: fieldText, Format: "I am running it under sbatch and it gives me the error %s how do I fix this?"},
	},
	terms: []vocabTerm{
		{"slurmstepd: error: Detected 2 oom-kill event(s) in step 3756240.batch cgroup.", "", "", "slurm-step-oom-killed"},
		{"slurmstepd: error: Detected 1 oom-kill event(s) in step 370626.batch cgroup. Some of your processes may have been killed by the cgroup out-of-memory handler.", "", "", "slurm-step-oom-killed"},
		{"slurmstepd: error: Detected 1587 oom-kill event(s) in StepId=1108728.batch. Some of your processes may have been killed by the cgroup out-of-memory handler.", "", "", "slurm-step-oom-killed"},
		{"slurmstepd-node7: error: Detected 1 oom_kill event in StepId=4833316.0. Some of the step tasks have been OOM Killed.", "", "", "slurm-step-oom-killed"},
		{"error: Detected 2 oom_kill events in StepId=7.0. Some of the step tasks have been OOM Killed.", "", "", "slurm-step-oom-killed"},
		{"srun: error: holy8a24101: task 0: Out Of Memory", "", "", "slurm-step-oom-killed"},
		{"srun: error: gpu-node-3: tasks 0-7: Out Of Memory", "", "", "slurm-step-oom-killed"},
		{"slurmstepd: error: StepId=7.batch exceeded memory limit (734003200 > 52428800), being killed", "", "", "slurm-step-oom-killed"},
		{"slurmstepd: error: Job 1234 exceeded memory limit (9437184 > 8388608), being killed", "", "", "slurm-step-oom-killed"},
		{"slurmstepd: error: Exceeded job memory limit", "", "", "slurm-step-oom-killed"},
		{"slurmstepd: error: *** JOB 1234 ON gpu-node-3 CANCELLED AT 2026-05-28T00:11:09 DUE TO TIME LIMIT ***", "", "", "slurm-job-cancelled"},
		{"srun: error: gpu-node-3: task 0: Exited with exit code 1", "", "", "slurm-task-exited"},
		{"slurmstepd: error: Detected 0 oom-kill events, memory limit not reached", "", "", ""},
	},
}

// ncclResultCallers are ncclGetErrorString's text for an unhandled CUDA
// error as its callers print it: torch's ProcessGroupNCCL, ggml's CUDA
// backend, and a bare NCCL call's check.
var ncclResultCallers = vocabulary{
	name: "NCCL unhandled CUDA error by caller",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
	},
	terms: []vocabTerm{
		{"CUDA error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)\n  current device: 0, in function ggml_backend_cuda_comm_allreduce_tensor at /app/ggml/src/ggml-cuda/ggml-cuda.cu:1237\n  ncclGroupEnd()", "", "", "nccl-unhandled-cuda-error"},
		{"RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5", "", "", "nccl-unhandled-cuda-error"},
		{"Failed: NCCL error /workspace/src/all_reduce.cu:88 'unhandled cuda error (run with NCCL_DEBUG=INFO for details)'", "", "", "nccl-unhandled-cuda-error"},
		{"torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.2", "", "", "nccl-unhandled-cuda-error"},
		{"ph3a:1:103 [0] NCCL INFO Channel 01/04 : 0 1", "", "", ""},
	},
}

// vllmLoRALoadWordings are vLLM's adapter load failures: the engine
// core's utility call (Invocation of add_lora method failed), the answer
// the API server relays (Call to add_lora method failed: ...), and the
// worker's own raise in older releases (Loading lora <path> failed); the
// adapter missing altogether stays the narrower record's.
var vllmLoRALoadWordings = vocabulary{
	name: "vLLM LoRA adapter load",
	shapes: []vocabShape{
		{Field: fieldText, Format: "(EngineCore_DP0 pid=1511501) ERROR 12-15 18:57:10 [core.py:918] %s"},
		{Field: fieldText, Format: "ERROR 10-11 16:03:09 engine.py:157] %s"},
	},
	terms: []vocabTerm{
		{"Invocation of add_lora method failed", "", "", "vllm-lora-adapter-load-failed"},
		{"Invocation of add_lora method failed\nTraceback (most recent call last):\n  File \"/opt/venv/lib/python3.12/site-packages/vllm/lora/worker_manager.py\", line 102, in _load_adapter", "", "", "vllm-lora-adapter-load-failed"},
		{"RuntimeError: Loading lora /home/user/models/qwen-adapter/checkpoint-400 failed", "", "", "vllm-lora-adapter-load-failed"},
		{"Call to add_lora method failed: 'NoneType' object has no attribute 'items'", "", "", "vllm-lora-adapter-load-failed"},
		// The cause named after the colon is its narrower record's.
		{"Call to add_lora method failed: Loading lora sql failed: LoRA rank 128 is greater than max_lora_rank 64.", "", "", "vllm-lora-rank-exceeds-max"},
		{"ValueError: Loading lora sql-lora failed: No adapter found for /loras/sql-lora", "", "", "vllm-lora-adapter-not-found"},
		{"Invocation of pin_lora method succeeded", "", "", ""},
	},
}

// hubStatusWordings are the Hub's 404 and 429 as requests (url or URL,
// by release), httpx and huggingface_hub word them; another host's 404
// stays the HTTP client's.
var hubStatusWordings = vocabulary{
	name: "Hub statuses by client",
	shapes: []vocabShape{
		{Field: fieldText, Format: rawTB("%s")},
		{Field: fieldText, Format: "%s  "},
	},
	terms: []vocabTerm{
		{"requests.exceptions.HTTPError: 404 Client Error: Not Found for url: https://huggingface.co/LaMini-T5-738M/resolve/main/tokenizer_config.json", "", "", "hf-repository-not-found"},
		{"requests.exceptions.HTTPError: 404 Client Error: Not Found for URL: https://huggingface.co/api/models/Qwen/Qwen9-7B/revision/main", "", "", "hf-repository-not-found"},
		{"httpx.HTTPStatusError: Client error '404 Not Found' for url 'https://huggingface.co/api/models/org/missing-model/tree/main'", "", "", "hf-repository-not-found"},
		{"huggingface_hub.errors.RepositoryNotFoundError: 404 Client Error. (Request ID: Root=1-6650)\n\nRepository Not Found for URL: https://huggingface.co/api/models/org/missing-model/revision/main.", "", "", "hf-repository-not-found"},
		{"requests.exceptions.HTTPError: 429 Client Error: Too Many Requests for URL: https://huggingface.co/meta-llama/Meta-Llama-3-8B/resolve/main/config.json", "", "", "hf-rate-limited"},
		{"requests.exceptions.HTTPError: 403 Client Error: Forbidden for URL: https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json", "", "", "hf-gated-repo"},
		{"requests.exceptions.HTTPError: 404 Client Error: Not Found for url: http://10.0.0.7:30000/v1/models", "", "", "http-client-request-rejected"},
	},
}

// npuQueueStatuses are torch_npu's task queue reports of the status it
// stopped in (NPUQueue's RepoStatus names), in CANN's plog form and as a
// RuntimeError.
var npuQueueStatuses = vocabulary{
	name: "torch_npu task queue statuses",
	shapes: []vocabShape{
		{Field: fieldText, Format: "[ERROR] APP(173913,):2025-12-25-17:14:03.382.026 [log_inner.cpp:77]173913 build/CMakeFiles/torch_npu.dir/compiler_depend.ts:MakeSureQueueEmpty:343: \"%s\""},
		{Field: fieldText, Format: "RuntimeError: %s"},
	},
	terms: []vocabTerm{
		{"[PTA]:\"Inner error happened with CAN_EXIT status, detail: the current working operator name is Identity\"", "", "", "ascend-cann-inner-error"},
		{"[PTA]:\"Inner error happened with ERROR_EXIT status, detail: the current working operator name is MatMul\"", "", "", "ascend-cann-inner-error"},
	},
}

// importPasteWordings are Python's import error as pastes leave it: the
// module name's closing quote lost, with or without the inline code's
// backticks; a name still open mid-line is no import error.
var importPasteWordings = vocabulary{
	name: "import error as pasted",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "`%s`"},
		{Field: fieldText, Format: "`%s"},
	},
	terms: []vocabTerm{
		{"ModuleNotFoundError: No module named 'vllm.model_executor.input_metadata", "", "", "python-module-not-found"},
		{"ModuleNotFoundError: No module named 'sgl_kernel", "", "", "no-module-sgl-kernel"},
		{"ModuleNotFoundError: No module named 'flash_attn'", "", "", "python-module-not-found"},
		{"The error is `ModuleNotFoundError: No module named 'flash_attn'` after the upgrade", "", "", "python-module-not-found"},
	},
}

// variantExamples are the examples of the records the wording variants
// added.
var variantExamples = map[string]example{
	"slurm-step-oom-killed": {
		match: []string{
			"slurmstepd: error: Detected 2 oom-kill event(s) in step 3756240.batch cgroup.",
			"slurmstepd: error: Detected 1 oom_kill event in StepId=11300781.0. Some of the step tasks have been OOM Killed.",
			"srun: error: sdumont6156: task 0: Out Of Memory",
			"slurmstepd: error: StepId=7.batch exceeded memory limit (734003200 > 52428800), being killed",
		},
		miss: []string{
			"Out of memory: Killed process 4021 (python3) total-vm:123456789kB, anon-rss:120000000kB, file-rss:0kB",
			"srun: error: gpu-node-3: task 0: Killed",
		},
	},
}

// variantWidened are lines of existing records' families the wording
// variants widened them to.
var variantWidened = map[string]example{
	"linux-oom-killer": {match: []string{
		"Aug 18 03:19:11 169 kernel: Killed process 7748 (python) total-vm:12907828kB, anon-rss:11500204kB, file-rss:0kB",
		"[ 9876.543210] Out of memory: Kill process 4021 (python3) score 912 or sacrifice child",
	}},
	"nccl-unhandled-cuda-error": {match: []string{
		"CUDA error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)",
	}},
	"hf-repository-not-found": {match: []string{
		"requests.exceptions.HTTPError: 404 Client Error: Not Found for url: https://huggingface.co/LaMini-T5-738M/resolve/main/tokenizer_config.json",
	}},
	"ascend-cann-inner-error": {match: []string{
		`[ERROR] APP(173913,):2025-12-25-17:14:03.382.026 [log_inner.cpp:77]173913 build/CMakeFiles/torch_npu.dir/compiler_depend.ts:MakeSureQueueEmpty:343: "[PTA]:"Inner error happened with CAN_EXIT status, detail: the current working operator name is Identity""`,
	}},
	"python-module-not-found": {match: []string{
		"ModuleNotFoundError: No module named 'vllm.model_executor.input_metadata",
	}},
}

func init() { addExamples(variantExamples, variantWidened) }
