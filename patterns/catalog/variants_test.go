package catalog_test

import (
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
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
	// inTraceback, when set, also tries an exception line's variant as
	// the last line of its traceback: the alteration happens to the
	// line wherever it is printed.
	inTraceback bool
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

// lowerError and upperError are the word error, after a space and not
// at a line's start, in its two spellings.
var (
	lowerError = regexp.MustCompile(`([ (])error\b`)
	upperError = regexp.MustCompile(`([ (])Error\b`)
)

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
	{name: "closing-lost", inTraceback: true, apply: func(line string) (string, bool) {
		// The closing quote, backtick or period a paste lost.
		if n := len(line); n > 1 && strings.ContainsRune(`'".`+"`", rune(line[n-1])) {
			return line[:n-1], true
		}
		return "", false
	}},
	{name: "trailing-spaces", inTraceback: true, apply: func(line string) (string, bool) { return line + "  ", true }},
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
	{name: "cut-120", inTraceback: true, cut: cutAfter(120)},
	{name: "cut-80", inTraceback: true, cut: cutAfter(80)},
	{name: "url-case", inTraceback: true, apply: func(line string) (string, bool) {
		switch {
		case lowerURL.MatchString(line):
			return lowerURL.ReplaceAllString(line, "URL"), true
		case upperURL.MatchString(line):
			return upperURL.ReplaceAllString(line, "url"), true
		}
		return "", false
	}},
	{name: "error-case", inTraceback: true, apply: func(line string) (string, bool) {
		// Another release capitalises the word error, or lowers it.
		switch {
		case lowerError.MatchString(line):
			return lowerError.ReplaceAllString(line, "${1}Error"), true
		case upperError.MatchString(line):
			return upperError.ReplaceAllString(line, "${1}error"), true
		}
		return "", false
	}},
	{name: "plural-s", inTraceback: true, apply: func(line string) (string, bool) {
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
			"ollama-registry-unreachable",
			"aiter-hip-call-failed", "attention-backend-unsupported",
			"c10d-client-socket-connect-failed", "c10d-server-socket-address-in-use",
			"c10d-store-socket-wait-timeout", "chat-template-render-error",
			"cuda-get-device-count-failed", "cuda-invalid-argument", "deepep-device-check-failed", "deepep-host-check-failed",
			"deepspeed-launcher-rank-failed", "disagg-staging-buffer-too-small",
			"fatal-python-error-at-shutdown", "flashinfer-cubin-cache-stale",
			"flashinfer-kernel-error", "flashinfer-unsupported-kernel-config",
			"ggml-metal-out-of-memory", "grammar-matcher-terminated", "grpc-keepalive-too-many-pings",
			"hccl-call-failed", "hf-hub-unreachable", "hf-offline-cache-miss",
			"health-probe-endpoint-not-found", "hf-repository-not-found", "hip-no-binary-for-gpu",
			"http-client-server-error-status", "http-upstream-connect-failed", "http-upstream-disconnected",
			"input-longer-than-context-length", "k8s-gpu-unschedulable", "k8s-rbac-forbidden",
			"linux-oom-killer", "lmcache-memory-allocation-failed", "lmdeploy-turbomind-cuda-error",
			"mooncake-store-api-version-mismatch", "mooncake-tcp-gpu-buffer-failed",
			"native-cuda-error-at-function", "nccl-unhandled-cuda-error",
			"nccl-unhandled-system-error", "npu-function-error", "npu-out-of-memory",
			"ollama-models-dir-permission-denied", "python-import-name-mismatch",
			"python-module-not-found", "ray-actor-died", "ray-runtime-env-setup-failed", "ray-worker-register-failed",
			"rccl-host-tuning-notice", "rocm-kfd-not-accessible", "router-workers-startup-timeout",
			"shared-library-not-found", "sigquit-received-child-failed", "torch-allocator-nvml-assert",
			"torch-memory-saver-cuda-error", "torch-memory-saver-vmm-unavailable",
			"triton-model-config-dims-mismatch", "ucx-ib-completion-error",
			"ucx-memory-registration-failed", "ucx-no-transport-to-peer", "xgrammar-token-rejected",
		},
	},
	"cut-120": {
		why: "the words that tell this failure from its neighbours lie more than 120 columns after where the pattern's match begins (a second clause, an error code, a file name the family is told by), so the cut line cannot be told apart and the family's generic record or none reads it",
		slugs: []string{
			"aiter-hip-call-failed", "c10d-server-socket-address-in-use",
			"cuda-get-device-count-failed", "fatal-python-error-at-shutdown",
			"flashinfer-cubin-cache-stale", "flashinfer-unsupported-kernel-config",
			"health-probe-endpoint-not-found", "http-upstream-connect-failed", "linux-oom-killer",
			"native-cuda-error-at-function", "ray-actor-died",
			"ray-runtime-env-setup-failed", "ucx-no-transport-to-peer",
		},
	},
	"closing-lost": {
		why: "the closing quote or period is part of what the pattern spells to tell this failure from a neighbour's (a name read whole, a sentence's end), or the family's generic record reads the cut name (NCCL's \"Cuda failure '<name>\" is then nccl-cuda-failure's)",
		slugs: []string{
			"cuda-no-kernel-image", "nccl-net-plugin-fallback-warning",
			"ollama-runner-connection-lost",
		},
	},
	"repr": {
		why: "the pattern reads the exception as 'Type: message' or from the line's start; a logged repr Type('message') is the same exception in another shape, which belongs where an entry's exception is parsed, not in each record",
		slugs: []string{
			"c10d-client-socket-connect-failed", "c10d-store-socket-wait-timeout",
			"checkpoint-file-corrupt", "context-length-exceeds-derived", "cuda-unknown-error",
			"filesystem-access-denied", "http-client-read-timeout", "http-client-request-rejected",
			"http-client-server-error-status", "http-upstream-connect-failed",
			"lmdeploy-engine-config-invalid", "load-weights-key-error", "path-not-found",
			"python-import-name-mismatch", "python-module-not-found", "sglang-launch-flags-rejected",
			"torch-dynamo-internal-error", "torch-extension-build-failed",
			"torch-inductor-lowering-failed", "tp-size-not-divisible", "vllm-engine-args-rejected",
			"vllm-engine-core-died-unexpectedly",
		},
	},
	"bold": {
		why: "the pattern anchors the failure at the line's start or after a log header (an exit status, a Go logger line); Markdown bold around the whole line hides that start where the entry layer does not take the bold off",
		slugs: []string{
			"cpu-illegal-instruction", "cuda-toolkit-not-found",
			"mooncake-master-ping-missed", "process-aborted-core-dumped", "scheduler-exit-code-sigkill",
		},
	},
	"glog": {
		why: "the pattern anchors the line's start or reads the exception's own first line, and a glog header in front of a Python exception is not taken off by the entry layer",
		slugs: []string{
			"cuda-unknown-error", "ollama-runner-connection-lost", "process-aborted-core-dumped",
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
	"cut-80-in-traceback": {
		why: "as cut-80, for the exception line that ends a traceback",
		slugs: []string{
			"attention-backend-unsupported", "c10d-client-socket-connect-failed",
			"c10d-server-socket-address-in-use", "deepep-host-check-failed",
			"flashinfer-cubin-cache-stale", "flashinfer-kernel-error",
			"flashinfer-unsupported-kernel-config", "grammar-matcher-terminated", "hccl-call-failed",
			"hf-hub-unreachable", "hf-offline-cache-miss", "hf-repository-not-found",
			"http-client-server-error-status", "http-upstream-connect-failed",
			"http-upstream-disconnected", "lmdeploy-turbomind-cuda-error", "nccl-unhandled-cuda-error",
			"nccl-unhandled-system-error", "npu-function-error", "npu-out-of-memory",
			"python-import-name-mismatch", "python-module-not-found", "torch-allocator-nvml-assert",
		},
	},
	"cut-120-in-traceback": {
		why: "as cut-120, for the exception line that ends a traceback",
		slugs: []string{
			"c10d-server-socket-address-in-use", "flashinfer-cubin-cache-stale",
			"flashinfer-unsupported-kernel-config", "http-upstream-connect-failed",
		},
	},
	"error-case": {
		why: "the pattern spells the word error in its source's case inside a fixed phrase (a Go logger's error= key, a C library's report, a status or exception name) that its releases print one way; left as written",
		slugs: []string{
			"aiter-hip-call-failed", "ascend-cann-inner-error", "ascend-sdma-copy-failed",
			"compiler-killed-out-of-memory", "cuda-initialization-error", "deepep-host-check-failed",
			"grpc-server-error", "hip-no-binary-for-gpu", "http-client-request-rejected",
			"http-client-server-error-status", "http-server-error-response",
			"http-upstream-connect-failed", "llamacpp-missing-tensor",
			"llamacpp-server-model-load-failed", "mooncake-master-unreachable",
			"mooncake-rdma-async-event-error", "mooncake-store-allocation-failed",
			"mooncake-store-checksum-mismatch", "mooncake-store-lease-expired",
			"mooncake-store-operation-failed", "mooncake-store-transfer-failed",
			"mooncake-store-version-mismatch", "mooncake-tcp-gpu-buffer-failed",
			"nccl-ib-async-fatal-event", "nccl-ib-port-event", "nccl-remote-process-exited",
			"nccl-shared-memory-segment-failed", "npu-aicore-exception", "nvcc-compilation-errors",
			"nvidia-gpu-fallen-off-bus", "nvml-query-failed", "nvshmem-transport-runtime-error",
			"ollama-cuda-driver-init-failed", "ollama-input-exceeds-context",
			"ollama-model-incompatible-version", "ollama-model-requires-more-memory",
			"ollama-runner-connection-lost", "ollama-runner-terminated",
			"ollama-timed-out-waiting-for-runner", "ray-worker-died-system-error",
			"rdma-work-completion-error", "router-start-failed", "shared-memory-bus-error",
			"tgi-shard-method-error", "torch-memory-saver-after-kernel-fault",
			"torch-memory-saver-cuda-error", "torch-memory-saver-invalid-request",
			"torch-memory-saver-resume-oom", "torch-memory-saver-vmm-unavailable",
			"triton-failed-to-load-all-models", "ucx-endpoint-error-unhandled",
			"ucx-ib-completion-error", "ucx-operation-failed", "vllm-chat-stream-generator-error",
		},
	},
	"error-case-in-traceback": {
		why: "as error-case, for the exception line that ends a traceback",
		slugs: []string{
			"ascend-cann-inner-error", "deepep-host-check-failed", "http-client-server-error-status",
			"http-upstream-connect-failed", "nccl-remote-process-exited",
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
	recs := defaultBySlug()
	texts := allExampleTexts(t)
	slugs := slices.Sorted(maps.Keys(texts))
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
				if !v.inTraceback || !exceptionLine.MatchString(text) {
					continue
				}
				// An exception line altered the same way ends the
				// traceback Python prints on stderr.
				tried++
				if ok, leader := leadsExample(m, r, rawTB(alt)); !ok {
					misses = append(misses, variantMiss{v.name + "-in-traceback", slug, rawTB(alt), leader})
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

// TestActorAndStepWordings checks Ray's reports of an actor whose
// constructor raised, across its releases, and srun's wait for a step's
// resources.
func TestActorAndStepWordings(t *testing.T) {
	checkVocabularies(t, []vocabulary{rayCreationTaskWordings, slurmStepWaits})
}

// rayCreationTaskWordings are Ray's reports of an actor dead in its
// creation task: the ActorDiedError (RayActorError before 2.x) message
// with the constructor's exception, the actor's own log line, and the 1.x
// core worker's INFO notification; an actor that died with no creation
// task exception, and one that exited as asked, are no failure of it.
var rayCreationTaskWordings = vocabulary{
	name: "Ray actor creation task",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "(raylet) %s"},
	},
	terms: []vocabTerm{
		{"ray.exceptions.ActorDiedError: The actor died because of an error raised in its creation task, ray::RolloutWorker.__init__() (pid=3166, ip=10.0.2.109, actor_id=7b9995853ad2be757c1825e501000000, repr=<RolloutWorker object at 0x7f38dd7976e0>)", "", "", "ray-actor-creation-task-failed"},
		{"ray.exceptions.RayActorError: The actor died because of an error raised in its creation task, ray::_Inner.__init__() (pid=74105, ip=10.0.59.208, repr=TorchTrainer)", "", "", "ray-actor-creation-task-failed"},
		{"(DPEngineCoreActor pid=3551736) Exception raised in creation task: The actor died because of an error raised in its creation task, ray::DPEngineCoreActor.__init__() (pid=3551736, ip=10.0.2.109)", "", "", "ray-actor-creation-task-failed"},
		{"The actor died because of an error raised in its creation task, ray::RolloutWorker.__init__() (pid=3166, ip=10.0.2.109)\n  File \"/opt/venv/lib/python3.12/site-packages/vllm/worker/worker.py\", line 182, in init_device\n    torch.cuda.set_device(self.device)\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.20 GiB is free.", "", "", "cuda-out-of-memory"},
		{"[2021-09-14 10:11:20,565 I 2122527 2122927] actor_manager.cc:139: received notification on actor, state: DEAD, actor_id: 8091833e3bff438ee139916d01000000, ip address: 10.0.0.3, port: 45461, worker_id: 6515258a, raylet_id: dc116a1d, num_restarts: 0, has creation_task_exception=1", "", "", "ray-actor-died"},
		{"[2021-09-14 10:11:20,565 I 2122527 2122927] actor_manager.cc:139: received notification on actor, state: DEAD, actor_id: 8091833e3bff438ee139916d01000000, ip address: 10.0.0.3, port: 45461, worker_id: 6515258a, raylet_id: dc116a1d, num_restarts: 0, has creation_task_exception=0", "", "", ""},
		{"[2021-09-14 10:11:20,565 I 2122527 2122927] actor_manager.cc:139: received notification on actor, state: ALIVE, actor_id: 8091833e3bff438ee139916d01000000, ip address: 10.0.0.3, port: 45461, num_restarts: 0, has creation_task_exception=0", "", "", ""},
	},
}

// slurmStepWaits are srun's reports of a step waiting for resources an
// earlier step holds: the first notice is routine, 'still disabled' a
// step that keeps waiting.
var slurmStepWaits = vocabulary{
	name: "srun step creation waits",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "29: %s"},
	},
	terms: []vocabTerm{
		{"srun: Job 9479148 step creation still disabled, retrying (Requested nodes are busy)", "", "", "slurm-step-creation-disabled"},
		{"srun: Job 9479148 step creation still disabled, retrying (Requested node configuration is not available)", "", "", "slurm-step-creation-disabled"},
		{"srun: Job 9479148 step creation temporarily disabled, retrying (Requested nodes are busy)", "", "", ""},
		{"srun: Step created for StepId=9479148.3", "", "", ""},
	},
}

// variantExamples are the examples of the records the wording variants
// added.
var variantExamples = map[string]example{
	"slurm-step-creation-disabled": {
		match: []string{
			"srun: Job 9479148 step creation still disabled, retrying (Requested nodes are busy)",
			"53: srun: Job 9479148 step creation still disabled, retrying (Requested nodes are busy)",
		},
		miss: []string{"srun: Job 9479148 step creation temporarily disabled, retrying (Requested nodes are busy)"},
	},
	"ray-actor-creation-task-failed": {
		match: []string{
			"ray.exceptions.ActorDiedError: The actor died because of an error raised in its creation task, ray::RolloutWorker.__init__() (pid=3166, ip=10.0.2.109)",
			"(T2VSynthMochiModel pid=198) Exception raised in creation task: The actor died because of an error raised in its creation task, ray::T2VSynthMochiModel.__init__() (pid=198, ip=172.20.0.86)",
		},
		miss: []string{"ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task."},
	},
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
	"ray-actor-died": {match: []string{
		"[2021-09-14 10:11:20,565 I 2122527 2122927] actor_manager.cc:139: received notification on actor, state: DEAD, actor_id: 8091833e3bff438ee139916d01000000, ip address: 10.0.0.3, port: 45461, num_restarts: 0, has creation_task_exception=1",
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

// TestNCCLResultsBehindCallers checks NCCL's result strings (as
// ncclGetErrorString returns them, with and without the debug hint older
// releases lacked) behind ggml's CUDA error prefix and torch's NCCL error
// line.
func TestNCCLResultsBehindCallers(t *testing.T) {
	checkVocabularies(t, []vocabulary{ncclResultStrings})
}

// ncclResultStrings are ncclResult_t's texts.
var ncclResultStrings = vocabulary{
	name: "NCCL result strings behind callers",
	shapes: []vocabShape{
		{Field: fieldText, Format: "CUDA error: %s\n  current device: 1, in function ggml_backend_cuda_comm_allreduce_tensor at /app/ggml/src/ggml-cuda/ggml-cuda.cu:1237\n  ncclGroupEnd()"},
		{Field: fieldText, Format: "RuntimeError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3356, %s, NCCL version 2.26.2"},
	},
	terms: []vocabTerm{
		{"unhandled cuda error (run with NCCL_DEBUG=INFO for details)", "", "", "nccl-unhandled-cuda-error"},
		{"unhandled cuda error", "", "", "nccl-unhandled-cuda-error"},
		{"unhandled system error (run with NCCL_DEBUG=INFO for details)", "", "", "nccl-unhandled-system-error"},
		{"internal error - please report this issue to the NCCL developers", "", "", "nccl-internal-error"},
		{"invalid usage (run with NCCL_DEBUG=WARN for details)", "", "", "nccl-invalid-usage"},
		{"remote process exited or there was a network error", "", "", "nccl-remote-process-exited"},
	},
}

// TestReleaseWordings checks failures whose wording changed across the
// releases of their source: torch's CUDA out-of-memory report before and
// after 2.1 and on HIP and XPU, the c10d watchdog's collective timeout
// from 1.10 to 2.x, and a kernel fault as the CUDA runtime, the driver
// API and torch's accelerator error word it.
func TestReleaseWordings(t *testing.T) {
	checkVocabularies(t, []vocabulary{torchOOMReleases, c10dTimeoutReleases, illegalAddressWordings})
}

var torchOOMReleases = vocabulary{
	name: "torch CUDA OOM across releases",
	shapes: []vocabShape{
		{Field: fieldText, Format: rawTB("%s")},
		{Field: fieldText, Format: tb("%s")},
	},
	terms: []vocabTerm{
		{"RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total capacity; 14.56 GiB already allocated; 3.44 MiB free; 14.68 GiB reserved in total by PyTorch)", "", "", "cuda-out-of-memory"},
		{"torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 0; 79.15 GiB total capacity; 76.02 GiB already allocated; 1.02 GiB free; 77.50 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.", "", "", "cuda-out-of-memory"},
		{"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.20 GiB is free. Including non-PyTorch memory, this process has 77.89 GiB memory in use.", "", "", "cuda-out-of-memory"},
		{"torch.OutOfMemoryError: HIP out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 191.98 GiB of which 1.20 GiB is free.", "", "", "cuda-out-of-memory"},
	},
}

var c10dTimeoutReleases = vocabulary{
	name: "c10d watchdog timeout across releases",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
	},
	terms: []vocabTerm{
		{"[E ProcessGroupNCCL.cpp:566] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(OpType=BROADCAST, Timeout(ms)=1800000) ran for 1800439 milliseconds before timing out.", "", "", "nccl-watchdog-collective-timeout"},
		{"[E ProcessGroupNCCL.cpp:475] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800528 milliseconds before timing out.", "", "", "nccl-watchdog-collective-timeout"},
		{"[rank0]:[E1101 10:00:00.000000000 ProcessGroupNCCL.cpp:616] [PG ID 0 PG GUID 0(default_pg) Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600044 milliseconds before timing out.", "", "", "nccl-watchdog-collective-timeout"},
	},
}

var illegalAddressWordings = vocabulary{
	name: "CUDA illegal address by API",
	shapes: []vocabShape{
		{Field: fieldText, Format: rawTB("%s")},
	},
	terms: []vocabTerm{
		{"RuntimeError: CUDA error: an illegal memory access was encountered", "", "", "cuda-illegal-memory-access"},
		{"torch.AcceleratorError: CUDA error: an illegal memory access was encountered", "", "", "cuda-illegal-memory-access"},
		{"RuntimeError: CUDA driver error: an illegal memory access was encountered", "", "", "cuda-illegal-memory-access"},
		{"RuntimeError: Triton Error [CUDA]: an illegal memory access was encountered", "", "", "cuda-illegal-memory-access"},
		{"RuntimeError: CUDA_ERROR_ILLEGAL_ADDRESS", "", "", "cuda-illegal-memory-access"},
		{"RuntimeError: cudaErrorIllegalAddress: an illegal memory access was encountered", "", "", "cuda-illegal-memory-access"},
		{"RuntimeError: CUDA Error: an illegal memory access was encountered (700)", "", "", "cuda-illegal-memory-access"},
	},
}

// TestLibraryWordingGaps checks wordings of families the catalog reads in
// one form and missed in another: torch's CPU allocator refusing host
// memory (its older 'not enough memory' and newer 'can't allocate memory'
// texts), transformers' 'Can't load ...' for a configuration, model or
// processor as well as a tokenizer, and torch's lazy CUDA init finding no
// device after all.
func TestLibraryWordingGaps(t *testing.T) {
	checkVocabularies(t, []vocabulary{libraryWordingGaps})
}

var libraryWordingGaps = vocabulary{
	name: "library wording gaps",
	shapes: []vocabShape{
		{Field: fieldText, Format: rawTB("%s")},
		{Field: fieldText, Format: tb("%s")},
	},
	terms: []vocabTerm{
		{"RuntimeError: [enforce fail at alloc_cpu.cpp:83] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate 4294967296 bytes. Error code 12 (Cannot allocate memory)", "", "", "host-cannot-allocate-memory"},
		{"RuntimeError: [enforce fail at CPUAllocator.cpp:64] . DefaultCPUAllocator: can't allocate memory: you tried to allocate 1073741824 bytes. Error code 12 (Cannot allocate memory)", "", "", "host-cannot-allocate-memory"},
		{"RuntimeError: DefaultCPUAllocator: not enough memory: you tried to allocate 4294967296 bytes.", "", "", "host-cannot-allocate-memory"},
		{"OSError: Can't load the configuration of '/models/qwen'. If you were trying to load it from 'https://huggingface.co/models', make sure you don't have a local directory with the same name. Otherwise, make sure '/models/qwen' is the correct path to a directory containing a config.json file", "", "", "hf-config-file-missing"},
		{"OSError: Can't load the model for 'org/model'. If you were trying to load it from 'https://huggingface.co/models', make sure you don't have a local directory with the same name.", "", "", "hf-config-file-missing"},
		{"OSError: Can't load image processor for 'Qwen/Qwen2-VL-7B-Instruct'. If you were trying to load it from 'https://huggingface.co/models', make sure you don't have a local directory with the same name.", "", "", "hf-config-file-missing"},
		// torch 1.x's NCCL error text: the result's number and its string.
		{"RuntimeError: NCCL Error 3: internal error", "", "", "nccl-internal-error"},
		{"RuntimeError: NCCL Error 2: unhandled system error", "", "", "nccl-unhandled-system-error"},
		{"RuntimeError: NCCL Error 5: invalid usage", "", "", "nccl-invalid-usage"},
		// torch's TCPStore before its socket errors named the errno.
		{"RuntimeError: Address already in use", "", "", "address-already-in-use"},
		{"torch.distributed.DistNetworkError: Address already in use", "", "", "address-already-in-use"},
		{"RuntimeError: torch._C._cuda_getDeviceCount() > 0 INTERNAL ASSERT FAILED at \"../torch/csrc/cuda/Module.cpp\":187, please report a bug to PyTorch.", "", "", "no-cuda-gpus-available"},
	},
}

// TestEngineReleaseWordings checks engines' failures in their other
// releases' wordings, read as a server configured for that engine (the
// record's own) reads them: vLLM's
// V0 engine process failing to start beside V1's engine core, and
// llama.cpp's context init failing on its prompt-processing compute
// buffers as well as its KV cache.
func TestEngineReleaseWordings(t *testing.T) {
	m := compileCatalog(t)
	for _, tc := range []struct{ text, want string }{
		{rawTB("RuntimeError: Engine process failed to start. See stack trace for the root cause."), "vllm-engine-core-initialization-failed"},
		{rawTB("RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {'EngineCore_DP0': 1}"), "vllm-engine-core-initialization-failed"},
		{"llama_init_from_model: failed to initialize the context: failed to allocate compute pp buffers", "llamacpp-failed-to-allocate-buffer"},
		{"llama_init_from_model: failed to initialize the context: failed to allocate buffer for kv cache", "llamacpp-failed-to-allocate-buffer"},
	} {
		r := recordBySlug(t, tc.want)
		if ok, leader := leadsExample(m, r, tc.text); !ok {
			t.Errorf("%s leads, want %s\n%s", leader, tc.want, tc.text)
		}
	}
}

// recordBySlug returns the embedded catalog's record of slug.
func recordBySlug(t *testing.T, slug string) *patterns.Record {
	t.Helper()
	recs, _ := patterns.Default()
	for i := range recs {
		if recs[i].Slug == slug {
			return &recs[i]
		}
	}
	t.Fatalf("no record %s", slug)
	return nil
}
