package entry

import (
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/ascii"
)

// Native shapes (SGLANG-LOGS.md §9): the value of Entry.Native. Each comment
// shows first lines and, in parentheses, the Entry.Level they get: their own
// level word where they print one, else the one their text states.
const (
	NativeFaulthandler = "faulthandler" // Fatal Python error: ... (FATAL) / Thread 0x... (most recent call first): (no level)
	NativeTerminate    = "terminate"    // terminate called after throwing an instance of ... (FATAL)
	NativeC10d         = "c10d"         // [E825 10:26:44.056376840 ProcessGroupNCCL.cpp:1828] ... (I/W/E/F: INFO, WARNING, ERROR, FATAL)
	NativeNCCL         = "nccl"         // host:pid:tid [dev] NCCL WARN ... (INFO/WARN/ERROR/TRACE: INFO, WARNING, ERROR, TRACE; ABORT: ERROR)
	NativeCUDAAssert   = "cuda-assert"  // IndexKernel.cu:92: ...: block: [0,0,0], thread: [4,0,0] Assertion `...` failed. (ERROR)
	NativeAssert       = "assert"       // Assertion failed: internode.cu:483, condition: ...; python3: x.c:81: f: Assertion `...' failed. (FATAL)
	NativeGlog         = "glog"         // I0820 02:41:20.446154 710 transfer_engine.cpp:422] ... (I/W/E/F as c10d)
	NativeShell        = "shell"        // Killed, Aborted (core dumped), Segmentation fault (core dumped), Quit (FATAL; Terminated: WARNING)
	NativeROCm         = "rocm"         // Memory access fault by GPU node-N ... (FATAL); HIP error: ..., hipErrorNoDevice, ROCclr ":0:rocdevice.cpp :2992: ..." lines (ROCclr's level; "aborting with error": FATAL)
	NativeAscend       = "ascend"       // [ERROR] 2025-09-19-14:34:08 (PID:..., Device:0, RankID:-1) ERR00100 ... (its tag); EZ9999: Inner Error!, aclrtSetDevice ... failed, [Init][Compiler]... failed[FUNC:f][FILE:x.cpp][LINE:145] (ERROR)
	NativeCUDA         = "cuda"         // CUDA error: ..., Cuda failure 'out of memory', Failed: Cuda error x.cuh:307 '...', cudaErrorIllegalAddress ... (ERROR)
	NativeUCX          = "ucx"          // [1784273406.684686] [host:994396:0]  ib_mlx5_dv.c:452  UCX  ERROR   ..., or from "ib_mlx5_dv.c:452" on without its time and process (its level: FATAL, ERROR, WARN: WARNING, DIAG and PRINT: INFO, DEBUG, TRACE and its kinds: TRACE)
	NativeLocated      = "located"      // /src/host/topo/topo.cpp:526: non-zero status: -3 ..., x.cpp:fn:99: Message truncated ... (ERROR; a message that says it is a warning: WARNING; only a message that states a failure)
	NativeCompiler     = "compiler"     // x.cu(12): error: ..., x.cpp:3:10: fatal error: ..., /usr/bin/ld: cannot find -lcuda, error: command 'gcc' failed ... (ERROR; "fatal error": FATAL; "warning": WARNING)
)

// native is what a recognised native first line yields.
type native struct {
	kind  string
	level string
	time  time.Time
	// soft: the line is also what an exception's multi-line message
	// quotes (CUDA, HIP/ROCclr, ACL and compiler lines), so inside the open
	// traceback of an sglang record it stays a continuation line; only
	// elsewhere does it start an entry of its own.
	soft bool
	// partial says what its timestamp lacks (header.partial).
	partial int8
	// msg is where the line's message starts: after a glog header,
	// which names where the line was logged, not what failed. 0 keeps
	// the whole line.
	msg int
	// glued: what comes before msg is another writer's output that ran
	// into the line without its newline (gluedGGUFAt): the entry's text
	// leaves it out, as a wrapper. Such a line is no soft one: a line
	// another writer's text ran into is no wrap's rest.
	glued bool
}

// parseNative recognises the first line of a native block on a line whose
// wrappers are already stripped.
func parseNative(s string, ref time.Time, loc *time.Location) (native, bool) {
	if s == "" {
		return native{}, false
	}
	switch s[0] {
	case 'F':
		if strings.HasPrefix(s, "Fatal Python error: ") {
			return native{kind: NativeFaulthandler, level: LevelFatal}, true
		}
	case 'T', 'C':
		if isThreadDump(s) {
			return native{kind: NativeFaulthandler}, true
		}
	case 't':
		if strings.HasPrefix(s, "terminate called ") {
			return native{kind: NativeTerminate, level: LevelFatal}, true
		}
		if _, ok := panicState(s); ok {
			return native{kind: NativeRustPanic, level: LevelFatal}, true
		}
	case 'M':
		if strings.HasPrefix(s, "Memory access fault by GPU node-") {
			return native{kind: NativeROCm, level: LevelFatal}, true
		}
	case '[':
		if n, ok := parseC10d(s, ref, loc); ok {
			return n, true
		}
		if n, ok := parseAscend(s, loc); ok {
			return n, true
		}
		if n, ok := parseUCX(s, loc); ok {
			return n, true
		}
	}
	// A bare exception line ("RuntimeError: ...", not a dotted one that
	// starts in lower case, which "cudaError..." and "acl..." may look
	// like) is none of the shapes anchored on the line's first field
	// (glog's, a Rust frame's, NCCL's, UCX's, the CUDA, HIP, ACL and
	// compiler prefixes, a located line's file): it is tried only for the
	// shapes that read on into the message.
	anchored := !exceptionLead(s)
	if anchored {
		if n, ok := parseGlog(s, ref, loc); ok {
			return n, true
		}
		if isRustBacktraceFrame(s) {
			return native{kind: NativeRustPanic, level: LevelFatal}, true
		}
	}
	if lvl, ok := shellMessageLevel(s); ok {
		return native{kind: NativeShell, level: lvl}, true
	}
	if anchored {
		if lvl, ok := parseNCCL(s); ok {
			return native{kind: NativeNCCL, level: lvl}, true
		}
		if lvl, ok := parseUCXLine(s); ok {
			return native{kind: NativeUCX, level: lvl}, true
		}
	}
	if isCUDAAssert(s) {
		return native{kind: NativeCUDAAssert, level: LevelError}, true
	}
	if isNativeAssert(s) {
		return native{kind: NativeAssert, level: LevelFatal, soft: true}, true
	}
	if anchored {
		if parseCUDALine(s) {
			return native{kind: NativeCUDA, level: LevelError, soft: true}, true
		}
		if lvl, ok := parseHIPLine(s); ok {
			return native{kind: NativeROCm, level: lvl, soft: true}, true
		}
	}
	if anchored && parseACLLine(s) || isCANNReport(s) {
		return native{kind: NativeAscend, level: LevelError, soft: true}, true
	}
	if !anchored {
		return native{}, false
	}
	if lvl, ok := parseCompilerLine(s); ok {
		return native{kind: NativeCompiler, level: lvl, soft: true}, true
	}
	if lvl, msg, ok := parseLocatedLine(s); ok {
		return native{kind: NativeLocated, level: lvl, soft: true, msg: msg}, true
	}
	if lvl, ok := parseDiagnosticLine(s); ok {
		return native{kind: NativeDiagnostic, level: lvl, soft: true}, true
	}
	if i := gluedGGUFAt(s); i > 0 {
		if lvl, ok := parseDiagnosticLine(s[i:]); ok {
			return native{kind: NativeDiagnostic, level: lvl, msg: i, glued: true}, true
		}
	}
	return native{}, false
}

// exceptionLead reports whether s opens as a bare exception line: an
// upper-case letter, then word bytes and dots ending in "Error" or
// "Exception", then ": ".
func exceptionLead(s string) bool {
	if s == "" || !isUpper(s[0]) {
		return false
	}
	i := 1
	for i < len(s) && (isWordByte(s[i]) || s[i] == '.') {
		i++
	}
	if i+1 >= len(s) || s[i] != ':' || s[i+1] != ' ' {
		return false
	}
	return strings.HasSuffix(s[:i], "Error") || strings.HasSuffix(s[:i], "Exception")
}

// nativeContinues reports whether s (not blank) continues a native block of
// the given kind; afterBlank says one or more blank lines came between.
func nativeContinues(kind, s string, afterBlank bool) bool {
	switch kind {
	case NativeFaulthandler:
		return isThreadDump(s) || isIndented(s) ||
			strings.HasPrefix(s, "Extension modules:") ||
			strings.HasPrefix(s, "Python runtime state:") ||
			strings.HasPrefix(s, "Stack (most recent call first):")
	case NativeTerminate, NativeC10d:
		if strings.HasPrefix(s, "Exception raised from ") || strings.HasPrefix(s, "frame #") {
			return true
		}
		if kind == NativeTerminate && strings.HasPrefix(strings.TrimLeft(s, " "), "what():") {
			// The exception's what() after terminate's line, whatever
			// blank lines a paste put between them: no other line
			// opens so.
			return true
		}
		// c10's CUDA errors end their what() text with torch's epilogue.
		return !afterBlank && (isIndented(s) || isEpilogue(s))
	case NativeCUDAAssert:
		return !afterBlank && isCUDAAssert(s)
	case NativeGlog:
		return !afterBlank && (isIndented(s) || strings.HasPrefix(s, "*** "))
	case NativeAscend:
		return !afterBlank && (isIndented(s) || isAscendCode(s) || isAscendCodeMore(s) || isCANNReport(s) || isNPUErrorNotice(s))
	case NativeCUDA:
		return !afterBlank && isEpilogue(s)
	case NativeCompiler:
		return compilerContinues("", s, afterBlank, 2)
	case NativeDiagnostic:
		// What the program printed under its line, indented (the body
		// its message quotes), before a blank line.
		return !afterBlank && isIndented(s) && !isFrameLine(s)
	}
	return false
}

// isThreadDump matches faulthandler's thread headers.
func isThreadDump(s string) bool {
	if !strings.HasSuffix(s, "(most recent call first):") {
		return false
	}
	return strings.HasPrefix(s, "Thread 0x") || strings.HasPrefix(s, "Current thread")
}

// parseC10d matches torch's glog-like "[E825 10:26:44.056376840 File.cpp:N] "
// and the older "[E ProcessGroupNCCL.cpp:475] " (after "[rankN]:" is gone).
func parseC10d(s string, ref time.Time, loc *time.Location) (native, bool) {
	if len(s) < 8 {
		return native{}, false
	}
	lvl := glogLevel(s[1])
	if lvl == "" {
		return native{}, false
	}
	r := s[2:]
	var t time.Time
	if r[0] != ' ' {
		j := 0
		for j < len(r) && isDigit(r[j]) {
			j++
		}
		if j < 3 || j > 4 || len(r) < j+10 || r[j] != ' ' || !isClock(r[j+1:j+9]) {
			return native{}, false
		}
		c := clock{month: atoi(r[:j-2]), day: atoi(r[j-2 : j]), hour: atoi(r[j+1 : j+3]), min: atoi(r[j+4 : j+6]), sec: atoi(r[j+7 : j+9])}
		k := j + 9
		if k < len(r) && r[k] == '.' {
			e := k + 1
			for e < len(r) && isDigit(r[e]) {
				e++
			}
			c.nsec = fraction(r[k+1 : e])
			k = e
		}
		t = c.inYear(ref, loc)
		r = r[k:]
	}
	if !isSourceRef(r, ']') {
		return native{}, false
	}
	// The header names where the line was logged, not what failed: the
	// message starts after it, as after a glog header.
	msg := len(s) - len(r) + strings.IndexByte(r, ']') + 1
	if msg < len(s) && s[msg] == ' ' {
		msg++
	}
	if msg == len(s) {
		msg = 0 // a header alone: the line is its own message
	}
	n := native{kind: NativeC10d, level: lvl, time: t, msg: msg}
	if !t.IsZero() {
		n.partial = timeNoYear
	}
	return n, true
}

// isSourceRef matches " file.cpp:123" followed by end.
func isSourceRef(r string, end byte) bool {
	if r == "" || r[0] != ' ' {
		return false
	}
	k := strings.IndexByte(r, end)
	if k < 0 || k > 200 {
		return false
	}
	ref := r[1:k]
	c := strings.LastIndexByte(ref, ':')
	return c > 0 && ascii.Digits(ref[c+1:]) && strings.IndexByte(ref[:c], ' ') < 0
}

// parseGlog matches "I0820 02:41:20.446154   710 transfer_engine.cpp:422] ",
// and the same with the year before the month ("F20251111 12:28:58.504206
// 214989 collective_service.cpp:37] "): that time is whole.
func parseGlog(s string, ref time.Time, loc *time.Location) (native, bool) {
	if len(s) < 22 {
		return native{}, false
	}
	lvl := glogLevel(s[0])
	if lvl == "" {
		return native{}, false
	}
	// "E0116 ..." or, with the year (glog's log_year_in_prefix),
	// "E20251111 ...".
	d, year := 1, 0
	if len(s) >= 26 && ascii.Digits(s[1:9]) && s[9] == ' ' {
		d, year = 5, atoi(s[1:5])
	}
	if !ascii.Digits(s[d:d+4]) || s[d+4] != ' ' || !isClock(s[d+5:d+13]) || s[d+13] != '.' {
		return native{}, false
	}
	j := d + 14
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j == d+14 {
		return native{}, false
	}
	c := clock{year: year, month: atoi(s[d : d+2]), day: atoi(s[d+2 : d+4]), hour: atoi(s[d+5 : d+7]), min: atoi(s[d+8 : d+10]), sec: atoi(s[d+11 : d+13]), nsec: fraction(s[d+14 : j])}
	r := strings.TrimLeft(s[j:], " ")
	k := 0
	for k < len(r) && isDigit(r[k]) {
		k++
	}
	if k == 0 || !isSourceRef(r[k:], ']') {
		return native{}, false
	}
	msg := len(s) - len(r) + k
	msg += strings.IndexByte(s[msg:], ']') + 1
	if msg < len(s) && s[msg] == ' ' {
		msg++
	}
	if msg == len(s) {
		msg = 0 // a header alone: the line is its own message
	}
	if year > 0 {
		return native{kind: NativeGlog, level: lvl, time: c.in(loc), msg: msg}, true
	}
	return native{kind: NativeGlog, level: lvl, time: c.inYear(ref, loc), partial: timeNoYear, msg: msg}, true
}

func glogLevel(c byte) string {
	switch c {
	case 'I':
		return "INFO"
	case 'W':
		return "WARNING"
	case 'E':
		return "ERROR"
	case 'F':
		return "FATAL"
	}
	return ""
}

// parseNCCL matches "host:pid:tid [dev] NCCL WARN ..." and
// "host:pid:tid [dev] file.cc:123 NCCL WARN ...", with or without the
// "host:pid:tid".
func parseNCCL(s string) (string, bool) {
	r := s
	if !ncclDeviceFirst(s) {
		sp := strings.IndexByte(s, ' ')
		if sp <= 0 || sp > 256 {
			return "", false
		}
		id := s[:sp]
		c2 := strings.LastIndexByte(id, ':')
		if c2 <= 0 || !ascii.Digits(id[c2+1:]) {
			return "", false
		}
		c1 := strings.LastIndexByte(id[:c2], ':')
		if c1 <= 0 || !ascii.Digits(id[c1+1:c2]) {
			return "", false
		}
		r = s[sp+1:]
	}
	// (A line that opens with the device, "[0] NCCL INFO ...", is one
	// whose "host:pid:tid" a launcher or a paste stripped.)
	if len(r) < 3 || r[0] != '[' {
		return "", false
	}
	k := strings.IndexByte(r, ']')
	if k < 2 || !ascii.Digits(r[1:k]) || k+1 >= len(r) || r[k+1] != ' ' {
		return "", false
	}
	r = r[k+2:]
	if !strings.HasPrefix(r, "NCCL ") {
		sp := strings.IndexByte(r, ' ')
		if sp <= 0 || sp > 128 {
			return "", false
		}
		if ncclDeviceFirst(s) && !isSourceLocation(r[:sp]) {
			// Without its process, only a source location may stand
			// before "NCCL": prose that names NCCL is no NCCL line.
			return "", false
		}
		r = r[sp+1:]
		if !strings.HasPrefix(r, "NCCL ") {
			return "", false
		}
	}
	r = r[len("NCCL "):]
	for _, lvl := range [...]string{"INFO", "WARN", "ERROR", "TRACE", "ABORT"} {
		if strings.HasPrefix(r, lvl) {
			return lvl, true
		}
	}
	return "", false
}

// isSourceLocation reports whether w is a source file's path and line,
// "misc/socket.cc:71": a ":" after a name with a "." and digits after it.
func isSourceLocation(w string) bool {
	c := strings.LastIndexByte(w, ':')
	return c > 0 && c+1 < len(w) && ascii.Digits(w[c+1:]) && strings.IndexByte(w[:c], '.') >= 0
}

// ncclDeviceFirst reports whether s opens with an NCCL line's device,
// "[0] ": its "host:pid:tid" was stripped.
func ncclDeviceFirst(s string) bool {
	if len(s) < 4 || s[0] != '[' {
		return false
	}
	k := strings.IndexByte(s, ']')
	return k >= 2 && k <= 4 && ascii.Digits(s[1:k]) && k+1 < len(s) && s[k+1] == ' '
}

// ncclProcess is the "host:pid" of a line parseNCCL reads, a part of s:
// its first word is "host:pid:tid". A launcher's label glued before the
// host ("[1,0]<stdout>:host:pid:tid") is left out. "" when s is no NCCL
// line.
func ncclProcess(s string) string {
	if _, ok := parseNCCL(s); !ok || ncclDeviceFirst(s) {
		return "" // (a line without its "host:pid:tid" names none)
	}
	id := s[:strings.IndexByte(s, ' ')]
	id = id[strings.LastIndexAny(id, ">]")+1:]
	tid := strings.LastIndexByte(id, ':')
	pid := strings.LastIndexByte(id[:tid], ':')
	at := strings.LastIndexByte(id[:pid], ':') + 1
	if host := id[at:pid]; host == "" || ascii.Digits(host) {
		// A clock's "10:11:12", not a process.
		return ""
	}
	return id[at:tid]
}

// isCUDAAssert matches a device-side assert printf line.
func isCUDAAssert(s string) bool {
	i := strings.Index(s, ": block: [")
	// The assertion's opening backtick may reach a paste as a straight
	// quote (a text recovered from a screenshot, an editor's quotes).
	return i > 0 && strings.Contains(s[i:], "], thread: [") && (strings.Contains(s[i:], "Assertion `") || strings.Contains(s[i:], "Assertion '"))
}

// isNativeAssert matches the line C and C++ code prints when an assertion
// fails, just before it aborts: NVSHMEM's and DeepEP's host assert
// ("Assertion failed: /sgl-workspace/DeepEP/csrc/kernels/internode.cu:483,
// condition: ibgda_get_state()->num_rc_per_pe >= num_channels"), the C
// runtime's ("Assertion failed: x >= 0, file pool.c, line 12") and glibc's
// ("python3: ../nptl/pthread_mutex_lock.c:81: __pthread_mutex_lock:
// Assertion `mutex->__data.__owner == 0' failed."), and ggml's (llama.cpp,
// Ollama's runner), older "GGML_ASSERT: ggml-cuda/argsort.cu:48: cond" and
// newer "ggml/src/ggml.c:1234: GGML_ASSERT(cond) failed". A CUDA device
// assert, which names its block and thread, is isCUDAAssert's.
func isNativeAssert(s string) bool {
	if r, ok := strings.CutPrefix(s, "Assertion failed: "); ok {
		return strings.Contains(r, ", condition: ") || strings.Contains(r, ", file ") || startsWithSourceRef(r)
	}
	if r, ok := strings.CutPrefix(s, "GGML_ASSERT: "); ok {
		return startsWithSourceRef(r)
	}
	// Both shapes below end in "failed": a line that does not is read
	// no further (a search of the whole line each, otherwise).
	ggml := strings.HasSuffix(strings.TrimRight(s, " "), ") failed")
	if !ggml && !strings.HasSuffix(s, "' failed.") {
		return false
	}
	if i := strings.Index(s, ": GGML_ASSERT("); i > 0 {
		return ggml && startsWithSourceRef(s[:i+1])
	}
	i := strings.Index(s, ": Assertion `")
	if i <= 0 || !strings.HasSuffix(s, "' failed.") {
		return false
	}
	// glibc: "prog: file:line: function: Assertion `expr' failed."
	c := strings.Index(s, ": ")
	return c < i && startsWithSourceRef(s[c+2:i])
}

// startsWithSourceRef reports whether s opens with "path:line" followed by
// ":" or ",": the place an assertion names.
func startsWithSourceRef(s string) bool {
	for i := 0; i < len(s) && i < 512; i++ {
		switch s[i] {
		case ' ':
			return false
		case ':':
			j := i + 1
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			if j > i+1 && (j == len(s) || s[j] == ':' || s[j] == ',') {
				return true
			}
		}
	}
	return false
}

// isNPUErrorNotice matches the line torch_npu prints (a c10 warning or
// error line) when a CANN call failed, "[W NPUStream.cpp:365] Warning: NPU
// warning, error code is 107020[Error]: .": CANN's own error text follows
// it, so inside a CANN block it is the same failure told again, not an
// event of its own.
func isNPUErrorNotice(s string) bool {
	i := strings.Index(s, "NPU ")
	if i < 0 || i > 96 {
		return false
	}
	r := s[i+len("NPU "):]
	return strings.HasPrefix(r, "warning, error code is ") || strings.HasPrefix(r, "error, error code is ")
}

// isCANNReport matches the lines CANN's error reporter writes under an
// EZ9999-style code, each naming where it was raised:
// "[Init][Compiler]Init compiler failed[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]",
// often indented. They are the inner errors of a failed Ascend call.
func isCANNReport(s string) bool {
	if s == "" || s[len(s)-1] != ']' {
		return false
	}
	// "[LINE:N]" ends the line: read back from its end rather than
	// searched for (lines that end in "]" are many: progress bars).
	d := len(s) - 1
	for d > 0 && isDigit(s[d-1]) {
		d--
	}
	if d == len(s)-1 || !strings.HasSuffix(s[:d], "[LINE:") {
		return false
	}
	tail := len(s) - d // the line number and "]"
	s = strings.TrimLeft(s, " \t")
	i := len(s) - tail - len("[LINE:")
	f := strings.LastIndex(s[:i], "[FILE:")
	return f >= 0 && strings.HasSuffix(s[:i], "]") && strings.Contains(s[:f], "[FUNC:")
}

// parseAscend matches CANN's "[ERROR] 2025-09-19-14:34:08 (PID:5625, ...) ...",
// its plog's "[ERROR] HCCL(893240,):2026-08-11-07:03:46.026.970 [f.cc:23] ..."
// and torch_npu's "[383554] [2026-07-01 09:31:38:047] torch_npu.memory: [ERROR] ...".
func parseAscend(s string, loc *time.Location) (native, bool) {
	k := strings.IndexByte(s, ']')
	if k < 2 || k+2 >= len(s) || s[k+1] != ' ' {
		return native{}, false
	}
	tag, r := s[1:k], s[k+2:]
	if ascii.Digits(tag) {
		// torch_npu allocator line.
		if len(r) < 25 || r[0] != '[' || !isDate(r[1:11]) || r[11] != ' ' || !isClock(r[12:20]) || r[20] != ':' || !ascii.Digits(r[21:24]) || r[24] != ']' {
			return native{}, false
		}
		c, _, _ := scanDateTime(r[1:], '.')
		c.nsec = fraction(r[21:24])
		lvl := ""
		for _, w := range [...]string{"ERROR", "WARNING", "INFO", "DEBUG"} {
			if strings.Contains(r, "["+w+"]") {
				lvl = w
				break
			}
		}
		return native{kind: NativeAscend, level: lvl, time: c.in(loc)}, true
	}
	switch tag {
	case "ERROR", "WARNING", "INFO", "DEBUG", "EVENT":
	default:
		return native{}, false
	}
	if m := plogModuleLen(r); m > 0 {
		// A plog line: "[ERROR] HCCL(893240,):2026-08-11-07:03:46.026.970
		// [file.cc:23] ...", the module and its process before the time.
		r = r[m:]
		if len(r) < 19 || !isDate(r[:10]) || r[10] != '-' || !isClock(r[11:19]) {
			return native{}, false
		}
		c := clock{year: atoi(r[0:4]), month: atoi(r[5:7]), day: atoi(r[8:10]), hour: atoi(r[11:13]), min: atoi(r[14:16]), sec: atoi(r[17:19])}
		if len(r) > 23 && r[19] == '.' && ascii.Digits(r[20:23]) {
			c.nsec = fraction(r[20:23])
		}
		return native{kind: NativeAscend, level: tag, time: c.in(loc)}, true
	}
	if len(r) < 19 || !isDate(r[:10]) || r[10] != '-' || !isClock(r[11:19]) {
		return native{}, false
	}
	if !strings.HasPrefix(strings.TrimLeft(skipFraction(r[19:]), " "), "(PID:") {
		return native{}, false
	}
	c := clock{year: atoi(r[0:4]), month: atoi(r[5:7]), day: atoi(r[8:10]), hour: atoi(r[11:13]), min: atoi(r[14:16]), sec: atoi(r[17:19])}
	return native{kind: NativeAscend, level: tag, time: c.in(loc)}, true
}

// maxPlogModule bounds a plog line's module name and its process field.
const maxPlogModule = 64

// plogModuleLen returns the length of the module and process fields CANN's
// plog puts before a line's time, "HCCL(893240,):" or
// "HCCL(36035,mindie_llm_backend_connector):": an upper-case name (letters,
// digits, "_"), in parentheses the process id, a comma and the process's
// name (maybe empty), then ":"; 0 when r does not open with them.
func plogModuleLen(r string) int {
	i := 0
	for i < len(r) && i < maxPlogModule && (isUpper(r[i]) || isDigit(r[i]) && i > 0 || r[i] == '_' && i > 0) {
		i++
	}
	if i == 0 || i >= len(r) || r[i] != '(' {
		return 0
	}
	j := i + 1
	for j < len(r) && isDigit(r[j]) {
		j++
	}
	if j == i+1 || j >= len(r) || r[j] != ',' {
		return 0
	}
	k := strings.IndexByte(r[j:], ')')
	if k < 0 || k > maxPlogModule || j+k+1 >= len(r) || r[j+k+1] != ':' || strings.IndexByte(r[j:j+k], ' ') >= 0 {
		return 0
	}
	return j + k + 2
}

func skipFraction(s string) string {
	if s == "" || s[0] != '.' {
		return s
	}
	i := 1
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return s[i:]
}

// isAscendCode matches CANN error-code lines such as "EZ9999: Inner Error!",
// "E30006: ..." and "EL0004: ...": "E", two upper-case letters or digits,
// three digits, ":".
func isAscendCode(s string) bool {
	if len(s) < 8 || s[0] != 'E' || s[6] != ':' || s[7] != ' ' {
		return false
	}
	for i := 1; i < 3; i++ {
		if !isUpper(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return ascii.Digits(s[3:6])
}

// isAscendCodeMore matches the further lines CANN prints under a code,
// the code again and two spaces before the text ("EH9999  [Init][Env]init
// env failed![FUNC:...]"), whatever the text's end (a terminal may have
// cut it).
func isAscendCodeMore(s string) bool {
	if len(s) < 9 || s[0] != 'E' || s[6] != ' ' || s[7] != ' ' {
		return false
	}
	for i := 1; i < 3; i++ {
		if !isUpper(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return ascii.Digits(s[3:6])
}

// isIndented reports whether s starts with a space or a tab.
func isIndented(s string) bool {
	return s != "" && (s[0] == ' ' || s[0] == '\t')
}

// parseUCX matches a UCX log line with its time and process in front,
// "[1784273406.684686] [host:994396:0]      ib_mlx5_dv.c:452  UCX  ERROR   ...":
// the time in seconds and microseconds since the epoch, then
// parseUCXLine's part.
func parseUCX(s string, loc *time.Location) (native, bool) {
	k := strings.IndexByte(s, ']')
	if k < 4 || k+2 >= len(s) || s[k+1] != ' ' || s[k+2] != '[' {
		return native{}, false
	}
	sec, frac, ok := strings.Cut(s[1:k], ".")
	if !ok || !ascii.Digits(sec) || len(sec) > 12 || !ascii.Digits(frac) {
		return native{}, false
	}
	r := s[k+2:]
	e := strings.IndexByte(r, ']')
	if e < 2 || e > 256 || strings.IndexByte(r[:e], ':') < 0 {
		return native{}, false
	}
	lvl, ok := parseUCXLine(r[e+1:])
	if !ok {
		return native{}, false
	}
	var secs int64
	for i := 0; i < len(sec); i++ {
		secs = secs*10 + int64(sec[i]-'0')
	}
	t := time.Unix(secs, int64(fraction(frac))).UTC()
	if loc != nil {
		t = t.In(loc)
	}
	return native{kind: NativeUCX, level: lvl, time: t}, true
}

// parseUCXLine matches the part of a UCX log line that survives when its
// time and process are gone, "ib_mlx5_dv.c:433  UCX  ERROR   message" (the
// file right-aligned, so maybe after spaces): a source reference, "UCX"
// and UCX's level word, each after one or more spaces. It returns the
// level, normalised.
func parseUCXLine(s string) (string, bool) {
	r := strings.TrimLeft(s, " ")
	sp := strings.IndexByte(r, ' ')
	// The cheap test first: a source reference ends in a digit.
	if sp < 3 || sp > 256 || !isDigit(r[sp-1]) {
		return "", false
	}
	c := strings.LastIndexByte(r[:sp], ':')
	if c <= 0 || !ascii.Digits(r[c+1:sp]) {
		return "", false
	}
	r = strings.TrimLeft(r[sp:], " ")
	r, ok := strings.CutPrefix(r, "UCX ")
	if !ok {
		return "", false
	}
	r = strings.TrimLeft(r, " ")
	w := r
	if i := strings.IndexByte(r, ' '); i >= 0 {
		w = r[:i]
	}
	switch w {
	case "FATAL":
		return LevelFatal, true
	case "ERROR":
		return LevelError, true
	case "WARN":
		return LevelWarning, true
	case "DIAG", "INFO", "PRINT":
		return LevelInfo, true
	case "DEBUG":
		return LevelDebug, true
	case "TRACE", "REQ", "DATA", "ASYNC", "FUNC", "POLL":
		return LevelTrace, true
	}
	return "", false
}
