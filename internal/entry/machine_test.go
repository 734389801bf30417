package entry

import (
	"strings"
	"testing"
	"time"
)

// stateSetups are lines that leave an assembler's pending entry in each
// state.
var stateSetups = [numStates][]string{
	stBlank:           {""},
	stNative:          {"Fatal Python error: Segmentation fault"},
	stCompiler:        {"kshell.c:3:10: fatal error: kernel/error.h: No such file or directory"},
	stPanic:           {"thread 'main' panicked at src/main.rs:10:5:"},
	stOneLine:         {`time=2024-05-01T12:00:00.000Z level=ERROR source=sched.go:1 msg="error loading server"`},
	stSGLang:          {"[2026-07-01 09:31:38 TP0] Decode batch, #running-req: 31"},
	stSGLangFrames:    {"[2026-07-01 09:31:38 TP0] Scheduler hit an exception: Traceback (most recent call last):"},
	stSGLangFrame:     {"[2026-07-01 09:31:38 TP0] Scheduler hit an exception: Traceback (most recent call last):", `  File "/sgl/s.py", line 4, in run`},
	stSGLangException: {"[2026-07-01 09:31:38 TP0] Scheduler hit an exception: Traceback (most recent call last):", `  File "/sgl/s.py", line 4, in run`, "    f()", "RuntimeError: boom"},
	stSGLangChain: {"[2026-07-01 09:31:38 TP0] Scheduler hit an exception: Traceback (most recent call last):", `  File "/sgl/s.py", line 4, in run`, "    f()", "KeyError: 'k'",
		"", "During handling of the above exception, another exception occurred:"},
	stRecord:    {"2024-01-01 12:00:00,123 - app.db - ERROR - query failed"},
	stRaw:       {"loading the model weights"},
	stFrames:    {"Traceback (most recent call last):"},
	stFrame:     {"Traceback (most recent call last):", `  File "/app/a.py", line 1, in f`},
	stException: {"Traceback (most recent call last):", `  File "/app/a.py", line 1, in f`, "    f()", "ValueError: x"},
	stChain: {"Traceback (most recent call last):", `  File "/app/a.py", line 1, in f`, "    f()", "KeyError: 'k'",
		"", "The above exception was the direct cause of the following exception:"},
}

// classSamples are a line of each class. The logger sample is read as a
// wrapping logger's record (its prefix already off).
var classSamples = [numClasses]string{
	lcHeader:     "2024-01-01 12:00:01,000 - app.web - INFO - next request",
	lcWarning:    "/app/models/x.py:54: FutureWarning: the argument is deprecated",
	lcNative:     "Fatal Python error: Aborted",
	lcSoftNative: "CUDA error: an illegal memory access was encountered",
	lcLogger:     "Traceback (most recent call last):",
	lcTraceback:  "Traceback (most recent call last):",
	lcChain:      "During handling of the above exception, another exception occurred:",
	lcFrame:      `  File "/app/b.py", line 2, in g`,
	lcOther:      "RuntimeError: next",
}

// wantTransitions is every cell of the table: the rule it names and whether
// the sample line of its class continues the entry its state's setup
// leaves (T) or starts an entry (e). A rule changed or added must show
// here with its state and class.
var wantTransitions = [numStates]struct {
	rules string // the rule of each class, in class order
	takes string // the sample's outcome, in class order
}{
	stBlank:           {"end end end end end end end end end", "eeeeeeeee"},
	stNative:          {"end native native native native native native native native", "eeeeeeeTe"},
	stCompiler:        {"end compiler compiler compiler compiler compiler compiler compiler compiler", "eeeeeeeee"},
	stPanic:           {"end panic panic panic panic panic panic panic panic", "eTeeeeTeT"},
	stOneLine:         {"end end end end end end end end end", "eeeeeeeee"},
	stSGLang:          {"end end end end logger-traceback take-unless-blank take take-if-colon take", "eeeeTTTeT"},
	stSGLangFrames:    {"end end end take-unless-blank as-text end take take take", "eeeTeeTTT"},
	stSGLangFrame:     {"end end end take-unless-blank as-text end take take take", "eeeTeeTTT"},
	stSGLangException: {"end end end take-unless-blank as-text end take take take", "eeeTeeTTT"},
	stSGLangChain:     {"end end end take-unless-blank as-text take take take take", "eeeTTTTTT"},
	stRecord:          {"end end end end logger-traceback take-unless-blank record-line take-if-announced record-line", "eeeeTTTee"},
	stRaw:             {"end end end end logger-announced take-if-announced raw-line take-if-announced raw-line", "eeeeeeeee"},
	stFrames:          {"end end end end as-text end end take frames", "eeeeeeeTT"},
	stFrame:           {"end end end end as-text end end take take", "eeeeeeeTT"},
	stException:       {"end end end end as-text end take end after-exception", "eeeeeeTee"},
	stChain:           {"end end end end as-text take end take box", "eeeeTTeTe"},
}

// TestTransitions enumerates the state machine: every state's setup
// reaches it, every class's sample falls in it, and every cell of the
// table names the rule wantTransitions says and decides the sample as it
// says.
func TestTransitions(t *testing.T) {
	ref := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	for c := lineClass(0); c < numClasses; c++ {
		a := NewAssembler(Options{Reference: ref})
		var cl classified
		a.classify(&cl, classSamples[c], classSamples[c], "", false, ref)
		cl.prefixed = c == lcLogger
		if got := classOf(&cl); got != c {
			t.Errorf("sample %q is of class %s, want %s", classSamples[c], got, c)
		}
	}
	for s := state(0); s < numStates; s++ {
		want := wantTransitions[s]
		if got := rowNames(s); got != want.rules {
			t.Errorf("state %s: rules %q, want %q", s, got, want.rules)
		}
		if len(want.takes) != int(numClasses) {
			t.Errorf("state %s: %d outcomes, want one per class (%d)", s, len(want.takes), numClasses)
			continue
		}
		for c := lineClass(0); c < numClasses; c++ {
			a := NewAssembler(Options{Reference: ref})
			for i, l := range stateSetups[s] {
				a.Push(Line{Text: l, Offset: int64(i + 1)})
			}
			if !a.cur.active || a.cur.st != s {
				t.Fatalf("setup of %s leaves the entry in %s (active %v)", s, a.cur.st, a.cur.active)
			}
			var cl classified
			ref, near := a.reference(time.Time{})
			cl.near = near
			a.classify(&cl, classSamples[c], classSamples[c], "", false, ref)
			cl.prefixed = c == lcLogger
			got := a.continues(&cl)
			if w := want.takes[c] == 'T'; got != w {
				t.Errorf("state %s, class %s (rule %s): %q continues: %v, want %v", s, c, rules[s][c], classSamples[c], got, w)
			}
		}
	}
}

// rowNames returns the names of state s's rules, in class order.
func rowNames(s state) string {
	names := make([]string, numClasses)
	for c := range names {
		names[c] = rules[s][c].String()
	}
	return strings.Join(names, " ")
}

// TestAdvance checks the phase a taken line moves an entry to.
func TestAdvance(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  state
	}{
		{"traceback opens frames", []string{"Traceback (most recent call last):"}, stFrames},
		{"frame", []string{"Traceback (most recent call last):", `  File "a.py", line 1, in f`}, stFrame},
		{"source line after a frame", []string{"Traceback (most recent call last):", `  File "a.py", line 1, in f`, "    f()"}, stFrames},
		{"unindented source line after a frame", []string{"Traceback (most recent call last):", `  File "a.py", line 1, in f`, "f()"}, stFrames},
		{"exception line", []string{"Traceback (most recent call last):", `  File "a.py", line 1, in f`, "    f()", "ValueError: x"}, stException},
		{"note after the exception", []string{"Traceback (most recent call last):", `  File "a.py", line 1, in f`, "    f()", "ValueError: x", "    note"}, stException},
		{"chain", []string{"Traceback (most recent call last):", `  File "a.py", line 1, in f`, "    f()", "ValueError: x", "", "During handling of the above exception, another exception occurred:"}, stChain},
		{"next link", []string{"Traceback (most recent call last):", `  File "a.py", line 1, in f`, "    f()", "ValueError: x", "", "During handling of the above exception, another exception occurred:", "", "Traceback (most recent call last):"}, stFrames},
		{"group", []string{"  + Exception Group Traceback (most recent call last):", `  |   File "g.py", line 1, in m`}, stFrame},
		{"record announcing its traceback", []string{"2024-01-01 12:00:00,123 - app - ERROR - failed:", "Traceback (most recent call last):"}, stFrames},
		{"sglang message with its traceback", []string{"[2026-07-01 09:31:38 TP0] Scheduler hit an exception: Traceback (most recent call last):", `  File "/sgl/s.py", line 4, in run`, "    f()", "RuntimeError: boom"}, stSGLangException},
		{"header-less line with an indented line", []string{"warnings.warn(", "  x"}, stRaw},
		{"one-line record keeps its state", []string{`{"level":"ERROR","msg":"Traceback (most recent call last):"}`}, stOneLine},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := NewAssembler(Options{})
			for i, l := range tc.lines {
				a.Push(Line{Text: l, Offset: int64(i + 1)})
			}
			if a.cur.st != tc.want {
				t.Errorf("state %s, want %s", a.cur.st, tc.want)
			}
			checkState(t, a)
		})
	}
}

// checkState checks that the pending entry's state agrees with what opened
// it and with the traceback it holds.
func checkState(t *testing.T, a *Assembler) {
	t.Helper()
	p := &a.cur
	if !p.active {
		return
	}
	ok := false
	switch p.kind {
	case kindBlank:
		ok = p.st == stBlank
	case kindNative:
		ok = p.st.native()
	case kindRaw:
		ok = p.st == stRaw || p.st >= stFrames
	case kindHeader:
		ok = p.st.sglang() || p.st == stOneLine || p.st == stRecord || p.st >= stFrames
	}
	if !ok {
		t.Fatalf("an entry of kind %d is in state %s", p.kind, p.st)
	}
	if p.st != stOneLine && (statePhase[p.st] != phNone) != p.hasTB {
		t.Fatalf("state %s with hasTB %v", p.st, p.hasTB)
	}
}

// machineVocabulary are the lines FuzzMachine builds streams from: a line
// of every class, the lines that lead into every state, and the lines the
// rules that hold in every state read.
var machineVocabulary = func() []string {
	v := []string{"", "", "  ", "\t"}
	v = append(v, classSamples[:]...)
	for _, setup := range stateSetups {
		v = append(v, setup...)
	}
	return append(v,
		"ImportError: ",
		"Exception ignored in: <function f at 0x1>",
		"failed to load the model:",
		"  | ValueError: v",
		"  +-+---------------- 1 ----------------",
		"    ^^^^^^",
		"  [Previous line repeated 996 more times]",
		"CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
		"torch.distributed.DistBackendError: NCCL error in: a.cpp:81, unhandled system error, NCCL version 2.21.5",
		"ncclSystemError: System call failed.",
		"Last error:",
		"(EngineCore_DP0 pid=9) ERROR 07-01 09:31:38 [core.py:718] EngineCore hit an exception:",
		"(EngineCore_DP0 pid=9) ERROR 07-01 09:31:38 [core.py:718] Traceback (most recent call last):",
		`(EngineCore_DP0 pid=9) ERROR 07-01 09:31:38 [core.py:718]   File "/vllm/core.py", line 705, in run`,
		"(EngineCore_DP0 pid=9) ERROR 07-01 09:31:38 [core.py:718] RuntimeError: CUDA error",
		"(EngineCore_DP0 pid=9) ERROR 07-01 09:31:38 [core.py:718] ",
		"(APIServer pid=1) INFO 07-01 09:31:39 [loggers.py:123] Engine 000: Avg prompt throughput: 1.0 tokens/s",
		"> [2025-11-06T02:10:00.702Z] Traceback (most recent call last):",
		`> [2025-11-06T02:10:00.702Z]   File "a.py", line 1, in f`,
		"> [2025-11-06T02:10:00.702Z] ValueError: x",
		"2025-06-06T19:02:40.751Z DEBUG dynamo_run::subprocess: Traceback (most recent call last):",
		`2025-06-06T19:02:40.751Z DEBUG dynamo_run::subprocess:   File "/tmp/x", line 202, in init`,
		"2025-06-06T19:02:40.751Z DEBUG dynamo_run::subprocess: RuntimeError: x",
		"2024-11-27T20:59:27.057718Z ERROR shard-manager: text_generation_launcher: Shard complete standard error output:",
		" rank=0",
		"2024-11-27T20:59:27.157718Z ERROR text_generation_launcher: Shard 0 failed to start",
		"2024-11-27T20:59:27.257718Z  INFO text_generation_launcher: Shutting down shards",
		"Error: ShardCannotStart",
		"note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
		"kshell.c:3:10: fatal error: kernel/error.h: No such file or directory",
		" #include \"kernel/error.h\"",
		"          ^~~~~~~~~~~~~~~~",
		"[rank1]:[E825 10:26:44.056376840 ProcessGroupNCCL.cpp:1828] x",
		"terminate called after throwing an instance of 'c10::DistBackendError'",
		"  what():  y",
		"frame #0: z",
		"Killed",
	)
}()

// FuzzMachine drives the state machine with streams of lines of every class
// and state (each input byte picks one): no line is lost or doubled, the
// entries come out in order, and after every line the pending entry's state
// agrees with what opened it and with its traceback.
func FuzzMachine(f *testing.F) {
	for _, seed := range []string{
		"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c",
		"\x1d\x1e\x1f\x20\x21\x22\x23\x24\x25\x26\x27\x28\x29\x2a\x2b\x2c\x2d\x2e\x2f",
		"\x30\x31\x32\x33\x34\x35\x36\x37\x38\x39\x3a\x3b\x3c\x3d\x3e\x3f",
		"\x40\x41\x42\x43\x44\x45\x46\x47\x48\x49\x4a\x4b\x4c\x4d\x4e\x4f\x50\x51\x52\x53",
	} {
		f.Add([]byte(seed))
	}
	o := Options{MaxLines: 20, MaxBytes: 2048, MaxLineBytes: 256, Reference: time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)}
	f.Fuzz(func(t *testing.T, picks []byte) {
		a := NewAssembler(o)
		var got []Entry
		for i, b := range picks {
			l := machineVocabulary[int(b)%len(machineVocabulary)]
			got = append(got, a.Push(Line{Text: l, Offset: int64(i + 1)})...)
			checkState(t, a)
		}
		got = append(got, a.Flush()...)
		if a.Pending() {
			t.Fatal("pending after flush")
		}
		next, sum := int64(1), 0
		for _, e := range got {
			if e.FirstOffset != next || e.LastOffset < e.FirstOffset || int64(e.Lines) != e.LastOffset-e.FirstOffset+1 {
				t.Fatalf("entry %d-%d (%d lines) does not follow line %d", e.FirstOffset, e.LastOffset, e.Lines, next-1)
			}
			next = e.LastOffset + 1
			sum += e.Lines
		}
		if sum != len(picks) {
			t.Fatalf("entries hold %d lines, pushed %d", sum, len(picks))
		}
	})
}
