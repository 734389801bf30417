package entry

import (
	"reflect"
	"strings"
	"testing"
)

// syslogged puts a record's lines on one line as rsyslog forwards a
// multi-line message: its prefix, and each newline escaped as "#012".
func syslogged(prog string, lines ...string) string {
	return "Dec  6 18:42:43 gpu-node-3 " + prog + ": " + strings.Join(lines, escapedLF)
}

// TestAssemblerEscapedNewlines: a record and its traceback that rsyslog
// forwarded as one line, newlines escaped, is read as the writer printed
// it, for three writers (sglang's scheduler, vLLM's engine core, a Python
// logger's record through SysLogHandler); the next line is a record of
// its own; a number written "#012" is text.
func TestAssemblerEscapedNewlines(t *testing.T) {
	tb := []string{
		"Traceback (most recent call last):",
		`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2963, in run_scheduler_process`,
		"    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank)",
		`  File "/usr/lib/python3.10/site-packages/x/runner.py", line 300, in init_memory_pool`,
		"    raise RuntimeError(",
	}
	tests := []struct {
		name, line, exc string
	}{
		{"sglang's scheduler", syslogged("python3[2741]", append(append([]string{"[2026-12-06 18:42:43 TP0] Scheduler hit an exception: Traceback (most recent call last):"}, tb[1:]...),
			"RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.")...), "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static."},
		{"vLLM's engine core", syslogged("vllm[77]", append(append([]string{"ERROR 12-06 18:42:43 [core.py:400] EngineCore failed to start."}, tb...),
			"ValueError: Free memory on device (3.22/4.0 GiB) on startup is less than desired GPU memory utilization")...), "ValueError: Free memory on device (3.22/4.0 GiB) on startup is less than desired GPU memory utilization"},
		{"a Python logger through SysLogHandler", syslogged("myapp[99]", append(append([]string{"ERROR:root:Request failed"}, tb...),
			"requests.exceptions.HTTPError: 500 Server Error: Internal Server Error for url: http://127.0.0.1:30000/generate")...), "requests.exceptions.HTTPError: 500 Server Error: Internal Server Error for url: http://127.0.0.1:30000/generate"},
		{"a message that opens with a newline", syslogged("myapp[99]", append(append([]string{""}, tb...), "KeyError: 'model.layers.0.weight'")...), "KeyError: 'model.layers.0.weight'"},
	}
	next := "Dec  6 18:42:44 gpu-node-3 python3[2741]: [2026-12-06 18:42:44] Received sigquit from a child process. It usually means the child failed."
	for _, tc := range tests {
		for _, reuse := range []bool{false, true} {
			in := []string{tc.line, next}
			var es []Entry
			if reuse {
				es = assembleReused(Options{}, in)
			} else {
				es = assembleOwned(Options{}, in)
			}
			if len(es) != 2 {
				t.Errorf("%s (reuse %v): %d entries, want the record and the next line: %+v", tc.name, reuse, len(es), views(es))
				continue
			}
			x := es[0].Traceback.Outermost()
			if x == nil || x.Type+": "+x.Message != tc.exc {
				t.Errorf("%s (reuse %v): exception %+v, want %q; text %q", tc.name, reuse, x, tc.exc, es[0].Text)
			}
			if strings.Contains(es[0].Text, escapedLF) || es[0].Lines != 1 {
				t.Errorf("%s (reuse %v): text %q, %d lines", tc.name, reuse, es[0].Text, es[0].Lines)
			}
			if !strings.Contains(es[1].Text, "Received sigquit") {
				t.Errorf("%s (reuse %v): second entry %q", tc.name, reuse, es[1].Text)
			}
		}
	}
}

// TestAssemblerEscapedControls: rsyslog's tabs ("#011") and carriage
// returns ("#015") inside a forwarded record come back as the writer
// printed them: Ray's ActorDiedError fields indented by a tab, a CRLF
// writer's line ends.
func TestAssemblerEscapedControls(t *testing.T) {
	line := syslogged("python3[2741]", "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.#015",
		"#011class_name: SGLangEngine", "#011actor_id: 5066c201b724a3936948a11201000000#015", "#011pid: 87687")
	es := assembleOwned(Options{}, []string{line})
	if len(es) != 1 {
		t.Fatalf("%d entries", len(es))
	}
	want := "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n\tclass_name: SGLangEngine\n\tactor_id: 5066c201b724a3936948a11201000000\n\tpid: 87687"
	if es[0].Text != want {
		t.Errorf("text %q, want %q", es[0].Text, want)
	}
}

// TestEscapedNewlineNearMisses: "#012" that parts no record's lines.
func TestEscapedNewlineNearMisses(t *testing.T) {
	for _, s := range []string{
		"Processing shard #012 of 100 done",
		"see issue #01234: Traceback (most recent call last):",
		"[2026-12-06 18:42:43 TP0] request #012#012 ignored", // an sglang record: never read here
		"no escape at all",
	} {
		if strings.HasPrefix(s, "[2026") {
			es := assemble(t, Options{}, s)
			if len(es) != 1 || !strings.Contains(es[0].Text, "#012#012") {
				t.Errorf("%q: %+v", s, views(es))
			}
			continue
		}
		if i := escapedNewline(s); i >= 0 {
			t.Errorf("escapedNewline(%q) = %d, want -1", s, i)
		}
		es := assemble(t, Options{}, s)
		if len(es) != 1 || es[0].Text != s {
			t.Errorf("%q read as %q", s, es[0].Text)
		}
	}
	if got, want := escapedNewline("x#012y#012z"), 1; got != want {
		t.Errorf("escapedNewline = %d, want %d", got, want)
	}
	if got, want := escapedNewline("ERROR:root:x#012Traceback (most recent call last):"), len("ERROR:root:x"); got != want {
		t.Errorf("escapedNewline = %d, want %d", got, want)
	}
}

// FuzzEscapedNewlines checks the escaped-newline reader on any line: the
// index found is an escape's, and a line holding escapes assembles into
// entries that count it once, the same with Options.Reuse.
func FuzzEscapedNewlines(f *testing.F) {
	f.Add(syslogged("python3[1]", "x: Traceback (most recent call last):", `  File "a.py", line 1, in f`, "ValueError: y"))
	f.Add("#012#012#012")
	f.Add("a#012#0123#012")
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\n\r") {
			return
		}
		if i := escapedNewline(s); i >= 0 && !strings.HasPrefix(s[i:], escapedLF) {
			t.Fatalf("escapedNewline(%q) = %d", s, i)
		}
		owned := assembleOwned(Options{}, []string{s, "next line"})
		reused := assembleReused(Options{}, []string{s, "next line"})
		n := 0
		for _, e := range owned {
			n += e.Lines
		}
		if n != 2 {
			t.Fatalf("%q: entries hold %d lines, want 2", s, n)
		}
		if len(owned) != len(reused) {
			t.Fatalf("%q: %d entries, %d with Reuse", s, len(owned), len(reused))
		}
		for i := range owned {
			if owned[i].Text != reused[i].Text || !reflect.DeepEqual(owned[i].Traceback, reused[i].Traceback) {
				t.Fatalf("%q: entry %d differs with Reuse: %q, %q", s, i, owned[i].Text, reused[i].Text)
			}
		}
	})
}
