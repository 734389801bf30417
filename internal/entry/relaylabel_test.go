package entry

import (
	"strings"
	"testing"
)

func TestSourceLabelPrefixes(t *testing.T) {
	for _, c := range []struct {
		s    string
		want string // the prefixes wrapperPrefixesLen takes off, "" for none
	}{
		// A hosting console's deployment log, live and as saved.
		{"[vllm]: (VllmWorkerProcess pid=92) ERROR 07-29 13:23:24 multiproc_worker_utils.py:226] RuntimeError: x", "[vllm]: (VllmWorkerProcess pid=92) "},
		{"[vllm]: [rank0]: Traceback (most recent call last):", "[vllm]: [rank0]: "},
		{"[sglang]: sglang: [2025-01-16 10:11:13 TP0] Scheduler hit an exception:", "[sglang]: sglang: "},
		{"[sglang]: sglang:", "[sglang]: sglang:"},
		{"[vllm]: ", "[vllm]: "},
		{"[vllm]:", "[vllm]:"},
		{"[llama.cpp]: ggml_cuda_init: failed to initialize CUDA: unknown error", "[llama.cpp]: "},
		// The same name after the label is the line's own when no colon
		// follows it.
		{"[vllm]: vllm serve failed", "[vllm]: "},
		// podman-compose's service column, padded.
		{"[sglang] | [2025-01-16 10:11:13 TP0] x", "[sglang] | "},
		{"[db]     | x", "[db]     | "},
		{"[sglang] |", "[sglang] |"},
		// Akash's lease-logs: the pod, then the time kubectl adds, behind
		// the lease's own label or alone.
		{"[sglang-64bcb5d547-fblkv] 2025-11-06T02:10:00.702513093Z Traceback (most recent call last):", "[sglang-64bcb5d547-fblkv] 2025-11-06T02:10:00.702513093Z "},
		{"[akash1f53/4815131/1/1/akash14c4][web-7d44bb6d6f-n9cbk] x", "[akash1f53/4815131/1/1/akash14c4][web-7d44bb6d6f-n9cbk] "},
		// SkyPilot's job log.
		{"(head, rank=0, pid=2345) [2025-01-16 10:11:13 TP0] x", "(head, rank=0, pid=2345) "},
		{"(worker1, rank=1, pid=2345, ip=10.0.0.2) Traceback (most recent call last):", "(worker1, rank=1, pid=2345, ip=10.0.0.2) "},
		{"(sky-cmd, pid=2345) x", "(sky-cmd, pid=2345) "},
		{"(VllmWorker rank=0 pid=123) x", "(VllmWorker rank=0 pid=123) "},
		// svlogd's and s6-log's times, and s6-log's after its TAI64N label.
		{"2025-11-06_02:10:00.702513000 [2025-01-16 10:11:13 TP0] x", "2025-11-06_02:10:00.702513000 "},
		{"2025-11-06T02:10:00.702513000 Traceback (most recent call last):", "2025-11-06T02:10:00.702513000 "},
		{"2025-11-06 02:10:00.702513093  Traceback (most recent call last):", "2025-11-06 02:10:00.702513093  "},
		{"@4000000069...2c605e45 x", ""},
		{"@400000006907fa5829e0a3c5 2025-11-06 02:10:00.702513093  x", "@400000006907fa5829e0a3c5 2025-11-06 02:10:00.702513093  "},

		// A record's own bracketed level, a writer's tag, a time.
		{"[ERROR]: failed to load", ""},
		{"[error]: failed to load", ""},
		{"[E]: x", ""},
		{"[Warning] | x", ""},
		{"[TensorRT-LLM][ERROR] Assertion failed", ""},
		{"[TRT-LLM] [E] x", ""},
		{"[Gloo] Rank 0 is connected to 1 peer ranks", ""},
		{"[Errno 111] Connection refused", ""},
		{"[W socket.cpp:464] [c10d] The server socket has failed to bind", ""},
		{"[sglang-router] x", ""},
		{"[]: x", ""},
		{"[vllm]:x", ""},
		{"[a/b][web-7d44bb6d6f-n9cbk]x", ""},
		{"[web][web-7d44bb6d6f-n9cbk] x", ""},
		// Other tools' times: a record's own, with its zone or a comma;
		// one space after nine digits and a space between date and time.
		{"2025-11-06 02:10:00,702 - launcher - INFO - x", ""},
		{"2025-11-06 02:10:00.702513093 INFO x", ""},
		{"2025-11-06_02:10:00.702513 x", ""},
		{"2025-11-06_02:10:00.702513000x", ""},
		// SkyPilot's shape needs its comma after the name and the rank.
		{"(head rank=0, pid=2345) x", ""},
		{"(head, rank=0 pid=2345) x", ""},
		{"(head, x, pid=2345) x", ""},
	} {
		n := wrapperPrefixesLen(c.s)
		if got := c.s[:n]; got != c.want {
			t.Errorf("wrapperPrefixesLen(%q) = %q, want %q", c.s, got, c.want)
		}
	}
}

// TestSourceLabelLines assembles a deployment log behind each relay's
// label as the bare log: the same entries, the same times.
func TestSourceLabelLines(t *testing.T) {
	const bare = "(VllmWorkerProcess pid=92) ERROR 07-29 13:23:24 multiproc_worker_utils.py:226] RuntimeError: NCCL error: unhandled system error\n" +
		"[2025-01-16 10:11:13 TP0] Scheduler hit an exception: Traceback (most recent call last):\n" +
		"  File \"/sgl/python/sglang/srt/managers/scheduler.py\", line 2345, in run_scheduler_process\n" +
		"    scheduler.event_loop_overlap()\n" +
		"RuntimeError: CUDA error: out of memory\n" +
		"\n" +
		"[2025-01-16 10:11:14 TP0] Received sigquit from a child process. It usually means the child failed.\n"
	want := assembleText(t, bare)
	for name, label := range map[string]func(string) string{
		"akash-console":       func(s string) string { return "[vllm]: " + s },
		"akash-saved":         func(s string) string { return "[vllm]: vllm: " + s },
		"podman-compose":      func(s string) string { return "[sglang] | " + s },
		"skypilot-head":       func(s string) string { return "(head, rank=0, pid=2345) " + s },
		"skypilot-worker":     func(s string) string { return "(worker1, rank=1, pid=2345, ip=10.0.0.2) " + s },
		"svlogd-tt":           func(s string) string { return "2025-01-16_10:11:13.702513000 " + s },
		"s6-log-T":            func(s string) string { return "2025-01-16 10:11:13.702513093  " + s },
		"akash-lease-logs":    func(s string) string { return "[sglang-64bcb5d547-fblkv] " + s },
		"s6-log-tai64n-and-T": func(s string) string { return "@400000006907fa5829e0a3c5 2025-01-16 10:11:13.702513093  " + s },
	} {
		var b strings.Builder
		for _, l := range strings.SplitAfter(bare, "\n") {
			if l != "" {
				b.WriteString(label(l))
			}
		}
		got := assembleText(t, b.String())
		if len(got) != len(want) {
			t.Errorf("%s: %d entries, want %d", name, len(got), len(want))
			continue
		}
		for i := range want {
			if got[i].Text != want[i].Text || !got[i].Time.Equal(want[i].Time) {
				t.Errorf("%s: entry %d = %q at %v, want %q at %v", name, i, got[i].Text, got[i].Time, want[i].Text, want[i].Time)
			}
		}
	}
}

// assembleText assembles text's lines as one stream and flushes.
func assembleText(t *testing.T, text string) []Entry {
	t.Helper()
	a := NewAssembler(Options{})
	var out []Entry
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		out = append(out, a.Push(Line{Text: l, Offset: int64(i)})...)
	}
	return append(out, a.Flush()...)
}

// FuzzSourceLabel checks the relay labels and supervisor times end inside
// the line, after the byte that closes them.
func FuzzSourceLabel(f *testing.F) {
	for _, s := range []string{
		"[vllm]: x",
		"[vllm]: vllm: x",
		"[vllm]: vllm:",
		"[vllm]:",
		"[s] | x",
		"[s]   |",
		"[ERROR]: x",
		"[a/b][web-7d44bb6d6f-n9cbk] x",
		"[web-7d44bb6d6f-n9cbk] x",
		"2025-11-06_02:10:00.702513000 x",
		"2025-11-06 02:10:00.702513093  x",
		"2025-11-06T02:10:00.702513000 ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 1 && s[0] == '[' && isLetter(s[1]) {
			n := sourceLabelLen(s)
			if n < 0 || n > len(s) || n > 0 && s[n-1] != ' ' && s[n-1] != ':' && s[n-1] != ']' && s[n-1] != '|' {
				t.Fatalf("sourceLabelLen(%q) = %d", s, n)
			}
			if n > 0 && strings.IndexByte(s[:n], ']') < 0 {
				t.Fatalf("sourceLabelLen(%q) = %d: no label closed", s, n)
			}
		}
		if n := supervisorTimeLen(s); n != 0 && (n > len(s) || s[n-1] != ' ' || !isDate(s[:10])) {
			t.Fatalf("supervisorTimeLen(%q) = %d", s, n)
		}
		if n := wrapperPrefixesLen(s); n < 0 || n > len(s) {
			t.Fatalf("wrapperPrefixesLen(%q) = %d", s, n)
		}
	})
}
