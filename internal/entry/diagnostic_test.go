package entry

import (
	"strings"
	"testing"
	"time"
)

// TestParseDiagnosticLine reads the Unix convention "program: level:
// message" in the wordings of several programs: Slurm's daemons and
// clients, llama.cpp's functions, argparse, the dynamic loader, docker's
// client, PostgreSQL's client, nvidia-container-cli and GNU make; and
// leaves alone what only looks like it.
func TestParseDiagnosticLine(t *testing.T) {
	for _, tc := range []struct {
		name, line, level string
	}{
		// Slurm (slurmstepd, srun, sbatch).
		{"slurm task out of memory", "srun: error: gpu-03: task 1: Out Of Memory", LevelError},
		{"slurm submission", "sbatch: error: Batch job submission failed: Requested node configuration is not available", LevelError},
		// llama.cpp's "__func__: error: ..." and "error <doing>: ...".
		{"llama.cpp function", "llama_init_from_gpt_params: error: failed to load model 'models/7B/x.gguf'", LevelError},
		{"llama.cpp main", "main: error: unable to load model", LevelError},
		{"llama.cpp error phrase", "llama_model_load: error loading model: missing tensor 'blk.0.attn_q.weight'", LevelError},
		// argparse's usage error, under the script's name.
		{"argparse", "launch_server.py: error: argument --tp-size: invalid int value: 'two'", LevelError},
		// The dynamic loader, under the program it could not start.
		{"dynamic loader", "python3: error while loading shared libraries: libcudart.so.12: cannot open shared object file: No such file or directory", LevelError},
		{"dynamic loader path", "/usr/local/bin/llama-server: error while loading shared libraries: libggml.so: cannot open shared object file", LevelError},
		// docker's client relaying the daemon.
		{"docker daemon", `docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].`, LevelError},
		// PostgreSQL's client, old and new.
		{"psql fatal", "psql: FATAL:  password authentication failed for user \"app\"", LevelFatal},
		{"psql error", `psql: error: connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" failed: No such file or directory`, LevelError},
		// A kind of error named before the word.
		{"container cli", "nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown.", LevelError},
		// GNU make.
		{"make target", "make: *** [Makefile:12: build] Error 2", LevelError},
		{"make sub level", "make[2]: *** [CMakeFiles/ggml.dir/build.make:76: ggml.o] Error 1", LevelError},
		{"make stop", "make: *** No rule to make target 'install'.  Stop.", LevelError},
		// curl's exit code in parentheses.
		{"curl", "curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused", LevelError},
		{"curl timeout", "curl: (28) Operation timed out after 5001 milliseconds with 0 bytes received", LevelError},
		{"fatal word", "git-lfs: fatal: object not found", LevelFatal},
		{"critical word", "supervisord: CRITICAL: child process exited", LevelCritical},

		// Not the convention.
		{"warning", "launch_server.py: warning: flag --foo is deprecated", ""},
		// Slurm's banners of a job's or step's end: states, which records
		// read when the reason is a failure.
		{"slurm step cancelled", "slurmstepd: error: *** STEP 12.0 ON gpu-07 CANCELLED AT 2024-05-01T10:00:00 ***", ""},
		{"slurm job cancelled", "slurmstepd: error: *** JOB 4242 ON gpu-07 CANCELLED AT 2024-05-01T10:00:00 DUE TO TIME LIMIT ***", ""},
		{"srun info", "srun: job 9479148 queued and waiting for resources", ""},
		{"llama.cpp info", "llama_model_loader: loaded meta data with 33 key-value pairs and 291 tensors", ""},
		{"llama.cpp build", "main: build = 964 (f3c3b4b)", ""},
		{"a figure", "eval: error rate: 0.05", ""},
		{"a count", "summary: error count: 3", ""},
		{"exception line", "RuntimeError: error: something", ""},
		{"make waiting", "make: *** Waiting for unfinished jobs....", ""},
		{"no program", "error: something", ""},
		{"a sentence's verb", "errored: rpc error: code = Unknown desc = failed to exec in container", ""},
		{"a sentence's verb again", "failed: connection error: reset by peer", ""},
		{"digits first", "2024-01-01: error: x", ""},
		{"space in the field", "my prog: error: x", ""},
		{"level as program", "note: error: x", ""},
		{"nothing after", "srun: error: ", ""},
		{"no error", "check: non error: fine", ""},
		{"upper-case field", "HTTP: error: x", ""},
		{"a count in parentheses", "results: (3) widgets found", ""},
		{"zero code", "curl: (0) nothing", ""},
		{"parenthesised word", "curl: (http) x", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lvl, ok := parseDiagnosticLine(tc.line)
			if ok != (tc.level != "") || lvl != tc.level && ok {
				t.Errorf("parseDiagnosticLine(%q) = %q, %v; want %q", tc.line, lvl, ok, tc.level)
			}
		})
	}
}

// TestDiagnosticStartsAnEntry: a diagnostic line after a record of another
// writer is an entry of its own, not the record's continuation, and a
// label a launcher puts in front of it (srun --label's "29: ") is read off.
func TestDiagnosticStartsAnEntry(t *testing.T) {
	got := assemble(t, Options{}, "[2025-01-01 10:00:00 TP0] Load weight end. type=LlamaForCausalLM\n"+
		"slurmstepd: error: Detected 1 oom-kill event(s) in step 12.0 cgroup.\n")
	if len(got) != 2 {
		t.Fatalf("got %d entries, want 2: %+v", len(got), got)
	}
	if e := got[1]; e.Native != NativeDiagnostic || e.Level != LevelError || e.Message != "slurmstepd: error: Detected 1 oom-kill event(s) in step 12.0 cgroup." {
		t.Errorf("diagnostic entry = native %q level %q message %q", e.Native, e.Level, e.Message)
	}
	if n := failureBehindPrefix("29: srun: error: gpu-03: task 1: Out Of Memory", time.Time{}, time.UTC); n != len("29: ") {
		t.Errorf("failureBehindPrefix behind a task label = %d, want %d", n, len("29: "))
	}
}

// TestFailureSummary reads the failure lines without a level: a report's
// "× " mark (pip, uv, a Rust tool behind "Error: "), a status at the end of
// a failure sentence (a store's set-up, Ray's worker exit detail, Python's
// subprocess, uv's build backend), and a rejection quoting an object's
// repr (sglang's dispatchers, a class repr).
func TestFailureSummary(t *testing.T) {
	for line, want := range map[string]bool{
		"× Building wheel for widget-lib (pyproject.toml) did not run successfully.":       true,
		"  × No solution found when resolving dependencies:":                               true,
		"Error:   × error sending request to the runtime emulator":                         true,
		"Failed to setup Mooncake store, error code: -1":                                   true,
		"Worker exit detail: Worker exits unexpectedly. Worker exits with an exit code 1.": true,
		"Command '['nvcc', '-V']' returned non-zero exit status 2.":                        true,
		"╰─▶ Call to `hatchling.build.build_editable` failed (exit status: 1)":             true,
		"Invalid object: UpdateWeightReqInput(model_path='/m', load_format='auto')":        true,
		"Unknown request type: <class 'x.io.Req'>":                                         true,
		"Unexpected message: BatchEmbeddingOut(rids=['a', 'b'],":                           true,
		"Unsupported request: GenerateReqInput(text='a long prompt that":                   true,

		"│ exit code: 1":                               false,
		"exited with code 1":                           false,
		"Process finished, exit code: 0":               false,
		"Server stopped by signal, exit code: 143":     false,
		"Decode batch. #running-req: 1, #queue-req: 0": false,
		"Invalid value for --x: 3, using the default":  false,
		"Unknown widget: frob, skipped":                false,
		"Invalid config: Settings(":                    false,
		"Invalid input: Tensor(3.0, device":            false,
		"×":                                            false,
		"":                                             false,
	} {
		if got := FailureSummary(line); got != want {
			t.Errorf("FailureSummary(%q) = %v, want %v", line, got, want)
		}
	}
}

// FuzzFailureLines: the readers of failure lines without a level word take
// any input without panicking, and a status or a rejection they find is
// in the line.
func FuzzFailureLines(f *testing.F) {
	for _, s := range []string{
		"slurmstepd: error: Detected 2 oom-kill event(s) in step 1.batch cgroup.",
		"make[2]: *** [x.make:76: x.o] Error 1", "python3: error while loading shared libraries: x.so: y",
		"× Failed to build `x`", "Failed, error code: -1", "Invalid object: X(a=1)", "Unknown type: <x>",
		"prog: ", "a: error ", "[1]: *** ", "x: error in: ", "Invalid : ()", "code -0",
		"gguf_init_from_file_impl: failed to read key-value pairs", "gguf_init_from_: invalid", "gguf_init_from_file:  ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		parseDiagnosticLine(s)
		UnixErrorLine(s)
		FailureSummary(s)
		if typ := RejectedType(s); typ != "" && !strings.Contains(s, typ) {
			t.Errorf("RejectedType(%q) = %q, not in the line", s, typ)
		}
		if FailureStatusEnd(s) && !StatusEnd(s) {
			t.Errorf("FailureStatusEnd(%q) without StatusEnd", s)
		}
		summaryRecord(s, time.Time{}, time.UTC)
	})
}

// TestUnixErrorLine reads the convention's level words with no program in
// front: cargo's and uv's "error: ", git's "fatal: ", docker's newer
// client, rustc's coded errors, apt's "E: ".
func TestUnixErrorLine(t *testing.T) {
	for line, want := range map[string]bool{
		"error: could not compile `widget` due to 2 previous errors":                        true,
		"fatal: not a git repository (or any of the parent directories): .git":              true,
		"Error response from daemon: No such container: widget":                             true,
		"error[E0425]: cannot find value `x` in this scope":                                 true,
		"E: Unable to locate package libnuma-dev":                                           true,
		"FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory": true,
		"error while loading shared libraries: libcudart.so.12: cannot open shared object":  true,
		`Error from server (NotFound): pods "sglang-0" not found`:                           true,
		"Error from server (Not Found 1): x":                                                false,

		"error rate: 0.1":                     false,
		"Errors: 0":                           false,
		"error_count: 2":                      false,
		"Error handling enabled for widgets":  false,
		"E: ":                                 false,
		"error[E0425] no colon":               false,
		"fatality: none":                      false,
		"W: Failed to fetch http://archive/x": false,
		"Expected 3 widgets, found 3":         false,
		"error: ":                             false,
		"Error in cpuinfo: prctl(PR_SVE_GET_VL) failed": false,
		"Error on request: widget closed":               false,
	} {
		if got := UnixErrorLine(line); got != want {
			t.Errorf("UnixErrorLine(%q) = %v, want %v", line, got, want)
		}
	}
}
