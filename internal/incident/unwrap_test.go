package incident_test

import (
	"strings"
	"testing"
)

// A Rust program that logs the error a call returned and then unwraps it
// dies of that error: the unwrap's panic ("called `Result::unwrap()` on
// an `Err` value: ...", "called `Option::unwrap()` on a `None` value")
// is one incident with the error line before it, led by that line,
// whether a record names it (a warning-graded record included) or not.
// The lines are composed after the formats of three kinds of Rust
// programs: a WASI-NN runtime's bracketed "[error]" lines, a tracing
// subscriber's "ERROR target: message" lines (a model gateway, a
// router), and a launcher's shard error over a router's panic; the panic
// in Rust's current form (message on the line after the location) and in
// the older one (quoted message, then the location).
func TestAnUnwrapPanicJoinsTheErrorItUnwrapped(t *testing.T) {
	m := crashMatcher(t)
	note := "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace"
	cases := []struct {
		name  string
		cause []string
		panic []string
	}{
		{"a WASI-NN backend's context error, current form",
			[]string{"[2024-03-02 10:11:14.120] [error] [WASI-NN] GGML backend: Error: prompt too long (900 tokens, max 508)"},
			[]string{"thread 'main' panicked at src/main.rs:40:10:", "called `Result::unwrap()` on an `Err` value: BackendError(InvalidArgument)", note}},
		{"a WASI-NN backend's context error, older form",
			[]string{"[2024-03-02 10:11:14.120] [error] [WASI-NN] GGML backend: Error: prompt too long (900 tokens, max 508)"},
			[]string{"thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: BackendError(InvalidArgument)', src/main.rs:40:10", note}},
		{"a gateway's unclassified error line, current form",
			[]string{"2025-06-01T12:00:01.123456Z ERROR my_gateway::backend: backend returned an unreadable body for chat completion: expected value at line 1 column 1"},
			[]string{"thread 'tokio-runtime-worker' panicked at src/backend.rs:77:51:", "called `Result::unwrap()` on an `Err` value: Error(\"expected value\", line: 1, column: 1)", note}},
		{"a router's bind failure, older form",
			[]string{"2025-06-01T12:00:01.123456Z ERROR sglang_router_rs::server: Failed to start server: Address already in use (os error 98)"},
			[]string{"thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: ()', src/main.rs:88:5", note}},
		{"a launcher's shard out of memory, an empty Option",
			[]string{"2024-05-01T10:00:00.000100Z ERROR text_generation_client: router/client/src/lib.rs:33: Server error: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total capacity; 76.10 GiB already allocated)"},
			[]string{"thread 'tokio-runtime-worker' panicked at router/src/infer.rs:598:14:", "called `Option::unwrap()` on a `None` value", note}},
	}
	for _, c := range cases {
		alone := scanLines(t, m, c.cause)
		if len(alone) != 1 {
			t.Fatalf("%s: the cause alone gives %d incidents, want 1:%s", c.name, len(alone), describe(alone))
		}
		want := leadOf(alone[0])
		if p := scanLines(t, m, c.panic); len(p) != 1 {
			t.Errorf("%s: the panic alone gives %d incidents, want 1:%s", c.name, len(p), describe(p))
		}
		for _, l := range layouts {
			var lines []string
			for _, s := range append(append([]string{}, c.cause...), c.panic...) {
				lines = append(lines, l.line(s))
			}
			got := scanLines(t, m, lines)
			if len(got) != 1 || leadOf(got[0]) != want {
				t.Errorf("%s, %s: want one incident led by %s, got %d:%s\n%s", c.name, l.name, want, len(got), describe(got), strings.Join(lines, "\n"))
			}
		}
	}
}

// An unwrap panic or a vague line long after an error line is another
// call's: it stays an incident of its own beside the error line.
func TestALaterUnwrapPanicStaysApart(t *testing.T) {
	m := crashMatcher(t)
	errLine := "2025-06-01T12:00:01.123456Z ERROR my_gateway::backend: backend returned an unreadable body for chat completion: expected value at line 1 column 1"
	for _, tc := range []struct {
		name  string
		lines []string
	}{
		{"an unwrap panic a minute later", []string{errLine,
			"2025-06-01T12:01:30.000000Z  INFO my_gateway::server: request served in 12 ms",
			"2025-06-01T12:01:31.000000Z  INFO my_gateway::server: request served in 10 ms",
			"thread 'tokio-runtime-worker' panicked at src/backend.rs:77:51:",
			"called `Option::unwrap()` on a `None` value"}},
		{"a vague line minutes after a connection failure", []string{
			"2025-06-01T12:00:01.123456Z ERROR gateway::proxy: upstream connect error: Connection refused (os error 111)",
			"2025-06-01T12:05:30.000000Z  INFO gateway::server: request served in 12 ms",
			"2025-06-01T12:05:31.000000Z  INFO gateway::server: request served in 10 ms",
			"2025-06-01T12:05:31.500000Z ERROR gateway::handler: request failed"}},
	} {
		if got := scanLines(t, m, tc.lines); len(got) != 2 {
			t.Errorf("%s: want 2 incidents, got %d:%s", tc.name, len(got), describe(got))
		}
	}
}

// A native extension whose shared library does not load fails every
// import of it: the loader's error and the import failures it causes are
// one incident, led by the library that did not load, in either order.
// Composed after an engine's kernel package trying its import paths, a
// serving engine's compiled ops, an attention kernel built against
// another torch and a quantisation library's native part.
func TestOneLibraryThatDoesNotLoadIsOneIncident(t *testing.T) {
	m := crashMatcher(t)
	cases := []struct {
		name          string
		library, uses string
	}{
		{"a kernel package's ops", "ImportError: libnvrtc.so.12: cannot open shared object file: No such file or directory",
			"ModuleNotFoundError: No module named 'common_ops'"},
		{"an engine's compiled ops", "ImportError: libcudart.so.12: cannot open shared object file: No such file or directory",
			"ModuleNotFoundError: No module named 'vllm._C'"},
		{"an attention kernel built against another torch",
			"ImportError: /usr/local/lib/python3.10/dist-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi",
			"ImportError: cannot import name 'flash_attn_varlen_func' from 'flash_attn' (/usr/local/lib/python3.10/dist-packages/flash_attn/__init__.py)"},
		{"a quantisation library's native part", "OSError: libcusparse.so.12: cannot open shared object file: No such file or directory",
			"ModuleNotFoundError: No module named 'bitsandbytes.cextension'"},
	}
	for _, c := range cases {
		alone := scanLines(t, m, []string{c.library})
		if len(alone) != 1 {
			t.Fatalf("%s: the library's line alone gives %d incidents:%s", c.name, len(alone), describe(alone))
		}
		want := leadOf(alone[0])
		for _, order := range [][]string{{c.library, c.uses}, {c.uses, c.library}} {
			for _, l := range layouts {
				lines := []string{l.line(healthy[0])}
				for _, s := range order {
					lines = append(lines, l.line(s))
				}
				got := scanLines(t, m, lines)
				if len(got) != 1 || leadOf(got[0]) != want {
					t.Errorf("%s, %s: want one incident led by %s, got %d:%s\n%s", c.name, l.name, want, len(got), describe(got), strings.Join(lines, "\n"))
				}
			}
		}
	}
	// Two imports that fail for no library's sake stay what they were,
	// and so does a library that failed to load an hour before.
	two := scanLines(t, m, []string{
		"[2025-06-01 12:00:01] ImportError: libcudart.so.12: cannot open shared object file: No such file or directory",
		healthy[0], healthy[1],
		"[2025-06-01 13:10:01] ImportError: cannot import name 'flash_attn_varlen_func' from 'flash_attn' (/usr/local/lib/python3.10/dist-packages/flash_attn/__init__.py)",
	})
	if len(two) != 2 {
		t.Errorf("a library's failure an hour before an import failure: want 2 incidents, got %d:%s", len(two), describe(two))
	}
}

// A line that only says a task failed, printed after the line a
// consequence record reads, says nothing that line did not: the record
// leads, the vague line is listed in its incident. Composed after a
// Python service's logging format, a Rust gateway's tracing lines and a
// benchmark client's root-logger lines; each under every layout, the
// vague line printed after the failure or before it. A vague line that
// says why keeps its own place.
func TestAVagueLineYieldsToTheFailureBeforeIt(t *testing.T) {
	m := crashMatcher(t)
	cases := []struct {
		name        string
		what, vague string
	}{
		{"a loader that cannot reach its model store",
			"2025-06-01 12:00:01,100 - loader - ERROR - Could not reach https://models.internal.example:8443/acme/foo-7b/config.json: [Errno 113] No route to host",
			"2025-06-01 12:00:01,300 - app - ERROR - Failed to load the model"},
		{"a gateway whose upstream refuses",
			"2025-06-01T12:00:01.123456Z ERROR gateway::proxy: upstream connect error: Connection refused (os error 111)",
			"2025-06-01T12:00:01.123999Z ERROR gateway::handler: request failed"},
		{"a gateway that unwraps the worker it could not reach",
			"2025-06-01T12:00:01.123456Z ERROR sgl_model_gateway::core::worker: Worker http://10.0.0.5:8000 health check failed: error sending request for url (http://10.0.0.5:8000/health): Connection refused (os error 111)",
			"thread 'tokio-runtime-worker' panicked at src/routers/http/router.rs:210:42:\ncalled `Option::unwrap()` on a `None` value"},
		{"a benchmark client whose server is gone",
			"ERROR:bench.client:HTTPConnectionPool(host='10.0.0.5', port=30000): Max retries exceeded with url: /generate (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f2a>: Failed to establish a new connection: [Errno 111] Connection refused'))",
			"ERROR:bench.runner:Generation failed"},
	}
	for _, c := range cases {
		alone := scanLines(t, m, []string{c.what})
		if len(alone) != 1 || alone[0].Record.ID == "" {
			t.Fatalf("%s: the failure alone gives %d incidents, want one classified:%s", c.name, len(alone), describe(alone))
		}
		want := leadOf(alone[0])
		vague := strings.Split(c.vague, "\n")
		orders := [][]string{append([]string{c.what}, vague...)}
		if !strings.Contains(c.vague, "panicked") {
			// A panic unwraps what went before it; a vague line may be
			// printed first.
			orders = append(orders, append(append([]string{}, vague...), c.what))
		}
		for _, order := range orders {
			for _, l := range layouts {
				var lines []string
				for _, s := range order {
					lines = append(lines, l.line(s))
				}
				got := scanLines(t, m, lines)
				if len(got) != 1 || leadOf(got[0]) != want {
					t.Errorf("%s, %s: want one incident led by %s, got %d:%s\n%s", c.name, l.name, want, len(got), describe(got), strings.Join(lines, "\n"))
				}
			}
		}
	}
	// A vague line that says why is no restatement: it is the failure.
	why := scanLines(t, m, []string{
		"2025-06-01T12:00:01.123456Z ERROR gateway::proxy: upstream connect error: Connection refused (os error 111)",
		"2025-06-01T12:00:01.123999Z ERROR gateway::handler: request failed: the tokenizer rejected the prompt template 'chatml-v2'",
	})
	for _, a := range why {
		if a.Record.Slug == "network-connection-failed" && len(why) == 1 {
			t.Errorf("a line that says why was folded under the connection failure:%s", describe(why))
		}
	}
}

// An exception that only says its task failed, raised after a failure
// no record names in the same burst of the same source, is that
// failure's: one incident, led by the failure. Composed after a loader
// that logs the exception and then exits in words of its own, a pool
// whose caller raises its own error after the worker's traceback, and a
// native library's error line before the Python exception that gave up
// on it. A second exception that says something of its own stays an
// incident of its own.
func TestAVagueExceptionJoinsTheFailureBeforeIt(t *testing.T) {
	m := crashMatcher(t)
	tb := func(file, fn, code, exc string) []string {
		return []string{"Traceback (most recent call last):", `  File "` + file + `", line 12, in ` + fn, "    " + code, exc}
	}
	cases := []struct {
		name          string
		failure, gave []string
	}{
		{"a loader that exits after logging the exception",
			append([]string{"2025-06-01 12:00:01,000 ERROR loader: Failed to load model acme/foo-7b"},
				tb("/srv/config.py", "read_config", `raise KeyError("rope_theta")`, "KeyError: 'rope_theta'")...),
			tb("/srv/main.py", "main", `raise SystemExit("Failed to load the model")`, "SystemExit: Failed to load the model")},
		{"a pool's caller after its worker's traceback",
			tb("/srv/worker.py", "step", "out = self.engine.step(batch)", "AttributeError: 'NoneType' object has no attribute 'kv_indices'"),
			tb("/srv/pool.py", "run", `raise RuntimeError("worker failed")`, "RuntimeError: worker failed")},
		{"a native library's error line, then the exception that gave up on it",
			[]string{"E0601 12:00:01.000010 123 session.cpp:500] Session::readBody failed. Error: Connection reset by peer"},
			tb("/srv/kv/transfer.py", "send", `raise RuntimeError("Transfer failed")`, "RuntimeError: Transfer failed")},
	}
	for _, c := range cases {
		alone := scanLines(t, m, c.failure)
		if len(alone) != 1 {
			t.Fatalf("%s: the failure alone gives %d incidents:%s", c.name, len(alone), describe(alone))
		}
		want := leadOf(alone[0])
		for _, l := range layouts {
			var lines []string
			for _, s := range append(append([]string{}, c.failure...), c.gave...) {
				lines = append(lines, l.line(s))
			}
			got := scanLines(t, m, lines)
			if len(got) != 1 || leadOf(got[0]) != want {
				t.Errorf("%s, %s: want one incident led by %s, got %d:%s\n%s", c.name, l.name, want, len(got), describe(got), strings.Join(lines, "\n"))
			}
		}
	}
	two := scanLines(t, m, append(tb("/srv/worker.py", "step", "out = self.engine.step(batch)", "AttributeError: 'NoneType' object has no attribute 'kv_indices'"),
		tb("/srv/pool.py", "run", `raise RuntimeError(f"worker {rank} failed: {err}")`, "RuntimeError: worker 3 failed: sampling params missing 'top_k'")...))
	if len(two) != 2 {
		t.Errorf("two exceptions that say two things: want 2 incidents, got %d:%s", len(two), describe(two))
	}
}

// A line that only says its task failed, beside a line of another
// writer of its source and burst that says what failed (no record
// naming either), is listed in that line's incident, in either order.
// Composed after a Python service's loggers, a Rust program's tracing
// targets and a launcher's plain "Error:" line. Two lines that each say
// something of their own stay two incidents.
func TestAVagueLineYieldsToAGenericLineThatSaysWhat(t *testing.T) {
	m := crashMatcher(t)
	cases := []struct {
		name        string
		what, vague string
	}{
		{"a worker's logger, then its launcher's",
			"2025-06-01 12:00:01,100 - worker - ERROR - tokenizer rejected the chat template 'chatml-v2': unknown filter tojson_pretty",
			"2025-06-01 12:00:01,102 - main - ERROR - Engine startup failed"},
		{"a Rust program's two tracing targets",
			"2025-06-01T12:00:01.123456Z ERROR kvstore::segment: segment 'kv-0007' has a checksum of 0x9f31 where 0x11aa was written",
			"2025-06-01T12:00:01.123999Z ERROR server::startup: could not start the server"},
		{"a launcher's plain error line",
			"[2025-06-01 12:00:01] ERROR: scheduler exited with status 137 while loading shard 3 of 8",
			"Error: failed to start the engine"},
	}
	for _, c := range cases {
		alone := scanLines(t, m, []string{c.what})
		if len(alone) != 1 {
			t.Fatalf("%s: the line alone gives %d incidents:%s", c.name, len(alone), describe(alone))
		}
		want := leadOf(alone[0])
		for _, order := range [][]string{{c.what, c.vague}, {c.vague, c.what}} {
			for _, l := range layouts {
				lines := []string{l.line(order[0]), l.line(order[1])}
				got := scanLines(t, m, lines)
				if len(got) != 1 || leadOf(got[0]) != want {
					t.Errorf("%s, %s: want one incident led by %s, got %d:%s\n%s", c.name, l.name, want, len(got), describe(got), strings.Join(lines, "\n"))
				}
			}
		}
	}
	two := scanLines(t, m, []string{
		"2025-06-01 12:00:01,100 - worker - ERROR - tokenizer rejected the chat template 'chatml-v2': unknown filter tojson_pretty",
		"2025-06-01 12:00:01,102 - main - ERROR - metrics exporter could not bind 0.0.0.0:9400",
	})
	if len(two) != 2 {
		t.Errorf("two lines that say two things: want 2 incidents, got %d:%s", len(two), describe(two))
	}
}

// One resource running out is one incident, however many ranks and
// allocators say so in words different records read: led by where it was
// met first. Composed after two ranks of a server (the framework's OOM on
// one, the CUDA runtime's on the other), a server's own memory check after
// the framework's OOM, and a process limit met by a file open and a thread
// start. Two resources that ran out are two incidents.
func TestOneExhaustionIsOneIncident(t *testing.T) {
	m := crashMatcher(t)
	cases := []struct {
		name, want string
		lines      []string
	}{
		{"two ranks' out of memory", "cuda-out-of-memory", []string{
			"[2025-06-01 12:00:01 TP0] Scheduler hit an exception: Traceback (most recent call last):",
			`  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 1200, in forward_decode`,
			"    return self.model.forward(",
			"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.05 GiB is free.",
			"[2025-06-01 12:00:01 TP1] Scheduler hit an exception: Traceback (most recent call last):",
			`  File "/sgl-workspace/sglang/python/sglang/srt/layers/attention/flashinfer_backend.py", line 410, in forward_decode`,
			"    o = decode_wrapper.forward(q, kv_buffer)",
			"RuntimeError: CUDA error: out of memory",
		}},
		{"a rank's OOM in words no record reads, then another's a record reads", "cuda-out-of-memory", []string{
			"[2025-06-01 12:00:01 TP1] Scheduler hit an exception: Traceback (most recent call last):",
			`  File "/sgl-workspace/sglang/python/sglang/srt/layers/moe/fused_moe.py", line 410, in forward`,
			"    o = kernel(q, kv_buffer)",
			"RuntimeError: HIP out of memory while allocating the MoE workspace",
			"[2025-06-01 12:00:01 TP0] Scheduler hit an exception: Traceback (most recent call last):",
			`  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 1200, in forward_decode`,
			"    return self.model.forward(",
			"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.05 GiB is free.",
		}},
		{"a server's memory check after the framework's OOM", "cuda-out-of-memory", []string{
			"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of 23.55 GiB of which 1.02 GiB is free.",
			"RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.",
		}},
		{"a process limit met twice", "too-many-open-files", []string{
			"OSError: [Errno 24] Too many open files: '/proc/self/fd'",
			"RuntimeError: can't start new thread",
		}},
	}
	for _, c := range cases {
		for _, l := range layouts {
			var lines []string
			for _, s := range c.lines {
				lines = append(lines, l.line(s))
			}
			got := scanLines(t, m, lines)
			if len(got) != 1 || got[0].Record.Slug != c.want {
				t.Errorf("%s, %s: want one incident led by %s, got %d:%s\n%s", c.name, l.name, c.want, len(got), describe(got), strings.Join(lines, "\n"))
			}
		}
	}
	two := scanLines(t, m, []string{
		"OSError: [Errno 28] No space left on device",
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity of 23.55 GiB of which 1.02 GiB is free.",
	})
	if len(two) != 2 {
		t.Errorf("a full disk and an OOM: want 2 incidents, got %d:%s", len(two), describe(two))
	}
}

// A process whose peer died fails its next call on the channel to it:
// that exception, no record naming it, printed after the failure in the
// same burst of the same source, is the failure's consequence. Composed
// after a server's detokenizer dying under its tokenizer manager's ZMQ
// socket, a worker pool's task failing under its parent's broken pipe,
// and a native library's error line under a Python client's connection
// reset.
func TestAPeerLostAfterAFailureIsItsConsequence(t *testing.T) {
	m := crashMatcher(t)
	tb := func(file, fn, code, exc string) []string {
		return []string{"Traceback (most recent call last):", `  File "` + file + `", line 12, in ` + fn, "    " + code, exc}
	}
	cases := []struct {
		name            string
		failure, broken []string
	}{
		{"a detokenizer's crash, then its peer's ZMQ socket",
			append([]string{"[2025-06-01 12:00:01] Detokenizer hit an exception: Traceback (most recent call last):"},
				append(tb("/sgl-workspace/sglang/python/sglang/srt/managers/detokenizer_manager.py", "event_loop", "output = self._request_dispatcher(recv_obj)", "IndexError: list index out of range")[1:], "")...),
			append([]string{"[2025-06-01 12:00:01] TokenizerManager hit an exception: Traceback (most recent call last):"},
				tb("/sgl-workspace/sglang/python/sglang/srt/managers/tokenizer_manager.py", "handle_loop", "recv_obj = await self.recv_from_detokenizer.recv_pyobj()", "zmq.error.ZMQError: Socket operation on non-socket")[1:]...)},
		{"a pool worker's failure, then its parent's broken pipe",
			tb("/srv/pool/worker.py", "run_task", "result = fn(*args)", "ValueError: shard 3 has 4096 rows, the index says 4097"),
			tb("/usr/lib/python3.10/multiprocessing/connection.py", "_send", "n = write(self._handle, buf)", "BrokenPipeError: [Errno 32] Broken pipe")},
		{"a native library's error line, then a client's connection reset",
			[]string{"E0601 12:00:01.000001 123 peer_plugin.cpp:300] Failed to parse peer descriptor from metadata: unexpected end of input"},
			tb("/srv/kv/client.py", "fetch", "data = sock.recv(4096)", "ConnectionResetError: [Errno 104] Connection reset by peer")},
	}
	for _, c := range cases {
		alone := scanLines(t, m, c.failure)
		if len(alone) != 1 {
			t.Fatalf("%s: the failure alone gives %d incidents:%s", c.name, len(alone), describe(alone))
		}
		if b := scanLines(t, m, c.broken); len(b) != 1 {
			t.Errorf("%s: the broken channel alone gives %d incidents, want 1:%s", c.name, len(b), describe(b))
		}
		want := leadOf(alone[0])
		for _, l := range layouts {
			var lines []string
			for _, s := range append(append([]string{}, c.failure...), c.broken...) {
				lines = append(lines, l.line(s))
			}
			got := scanLines(t, m, lines)
			if len(got) != 1 || leadOf(got[0]) != want {
				t.Errorf("%s, %s: want one incident led by %s, got %d:%s\n%s", c.name, l.name, want, len(got), describe(got), strings.Join(lines, "\n"))
			}
		}
	}
}
