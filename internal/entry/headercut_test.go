package entry

import (
	"strings"
	"testing"
)

// TestCaretRest: a traceback's caret line a terminal cut inside its marks
// goes on with its rest at the first column (vllm-ascend's worker and
// vLLM's nixl connector, behind their records' repeated headers); marks
// that are indented are a caret line of their own, and marks after a
// source line are no rest.
func TestCaretRest(t *testing.T) {
	for _, tt := range []struct {
		prev, next string
		want       bool
	}{
		{"                        ^^^^^^^^^^^^^", "^^^^^^^^^^^^^^^", true},
		{"                               ^^^^^", "^^^^^", true},
		{"                          ~~~~~~~~~~~~~~~~~~~~~~~~~~~^^^^", "^^^^^^^^^^^^", true},
		{"                        ^^^^^^^^^^^^^", "           ^^^^^^^^^^^^^^^", false}, // indented: its own
		{"    fused_moe_results = self.no_shared_forward_impl(", "^^^^^", false},
		{"^^^^^^^^", "^^^^^", false}, // no mark at the first column before
		{"                        ^^^^^^^^^^^^^", "^^^ ^^^", false},
	} {
		if got := isCaretRest(tt.prev, tt.next); got != tt.want {
			t.Errorf("isCaretRest(%q, %q) = %v, want %v", tt.prev, tt.next, got, tt.want)
		}
	}
	for _, tt := range []struct{ name, line, caret string }{
		{"vllm-ascend worker", "(Worker_DP0_TP0_EP0 pid=2089224) ERROR 08-27 08:35:04 [multiproc_executor.py:1000]     fused_moe_results = self.no_shared_forward_impl(",
			"(Worker_DP0_TP0_EP0 pid=2089224) ERROR 08-27 08:35:04 [multiproc_executor.py:1000]                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^"},
		{"vLLM nixl connector", "(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263]     self._remote_agents[eid] = f.result()",
			"(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263]                                ^^^^^^^^^^"},
	} {
		width := len(tt.caret) - 5
		in := "Traceback (most recent call last):\n" + tt.line + "\n" + tt.caret[:width] + "\n" + tt.caret[width:]
		es := assemble(t, Options{}, in)
		var text string
		for _, e := range es {
			text += e.Text + "\n"
		}
		if strings.Contains(text, "\n^^^") {
			t.Errorf("%s: the caret line's rest stands alone:\n%s", tt.name, text)
		}
	}
}

// TestCutLoggerLocation: a record's header a terminal cut inside its
// logger's location, before the stream taught the terminal's width, is
// read whole: a vLLM worker's "[multiproc_executor.py:100" and "0]
// ..." (vllm-ascend), Ray core's "logging.cc:4" and "84: *** SIGSEGV
// ..." (a vLLM Ray worker) and "logging.cc:3" and "61: *** SIGABRT ..."
// (a verl WorkerDict), whose rest is no task's label. A label that is
// one, on two lines of a task's output, stays a prefix.
func TestCutLoggerLocation(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		width    int
		msg      string
		entries  int
	}{
		{"vLLM worker location", "(Worker_DP0_TP0_EP0 pid=2089224) ERROR 08-27 08:35:04 [multiproc_executor.py:1000]     fused_moe_results = self.no_shared_forward_impl(\n" +
			"(Worker_DP0_TP0_EP0 pid=2089224) ERROR 08-27 08:35:04 [multiproc_executor.py:1000]                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" +
			"(Worker_DP0_TP0_EP0 pid=2089224) ERROR 08-27 08:35:04 [multiproc_executor.py:1000]   File \"/vllm-workspace/vllm-ascend/vllm_ascend/ops/fused_moe/fused_moe.py\", line 647, in no_shared_forward_impl",
			80, "    fused_moe_results = self.no_shared_forward_impl(", 1},
		{"Ray core line number, vLLM worker", "(RayWorkerWrapper pid=376235, ip=10.10.10.61) [2025-04-27 02:52:27,217 E 376235 377651] logging.cc:484: *** SIGSEGV received at time=1745722347 on cpu 48 ***\n" +
			"(RayWorkerWrapper pid=376235, ip=10.10.10.61) [2025-04-27 02:52:27,217 E 376235 377651] logging.cc:484: PC: @     0x7f7e7ba49b8a  (unknown)  addProxyOpIfNeeded()\n" +
			"(RayWorkerWrapper pid=376235, ip=10.10.10.61) [2025-04-27 02:52:27,219 E 376235 377651] logging.cc:484:     @     0x7fafd625d520       3744  (unknown)",
			100, "*** SIGSEGV received at time=1745722347 on cpu 48 ***", 1},
		{"Ray core line number, verl WorkerDict", "(WorkerDict pid=124799) [2025-05-19 13:48:05,850 E 124799 140771] logging.cc:361: *** SIGABRT received at time=1747633685 on cpu 74 ***\n" +
			"(WorkerDict pid=124799) [2025-05-19 13:48:05,850 E 124799 140771] logging.cc:361: PC: @     0x7f6d68247e87  (unknown)  raise\n" +
			"(WorkerDict pid=124799) [2025-05-19 13:48:05,851 E 124799 140771] logging.cc:361:     @     0x7f6d660dd070  (unknown)  (unknown)",
			80, "*** SIGABRT received at time=1747633685 on cpu 74 ***", 1},
	} {
		es := assemble(t, Options{}, termCut(tt.in, tt.width))
		if len(es) != tt.entries {
			t.Errorf("%s: %d entries, want %d: %+v", tt.name, len(es), tt.entries, es)
			continue
		}
		if es[0].Message != tt.msg || strings.Contains(es[0].Text, "logging.cc") || strings.Contains(es[0].Text, "executor.py") {
			t.Errorf("%s: message %q, text %q; want %q, the headers left out", tt.name, es[0].Message, es[0].Text, tt.msg)
		}
	}
	// srun's labels on two lines of a task's output after a whole Ray
	// core record: the labels are a prefix, the lines no rest.
	const labelled = "[2025-05-19 13:48:05,850 E 124799 140771] logging.cc:361: *** SIGABRT received at time=1747633685 on cpu 74 ***\n" +
		"61: INFO 05-19 13:48:06 worker started\n61: INFO 05-19 13:48:07 worker ready"
	es := assemble(t, Options{}, labelled)
	if len(es) < 2 || strings.Contains(es[0].Text, "worker started") {
		t.Errorf("labelled lines after a whole record: %+v", es)
	}
}

// FuzzCutRests checks the promises of the rests this file's rules read:
// a caret rest is marks alone at the first column after an indented
// caret line, and a line number's rest opens with digits, ": " and text.
func FuzzCutRests(f *testing.F) {
	f.Add("                        ^^^^^^^^^^^^^", "^^^^^^^^^^^^^^^")
	f.Add("[2025-04-27 02:52:27,217 E 376235 377651] logging.cc:4", "84: *** SIGSEGV received at time=1745722347 on cpu 48 ***")
	f.Fuzz(func(t *testing.T, prev, next string) {
		if isCaretRest(prev, next) && (!IsCaretLine(prev) || !IsCaretLine(next) || isIndented(next) || !isIndented(prev)) {
			t.Fatalf("isCaretRest(%q, %q): no caret line's pieces", prev, next)
		}
		if isCutLevelHead(next) {
			w, rest, _ := strings.Cut(next, " ")
			if !isLevelWord(w) || len(rest) > maxCutClock || strings.ContainsAny(rest, "[]()abcdefghijklmnopqrstuvwxyz") {
				t.Fatalf("isCutLevelHead(%q): no level and cut clock", next)
			}
		}
		if lineNumberRest(next) {
			i := strings.IndexByte(next, ':')
			if i <= 0 || strings.Trim(next[:i], "0123456789") != "" || !strings.HasPrefix(next[i:], ": ") || len(next) <= i+2 {
				t.Fatalf("lineNumberRest(%q): no line number's rest", next)
			}
		}
	})
}

// TestCutLevelHeadOpensRecord: a record's header a terminal cut right
// after its level or inside its time, behind a Ray actor's prefix, is
// the next record's first line, not a line of the record before it
// (vllm-ascend's Ray worker: an INFO record, then the ERROR record that
// fails); the same record's header repeated and cut so (verl's vLLM
// worker) stays a line of its record.
func TestCutLevelHeadOpensRecord(t *testing.T) {
	const next = "(EngineCore_DP0 pid=35189) (RayWorkerWrapper pid=6592, ip=100.119.13.45) INFO 12-12 05:11:33 [torchair_model_runner.py:283] Capturing torchair graph, this usually takes 1.0~3.0 mins.\n" +
		"(EngineCore_DP0 pid=35189) (RayWorkerWrapper pid=6592, ip=100.119.13.45) ERROR 12-12 05:11:33 [worker_base.py:275] Error executing method 'compile_or_warm_up_model'. This might cause deadlock in distributed execution."
	for _, width := range []int{79, 80, 84} {
		es := assemble(t, Options{}, termCut(next, width))
		if len(es) != 2 || es[1].Level != LevelError || !strings.HasPrefix(es[1].Message, "Error executing method") {
			t.Errorf("cut at %d: %d entries, want the INFO record and the ERROR one: %+v", width, len(es), es)
		}
	}
	const same = "(vLLMHttpServerForPartial pid=1007413) (Worker_TP3 pid=1024473) ERROR 03-04 05:42:52 [multiproc_executor.py:824]     self._load_w13(\n" +
		"(vLLMHttpServerForPartial pid=1007413) (Worker_TP3 pid=1024473) ERROR 03-04 05:42:52 [multiproc_executor.py:824]     loaded_weight = loaded_weight.narrow("
	if es := assemble(t, Options{}, termCut(same, 80)); len(es) != 1 {
		t.Errorf("one record's lines cut at 80: %d entries, want 1: %+v", len(es), es)
	}
	for s, want := range map[string]bool{
		"ERROR": true, "ERROR 1": true, "INFO 12-12 05:1": true, "WARNING 2025-11-19 12:16": true,
		"ERROR in app": false, "INFO:": false, "ERRORS 1": false, "ERROR 1 of 3 ranks failed": false, "": false,
	} {
		if got := isCutLevelHead(s); got != want {
			t.Errorf("isCutLevelHead(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestLabelledRecordNoRest: sglang's record behind a launcher's task label
// the stream has not taught yet is a record of its own, never the rest of
// the line before it (srun's padded label before a paste's backtick-opened
// sigquit line, sglang#10272; srun's label after c10d's socket warning,
// sglang#4096).
func TestLabelledRecordNoRest(t *testing.T) {
	for name, in := range map[string]string{
		"padded label after a backtick": " 3: `[2025-09-10 12:15:24] Received sigquit from a child process. It usually means the child failed.\n" +
			" 3: [2025-09-10 12:15:24 TP4 PP1] Scheduler hit an exception: Traceback (most recent call last):\n" +
			" 3:   File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 2582, in run_scheduler_process",
		"label after a c10d warning": "0: [rank2]:[W305 03:55:35.259029653 socket.cpp:462] [c10d]\n" +
			"0: [2025-03-05 03:55:55 TP0] Scheduler hit an exception: Traceback (most recent call last):\n" +
			"0:   File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 1787, in run_scheduler_process",
	} {
		es := assemble(t, Options{}, in)
		var rec *Entry
		for i := range es {
			if strings.HasPrefix(es[i].Message, "Scheduler hit an exception") {
				rec = &es[i]
			}
		}
		if rec == nil || rec.Format != FormatSRT || rec.Traceback == nil {
			t.Errorf("%s: no sglang record of its own with its traceback: %+v", name, es)
		}
	}
}
