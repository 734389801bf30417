package catalog_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/engine"
	"github.com/logmatch/logmatch/patterns"
)

// vllmErr writes msg the way vLLM's logger writes one line of an ERROR
// record of the engine core process.
func vllmErr(msg string) string {
	return "(EngineCore_DP0 pid=17374) ERROR 09-28 15:47:24 [core.py:718] " + msg
}

// vllmTB is a traceback vLLM logs with a record: every line repeats the
// record's header.
func vllmTB(first, exc string) string {
	var b strings.Builder
	for _, l := range []string{
		first,
		"Traceback (most recent call last):",
		`  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 705, in run_engine_core`,
		"    engine_core = EngineCoreProc(*args, **kwargs)",
		exc,
	} {
		b.WriteString(vllmErr(l) + "\n")
	}
	return b.String()
}

// tgiLauncher writes msg the way TGI's launcher logs it.
func tgiLauncher(level, msg string) string {
	return "2024-03-01T10:00:00.000000Z " + level + " text_generation_launcher: " + msg
}

// engineExamples lists, for every record of engines.jsonl, lines it must
// match and near-misses it must not. The messages follow the engines'
// sources (ENGINE-LOGS.md); the values in them are made up.
var engineExamples = map[string]example{
	"vllm-enginecore-failed-to-start": {
		match: []string{
			vllmTB("EngineCore failed to start.", "ValueError: No available memory for the cache blocks."),
			"ERROR 05-10 16:00:15 [core.py:396] EngineCore failed to start.",
		},
		miss: []string{"INFO 05-10 16:00:15 [core.py:58] Initializing a V1 LLM engine (v0.9.0) with config: model='m'"},
	},
	"vllm-enginecore-hit-exception": {
		match: []string{
			vllmTB("EngineCore hit an exception.", "RuntimeError: CUDA error: an illegal memory access was encountered"),
			"ERROR 05-10 16:00:15 [core.py:343] EngineCore encountered a fatal error.",
		},
		miss: []string{"INFO 05-10 16:00:15 [core.py:343] EngineCore loop started; it will report an exception if one is hit"},
	},
	"vllm-worker-exception": {
		match: []string{
			"(VllmWorker rank=0 pid=2445155) ERROR 05-10 16:00:15 [multiproc_executor.py:470] WorkerProc hit an exception.",
			"(VllmWorkerProcess pid=123) ERROR 11-05 09:12:01 multiproc_worker_utils.py:226] Exception in worker VllmWorkerProcess while processing method init_device.",
			"ERROR 05-10 16:00:15 [multiproc_executor.py:470] WorkerProc failed to start.",
			// The engine core's exception when a worker dies while it
			// starts (gpustack/gpustack#2723, vllm-project/vllm#28910).
			"ERROR 08-14 13:42:42 [core.py:632] Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.",
			"(EngineCore_DP0 pid=33630) ERROR 11-18 14:16:34 [core.py:708] Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.",
		},
		miss: []string{"(VllmWorker rank=0 pid=2445155) INFO 05-10 16:00:15 [multiproc_executor.py:470] WorkerProc started: worker ready"},
	},
	"vllm-engine-core-initialization-failed": {
		match: []string{
			"(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
			"Traceback (most recent call last):\n  File \"/usr/local/bin/vllm\", line 8, in <module>\n    sys.exit(main())\nRuntimeError: Engine core initialization failed. See root cause above.",
		},
		miss: []string{"INFO 05-10 16:00:15 [core.py:1] Engine core initialization took 20.3 seconds"},
	},
	"vllm-engine-dead": {
		match: []string{
			"(APIServer pid=1) ERROR 10-20 03:20:50 [async_llm.py:485] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.",
			"ERROR 10-20 03:20:50 [async_llm.py:420] AsyncLLM output_handler failed.",
			"CRITICAL 01-14 08:41:02 [launcher.py:116] MQLLMEngine is already dead, terminating server process",
			"vllm-1  | CRITICAL 01-14 08:41:02 launcher.py:99] MQLLMEngine is already dead, terminating server process",
		},
		miss: []string{
			"INFO 10-20 03:20:50 [async_llm.py:420] output_handler started; engine dead-letter queue empty",
			"DEBUG 01-14 08:41:02 [client.py:170] Waiting for output from MQLLMEngine.",
		},
	},
	"tgi-shard-failed-to-start": {
		match: []string{
			tgiLauncher("ERROR", "Shard 0 failed to start"),
			"Error: ShardCannotStart",
			tgiLauncher("ERROR", "Shard status channel disconnected") + "\nError: ShardDisconnected",
		},
		miss: []string{tgiLauncher(" INFO", "Shard 0 started to load weights"), tgiLauncher(" INFO", "Starting shard rank=0")},
	},
	"failure-signal-received": {
		match: []string{
			"[2025-05-19 13:48:05,850 E 124799 140771] logging.cc:361: *** SIGABRT received at time=1747633685 on cpu 74 ***",
			"*** SIGSEGV received at time=1747633685 on cpu 3 ***",
		},
		miss: []string{"Received SIGTERM, shutting down at time=1747633685"},
	},
}

// engineRoles are the roles engines.jsonl may give: it holds the
// wrappers and consequences of the engines' logs, never a cause.
var engineRoles = []patterns.Role{patterns.RoleWrapper, patterns.RoleConsequence}

// TestEngineRecords checks every record of engines.jsonl: the keys the
// curated catalog's records carry, a wrapper or consequence role, known
// engine names, and its examples through the real assembler and matcher.
func TestEngineRecords(t *testing.T) {
	recs := embedded(t, "engines.jsonl")
	data, err := os.ReadFile("engines.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != len(recs) {
		t.Fatalf("%d lines but %d records", len(lines), len(recs))
	}
	ids := map[string]bool{}
	for _, r := range curated(t) {
		ids[r.ID] = true
	}
	m := compileCatalog(t)
	seen := map[string]bool{}
	for i, r := range recs {
		t.Run(r.Slug, func(t *testing.T) {
			var raw map[string]json.RawMessage
			if err := json.Unmarshal([]byte(lines[i]), &raw); err != nil {
				t.Fatal(err)
			}
			for _, k := range requiredKeys {
				if _, ok := raw[k]; !ok {
					t.Errorf("key %q missing", k)
				}
			}
			if !idRE.MatchString(r.ID) || ids[r.ID] {
				t.Errorf("id %q is not 16 hex chars or is used twice", r.ID)
			}
			ids[r.ID] = true
			if !slices.Contains(engineRoles, r.Role) {
				t.Errorf("role %q, want wrapper or consequence", r.Role)
			}
			for _, e := range r.Engines {
				if !engine.Known(e) {
					t.Errorf("engine %q is not known", e)
				}
			}
			if len(r.Solutions) < 2 || len(r.PreventionTips) == 0 || len(r.Tags) == 0 || strings.TrimSpace(r.Documentation) == "" {
				t.Errorf("solutions %d, prevention tips %d, tags %d, documentation %q", len(r.Solutions), len(r.PreventionTips), len(r.Tags), r.Documentation)
			}
			if !slices.Contains(handlingStrategies, r.HandlingStrategy) {
				t.Errorf("handlingStrategy %q not in %v", r.HandlingStrategy, handlingStrategies)
			}
			for _, s := range append(append([]string(nil), r.Solutions...), r.PreventionTips...) {
				if strings.Contains(strings.ToLower(s), "sglang") || strings.Contains(s, "--mem-fraction-static") {
					t.Errorf("advice names sglang: %q", s)
				}
			}
			ex, ok := engineExamples[r.Slug]
			if !ok {
				t.Fatalf("no examples for %s", r.Slug)
			}
			seen[r.Slug] = true
			re := compile(t, r)
			for _, text := range ex.match {
				if !hasRecord(hitsOf(t, m, text), r.ID) {
					t.Errorf("matcher does not report %s for the entries of\n%s", r.Slug, text)
				}
			}
			for _, text := range ex.miss {
				if matches(t, re, text) || hasRecord(hitsOf(t, m, text), r.ID) {
					t.Errorf("pattern %q matches the near-miss\n%s", r.MessagePattern, text)
				}
			}
		})
	}
	for slug := range engineExamples {
		if !seen[slug] {
			t.Errorf("examples for %s, which is not in engines.jsonl", slug)
		}
	}
}
