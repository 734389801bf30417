package entry

import (
	"strings"
	"testing"
)

// Lines as Open MPI's --timestamp-output, stern, logcli's label sets and
// nested e-mail quotes relay them: the tool's prefix comes off and the line reads as its writer
// printed it, whichever writer it is (an sglang record, a Python
// exception, a glog line, a traceback's frame).
func TestToolPrefixes(t *testing.T) {
	lines := []string{
		"[2025-11-06 02:10:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
		`  File "/sgl/python/sglang/srt/managers/scheduler.py", line 2345, in run_scheduler_process`,
		"RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)",
		"E0326 14:23:05.675921 18944 rdma_context.cpp:265] Failed to register memory 0x7f105035d000: Input/output error [5]",
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.",
	}
	for _, p := range []string{
		"Thu Nov  6 02:10:00 2025[1,3]<stderr>:",
		"Sat Dec 13 23:59:59 2025[12,0]<stdout>:",
		"Thu Nov  6 02:10:00 2025<stderr>:",
		"Mon Jan 12 00:00:01 2026<stddiag>:",
		"sglang-0-5d8f7b9c4-x2x7q sglang ",
		"vllm-deepseek-r1-7b6c9fd8d5-w2z4k vllm-server ",
		"my.app-6f9b8c7d4-bn2xq main ",
		">> ",
		"> > ",
		">> > ",
		`{container="sglang", pod="sglang-0"} `,
		`{app="vllm",job="default/vllm"} `,
		`{filename="/var/log/sglang.log", msg="a \"quoted\" value"} `,
		"2025-11-06T02:10:00Z {container=\"sglang\"} ",
	} {
		for _, l := range lines {
			text, prefix := stripWrappers(p + l)
			if text != l || prefix != p {
				t.Errorf("stripWrappers(%q) = %q, %q; want %q, %q", p+l, text, prefix, l, p)
			}
		}
	}
}

// Lines that only look like a tool's prefix keep what they open with: a
// line's own words, a StatefulSet-like name (taught by the stream, not
// read by shape), a ctime without a stream tag, a Python prompt.
func TestToolPrefixesRefused(t *testing.T) {
	for _, s := range []string{
		"Thu Nov  6 02:10:00 2025 started the server",
		"Thu Nov  6 02:10:00 2025[1,3] x",
		"Thu Nov 36 02:10:00 2025<stderr>:x",
		"Thx Nov  6 02:10:00 2025<stderr>:x",
		"sglang-0 sglang starting",
		"worker-1 failed to connect to the store",
		"model-loader-abcdefgh-xyzwv main x", // vowels: no generated hash
		"sglang-0-5d8f7b9c4-x2x7q  x",        // no container name
		"sglang-0-5d8f7b9c4-x2x7q Sglang x",  // a container name is lower case
		"sglang-0-5d8f7b9c4-x2x7q -sglang x", // nor opens with a dash
		"sglang-0-5d8f7b9c4-x2x7 sglang x",   // a pod suffix has five characters
		"sglang-0-5d8f-x2x7q sglang x",       // a template hash at least six
		">>> import sglang",
		">>x",
		`{"level":"error","msg":"x"}`,
		`{container="sglang"}x`,
		`{container=sglang} x`,
		`{0a="x"} y`,
		`{a="x" b="y"} z`,
		`{a="unclosed} x`,
	} {
		if n := wrapperPrefixLen(s); n != 0 && (ctimeTagLen(s) > 0 || sternPodLen(s) > 0 || s[0] == '>' || s[0] == '{') {
			t.Errorf("wrapperPrefixLen(%q) = %d, want 0", s, n)
		}
	}
}

// A whole stream behind stern's prefix reads as the stream behind none:
// one traceback, its exception the entry's.
func TestSternStreamTraceback(t *testing.T) {
	const p = "sglang-0-5d8f7b9c4-x2x7q sglang "
	lines := []string{
		"[2025-11-06 02:10:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
		`  File "/sgl/python/sglang/srt/managers/scheduler.py", line 2345, in run_scheduler_process`,
		"    scheduler.event_loop_overlap()",
		"RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)",
	}
	got := assemble(t, Options{}, p+strings.Join(lines, "\n"+p))
	if len(got) != 1 || got[0].Traceback == nil || got[0].Traceback.Outermost().Type != "RuntimeError" {
		t.Fatalf("behind stern's prefix: %+v", got)
	}
}

// FuzzToolPrefix checks the tools' prefix readers on any line: no panic,
// a prefix within the line, and one that ends where its shape says (a
// ctime's tag at its colon, stern's names at a space, a quote at its
// marker or space).
func FuzzToolPrefix(f *testing.F) {
	for _, s := range []string{
		"Thu Nov  6 02:10:00 2025[1,3]<stderr>:x",
		"Thu Nov  6 02:10:00 2025<stdout>:",
		"Sun Feb 29 23:59:60 2032[99999999999,9999999]<stderr>: y",
		"sglang-0-5d8f7b9c4-x2x7q sglang x",
		"a-bcdfgh-22222 b ",
		">> x",
		">>",
		"> > >> x",
		`{a="b", c="d\"}"} x`,
		`{a="b"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n := ctimeTagLen(s); n < 0 || n > len(s) || n > 0 && s[n-1] != ':' {
			t.Fatalf("ctimeTagLen(%q) = %d", s, n)
		}
		if n := sternPodLen(s); n < 0 || n > len(s) || n > 0 && (s[n-1] != ' ' || strings.Count(s[:n], " ") != 2) {
			t.Fatalf("sternPodLen(%q) = %d", s, n)
		}
		if n := labelSetLen(s); n < 0 || n > len(s) || n > 0 && (s[0] != '{' || !strings.HasSuffix(s[:n], "}") && !strings.HasSuffix(s[:n], "} ")) {
			t.Fatalf("labelSetLen(%q) = %d", s, n)
		}
		if s != "" && s[0] == '>' {
			if n := quoteMarkerLen(s); n < 0 || n > 3 || n > len(s) || n > 0 && strings.Trim(s[:n], "> ") != "" {
				t.Fatalf("quoteMarkerLen(%q) = %d", s, n)
			}
		}
	})
}
