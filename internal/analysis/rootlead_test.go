package analysis_test

import (
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

// A chain whose last link only says that something failed is led by its
// root, which says why; a last link that says why itself, or names a
// family of failure by its type, still leads. The chains are composed
// after three kinds of programs: a server's start-up re-raising a config
// parser's error, an HTTP client's wrapper over the socket's refusal
// (which a record reads), and a worker pool's own error class over a
// model's KeyError, each under both of Python's chain separators.
func TestAVagueWrapperYieldsToTheRootOfItsChain(t *testing.T) {
	m := defaultMatcher(t)
	const (
		direct = "\nThe above exception was the direct cause of the following exception:\n\n"
		during = "\nDuring handling of the above exception, another exception occurred:\n\n"
		head   = "Traceback (most recent call last):\n"
	)
	config := head + frame("/usr/lib/python3.10/site-packages/mylib/config.py", "parse_config", `raise ValueError(f"unknown rope_scaling type {kind!r}")`) +
		"ValueError: unknown rope_scaling type 'yarn2'\n"
	socket := head + frame("/usr/lib/python3.11/site-packages/urllib3/util/connection.py", "create_connection", "raise err") +
		"ConnectionRefusedError: [Errno 111] Connection refused\n"
	model := head + frame("/srv/model.py", "generate", "return self.engine.step(batch)") +
		"KeyError: 'attention_mask'\n"
	outer := func(line string) string {
		return head + frame("/srv/app/server.py", "main", "raise") + line + "\n"
	}
	tests := []struct {
		name, in string
		slug     string // the cause's record, "" when none
		exc      string // the exception the diagnosis names
	}{
		{"a server that failed to start over its config's error", config + direct + outer("RuntimeError: Failed to start the server"), "", "ValueError: unknown rope_scaling type 'yarn2'"},
		{"the same under the other separator", config + during + outer("RuntimeError: Failed to start the server."), "", "ValueError: unknown rope_scaling type 'yarn2'"},
		{"a worker pool's own class over a model's KeyError", model + during + outer("worker.WorkerError: worker failed"), "", "KeyError: 'attention_mask'"},
		{"an HTTP client's wrapper over a refused connection a record reads", socket + during + outer("Exception: request failed"), "network-connection-failed", "ConnectionRefusedError: [Errno 111] Connection refused"},
		{"a bare Exception that could not do its job", model + direct + outer("Exception: Unable to run the generation step"), "", "KeyError: 'attention_mask'"},
		{"an engine's consequence record on the last link over a root no record reads", config + direct +
			outer("RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}"), "", "ValueError: unknown rope_scaling type 'yarn2'"},
		{"a cancelled task under a vague wrapper", head + frame("/srv/app/loop.py", "run", "await fut") + "asyncio.exceptions.CancelledError\n" + during + outer("RuntimeError: request failed"), "", "RuntimeError: request failed"},
		// Near misses: a last link that says why, that names a number or
		// a quoted name, or whose type names a failure, leads.
		{"a last link with its reason", config + direct + outer("RuntimeError: Failed to start the server: the model's config is invalid"), "", "RuntimeError: Failed to start the server: the model's config is invalid"},
		{"a last link naming a quoted key", model + direct + outer("RuntimeError: generation failed for 'req-7'"), "", "RuntimeError: generation failed for 'req-7'"},
		{"a last link with a type of its own family", config + direct + outer("ImportError: failed to import the model's code"), "", "ImportError: failed to import the model's code"},
		{"a last link that says nothing of failing", model + direct + outer("RuntimeError: the generation step stopped"), "", "RuntimeError: the generation step stopped"},
	}
	for _, tt := range tests {
		got := analyzeText(m, tt.in)
		if !one(t, tt.name, got) {
			continue
		}
		d := got[0]
		slug := ""
		if d.Cause != nil {
			slug = d.Cause.Record.Slug
		}
		if slug != tt.slug {
			t.Errorf("%s: cause %q, want %q (headline %q)", tt.name, slug, tt.slug, d.Headline)
			continue
		}
		if tt.exc != "" && analysis.ExceptionLine(d.Exception) != tt.exc {
			t.Errorf("%s: exception %q, want %q", tt.name, analysis.ExceptionLine(d.Exception), tt.exc)
		}
		if tt.exc != "" && d.Headline != tt.exc {
			t.Errorf("%s: headline %q, want %q", tt.name, d.Headline, tt.exc)
		}
	}
}

func TestVagueFailure(t *testing.T) {
	for msg, want := range map[string]bool{
		// Which instance failed is no reason (Mooncake's, a worker pool's,
		// a launcher's words).
		"Transfer failed for task0":                                   true,
		"Worker worker12 failed.":                                     true,
		"Request failed on gpu3, rank1":                               true,
		"request failed":                                              true,
		"Failed to load checkpoint shard 3 of 8":                      false,
		"Transfer failed: timeout after 3 retries":                    false,
		"Memory region not registered by any active device(s): 0x1a0": false,
		"Message truncated : received 36 bytes instead of 1":          false,
		"[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE)": false,
		"sm90 kernel failed":                                            true,
		"[PG 1 Rank 0] Work failed.":                                    true,
		"[Rank 3] Collective failed on rank3":                           true,
		"[Rank 3] Collective failed: peer rank 5 closed the connection": false,
		"": false,
	} {
		if got := analysis.VagueFailure(msg); got != want {
			t.Errorf("VagueFailure(%q) = %v, want %v", msg, got, want)
		}
	}
}

func TestQuotesOutput(t *testing.T) {
	for text, want := range map[string]bool{
		// Container runtimes' reports of a hook's failure, the hook's
		// output going on on the next line.
		"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running prestart hook #0: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'": true,
		"docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error running hook #0: error running hook: exit status 1, stdout: , stderr: ":          true,
		"Error: crun: error executing hook `/usr/bin/nvidia-container-toolkit` (exit code: 1), stderr:": true,
		"first line\nbuild step failed (exit status 2), stdout: compiling kernels":                      true,
		// Output quoted and closed, a label mid-sentence, no label.
		"hook failed (exit status 1, stderr: permission denied) while starting the container": false,
		"the stderr: stream was closed":           false,
		"RuntimeError: CUDA error: out of memory": false,
		"logged to mystderr: nothing":             false,
		"":                                        false,
	} {
		if got := analysis.QuotesOutput(text); got != want {
			t.Errorf("QuotesOutput(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestVagueMessage(t *testing.T) {
	for msg, want := range map[string]bool{
		"Failed to load the model":                                               true,
		"request failed":                                                         true,
		"An error occurred while processing the request.":                        true,
		"ERROR:bench.runner:Generation failed":                                   true,
		"Unable to run the generation step":                                      true,
		"request failed: the tokenizer rejected the prompt template 'chatml-v2'": false,
		"Failed to load checkpoint shard 3 of 8":                                 false,
		"No available workers":                                                   false,
		"the generation step stopped":                                            false,
		"Failed to open /models/foo/config.json":                                 false,
		"":                                                                       false,
	} {
		if got := analysis.VagueMessage(msg); got != want {
			t.Errorf("VagueMessage(%q) = %v, want %v", msg, got, want)
		}
	}
}

func TestSendsElsewhere(t *testing.T) {
	for msg, want := range map[string]bool{
		"RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for details.": true,
		"RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}":           true,
		"Initialization failed. Please see the error messages above.":                                              true,
		"Worker failed with error 'x', please check the stack trace above for the root cause":                      true,
		// Guessed causes and logs to look in are no pointer to a message.
		"A worker died or was killed while executing a task by an unexpected system error. To troubleshoot the problem, check the logs for the dead worker. There are some potential root causes. (1) The process is killed by SIGKILL by OOM killer.": false,
		"the value above the limit was rejected. See the docs.": false,
		"three GPUs above the limit":                            false,
		"":                                                      false,
	} {
		if got := analysis.SendsElsewhere(msg); got != want {
			t.Errorf("SendsElsewhere(%q) = %v, want %v", msg, got, want)
		}
	}
}

func TestSendsElsewhereAllocatesNothing(t *testing.T) {
	msg := "CUDA error: an illegal memory access was encountered. Compile with TORCH_USE_CUDA_DSA to enable device-side assertions, above all."
	if n := testing.AllocsPerRun(100, func() { analysis.SendsElsewhere(msg) }); n != 0 {
		t.Errorf("SendsElsewhere allocates %v times, want none", n)
	}
}
