package entry

import (
	"strings"
	"testing"
	"time"
)

// The shapes real pastes give a log's layout: a launcher's label in front
// of every line, pm2's column, a pager's "^M", a code span opened before
// the paste, a user's format that repeats its header on every line of a
// record, a CANN burst with torch_npu's notice inside, and a line a
// terminal cut twice at one width.
func TestLayoutShapes(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // each entry's first line of Text
	}{
		{"host label on a CANN burst",
			"worker-1: EH9999: 2024-07-03-11:28:40.450.757  wait for compute device to finish failed, runtime result = 107020.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]\n" +
				"worker-1:         TraceBack (most recent call last):\n" +
				"worker-1:  (function npuSynchronizeDevice)\n" +
				"worker-1: [W NPUStream.cpp:365] Warning: NPU warning, error code is 107020[Error]: .\n" +
				"worker-1: EH9999: Inner Error!\n" +
				"worker-1:         rtDeviceSynchronize execute failed, reason=[task timeout][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n",
			[]string{"EH9999: 2024-07-03-11:28:40.450.757  wait for compute device to finish failed, runtime result = 107020.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]"}},
		{"a program's name and a compiler driver are no host label",
			"python3: ../nptl/pthread_mutex_lock.c:81: __pthread_mutex_lock: Assertion `mutex->__data.__owner == 0' failed.\n" +
				"gcc-12: error: unrecognized command-line option '-mavx512'\n",
			[]string{"python3: ../nptl/pthread_mutex_lock.c:81: __pthread_mutex_lock: Assertion `mutex->__data.__owner == 0' failed.", "gcc-12: error: unrecognized command-line option '-mavx512'"}},
		{"pm2's column after a code span opened on the header",
			"`[2025-04-11 15:03:19 TP0] TpModelWorkerClient hit an exception: Traceback (most recent call last):\n" +
				"3|qwen  |   File \"/sgl/managers/tp_worker_overlap_thread.py\", line 112, in forward_thread_func\n" +
				"3|qwen  |     self.forward_thread_func_()\n",
			[]string{"TpModelWorkerClient hit an exception: Traceback (most recent call last):"}},
		{"pm2's column on every line, a record's first line among them",
			"0|sglang  | [2025-04-11 15:03:19 TP0] Load weight begin. avail mem=78.50 GB\n" +
				"0|sglang  | Traceback (most recent call last):\n" +
				"0|sglang  |   File \"/sgl/x.py\", line 1, in f\n" +
				"0|sglang  | RuntimeError: boom\n",
			// An sglang record takes the bare traceback right after it.
			[]string{"Load weight begin. avail mem=78.50 GB"}},
		{"a code span closing alone at the end of a later line",
			"`Traceback (most recent call last):\n" +
				"  File \"/sgl/x.py\", line 1, in f\n" +
				"    g()\n" +
				"RuntimeError: boom`\n",
			[]string{"Traceback (most recent call last):"}},
		{"a code span opened on a Rust backtrace's first frame",
			"`  25:     0x7fb7396a2659 - sglang_router_rs::router::Router::wait_for_healthy_workers::hee2d9a52d3a5ed31\n" +
				"                               at /root/sglang/sgl-router/src/router.rs:319:27\n" +
				"  26:     0x7fb7394af227 - sglang_router_rs::pd_router::PDRouter::new::hf603ebd66d3a8a81\n",
			[]string{"  25:     0x7fb7396a2659 - sglang_router_rs::router::Router::wait_for_healthy_workers::hee2d9a52d3a5ed31"}},
		{"a code span opened on a traceback's first frame",
			"`  File \"/sgl/x.py\", line 1, in f\n" +
				"    g()\n" +
				"RuntimeError: boom`\n",
			[]string{`  File "/sgl/x.py", line 1, in f`}},
		{"a backtick, a space and prose keep the backtick",
			"` see the log below for what failed\n",
			[]string{"` see the log below for what failed"}},
		{"inline code in prose keeps its backtick",
			"`foo` failed to start\n",
			[]string{"`foo` failed to start"}},
		{"a user's format on every line of a record, with a pager's ^M",
			"2025-06-18 13:43:34 ERROR 31423 [ TP6 PP0 scheduler.py:2547] Scheduler hit an exception: Traceback (most recent call last):^M\n" +
				"2025-06-18 13:43:34 ERROR 31423 [ TP6 PP0 scheduler.py:2547]   File \"/sgl/managers/scheduler.py\", line 2528, in run_scheduler_process^M\n" +
				"2025-06-18 13:43:34 ERROR 31423 [ TP6 PP0 scheduler.py:2547]     scheduler.event_loop_pp()^M\n" +
				"2025-06-18 13:43:35 INFO 31423 [ TP0 PP0 scheduler.py:900] Decode batch. #running-req: 1^M\n",
			[]string{"Scheduler hit an exception: Traceback (most recent call last):", "Decode batch. #running-req: 1"}},
		{"a frame line rejoined from its pieces opens the traceback it is read in",
			"[2025-12-05 17:08:49 DP2 TP2 EP2] Scheduler hit an exception: Traceback (most re\n" +
				"cent call last):\n" +
				"  File \"/sgl-workspace/sglang/python/sglang/srt/model_executor/cuda_graph_runner\n" +
				".py\", line 344, in __init__\n" +
				"    self.capture()\n",
			[]string{"Scheduler hit an exception: Traceback (most recent call last):"}},
		{"a line cut twice at one width, between two capitals",
			"[rank7]:[E226 11:16:37.170295281 ProcessGroupNCCL.cpp:616] [Rank 7] Watchdog caught collective operation timeout: WorkNC\n" +
				"CL(SeqNum=5653, OpType=ALLREDUCE, NumelIn=58720256, NumelOut=58720256, Timeout(ms)=600000) ran for 600077 milliseconds b\n" +
				"efore timing out.\n",
			[]string{"[E226 11:16:37.170295281 ProcessGroupNCCL.cpp:616] [Rank 7] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5653, OpType=ALLREDUCE, NumelIn=58720256, NumelOut=58720256, Timeout(ms)=600000) ran for 600077 milliseconds before timing out."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := NewAssembler(Options{Reference: time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)})
			var got []string
			for i, l := range strings.Split(strings.TrimSuffix(tt.in, "\n"), "\n") {
				for _, e := range a.Push(Line{Text: l, Offset: int64(i + 1)}) {
					got = append(got, firstLine(e.Text))
				}
			}
			for _, e := range a.Flush() {
				got = append(got, firstLine(e.Text))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("entries begin\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// TestLocatedBracketRanks reads a user format's rank tokens into the
// entry's ranks.
func TestLocatedBracketRanks(t *testing.T) {
	n, r := locatedBracket("31423 [ TP6 PP0 scheduler.py:2547] msg")
	if n != len("31423 [ TP6 PP0 scheduler.py:2547] ") || r.TP != 6 || r.PP != 0 || r.DP != -1 {
		t.Errorf("locatedBracket = %d, %+v", n, r)
	}
	for _, s := range []string{"[scheduler.py] x", "31423 scheduler.py:2547] x", "[a.go:12] x", "[x.py:12]y"} {
		if n, _ := locatedBracket(s); n != 0 {
			t.Errorf("locatedBracket(%q) = %d, want 0", s, n)
		}
	}
}

// FuzzIsTwinBreak checks the rule's promises on any pair of lines: the
// two are as long as each other and at least minWrapWidth, the break is
// inside a token, and the rest is no traceback or exception line.
func FuzzIsTwinBreak(f *testing.F) {
	f.Add("[rank7]:[E226 11:16:37.170295281 ProcessGroupNCCL.cpp:616] [Rank 7] Watchdog caught collective operation timeout: WorkNC",
		"CL(SeqNum=5653, OpType=ALLREDUCE, NumelIn=58720256, NumelOut=58720256, Timeout(ms)=600000) ran for 600077 milliseconds b")
	f.Fuzz(func(t *testing.T, prev, next string) {
		if !isTwinBreak(prev, next, len(prev), len(next)) {
			return
		}
		if len(prev) != len(next) || len(prev) < minWrapWidth || !isWordByte(prev[len(prev)-1]) || !isWordByte(next[0]) || isTracebackLine(next) || isFrameLine(next) {
			t.Fatalf("isTwinBreak(%q, %q): bounds, token or traceback line", prev, next)
		}
		if _, _, ok := parseExceptionAnyQuote(next); ok {
			t.Fatalf("isTwinBreak(%q, %q): an exception line", prev, next)
		}
	})
}

// FuzzIsFuncNameRest checks the rule's promises: only the rest of a frame
// line at least minWrapWidth long, a lone unindented name.
func FuzzIsFuncNameRest(f *testing.F) {
	f.Add(`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1748, in run_scheduler_pro`, "cess")
	f.Fuzz(func(t *testing.T, prev, next string) {
		if !isFuncNameRest(prev, next) {
			return
		}
		if len(prev) < minWrapWidth || !isFrameLine(prev) || next == "" || strings.ContainsAny(next, " \t(=.") || isTracebackLine(next) {
			t.Fatalf("isFuncNameRest(%q, %q): not the rest of a frame line", prev, next)
		}
	})
}

func TestFrameAndSourceRests(t *testing.T) {
	for _, tt := range []struct {
		name       string
		prev, next string
		frame, src bool
	}{
		{"fold -s after File", "  File ", `"/home/u/miniconda3/envs/azr/lib/python3.10/site-packages/x.py", line 1, in f`, true, false},
		{"cut inside the path", `  File "/gf3/home/lei/zhenghao/Autoplanner/test/manual_pp/manual_transformer_2_8`, `_4.py", line 240, in pure_forward`, true, false},
		{"word-wrapped before the line", `  File "/root/miniconda3/envs/exo/lib/python3.12/site-packages/huggingface_hub/_snapshot_download.py", `, "line 226, in ", true, false},
		{"cut inside the line number", `  File "/root/anaconda3/envs/sglang/lib/python3.10/site-packages/torch/utils/_contextlib.py", line 1`, "16, in decorate_context", true, false},
		// Cut right after the line number, the rest opens with the
		// comma (sglang#5576 at 80 columns, LMCache#860 at 80).
		{"cut after the line number", `  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 260`, ", in __init__", true, false},
		{"cut after the line number, vLLM", `  File "/usr/local/lib/python3.12/dist-packages/vllm/worker/worker.py", line 510`, ", in init_worker_distributed_environment", true, false},
		{"a SyntaxError's frame, then a comma's line", `  File "/srv/app/configs/launch_settings_for_the_serving_cluster.py", line 12`, ", in", false, false},
		{"a SyntaxError's frame, then its source line", `  File "/srv/app/configs/launch_settings_for_the_serving_cluster.py", line 12`, "    x = = 1", false, false},
		{"a SyntaxError's frame, then a number of its own", `  File "/srv/app/configs/launch_settings_for_the_serving_cluster.py", line 12`, "16 workers started", false, false},
		{"a frame line whole", `  File "/x.py", line 1, in f`, "g()", false, false},
		{"a line that opens as a frame but is none", "  File a report", `"/x.py"`, false, false},
		{"a source line cut", "    return AllGatherFunc.forward(None, tensor, self.tensor_comm_dim, self.proces", "s_group)", false, true},
		{"fold -s's short piece of a source line", "    batch_result = ", "self.model_worker.forward_batch_generation(", false, true},
		{"the exception line after a source line", "    return AllGatherFunc.forward(None, tensor, self.tensor_comm_dim, self.process)", "RuntimeError: boom", false, false},
		{"the next frame", "    return f(x)", `  File "/x.py", line 2, in g`, false, false},
	} {
		if got := isFrameRest(tt.prev, tt.next); got != tt.frame {
			t.Errorf("%s: isFrameRest = %v, want %v", tt.name, got, tt.frame)
		}
		if got := isSourceRest(tt.prev, tt.next); got != tt.src {
			t.Errorf("%s: isSourceRest = %v, want %v", tt.name, got, tt.src)
		}
	}
}

// FuzzFrameRest checks the rules' promises: a frame rest makes prev and
// next (the start of) one frame line, and a source rest follows an
// indented line and is no exception or traceback line.
func FuzzFrameRest(f *testing.F) {
	f.Add("  File ", `"/x.py", line 1, in f`)
	f.Add("    return f(self.proces", "s_group)")
	f.Fuzz(func(t *testing.T, prev, next string) {
		if isFrameRest(prev, next) {
			j := strings.TrimLeft(prev, " \t") + next
			if _, ok := parsePartialFrame(j); !ok && !isFrameLine(j) {
				t.Fatalf("isFrameRest(%q, %q): %q is no frame line", prev, next, j)
			}
		}
		if isSourceRest(prev, next) {
			if !strings.HasPrefix(prev, "    ") || isIndented(next) || isTracebackLine(next) || isFrameLine(next) {
				t.Fatalf("isSourceRest(%q, %q): not a source line's rest", prev, next)
			}
			if _, _, ok := parseExceptionAnyQuote(next); ok {
				t.Fatalf("isSourceRest(%q, %q): an exception line", prev, next)
			}
		}
	})
}

func TestIsLongTokenRest(t *testing.T) {
	for _, tt := range []struct {
		prev, next string
		want       bool
	}{
		{"[2025-04-14 03:56:41] Unexpected code in http response, GET ", "http://10.6.131.5:8998/metadata?key=mooncake%2Fram%2F10.6.131.6_58f33e4e", true},
		{"ImportError: ", "/home/miniconda3/envs/webdancer/lib/python3.12/site-packages/sgl_kernel/common_ops.abi3.so: undefined symbol: x", true},
		{"subprocess.CalledProcessError: Command ", "'['/usr/local/lib/python3.12/dist-packages/triton/backends/nvidia/bin/ptxas']' returned 255", true},
		{"ImportError:", "/home/miniconda3/envs/webdancer/lib/python3.12/site-packages/sgl_kernel/common_ops.abi3.so", false},
		{"GET ", "/short", false},
		{"a line that ends in two spaces  ", "/home/miniconda3/envs/webdancer/lib/python3.12/site-packages/x.py", false},
		{"Traceback follows: ", "/home/miniconda3/envs/webdancer/lib/python3.12/site-packages/x.py", true},
		{"x ", `  File "/home/miniconda3/envs/webdancer/lib/python3.12/site-packages/x.py", line 1, in f`, false},
	} {
		if got := isLongTokenRest(tt.prev, tt.next); got != tt.want {
			t.Errorf("isLongTokenRest(%q, %q) = %v, want %v", tt.prev, tt.next, got, tt.want)
		}
	}
}

// FuzzLongTokenRest checks the rule's promises: prev ends in one space,
// next opens with a long token and is no traceback or exception line.
func FuzzLongTokenRest(f *testing.F) {
	f.Add("GET ", "http://10.6.131.5:8998/metadata?key=mooncake%2Fram")
	f.Fuzz(func(t *testing.T, prev, next string) {
		if !isLongTokenRest(prev, next) {
			return
		}
		if !strings.HasSuffix(prev, " ") || strings.HasSuffix(prev, "  ") || len(firstWord(next)) < minLongToken || isIndented(next) || isTracebackLine(next) || isFrameLine(next) {
			t.Fatalf("isLongTokenRest(%q, %q): not a long token after a wrap's space", prev, next)
		}
		if _, _, ok := parseExceptionAnyQuote(next); ok {
			t.Fatalf("isLongTokenRest(%q, %q): an exception line", prev, next)
		}
	})
}

func TestIsMarkerRest(t *testing.T) {
	for _, tt := range []struct {
		prev, next string
		want       bool
	}{
		{"[2025-01-16 10:11:13 TP0] Scheduler hit an exception: Traceback (most recent call la", "st):", true},
		{"Traceback (most rec", "ent call last):", true},
		{"During handling of the above exception, another exc", "eption occurred:", true},
		{"Traceback (most recent call la", "st): x", false},
		{"Traceb", "ack (most recent call last):", false},
		{"[2025-01-16 10:11:13 TP0] Scheduler hit an exception: ", "Traceback (most recent call last):", true},
		{"[2025-01-16 10:11:13 TP0] Scheduler hit an exception:", "Traceback (most recent call last):", false},
		{"something else entirely, ending la", "st):", false},
	} {
		if got := isMarkerRest(tt.prev, tt.next); got != tt.want {
			t.Errorf("isMarkerRest(%q, %q) = %v, want %v", tt.prev, tt.next, got, tt.want)
		}
	}
}

// FuzzMarkerRest checks the rule's promise: prev ends with the start of a
// traceback marker and next is the rest of it.
func FuzzMarkerRest(f *testing.F) {
	f.Add("x Traceback (most recent call la", "st):")
	f.Fuzz(func(t *testing.T, prev, next string) {
		if !isMarkerRest(prev, next) {
			return
		}
		for _, m := range []string{tbStart, sepCause, sepContext} {
			if strings.HasSuffix(m, next) && strings.HasSuffix(prev, m[:len(m)-len(next)]) {
				return
			}
		}
		t.Fatalf("isMarkerRest(%q, %q): no marker", prev, next)
	})
}

func TestBracketRests(t *testing.T) {
	for _, tt := range []struct {
		s             string
		opens, closes bool
	}{
		{"        rtDeviceSynchronize execute failed, reason=[task ", true, false},
		{"timeout][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]", false, true},
		{"[2025-01-16 10:11:13 TP0] Decode batch", false, false},
		{"  [x] indented", false, false},
	} {
		if got := opensBracket(tt.s); got != tt.opens {
			t.Errorf("opensBracket(%q) = %v, want %v", tt.s, got, tt.opens)
		}
		if got := closesBracket(tt.s); got != tt.closes {
			t.Errorf("closesBracket(%q) = %v, want %v", tt.s, got, tt.closes)
		}
	}
}

// A traceback whose lines a wrap cut is parsed from the lines rejoined.
func TestRejoinedTracebackParsed(t *testing.T) {
	a := NewAssembler(Options{})
	var es []Entry
	for i, l := range []string{
		"[2025-12-05 17:08:49 DP2 TP2 EP2] Scheduler hit an exception: Traceback (most re",
		"cent call last):",
		`  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/cuda_graph_runner`,
		`.py", line 344, in __init__`,
		"    self.capture()",
	} {
		es = append(es, a.Push(Line{Text: l, Offset: int64(i + 1)})...)
	}
	es = append(es, a.Flush()...)
	if len(es) != 1 || es[0].Traceback == nil || len(es[0].Traceback.Links) != 1 || len(es[0].Traceback.Links[0].Frames) != 1 ||
		es[0].Traceback.Links[0].Frames[0].Func != "__init__" {
		t.Fatalf("entries %+v, want one whose traceback has the frame __init__", es)
	}
}
