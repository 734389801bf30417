package entry

import (
	"strings"
	"testing"
)

func TestThreadExceptionHeader(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{"Exception in thread Thread-13 (backup_thread_func):", true},
		{"Exception in thread Thread-1:", true},
		{"Exception in thread watchdog:  ", true},
		{"Exception in thread MainThread (_run_loop):", true},
		// Near misses: prose, a message after the colon, a target that is
		// no identifier, nothing named.
		{"Exception in thread Thread-13 (backup_thread_func): boom", false},
		{"Exception in thread pool worker, retrying:", false},
		{"Exception in thread Thread-2 (lambda x):", false},
		{"Exception in thread :", false},
		{"Exception in thread (f):", false},
		{"exception in thread Thread-1:", false},
		{"Exception ignored in: <function _after_fork at 0x7f>", false},
		{"Exception in thread " + strings.Repeat("x", 300) + ":", false},
	} {
		if got := ThreadExceptionHeader(tt.in); got != tt.want {
			t.Errorf("ThreadExceptionHeader(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// A thread's exception header is Python's own stderr line: it never
// continues the record open before it, however that record ends, and it
// still takes the traceback after it.
func TestThreadHeaderStartsAnEntry(t *testing.T) {
	head := "Exception in thread Thread-13 (backup_thread_func):"
	tb := "Traceback (most recent call last):\n  File \"/usr/lib/python3.12/threading.py\", line 1075, in _bootstrap_inner\n    self.run()\nRuntimeError: boom"
	for _, before := range []string{
		"[2025-08-17 19:34:27 TP0] Prefill batch. #new-seq: 1, #new-token: 2048, #cached-token: 0, token usage: 0.02, #running-req: 0, #queue-req: 0,",
		"[2025-08-17 19:34:27 TP0] Loading the cache controller:",
		"2025-08-17 19:34:27,001 - worker - INFO - started",
		"plain line without a header",
	} {
		for _, after := range []string{"", "\n" + tb} {
			es := assemble(t, Options{}, before+"\n"+head+after)
			if len(es) != 2 {
				t.Errorf("%q then the header%s: %d entries, want 2", before, map[bool]string{true: " and its traceback"}[after != ""], len(es))
				continue
			}
			if !strings.HasPrefix(es[1].Text, head) || after != "" && es[1].Traceback == nil {
				t.Errorf("%q: second entry %q, want the header with its traceback", before, es[1].Text)
			}
		}
	}
}

func FuzzThreadExceptionHeader(f *testing.F) {
	for _, s := range []string{"Exception in thread Thread-13 (backup_thread_func):", "Exception in thread a:", "Exception in thread (", "Exception in thread x (y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ThreadExceptionHeader(s) && (!strings.HasPrefix(s, threadHeaderPrefix) || !strings.HasSuffix(strings.TrimRight(s, " \t"), ":")) {
			t.Fatalf("%q read as a thread's exception header", s)
		}
	})
}

// A line that prints a traceback with words of its own in front ("router
// init state: Traceback (most recent call last):") opens that traceback:
// it never continues the record before it. The bare "Traceback" line keeps
// its rules.
func TestAnnouncedTracebackStartsAnEntry(t *testing.T) {
	frames := "\n  File \"/sgl/python/sglang/srt/managers/router/manager.py\", line 68, in start_router_process\n    model_client = ModelRpcClient(server_args, port_args)"
	for _, before := range []string{
		"INFO 02-19 15:51:07 weight_utils.py:164] Using model weights format ['*.safetensors']",
		"2025-08-17 19:34:27,001 - worker - INFO - started",
		"Rank 1: load weight end.",
	} {
		es := assemble(t, Options{}, before+"\nrouter init state: Traceback (most recent call last):"+frames)
		if len(es) != 2 || es[1].Traceback == nil || !strings.HasPrefix(es[1].Text, "router init state: ") {
			t.Errorf("%q then an announced traceback: %d entries, want it in an entry of its own with its frames", before, len(es))
		}
	}
	// logging.exception's record takes its bare traceback as before.
	es := assemble(t, Options{}, "2025-08-17 19:34:27,001 - worker - ERROR - failed:\nTraceback (most recent call last):"+frames+"\nRuntimeError: x")
	if len(es) != 1 {
		t.Errorf("a record and its bare traceback: %d entries, want 1", len(es))
	}
}

// TestProcessExceptionHeader reads sglang's process exception headers of
// every release, and not prose, Python's thread header or another
// program's words.
func TestProcessExceptionHeader(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Exception in ModelRpcClient:", "ModelRpcClient"},
		{"Exception in ModelTpServer:", "ModelTpServer"},
		{"Exception in run_tp_server:", "run_tp_server"},
		{"Exception in ControllerSingle:", "ControllerSingle"},
		{"Exception in ControllerMulti: Traceback (most recent call last):", "ControllerMulti"},
		{"Scheduler hit an exception: Traceback (most recent call last):", "Scheduler"},
		{"TpModelWorkerClient hit an exception:", "TpModelWorkerClient"},
		{"DetokenizerManager hit an exception:", "DetokenizerManager"},
		{"ModelWorker sync thread hit an exception: Traceback", "ModelWorker"},
		{"Exception in thread Thread-1:", ""},
		{"Exception in the doStart method:", ""},
		{"Exception in ASGI application", ""},
		{"the scheduler hit an exception: x", ""},
		{"Scheduler Of Doom Really Big hit an exception:", ""},
		{"hit an exception:", ""},
		{"Exception in run_tp_server", ""},
	} {
		got, ok := ProcessExceptionHeader(tt.in)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("ProcessExceptionHeader(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}

// FuzzProcessExceptionHeader checks that a header's name is an
// identifier found in the line.
func FuzzProcessExceptionHeader(f *testing.F) {
	for _, s := range []string{"Exception in run_tp_server:", "Scheduler hit an exception: Traceback", "ModelWorker sync thread hit an exception:", "Exception in thread x:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, ok := ProcessExceptionHeader(s)
		if !ok {
			return
		}
		if !isIdentifier(name) || !strings.Contains(s, name) || ThreadExceptionHeader(s) {
			t.Fatalf("ProcessExceptionHeader(%q) = %q", s, name)
		}
	})
}
