package entry

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/ascii"
)

// fuzzSeeds are hand-written inputs for every shape, plus (added by
// addCorpusSeeds) the golden inputs and the conformance samples.
var fuzzSeeds = []string{
	"[2026-07-01 09:31:38 DP0 TP0] Decode batch, #running-req: 31\n[2026-07-01 09:31:39 DP0 TP0] Prefill out of memory.\nTry to allocate 8192 tokens.",
	"[2026-03-17 17:31:52 TP0] Scheduler hit an exception: Traceback (most recent call last):\n  File \"s.py\", line 1, in f\n    f()\n    ^^^\nRuntimeError: x\n\n[2026-03-17 17:31:53] Received sigquit",
	"Traceback (most recent call last):\n  File \"a.py\", line 1, in f\nKeyError: 'k'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"b.py\", line 2, in g\nValueError",
	"  + Exception Group Traceback (most recent call last):\n  |   File \"g.py\", line 1, in m\n  | ExceptionGroup: g (1 sub-exception)\n  +-+---------------- 1 ----------------\n    | ValueError: v\n    +------------------------------------",
	"  + Exception Group Traceback (most recent call last):\n  | ExceptionGroup: o (2 sub-exceptions)\n  +-+---------------- 1 ----------------\n    | Exception Group Traceback (most recent call last):\n    | ExceptionGroup: i (1 sub-exception)\n    +-+---------------- 1 ----------------\n      | Traceback (most recent call last):\n      |   File \"g.py\", line 2, in n\n      | KeyError: 'k'\n      +------------------------------------\n    +---------------- 2 ----------------\n    | OSError: x\n    +------------------------------------",
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
	// Levels, bare exceptions, native GPU and compiler lines, learned prefixes.
	"[Router (Python)] 2024-11-25 21:28:33 - INFO - Launching DP server process 0 on port 31000\n[2024-04-11 10:31:54,306] [INFO] [real_accelerator.py:161:get_accelerator] x\n2025-05-30T00:35:01.153Z ERROR chat_completions: dynamo_llm::http::service::openai: Internal server error",
	"ImportError: /usr/local/lib/python3.11/dist-packages/sgl_kernel/common_ops.abi3.so: undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb\nFailed to load:\nValueError: x\n[2026-07-01 09:31:38 TP0] KeyError: 'k'",
	"Cuda failure 1 'invalid argument'\nFailed: /x/custom_all_reduce.cuh:310 'invalid argument'\nHIP error: hipErrorNoDevice\n:0:rocdevice.cpp            :2992: 1 us:  Callback: Queue 0x7d aborting with error : HSA_STATUS_ERROR\nEZ9999: Inner Error!\naclrtSetDevice: open device 0 failed",
	"kshell.c:3:10: fatal error: kernel/error.h: No such file or directory\n #include \"kernel/error.h\"\n          ^~~~~~~~~~~~~~~~\ncompilation terminated.\n/usr/bin/ld: cannot find -lcuda\ncollect2: error: ld returned 1 exit status\nkernel.cu(5): error: x\nerror: command 'gcc' failed with exit code 1",
	"> [2025-11-06T02:10:00.702Z] Traceback (most recent call last):\n> [2025-11-06T02:10:00.702Z]   File \"a.py\", line 1, in f\n> [2025-11-06T02:10:00.702Z] \n> [2025-11-06T02:10:00.703Z] ValueError: x",
	"    2025-06-06T19:02:40.751Z DEBUG dynamo_run::subprocess: Traceback (most recent call last):\n    2025-06-06T19:02:40.751Z DEBUG dynamo_run::subprocess:   File \"/tmp/x\", line 202, in init\n    2025-06-06T19:02:40.751Z DEBUG dynamo_run::subprocess: RuntimeError: x",
	"torch.distributed.DistBackendError: NCCL error in: a.cpp:81, unhandled system error, NCCL version 2.21.5\nncclSystemError: System call failed.\nLast error:\nError while creating shared memory segment /dev/shm/nccl-v (size 9)\nLast error:\nnccl: x\nncclX:",
	"[E ProcessGroupNCCL.cpp:455] Some NCCL operations have failed or timed out. Due to the asynchronous \nnature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data. [E \nterminate called after throwing an instance of 'std::runtime_error' what(): NCCL error: remote \nprocess exited\n",
	"`  25:     0x7fb7396a2659 - sglang_router_rs::router::Router::new::h9d5b\n                               at /r/src/router.rs:319:27\n`  File \"a.py\", line 1, in f\n` x\n",
	"ncclSystemError: System call failed. \nLast error:\n\nTraceback (most recent call last):\n  File \"a.py\", line 1, in f\nRuntimeError: x\nncclRemoteError: y\nLast error:\n",
	"Assertion failed: /x/internode.cu:483, condition: a >= b\npython3: ../nptl/m.c:81: f: Assertion `x == 0' failed.\nAssertion failed: i < n, file p.c, line 4\n        [Init][Compiler]Init compiler failed[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n[LINE:]\nThread 0x1 (most recent call first):\n  File \"a.py\", line 1 in fFatal Python error: \"Aborted",
	// Exception lines glued behind their frame's source line, UCX lines
	// with and without their time and process.
	"raise RuntimeError( RuntimeError: Cannot re-initialize CUDA in forked subprocess.  Initialization failed.\nreturn f(x) ^^^^ torch.OutOfMemoryError: y\nf(x) INFO (y) ValueError: z\nf(x) UserWarning: w",
	"[1784273406.684686] [host:994396:0]      ib_mlx5_dv.c:452  UCX  ERROR   mlx5dv_devx_obj_create(CQ) failed\nib_mlx5_dv.c:433  UCX  ERROR   Remote I/O error\n     gdaki.c:397  UCX  WARN  x\n[1.2] [h:1] a.c:1 UCX TRACE\nFatal Python error: Segmentation fault",
	"2025-03-07 23:50:27,531 - __main__ - INFO - [2025-03-07 23:50:27 TP0] a\n2025-03-07 23:50:27,531 - __main__ - INFO - [2025-03-07 23:50:27 TP0] b\n2025-03-07 23:50:27,532 - __main__ - WARNING - c",
	// Pastes that lead every line: a code block, a tab, a list item's
	// marker (an empty item's alone), and a lead learned after prose.
	"    [2025-01-16 10:11:13 TP0] x: Traceback (most recent call last):\n      File \"a.py\", line 1, in f\n        f()\n    \n    RuntimeError: y\n  z",
	"\tValueError: v\n\t\n\t  File \"a.py\", line 1 in f\nx\n\ty",
	"- Fatal Python error: Aborted\n-\n- Thread 0x1 (most recent call first):\n-   File \"a.py\", line 1 in f\n* x\n- ",
	"Here:\n* [2025-01-16 10:11:13] a\n* [2025-01-16 10:11:14] b\n*   File \"a.py\", line 1, in f\n* KeyError: 'k'",
	// A record whose lines repeat its header, behind a viewer's line
	// numbers: the first line's label learned from the traceback's.
	"     1\t(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263] NIXL transfer failure: handshake_setup_failed\n     2\t(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263] Traceback (most recent call last):\n     3\t(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263]   File \"a.py\", line 1, in f",
	// A box-drawn table whose last cell goes on over rows.
	"| tensorrt_llm   | 1       | UNAVAILABLE: [TensorRT-LLM][E |\n|                |         | RROR] Assertion failed: mpiSiz |\n|                |         | e == tp * pp                   |",
	// A terminal's hard wrap at 80 columns, prefix and all, twice at one
	// width and then inside a record before its traceback.
	"sglang-1  | [Gloo] Rank 1 is connected to 1 peer ranks. Expected number of conne\ncted peer ranks is : 1\nsglang-1  | [Gloo] Rank 0 is connected to 1 peer ranks. Expected number of conne\ncted peer ranks is : 1\nsglang-1  | [2025-01-16 10:11:13 TP0] Scheduler hit an exception while reading t\nhe batch: Traceback (most recent call last):\n  File \"a.py\", line 1, in f\nValueError: x",
	// Lines quoted whole as inline code (before an ellipsis, as list
	// items) and native lines a paste indented.
	"`E0326 14:23:05.675921 18944 rdma_context.cpp:265] Failed to register memory`...\n- `W0326 14:23:05.734648 1307 rdma_transport.cpp:400] x`\n`    scheduler.event_loop()`…\n  [ERROR] HCCL(893240,):2026-08-11-07:03:46.026.970 [e.cc:23] AICPU launch failed\n  RuntimeError: x",
	// Records whose message is on the line after their header: a time and
	// a level alone, java.util.logging's, journalctl -o verbose's.
	"2025-08-28 01:22:58 [ERROR]\n [m] Failed to parse tool call\nDec 06, 2026 3:51:02 PM a.B c\nSEVERE: x\njava.lang.RuntimeException: y\n\tat a.B.c(B.java:1)\nSat 2026-12-05 10:00:00.123456 UTC [s=1;i=2]\n    PRIORITY=3\n    MESSAGE=RuntimeError: z",
	// A traceback's tail behind a list item's two spaces, the exception
	// line telling the lead.
	"    File \"a.py\", line 1, in f\n      f()\n  ValueError: x\n\n  During handling of the above exception, another exception occurred:\n  KeyError: y",
	// Records stamped with the time of day alone and a level.
	"23:59:59.120 [main] ERROR c.e.M - x\n00:00:03,250 - ERROR - y\n[00:00:04] ERROR: z\n[00:00:06 WARN] w\n[00:00:07] v",
	// A log viewer's export: a time and a tab before Ray actors' lines.
	"2025-11-06T02:10:00.702Z\t(A pid=1) [2025-07-15 17:11:34] x\n2025-11-06T02:10:00.709Z\t(B pid=2) Error: y\n2025-11-06T02:10:00.716Z\t\t",
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
			checkTextAndMessage(t, &e)
			if len(e.Raw) > o.MaxBytes {
				t.Fatalf("entry of %d bytes, bound %d", len(e.Raw), o.MaxBytes)
			}
			if n := strings.Count(e.Raw, "\n") + 1; n > o.MaxLines+1 {
				t.Fatalf("entry of %d lines, bound %d", n, o.MaxLines)
			}
			if e.Traceback != nil {
				checkTracebackBounds(t, e.Traceback)
				if e.Traceback.Bare && (len(e.Traceback.Links) != 1 || len(e.Traceback.Links[0].Frames) != 0) {
					t.Fatalf("bare chain %+v", e.Traceback)
				}
			}
			if !validLevel(e.Level) {
				t.Fatalf("level %q is not normalised", e.Level)
			}
			if e.TimeGuessed && e.Time.IsZero() || e.TimeInherited && e.Time.IsZero() {
				t.Fatalf("a zero time is said to be guessed (%v) or inherited (%v)", e.TimeGuessed, e.TimeInherited)
			}
			if first := lines[e.FirstOffset-1]; !strings.ContainsAny(first, "\x1b\r") && len(first) <= o.MaxLineBytes && !strings.HasPrefix(first, e.Prefix) {
				t.Fatalf("prefix %q is not the start of line %q", e.Prefix, first)
			}
		}
		if a.learner.nShapes > maxLearnedShapes || a.learner.nCands > maxCandidates {
			t.Fatalf("learner holds %d shapes, %d candidates", a.learner.nShapes, a.learner.nCands)
		}
		if sum != len(lines) {
			t.Fatalf("entries hold %d lines, pushed %d", sum, len(lines))
		}
	})
}

// checkTextAndMessage checks how an entry's Text, Raw and Message relate:
// Text is the tail of Raw and starts with Message, except that a glog or c10d
// line's Text keeps its header in front of the message, and a key=value
// or JSON line's message is rebuilt from its fields (its Text starts
// with it, and its Raw holds the line as written).
func checkTextAndMessage(t *testing.T, e *Entry) {
	t.Helper()
	first, _, _ := strings.Cut(e.Text, "\n")
	switch {
	case e.Format == FormatSlog || e.Format == FormatJSON:
		if !strings.HasPrefix(e.Text, e.Message) {
			t.Fatalf("text %q does not start with message %q", e.Text, e.Message)
		}
	case e.Native == NativeGlog || e.Native == NativeC10d || e.Native == NativeLocated:
		if !strings.HasSuffix(e.Raw, e.Text) || !strings.HasSuffix(first, e.Message) {
			t.Fatalf("text %q is not the tail of raw %q or its first line does not end with message %q", e.Text, e.Raw, e.Message)
		}
	default:
		if !strings.HasSuffix(e.Raw, e.Text) || !strings.HasPrefix(e.Text, e.Message) {
			t.Fatalf("text %q is not the tail of raw %q or does not start with message %q", e.Text, e.Raw, e.Message)
		}
	}
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
		for _, l := range tb.Links {
			if l.MemberType != "" && (!l.Group || !strings.Contains(data, l.MemberType) || !strings.Contains(data, l.MemberMessage)) {
				t.Fatalf("member %q: %q not read from a group in the input", l.MemberType, l.MemberMessage)
			}
		}
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
		if !strings.ContainsAny(line, "\x1b\r&") && !strings.Contains(line, "](") && !strings.HasPrefix(line, prefix+text) {
			t.Fatalf("stripWrappers(%q) = %q, %q: not a part of the line", line, text, prefix)
		}
		if k := failureBehindPrefix(text, ref, time.UTC); k < 0 || k > maxLearnedPrefix || k > 0 && (k >= len(text) || !endsPrefixField(text[k-1])) {
			t.Fatalf("failureBehindPrefix(%q) = %d: not a prefix that ends a field", text, k)
		}
		h, ok := parseHeader(text, ref, time.UTC)
		if ok && h.format != FormatSlog && h.format != FormatJSON && !strings.HasSuffix(text, h.msg) {
			t.Fatalf("parseHeader(%q): message %q is not its tail", text, h.msg)
		}
		// Read through a cache that holds the line's own second and rank
		// field, the same again, the same second with another fraction,
		// and the line's own start behind another field and tail: the
		// same header either way.
		var sc secondCache
		parseHeaderCached(text, ref, time.UTC, &sc)
		again := []string{text, text, "[2026-07-01 00:00:00.5 TP0] x"}
		if len(text) > 24 {
			again = append(again, text[:24]+" DP1 TP1] y", text[:20]+"] INFO:     z", text[:20]+".123"+text[20:])
		}
		if k := strings.IndexByte(text, ']'); k >= 0 {
			again = append(again, text[:k+1]+" tail", text[:k+1])
		}
		for _, l := range again {
			want, wantOK := parseHeader(l, ref, time.UTC)
			got, gotOK := parseHeaderCached(l, ref, time.UTC, &sc)
			if gotOK != wantOK || got.time != want.time || got.msg != want.msg || got.ranks != want.ranks || got.level != want.level {
				t.Fatalf("parseHeaderCached(%q) after %q = %+v %v, want %+v %v", l, text, got, gotOK, want, wantOK)
			}
		}
		if n, ok := parseNative(text, ref, time.UTC); ok && (n.kind == "" || !validLevel(normLevel(n.level)) || n.level != "" && normLevel(n.level) == "") {
			t.Fatalf("parseNative(%q) = %+v", text, n)
		}
		lvl, rest, lok := levelWord(text)
		if wl, wr, wok := levelWordByList(text); lvl != wl || rest != wr || lok != wok {
			t.Fatalf("levelWord(%q) = %q, %q, %v; by the list %q, %q, %v", text, lvl, rest, lok, wl, wr, wok)
		}
		if got, want := wrapperPrefixLen(line), wrapperPrefixLenInOrder(line); got != want {
			t.Fatalf("wrapperPrefixLen(%q) = %d; the prefixes in order say %d", line, got, want)
		}
		for _, sub := range []struct {
			s string
			k int
		}{{`File "`, 0}, {"above exception", len("above e")}, {"above exception", 0}, {`File "`, 5}} {
			if got, want := ascii.IndexByRare(line, sub.s, sub.k), strings.Index(line, sub.s); got != want {
				t.Fatalf("ascii.IndexByRare(%q, %q, %d) = %d, strings.Index %d", line, sub.s, sub.k, got, want)
			}
		}
		if got, want := wrapperPrefixesLen(line), wrapperPrefixesLenInOrder(line); got != want {
			t.Fatalf("wrapperPrefixesLen(%q) = %d; the prefixes in order say %d", line, got, want)
		}
		if typ, msg, ok := parseExceptionLine(text); ok && !strings.HasPrefix(text, typ) || !strings.HasSuffix(text, msg) {
			t.Fatalf("parseExceptionLine(%q) = %q, %q", text, typ, msg)
		}
		if typ, msg, ok := parseBareException(text); ok && (!strings.HasPrefix(text, typ) || !strings.HasSuffix(text, msg) || strings.HasSuffix(typ, "Warning")) {
			t.Fatalf("parseBareException(%q) = %q, %q", text, typ, msg)
		}
		if typ, msg, ok := parseGluedException(text); ok {
			tail := typ + ": " + msg
			if i := len(text) - len(tail); i <= 0 || !strings.HasSuffix(text, tail) || msg == "" || strings.HasSuffix(typ, "Warning") || text[i-1] != ' ' {
				t.Fatalf("parseGluedException(%q) = %q, %q: not the line's tail after a space", text, typ, msg)
			}
			if inert(text) {
				t.Fatalf("parseGluedException(%q) finds an exception, but inert says the line needs no look", text)
			}
		}
		if lvl, ok := parseUCXLine(text); ok && (lvl == "" || normLevel(lvl) != lvl) {
			t.Fatalf("parseUCXLine(%q) = %q: not a normalised level", text, lvl)
		}
		if text != "" {
			if lvl, ok := parseCompilerLine(text); ok && !validLevel(lvl) {
				t.Fatalf("parseCompilerLine(%q) = %q", text, lvl)
			}
			if lvl, ok := parseHIPLine(text); ok && !validLevel(lvl) {
				t.Fatalf("parseHIPLine(%q) = %q", text, lvl)
			}
			parseCUDALine(text)
			parseACLLine(text)
			isNativeAssert(text)
			isCANNReport(text)
			isNCCLErrorName(text)
		}
		if n, strength := findPrefix(line); strength != evidenceNone {
			if n <= 0 || n > maxLearnedPrefix || n > len(line) {
				t.Fatalf("findPrefix(%q) = %d", line, n)
			}
			var buf [maxLearnedPrefix]byte
			if k := shapeOf(buf[:0], line[:n]); k > 0 {
				if m := matchShape(line, buf[:k]); m != n {
					t.Fatalf("prefix %q of %q: its shape matches %d bytes", line[:n], line, m)
				}
			}
		}
		if len(line) > 64 {
			cut, n := cutLine(line, 64+markerReserve)
			if len(cut) > 64+2*markerReserve || n <= 0 {
				t.Fatalf("cutLine kept %d bytes, removed %d", len(cut), n)
			}
		}
	})
}

// validLevel reports whether lvl is "" or one of the normalised levels.
func validLevel(lvl string) bool {
	switch lvl {
	case "", LevelTrace, LevelDebug, LevelInfo, LevelWarning, LevelError, LevelCritical, LevelFatal:
		return true
	}
	return false
}

func checkTracebackBounds(t *testing.T, tb *Traceback) {
	t.Helper()
	if len(tb.Links) > MaxLinks {
		t.Fatalf("%d links, bound %d", len(tb.Links), MaxLinks)
	}
	for _, l := range tb.Links {
		if len(l.Frames) > MaxFrames || len(l.MemberFrames) > MaxFrames {
			t.Fatalf("%d frames, %d member frames, bound %d", len(l.Frames), len(l.MemberFrames), MaxFrames)
		}
	}
}
