package incident

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
)

func TestTriageHeadlineAndSteps(t *testing.T) {
	tests := []struct {
		name      string
		tr        analysis.Triage
		rank      string
		fragment  bool
		headline  string
		firstStep string // a prefix of the first solution; "" for none
		also      string // a piece of a later solution; "" for none
	}{
		{
			name:      "the scheduler of a rank died while loading weights",
			tr:        analysis.Triage{Process: "scheduler", Phase: "loading weights", Family: analysis.FamilyWeights, SGLang: true},
			rank:      "TP1",
			headline:  "scheduler TP1 died while loading weights: KeyError: 'x'",
			firstStep: "It failed while loading the checkpoint",
		},
		{
			name:      "a missing launcher variable: its variable, then how to start the job, before the component's and the phase's steps",
			tr:        analysis.Triage{Phase: "initialising the distributed backend", Family: analysis.FamilyEnv, Component: "speculative decoding", Subject: "RANK"},
			headline:  "failed while initialising the distributed backend in speculative decoding: KeyError: 'x'",
			firstStep: "Set RANK in the environment",
			also:      "start the program with torchrun",
		},
		{
			name:      "DeepEP and NVSHMEM, named in the headline",
			tr:        analysis.Triage{Component: analysis.ComponentEP, SGLang: true},
			headline:  "DeepEP/NVSHMEM failed: KeyError: 'x'",
			firstStep: "DeepEP's NVSHMEM transport failed",
			also:      "--node-rank",
		},
		{
			name:      "the component's step comes first",
			tr:        analysis.Triage{Process: "scheduler", Phase: "serving requests", Component: "grammar backend", Family: analysis.FamilyImport, SGLang: true},
			headline:  "scheduler died while serving requests in the grammar backend: KeyError: 'x'",
			firstStep: "A structured-output grammar failed",
		},
		{
			name:      "speculative decoding's CUDA graphs are the draft model's",
			tr:        analysis.Triage{Process: "scheduler", Phase: "capturing CUDA graphs", Component: "speculative decoding", SGLang: true},
			rank:      "TP4",
			headline:  "scheduler TP4 died while capturing the draft model's CUDA graphs: KeyError: 'x'",
			firstStep: "Speculative decoding failed",
			also:      "It failed while capturing CUDA graphs",
		},
		{
			name:      "and so are its weights, with no process named",
			tr:        analysis.Triage{Phase: "loading weights", Component: "speculative decoding", SGLang: true},
			headline:  "failed while loading the draft model's weights: KeyError: 'x'",
			firstStep: "Speculative decoding failed",
			also:      "It failed while loading the checkpoint",
		},
		{
			name:      "a component alone",
			tr:        analysis.Triage{Component: "speculative decoding", SGLang: true},
			headline:  "speculative decoding failed: KeyError: 'x'",
			firstStep: "Speculative decoding failed",
		},
		{
			name:      "LoRA adapters on sglang: the pool's options",
			tr:        analysis.Triage{Process: "scheduler", Phase: "serving requests", Component: analysis.ComponentLoRA, SGLang: true},
			headline:  "scheduler died while serving requests in the LoRA adapters: KeyError: 'x'",
			firstStep: "A LoRA adapter failed",
			also:      "--max-lora-rank",
		},
		{
			name:      "LoRA adapters on another engine: no sglang flag",
			tr:        analysis.Triage{Component: analysis.ComponentLoRA},
			headline:  "the LoRA adapters failed: KeyError: 'x'",
			firstStep: "A LoRA adapter failed",
			also:      "start once without LoRA",
		},
		{
			name:      "a fragment says its traceback lost its exception line",
			tr:        analysis.Triage{Process: "scheduler", Phase: "capturing CUDA graphs", SGLang: true},
			rank:      "TP0",
			fragment:  true,
			headline:  "scheduler TP0 died while capturing CUDA graphs (its traceback lost its exception line): KeyError: 'x'",
			firstStep: "It failed while capturing CUDA graphs",
		},
		{
			name:      "a process alone: its own step",
			tr:        analysis.Triage{Process: "scheduler", SGLang: true},
			headline:  "scheduler died: KeyError: 'x'",
			firstStep: "This rank's scheduler died",
		},
		{
			// Another engine's log, or one that does not say: the
			// engine-neutral step of its family, never sglang's.
			name:      "memory on another engine: the neutral step only",
			tr:        analysis.Triage{Process: "scheduler", Phase: "loading weights", Family: analysis.FamilyMemory},
			headline:  "scheduler died while loading weights: KeyError: 'x'",
			firstStep: "It failed while loading the checkpoint: check that the model directory",
		},
		{
			name:      "a Ray driver that re-raised a remote failure: its own step, on any engine",
			tr:        analysis.Triage{Process: "Ray driver"},
			fragment:  true,
			headline:  "Ray driver failed (its traceback lost its exception line): KeyError: 'x'",
			firstStep: "A Ray task or actor failed and ray.get re-raised",
		},
		{
			name:      "the Hub with a repo id: the id first, then the Hub's steps in sglang's words",
			tr:        analysis.Triage{Family: analysis.FamilyHub, Subject: "org/m:branch", SGLang: true},
			headline:  "KeyError: 'x'",
			firstStep: "Check the model id or path 'org/m:branch' the server was given",
			also:      "--revision",
		},
		{
			name:      "the Hub on another engine: no sglang flag",
			tr:        analysis.Triage{Family: analysis.FamilyHub, Subject: "org/m"},
			headline:  "KeyError: 'x'",
			firstStep: "Check the model id or path 'org/m'",
			also:      "the revision option",
		},
		{
			name:      "a missing path",
			tr:        analysis.Triage{Family: analysis.FamilyFile, Subject: "/models/x/config.json"},
			headline:  "KeyError: 'x'",
			firstStep: "Check that '/models/x/config.json' exists where the server runs",
		},
		{
			name:      "a module that does not import: its top-level package",
			tr:        analysis.Triage{Family: analysis.FamilyImport, Subject: "sglang.srt.utils", SGLang: true},
			headline:  "KeyError: 'x'",
			firstStep: "Check the installed sglang (pip show sglang): 'sglang.srt.utils'",
		},
		{
			name:      "a module another package imports: pair the two",
			tr:        analysis.Triage{Family: analysis.FamilyImport, Subject: "sglang.srt.utils", Importer: "fastchat/serve/sglang_worker.py", SGLang: true},
			headline:  "KeyError: 'x'",
			firstStep: "The code at 'fastchat/serve/sglang_worker.py' imports from 'sglang.srt.utils': install the sglang release that code was written for",
		},
		{
			name:      "a shared library that does not load",
			tr:        analysis.Triage{Family: analysis.FamilyImport, Subject: "libnvrtc.so.12"},
			headline:  "KeyError: 'x'",
			firstStep: "Find which package ships 'libnvrtc.so.12'",
		},
		{
			name:      "a flag a value check rejected, on another engine",
			tr:        analysis.Triage{Family: analysis.FamilyValue, Subject: "--max-model-len"},
			headline:  "KeyError: 'x'",
			firstStep: "The message names --max-model-len: set it to a value",
			also:      "A value check failed",
		},
		{
			name:      "an unsupported combination in the attention backend: the component first",
			tr:        analysis.Triage{Family: analysis.FamilySupport, Component: "attention backend", SGLang: true},
			headline:  "the attention backend failed: KeyError: 'x'",
			firstStep: "An attention kernel failed",
			also:      "--attention-backend, --sampling-backend",
		},
		{
			name:      "a parse failure",
			tr:        analysis.Triage{Family: analysis.FamilyParse},
			headline:  "KeyError: 'x'",
			firstStep: "A JSON, YAML or TOML text could not be parsed",
		},
		{
			name:      "a CANN error",
			tr:        analysis.Triage{Family: analysis.FamilyNPU},
			headline:  "KeyError: 'x'",
			firstStep: "An Ascend NPU operator or the CANN runtime failed",
		},
		{
			name:      "a driver or device the process cannot use",
			tr:        analysis.Triage{Family: analysis.FamilyDriver, Process: "scheduler", Phase: "starting"},
			headline:  "scheduler died while starting: KeyError: 'x'",
			firstStep: "It failed while starting",
			also:      "The CUDA driver or the GPU the process asked for is not usable",
		},
		{
			name:      "a tokenizer check in sglang's log names its parsers' flags",
			tr:        analysis.Triage{Family: analysis.FamilyTokenizer, SGLang: true},
			headline:  "KeyError: 'x'",
			firstStep: "The tokenizer rejected a value",
			also:      "--reasoning-parser",
		},
		{
			name:      "the custom all-reduce in sglang's log: its flag",
			tr:        analysis.Triage{Component: "custom all-reduce", Family: analysis.FamilyGPU, SGLang: true},
			headline:  "the custom all-reduce failed: KeyError: 'x'",
			firstStep: "The custom all-reduce kernel failed: start with --disable-custom-all-reduce",
		},
		{
			name:      "the custom all-reduce on another engine",
			tr:        analysis.Triage{Component: "custom all-reduce"},
			headline:  "the custom all-reduce failed: KeyError: 'x'",
			firstStep: "The custom all-reduce kernel failed: turn it off to confirm",
		},
		{
			name:      "a hang while serving: how to read a stuck thread before the phase's step",
			tr:        analysis.Triage{Process: "scheduler", Phase: "serving requests", Family: analysis.FamilyHang, SGLang: true},
			headline:  "scheduler died while serving requests: KeyError: 'x'",
			firstStep: "The process stopped making progress",
			also:      "It stopped while running a batch",
		},
		{
			name:      "a hang on another engine",
			tr:        analysis.Triage{Phase: "compiling kernels", Family: analysis.FamilyHang},
			headline:  "failed while compiling kernels: KeyError: 'x'",
			firstStep: "The process stopped making progress",
			also:      "It stopped while compiling a kernel just in time",
		},
		{
			name:      "a program that embeds sglang's Runtime: the launcher died while starting",
			tr:        analysis.Triage{Process: "launcher", Phase: "starting", SGLang: true},
			headline:  "launcher died while starting: KeyError: 'x'",
			firstStep: "It failed while starting",
			also:      "the process it waited for",
		},
		{
			name:      "an HTTP client whose call failed, nothing else known: the client's step",
			tr:        analysis.Triage{Process: analysis.ProcessClient},
			headline:  "HTTP client failed: KeyError: 'x'",
			firstStep: "A client's call to a server failed",
		},
		{
			name:      "a connection the server dropped",
			tr:        analysis.Triage{Family: analysis.FamilyDropped},
			headline:  "KeyError: 'x'",
			firstStep: "The other end closed the connection",
		},
		{
			name:      "a pydantic schema a peer's message does not fit",
			tr:        analysis.Triage{Family: analysis.FamilySchema},
			headline:  "KeyError: 'x'",
			firstStep: "A message did not fit the schema",
			also:      "same version",
		},
		{
			name:      "a chat template that raised, on sglang: its option",
			tr:        analysis.Triage{Family: analysis.FamilyTemplate, SGLang: true},
			headline:  "KeyError: 'x'",
			firstStep: "The model's chat template raised",
			also:      "--chat-template",
		},
		{
			name:      "a launch script",
			tr:        analysis.Triage{Family: analysis.FamilyScript},
			headline:  "KeyError: 'x'",
			firstStep: "The launch script failed",
			also:      "has no 'source'",
		},
		{
			name:      "a build failure",
			tr:        analysis.Triage{Family: analysis.FamilyBuild},
			headline:  "KeyError: 'x'",
			firstStep: "A compiler or linker failed",
			also:      "missing #include",
		},
		{
			name:      "a code bug in the caller's own code",
			tr:        analysis.Triage{Family: analysis.FamilyCallerBug},
			headline:  "KeyError: 'x'",
			firstStep: "The exception was raised in the program's own code",
		},
		{
			name:      "a training framework driving sglang",
			tr:        analysis.Triage{Component: analysis.ComponentTraining, Family: analysis.FamilyValue, SGLang: true},
			headline:  "the training framework failed: KeyError: 'x'",
			firstStep: "A training framework that drives sglang",
			also:      "A value check failed",
		},
		{
			name:      "a tool-call parser on another engine",
			tr:        analysis.Triage{Component: analysis.ComponentToolParser},
			headline:  "the tool-call parser failed: KeyError: 'x'",
			firstStep: "The tool-call parser could not read",
		},
		{
			name:      "the KV cache connector with a code bug",
			tr:        analysis.Triage{Component: analysis.ComponentKVConnector, Family: analysis.FamilyBug},
			headline:  "the KV cache connector failed: KeyError: 'x'",
			firstStep: "The KV cache connector",
			also:      "The code met a state it did not expect",
		},
		{
			name:      "the multimodal path while serving",
			tr:        analysis.Triage{Process: "scheduler", Phase: "serving requests", Component: analysis.ComponentMultimodal, SGLang: true},
			headline:  "scheduler died while serving requests in the multimodal path: KeyError: 'x'",
			firstStep: "The multimodal path failed",
			also:      "It failed while running a batch",
		},
		{
			name:     "nothing known: the line as printed, no step",
			headline: "KeyError: 'x'",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := triageHeadline(tt.tr, tt.rank, "KeyError: 'x'", tt.fragment); got != tt.headline {
				t.Errorf("headline %q, want %q", got, tt.headline)
			}
			generic := []string{"Search the server's known issues"}
			sol := withTriage(tt.tr, generic)
			switch {
			case tt.firstStep == "" && len(sol) != 1:
				t.Errorf("solutions %q, want the generic ones alone", sol)
			case tt.firstStep != "" && (len(sol) < 2 || !strings.HasPrefix(sol[0], tt.firstStep) || sol[len(sol)-1] != generic[0]):
				t.Errorf("solutions %q, want %q... first and the generic ones last", sol, tt.firstStep)
			}
			if tt.also != "" && !strings.Contains(strings.Join(sol, "\n"), tt.also) {
				t.Errorf("solutions %q, want one that holds %q", sol, tt.also)
			}
			if !tt.tr.SGLang {
				for _, s := range sol {
					// The subject is the log's own text: a flag it names
					// is that engine's.
					s = strings.ReplaceAll(s, tt.tr.Subject, "")
					if strings.Contains(s, "--") || strings.Contains(strings.ToLower(s), "sglang") {
						t.Errorf("a step for a log that is not sglang's names sglang or its flags: %q", s)
					}
				}
			}
		})
	}
}

// TestCutTracebackNamesTheStatementOfItsLastFrame: a traceback cut before
// its exception line is headed by its last frame and the statement that
// frame was running, which is what failed.
func TestCutTracebackNamesTheStatementOfItsLastFrame(t *testing.T) {
	text := "Traceback (most recent call last):\n" +
		"  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 2001, in run_scheduler_process\n" +
		"    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)\n" +
		"  File \"/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py\", line 215, in initialize\n" +
		"    self.init_cuda_graphs()\n" +
		"    ^^^^^^^^^^^^^^^^^^^^^^^\n"
	got := fragmentOf(t, text)
	// The traceback's header heads the line (the phase the call enters
	// is the triage's, in the headline's words).
	want := "Traceback (most recent call last): (last frame: initialize in /sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py:215, running self.init_cuda_graphs())"
	if got != want {
		t.Errorf("fragmentLine =\n%q\nwant\n%q", got, want)
	}
}

// fragmentOf is the fragment line of the one entry text makes, diagnosed
// by a matcher of no record.
func fragmentOf(t *testing.T, text string) string {
	t.Helper()
	a := entry.NewAssembler(entry.Options{})
	var es []entry.Entry
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		es = append(es, a.Push(entry.Line{Text: l, Offset: int64(i)})...)
	}
	es = append(es, a.Flush()...)
	if len(es) != 1 {
		t.Fatalf("%d entries, want 1", len(es))
	}
	m, err := matcher.Compile(nil, matcher.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, ok := analysis.New(m).Analyze(&es[0])
	if !ok || !d.Fragment {
		t.Fatalf("diagnosis %+v, want a fragment", d)
	}
	return fragmentLine(&es[0], &d)
}

// TestCutTracebackNamesTheFrameOfItsOwnCode: past a library's dispatch
// frames (ray.get's machinery), the fragment line names the program's last
// frame and how many library frames followed it.
func TestCutTracebackNamesTheFrameOfItsOwnCode(t *testing.T) {
	got := fragmentOf(t, "Traceback (most recent call last):\n"+
		"  File \"/app/train.py\", line 37, in train\n"+
		"    ray.get(actor.init_connections(manager))\n"+
		"  File \"/venv/ray/_private/client_mode_hook.py\", line 104, in wrapper\n"+
		"    return func(*args, **kwargs)\n"+
		"  File \"/venv/ray/_private/worker.py\", line 958, in get_objects\n"+
		"    raise value.as_instanceof_cause()\n")
	want := "Traceback (most recent call last): (last frame: train in /app/train.py:37, running ray.get(actor.init_connections(manager)); then 2 library frames)"
	if got != want {
		t.Errorf("fragmentLine =\n%q\nwant\n%q", got, want)
	}
}

// TestALabelOverACutTracebackGivesWayToItsCall: a label a person put over
// a pasted traceback ("error msg:", "#### Error") is not the failure's
// line; the call the traceback was cut in is.
func TestALabelOverACutTracebackGivesWayToItsCall(t *testing.T) {
	got := fragmentOf(t, "error msg:\n"+
		"Traceback (most recent call last):\n"+
		"  File \"/sgl/python/sglang/srt/model_executor/model_runner.py\", line 166, in __init__\n"+
		"    self.initialize(min_per_gpu_memory)\n"+
		"  File \"/sgl/python/sglang/srt/model_executor/model_runner.py\", line 207, in initialize\n")
	if want := "self.initialize(min_per_gpu_memory) (last frame: initialize in /sgl/python/sglang/srt/model_executor/model_runner.py:207)"; got != want {
		t.Errorf("fragmentLine =\n%q\nwant\n%q", got, want)
	}
	labels := map[string]bool{
		"error msg:":                          true,
		"#### Error":                          true,
		"## Error log":                        true,
		"Traceback (most recent call last):":  false,
		"Scheduler hit an exception:":         false,
		"the server failed to start because:": false,
		"#include <x>":                        false,
	}
	for s, want := range labels {
		if got := labelLine(s); got != want {
			t.Errorf("labelLine(%q) = %v, want %v", s, got, want)
		}
	}
}
