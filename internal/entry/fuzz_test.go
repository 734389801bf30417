package entry

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fuzzSeeds are hand-written inputs for every shape, plus (added by
// addCorpusSeeds) the golden inputs and the conformance samples.
var fuzzSeeds = []string{
	"[2026-07-01 09:31:38 DP0 TP0] Decode batch, #running-req: 31\n[2026-07-01 09:31:39 DP0 TP0] Prefill out of memory.\nTry to allocate 8192 tokens.",
	"[2026-03-17 17:31:52 TP0] Scheduler hit an exception: Traceback (most recent call last):\n  File \"s.py\", line 1, in f\n    f()\n    ^^^\nRuntimeError: x\n\n[2026-03-17 17:31:53] Received sigquit",
	"Traceback (most recent call last):\n  File \"a.py\", line 1, in f\nKeyError: 'k'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"b.py\", line 2, in g\nValueError",
	"  + Exception Group Traceback (most recent call last):\n  |   File \"g.py\", line 1, in m\n  | ExceptionGroup: g (1 sub-exception)\n  +-+---------------- 1 ----------------\n    | ValueError: v\n    +------------------------------------",
	"  File \"<stdin>\", line 1\n    1+\n     ^\nSyntaxError: invalid syntax",
	"Fatal Python error: Segmentation fault\n\nThread 0x00007f (most recent call first):\n  File \"t.py\", line 1 in w\n\nKilled",
	"[rank1]:[E825 10:26:44.056376840 ProcessGroupNCCL.cpp:1828] x\nterminate called after throwing an instance of 'c10::DistBackendError'\n  what():  y\nException raised from f at a.cpp:1 (most recent call first):\nframe #0: z",
	"n:1:2 [0] NCCL WARN x\nI0820 02:41:20.446154 710 t.cpp:422] y\nMemory access fault by GPU node-2 (Agent handle: 0x1)\nAborted (core dumped)",
	"[ERROR] 2025-09-19-14:34:08 (PID:5625, Device:0, RankID:-1) ERR00100 PTA call acl api failed.\nEZ9999: Inner Error!\n        TraceBack (most recent call last):",
	"(TP0 pid=9, ip=10.0.0.1) \x1b[31m[2025-07-02 07:41:59 DP7 TP7] x\x1b[0m [repeated 3x across cluster]\nsglang-1  | 05-28 00:11:09.816 > [12-16 14:27:08] y",
	"2025-11-05T01:56:54.243403Z  INFO scheduler.__init__: x\n026-05-28 00:11:09.816 DP0 TP0 EP0] y\n[16:53:16] z\nINFO:     127.0.0.1:1 - \"GET / HTTP/1.1\" 200 OK",
	"2023-07-09 00:00:00,000 ERROR    app p: Traceback (most recent call last):\n  File \"a.py\", line 1, in f\nException: x\n\xff\xfe\x00",
	"\n\n\n",
	"",
}

// addCorpusSeeds adds the golden inputs and, when shared/ is present, the
// conformance samples.
func addCorpusSeeds(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	for _, pattern := range []string{
		filepath.Join("testdata", "golden", "*.log"),
		filepath.Join(conformanceDir, "tracebacks", "*.log"),
	} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(string(b))
			}
		}
	}
}

// FuzzAssemble checks that no input panics, every pushed line is in exactly
// one entry, entries come out in order, and every entry stays within the
// bounds.
func FuzzAssemble(f *testing.F) {
	addCorpusSeeds(f)
	o := Options{MaxLines: 20, MaxBytes: 2048, MaxLineBytes: 256, Reference: time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)}
	f.Fuzz(func(t *testing.T, data string) {
		a := NewAssembler(o)
		lines := strings.Split(data, "\n")
		var got []Entry
		for i, l := range lines {
			got = append(got, a.Push(Line{Text: l, Offset: int64(i + 1)})...)
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
			if !strings.HasSuffix(e.Raw, e.Text) || !strings.HasPrefix(e.Text, e.Message) {
				t.Fatalf("text %q is not the tail of raw %q or does not start with message %q", e.Text, e.Raw, e.Message)
			}
			if len(e.Raw) > o.MaxBytes {
				t.Fatalf("entry of %d bytes, bound %d", len(e.Raw), o.MaxBytes)
			}
			if n := strings.Count(e.Raw, "\n") + 1; n > o.MaxLines+1 {
				t.Fatalf("entry of %d lines, bound %d", n, o.MaxLines)
			}
			if e.Traceback != nil {
				checkTracebackBounds(t, e.Traceback)
			}
		}
		if sum != len(lines) {
			t.Fatalf("entries hold %d lines, pushed %d", sum, len(lines))
		}
	})
}

// FuzzParseTraceback checks that no input panics and the result is bounded.
func FuzzParseTraceback(f *testing.F) {
	addCorpusSeeds(f)
	f.Fuzz(func(t *testing.T, data string) {
		tb := ParseTraceback(strings.Split(data, "\n"))
		if tb == nil {
			return
		}
		if len(tb.Links) == 0 {
			t.Fatal("non-nil traceback without links")
		}
		checkTracebackBounds(t, tb)
		if !strings.Contains(data, tbStart) && !strings.Contains(data, "File \"") && !strings.Contains(data, "Exception Group Traceback") {
			t.Fatalf("traceback parsed from input with no traceback marker: %+v", tb)
		}
	})
}

// FuzzParseLine checks the per-line parsers: no panics, and what they return
// is a part of their input.
func FuzzParseLine(f *testing.F) {
	for _, s := range fuzzSeeds {
		for _, l := range strings.Split(s, "\n") {
			f.Add(l)
		}
	}
	ref := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, line string) {
		text, prefix := stripWrappers(line)
		if !strings.ContainsAny(line, "\x1b\r") && !strings.HasPrefix(line, prefix+text) {
			t.Fatalf("stripWrappers(%q) = %q, %q: not a part of the line", line, text, prefix)
		}
		if h, ok := parseHeader(text, ref, time.UTC); ok && !strings.HasSuffix(text, h.msg) {
			t.Fatalf("parseHeader(%q): message %q is not its tail", text, h.msg)
		}
		parseNative(text, ref, time.UTC)
		if typ, msg, ok := parseExceptionLine(text); ok && !strings.HasPrefix(text, typ) || !strings.HasSuffix(text, msg) {
			t.Fatalf("parseExceptionLine(%q) = %q, %q", text, typ, msg)
		}
		if len(line) > 64 {
			cut, n := cutLine(line, 64+markerReserve)
			if len(cut) > 64+2*markerReserve || n <= 0 {
				t.Fatalf("cutLine kept %d bytes, removed %d", len(cut), n)
			}
		}
	})
}

func checkTracebackBounds(t *testing.T, tb *Traceback) {
	t.Helper()
	if len(tb.Links) > MaxLinks {
		t.Fatalf("%d links, bound %d", len(tb.Links), MaxLinks)
	}
	for _, l := range tb.Links {
		if len(l.Frames) > MaxFrames {
			t.Fatalf("%d frames, bound %d", len(l.Frames), MaxFrames)
		}
	}
}
