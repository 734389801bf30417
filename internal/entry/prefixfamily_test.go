package entry

import (
	"fmt"
	"strings"
	"testing"
)

func TestFamilyPrefixLen(t *testing.T) {
	tests := []struct {
		in   string
		want string // the prefix; "" when none
		rank string
	}{
		{"3: Traceback (most recent call last):", "3: ", "rank 3"},
		{" 3: [2025-11-06 02:10:00] Load weight end.", " 3: ", "rank 3"},
		{"12:   File \"x.py\", line 1, in f", "12: ", "rank 12"},
		{"[1,3]<stderr>:RuntimeError: boom", "[1,3]<stderr>:", "rank 3"},
		{"[0,12]<stdout>: INFO started", "[0,12]<stdout>: ", "rank 12"},
		{"[12] Traceback (most recent call last):", "[12] ", "rank 12"},
		{"1812:ValueError: bad", "1812:", ""},
		{"server.log:1812:ValueError: bad", "server.log:1812:", ""},
		{"logs/run-3/out:7:Traceback (most recent call last):", "logs/run-3/out:7:", ""},
		{"2025-11-06 02:10:00.702 | ERROR x", "2025-11-06 02:10:00.702 | ", ""},
		{"2025-11-06T02:10:00.702Z | ERROR x", "2025-11-06T02:10:00.702Z | ", ""},
		{"vllm-sm120  | (APIServer pid=1) ERROR x", "vllm-sm120  | ", ""},
		{"ollama | time=2025 level=INFO", "ollama | ", ""},
		{"1813:2025-05-03 23:03:33,244 xinference.core.worker 141 ERROR x", "1813:", ""},
		{"2024-06-02 00:26:10 | ERROR | stderr | Traceback (most recent call last):", "2024-06-02 00:26:10 | ERROR | stderr | ", ""},
		{"2024-06-02 00:26:10 | INFO | model_worker | Loading the model", "2024-06-02 00:26:10 | INFO | model_worker | ", ""},
		{"2024-06-02 00:26:10 | ERROR | stderr |   File \"x.py\", line 1, in f", "2024-06-02 00:26:10 | ERROR | stderr | ", ""},
		// Not a prefix family.
		{"| a | b |", "", ""},
		{"model|size", "", ""},
		{"12:34:56 INFO started", "", ""},
		{"12:345 ratio", "", ""},
		{"2024-06-02 00:26:10 | ERROR |stderr| x", "2024-06-02 00:26:10 | ", ""},
		{"ERROR: out of memory", "", ""},
		{"RuntimeError: CUDA error", "", ""},
		{"cuda:0: device", "", ""},
		{"http://host:8000/v1", "", ""},
		{"3: ", "", ""},
		{"3:", "", ""},
		{"123456: six digits", "", ""},
		{"[1,3]<stdin>:x", "", ""},
		{"[1]<stderr>:x", "", ""},
		{"2025-11-06 02:10:00 INFO x", "", ""},
		{"a b.log:12:x", "", ""},
	}
	for _, tt := range tests {
		n := familyPrefixLen(tt.in)
		if got := tt.in[:n]; got != tt.want {
			t.Errorf("familyPrefixLen(%q): prefix %q, want %q", tt.in, got, tt.want)
		}
		if n > 0 {
			if got := familyRank(tt.in[:n]); got != tt.rank {
				t.Errorf("familyRank(%q) = %q, want %q", tt.in[:n], got, tt.rank)
			}
		}
	}
}

// TestAssemblerLearnsPrefixFamilies: a stream whose every line carries a
// launcher's, an MPI tag's, grep's or a log viewer's prefix is read as the
// stream without it, and a rank the prefix names is the entries' process.
func TestAssemblerLearnsPrefixFamilies(t *testing.T) {
	body := []string{
		"Loading model weights",
		"Traceback (most recent call last):",
		`  File "/srv/model_runner.py", line 12, in load`,
		"    raise ValueError(\"bad config\")",
		"ValueError: bad config",
		"Shutting down",
	}
	tests := []struct {
		name string
		wrap func(n int) string
		proc string
	}{
		{"task label", func(int) string { return "3: " }, "rank 3"},
		{"padded task label", func(int) string { return " 7: " }, "rank 7"},
		{"mpirun tag", func(int) string { return "[1,5]<stderr>:" }, "rank 5"},
		{"mpiexec -prepend-rank", func(int) string { return "[5] " }, "rank 5"},
		{"grep -n", func(n int) string { return itoa(1812+n) + ":" }, ""},
		{"grep -Hn", func(n int) string { return "worker.log:" + itoa(40+n) + ":" }, ""},
		{"named compose service", func(int) string { return "vllm-server  | " }, ""},
		{"viewer pipe", func(n int) string { return "2025-11-06 02:10:0" + itoa(n) + ".702 | " }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			for n, l := range body {
				b.WriteString(tt.wrap(n) + l + "\n")
			}
			es := assemble(t, Options{}, strings.TrimSuffix(b.String(), "\n"))
			var exc *Entry
			for i := range es {
				if strings.Contains(es[i].Raw, "ValueError: bad config") {
					exc = &es[i]
				}
				if strings.Contains(es[i].Raw, tt.wrap(0)) && tt.wrap(0) != "" {
					t.Errorf("entry %d keeps the prefix in its text: %q", i, es[i].Raw)
				}
			}
			if exc == nil {
				t.Fatalf("no entry holds the exception: %+v", prefixViews(es))
			}
			if exc.Traceback == nil || exc.Traceback.Links[len(exc.Traceback.Links)-1].Type != "ValueError" {
				t.Errorf("traceback not read behind the prefix: %q", exc.Raw)
			}
			if exc.Process != tt.proc {
				t.Errorf("process %q, want %q", exc.Process, tt.proc)
			}
		})
	}
}

// TestAssemblerLearnsNoFamilyFromOneLine: a line that only looks like a
// prefix family, among lines that do not, is content.
func TestAssemblerLearnsNoFamilyFromOneLine(t *testing.T) {
	in := strings.Join([]string{
		"INFO 11-06 02:10:00 [api_server.py:1] Top reasons:",
		"1: cache hit",
		"INFO 11-06 02:10:01 [api_server.py:1] done",
		"2: cache miss",
		"INFO 11-06 02:10:02 [api_server.py:1] done",
	}, "\n")
	for _, e := range assemble(t, Options{}, in) {
		if e.Prefix != "" || e.Process != "" {
			t.Errorf("learned a prefix from lone lines: prefix %q process %q in %q", e.Prefix, e.Process, e.Raw)
		}
	}
}

// TestAssemblerKeepsRanksApart: two ranks' tracebacks interleaved behind
// their task labels are two entries, each of its own rank.
func TestAssemblerKeepsRanksApart(t *testing.T) {
	in := strings.Join([]string{
		"0: Traceback (most recent call last):",
		"1: Traceback (most recent call last):",
		`0:   File "/srv/worker.py", line 7, in run`,
		`1:   File "/srv/worker.py", line 7, in run`,
		"0:     step()",
		"1:     step()",
		"0: RuntimeError: NCCL error on rank 0",
		"1: RuntimeError: NCCL error on rank 1",
	}, "\n")
	procs := map[string]string{}
	for _, e := range assemble(t, Options{}, in) {
		if strings.Contains(e.Raw, "NCCL error on rank") {
			procs[e.Process] = e.Raw
			if strings.Contains(e.Raw, "rank 0") == strings.Contains(e.Raw, "rank 1") {
				t.Errorf("an entry mixes the ranks: %q", e.Raw)
			}
		}
	}
	if !strings.Contains(procs["rank 0"], "rank 0") || !strings.Contains(procs["rank 1"], "rank 1") {
		t.Errorf("entries by process: %q", procs)
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func FuzzFamilyPrefix(f *testing.F) {
	for _, s := range []string{
		"3: x", " 3: x", "[1,3]<stderr>:x", "[0,0]<stdout>: x", "1812:x",
		"a.log:1:x", "2025-11-06 02:10:00.702 | x", "12:34:56 x", "[1,", "9:",
		"     1\tx", "      12 x", "  1 x", "1\t", "        123456789 x",
		"gpu-node-3\tx", "a@b\t",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := familyPrefixLen(s)
		if n < 0 || n > len(s) || n > maxFamilyPrefix {
			t.Fatalf("familyPrefixLen(%q) = %d", s, n)
		}
		if n == 0 {
			return
		}
		if !isLearnablePrefix(s[:n]) {
			t.Fatalf("family prefix %q is not learnable", s[:n])
		}
		if isBlank(s[n:]) {
			t.Fatalf("family prefix %q of a line with nothing after it", s[:n])
		}
		if r := familyRank(s[:n]); r != "" && !strings.HasPrefix(r, "rank ") {
			t.Fatalf("familyRank(%q) = %q", s[:n], r)
		}
	})
}

// TestAssemblerRightAlignedLabels: a launcher that pads its task labels to
// the widest one (srun --label with ten tasks or more: " 3: " beside
// "12: "), pdsh-style hosts aside, interleaves the tasks' lines out of
// order; each label is one shape, so every line loses it and each task's
// lines are an entry of their own rank.
func TestAssemblerRightAlignedLabels(t *testing.T) {
	in := strings.Join([]string{
		"29: srun: Job 9479148 step creation still disabled, retrying (Requested nodes are busy)",
		" 6: srun: Job 9479148 step creation still disabled, retrying (Requested nodes are busy)",
		"12: Traceback (most recent call last):",
		` 3: RuntimeError: CUDA error: out of memory`,
		`12:   File "/srv/model_runner.py", line 12, in load`,
		"12: ValueError: bad config",
		"  101: RuntimeError: x",
	}, "\n")
	es := assemble(t, Options{}, in)
	var got []string
	for _, e := range es {
		got = append(got, e.Process+"|"+e.Message)
	}
	want := []string{
		"rank 29|srun: Job 9479148 step creation still disabled, retrying (Requested nodes are busy)",
		"rank 6|srun: Job 9479148 step creation still disabled, retrying (Requested nodes are busy)",
		"rank 12|Traceback (most recent call last):",
		"rank 3|RuntimeError: CUDA error: out of memory",
		// The traceback's rest, its frame and exception line, after
		// another task's line: one entry of rank 12.
		"rank 12|  File \"/srv/model_runner.py\", line 12, in load",
		"rank 101|RuntimeError: x",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	a, b := make([]byte, 0, 8), make([]byte, 0, 8)
	a, b = a[:shapeOf(a, " 3: ")], b[:shapeOf(b, "12: ")]
	if string(a) != string(b) || matchShape("   7: x", []byte{shapeLabel, ':', ' '}) != 6 || matchShape("     7: x", []byte{shapeLabel, ':', ' '}) != 0 {
		t.Error("a right-aligned label is not one shape")
	}
}

// TestLineGutters: the line numbers a viewer shows, copied with the lines
// (cat -n and nl, less -N, an editor's number column), are a family
// prefix, and two lines in a row teach it, across the numbers' widths: a
// traceback copied with them is read as the traceback.
func TestLineGutters(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want int
	}{
		{"     1\tTraceback (most recent call last):", 7},
		{"    12\t  File \"/a.py\", line 3, in f", 7},
		{"      1 [2025-11-06 02:10:00 TP0] x", 8},
		{"  9 KeyError: 'x'", 4},
		{"123\tx", 4},
		// A number in a message's first columns is no gutter.
		{"12 files changed", 0},
		{" 3 x", 0},
		{"  12  x", 5},
		{"    42 + x", 7},
	} {
		if got := lineGutterLen(tt.s); got != tt.want {
			t.Errorf("lineGutterLen(%q) = %d, want %d", tt.s, got, tt.want)
		}
	}
	tb := []string{
		"Traceback (most recent call last):",
		`  File "/sgl/python/sglang/srt/managers/scheduler.py", line 2345, in run_scheduler_process`,
		`    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)`,
		`  File "/sgl/python/sglang/srt/model_executor/model_runner.py", line 12, in load`,
		`    raise ValueError("bad config")`,
		"ValueError: bad config",
	}
	for _, gutter := range []string{"%6d\t", "%7d ", "%3d "} {
		var lines []string
		for i, l := range tb {
			lines = append(lines, fmt.Sprintf(gutter, i+7)+l)
		}
		es := assemble(t, Options{}, strings.Join(lines, "\n"))
		if len(es) != 1 || es[0].Traceback == nil || es[0].Traceback.Outermost().Type != "ValueError" || len(es[0].Traceback.Outermost().Frames) != 2 {
			t.Errorf("gutter %q: %d entries, want one traceback of ValueError with 2 frames: %+v", gutter, len(es), es)
		}
	}
}

// TestAssemblerFamilyLabelBeforeRecordTraceback: a record whose lines
// each repeat its header (vLLM's workers), behind a label on every line:
// its first line carries the label alone as evidence, its second the
// traceback behind label and header. The label is learned from the two,
// and the first line is read again without it, as the record that opens
// the traceback (vllm-project/vllm#41863's NIXL handshake failure,
// OpenRLHF/OpenRLHF's Ray worker method error).
func TestAssemblerFamilyLabelBeforeRecordTraceback(t *testing.T) {
	records := []struct {
		name string
		body []string
		msg  string
	}{
		{"nixl", []string{
			"(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263] NIXL transfer failure: handshake_setup_failed | Context: {'failure_type': 'handshake_setup_failed', 'request_id': None}",
			"(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263] Traceback (most recent call last):",
			`(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263]   File "/usr/lib/python3.12/concurrent/futures/_base.py", line 449, in result`,
			"(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263]     return self.__get_result()",
		}, "NIXL transfer failure: handshake_setup_failed"},
		{"ray worker", []string{
			"(LLMRayActor pid=43469) ERROR 11-28 02:28:01 worker_base.py:466] Error executing method update_weight. This might cause deadlock in distributed execution.",
			"(LLMRayActor pid=43469) ERROR 11-28 02:28:01 worker_base.py:466] Traceback (most recent call last):",
			`(LLMRayActor pid=43469) ERROR 11-28 02:28:01 worker_base.py:466]   File "/home/jianh/.local/lib/python3.10/site-packages/vllm/worker/worker_base.py", line 458, in execute_method`,
			"(LLMRayActor pid=43469) ERROR 11-28 02:28:01 worker_base.py:466]     return executor(*args, **kwargs)",
		}, "Error executing method update_weight"},
	}
	labels := []struct {
		name string
		wrap func(n int) string
	}{
		{"cat -n", func(n int) string { return fmt.Sprintf("%6d\t", n+1) }},
		{"less -N", func(n int) string { return fmt.Sprintf("%7d ", n+1) }},
		{"editor", func(n int) string { return fmt.Sprintf("%3d ", n+1) }},
		{"padded task label", func(int) string { return " 3: " }},
		{"task label", func(int) string { return "3: " }},
		{"grep -n", func(n int) string { return itoa(1812+n) + ":" }},
		{"parallel tag", func(int) string { return "gpu-node-3\t" }},
	}
	for _, r := range records {
		for _, l := range labels {
			var b strings.Builder
			for n, line := range r.body {
				b.WriteString(l.wrap(n) + line + "\n")
			}
			es := assemble(t, Options{}, strings.TrimSuffix(b.String(), "\n"))
			if len(es) != 1 || !strings.HasPrefix(es[0].Message, r.msg) || es[0].Traceback == nil {
				t.Errorf("%s behind %s: %+v, want one record %q with its traceback", r.name, l.name, prefixViews(es), r.msg)
			}
		}
	}
	// Near miss: a numbered line of prose before a labelled traceback
	// stays a line of its own.
	es := assemble(t, Options{}, "1: cache hit\nTraceback (most recent call last):\n  File \"a.py\", line 1, in f\nValueError: x")
	if len(es) != 2 {
		t.Errorf("prose then a traceback: %+v, want two entries", prefixViews(es))
	}
}
