package entry

import "time"

// Line is one physical log line as a source delivered it, already decoded
// from any container-runtime framing.
type Line struct {
	Text      string    // the line without its line ending
	Source    string    // identity of the stream: a file path, "stdin", or pod/container
	Stream    string    // "stdout", "stderr" or "" when unknown
	Offset    int64     // byte offset of the line's first byte in its source (a line number in tests)
	Time      time.Time // when the runtime wrote or logmatch read it; zero when unknown
	Truncated bool      // the source cut this line at its length bound
	// Framing is the bytes of a container runtime's framing the source
	// took off the front of the line's physical line (a CRI line's time,
	// stream and tag), 0 for a raw line: a terminal that wrapped the
	// physical line wrapped it at Framing+len(Text).
	Framing int
}

// Entry is one logical log record: a header line and its continuation lines,
// a whole Python traceback, or one native (non-Python) event.
type Entry struct {
	Source string
	Stream string

	FirstOffset int64 // Offset of the first line
	LastOffset  int64 // Offset of the last line
	Lines       int   // number of physical lines that went into the entry

	Format Format // which header family started the entry
	// Time is the header's timestamp. An entry without one inherits its
	// stream's last known time (the last timestamp read), with
	// TimeInherited set; zero when no line of the stream had a timestamp
	// yet. A timestamp without a year
	// (glog, c10d, vLLM) or a date (legacy sglang) takes them from the
	// stream's last known time, nearest to it (a December line next to a
	// January one stays in December), else from Line.Time or
	// Options.Reference.
	Time time.Time
	// TimeInherited says Time is the stream's, not the entry's own.
	TimeInherited bool
	// TimeGuessed says Time's year was not read from the stream: the
	// timestamp lacks it (glog, c10d) and no line before it had one, so
	// the year is Line.Time's or Options.Reference's (or that of an entry
	// guessed so), wrong for an old log scanned today. A reader that
	// learns the stream's year later puts the entry in it (the incident
	// grouper does).
	TimeGuessed bool
	Ranks       Ranks // rank tokens of the header prefix
	// Process is the process or rank a header of another engine names,
	// as the line writes it: Ray core's pid ("4242"), TensorRT-LLM's
	// rank ("RANK 0"), or the process prefix vLLM's multiprocessing and
	// Ray put before a line ("EngineCore_DP0 pid=17374", "VllmWorker
	// rank=0 pid=9"), or the "host:pid" of NCCL's "host:pid:tid [dev]"
	// line prefix ("gpu5:35917"), or the program a syslog prefix names
	// ("python3[2741]", "kernel", RFC 5424's "sglang 2741"). "" when none
	// does.
	Process string
	// Level is the entry's level, normalised to one of LevelTrace ...
	// LevelFatal ("TRACE", "DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL",
	// "FATAL"): the level word of the header that started the entry (WARN,
	// NOTICE, SUCCESS, EVENT mapped; glog's and c10d's I/W/E/F letters), or
	// for a native entry the level its shape states (see the Native
	// constants). When a learned prefix that is itself a log record's header
	// came off the first line and what remained is neither a header nor a
	// native line, that prefix's level. "" when none applies: sglang's own
	// records carry no level, nor do header-less lines.
	Level string
	// Message is the first line's message, header, wrappers and a
	// logger's location ("[core.py:7] ", "core_worker.cc:97: ", glog's
	// "file.cc:N] ") removed.
	Message string

	// Prefix is the wrapper text stripped from the front of the first line
	// (Ray actor, docker-compose service, collector timestamp, torchrun
	// rank, and a per-stream prefix the Assembler learned), as written;
	// "" when the line had none.
	Prefix string
	// Native names the native shape of a FormatNative entry (NativeFaulthandler,
	// NativeTerminate, ...); "" for every other format.
	Native string

	// Text is what the matcher searches: Message, then each continuation line
	// with wrappers removed, joined by "\n". Raw is the same lines as written
	// (header included, wrappers removed). Both are bounded; see Cut. Two
	// formats differ: a glog line's Text keeps its header in front of the
	// message (its source file names the component), as a located native
	// line keeps its place in the source (NativeLocated), and a slog or JSON
	// line's Message is rebuilt from its fields (msg, then ": " and
	// error), which Text starts with while Raw keeps the line. A vLLM or
	// Ray core record's header repeated on its continuation lines is in
	// neither.
	Text string
	Raw  string

	Cut Cut // what the bounds cut from this entry

	// Reraised marks a header-less traceback that repeats, exception
	// line for exception line, the traceback the stream's last logged
	// record carried: a child process logged its exception, then
	// multiprocessing printed it again as the process died
	// ("Process EngineCore_DP0:" and the same traceback). It says
	// nothing the logged one did not: a consequence of it.
	Reraised bool

	// Traceback is the parsed exception chain when the entry holds a Python
	// traceback (or a header-less SyntaxError block), or a one-link Bare
	// chain when it holds an exception line without a traceback; nil
	// otherwise.
	Traceback *Traceback
}

// Format names the header family that started an entry.
type Format string

// Header families; see SGLANG-LOGS.md.
const (
	FormatNone      Format = ""          // no recognised header (plain line or raw traceback)
	FormatSRT       Format = "srt"       // [YYYY-MM-DD HH:MM:SS[.mmm]<ranks>] msg
	FormatLegacy    Format = "legacy"    // [HH:MM:SS<ranks>] msg
	FormatDiffusion Format = "diffusion" // [MM-DD HH:MM:SS<ranks>] msg
	FormatUvicorn   Format = "uvicorn"   // [ts] LEVEL:     msg, or LEVEL:     msg
	FormatNative    Format = "native"    // faulthandler, terminate called, c10d, NCCL, CUDA assert, glog...
	FormatDynamo    Format = "dynamo"    // Rust tracing (dynamo, sglang router/gateway): 2025-11-05T01:56:54.243403Z  INFO [span: ]target: msg
	FormatPython    Format = "python"    // generic Python logging: 2023-07-09 00:00:00,000 ERROR name msg, loguru, basicConfig ...
	FormatRouter    Format = "router"    // sglang router's launcher: [Router (Python)] 2024-11-25 21:28:33 - INFO - msg
)

// Ranks are the parallelism ranks of a header prefix; -1 means absent.
type Ranks struct {
	DP, PP, AttnCP, MoeDP, TP, EP int
}

// NoRanks is the Ranks value of a header without rank tokens.
var NoRanks = Ranks{-1, -1, -1, -1, -1, -1}

// Cut says what the bounds removed from an entry.
type Cut struct {
	Lines int // lines dropped
	Bytes int // bytes dropped
}

// Traceback is a Python exception chain as printed.
type Traceback struct {
	// Links holds each section of the chain in print order: Links[0] is the
	// root cause, the last link is the outermost exception (raised last).
	Links []Exception
	// LinksCut counts links dropped from the middle of an overlong chain.
	LinksCut int
	// Bare marks an exception line printed without the "Traceback" header
	// and frames (a bare "ImportError: ..." line, or an exception line as
	// the message of a log record): Links then holds one link with a Type,
	// a Message and no Frames.
	Bare bool
}

// Exception is one link of a chain.
type Exception struct {
	Type    string  // as printed, qualified names kept: "torch.OutOfMemoryError"
	Message string  // text after "Type: " on the exception line, "" when none
	Frames  []Frame // innermost last, as printed; bounded
	// FramesCut counts frames dropped from the middle by the bound.
	FramesCut int
	// Separator is the chain separator printed before this link: "cause"
	// (direct cause), "context" (during handling) or "" for the first link.
	Separator string
	Group     bool // an ExceptionGroup
	// MemberType and MemberMessage are, for a group, the exception line of
	// its first leaf member (the outermost of that member's chain), whose
	// traceback is not a link; "" when none was read.
	MemberType    string
	MemberMessage string
	MemberFrames  []Frame // that exception's own frames, innermost last; bounded
}

// Frame is one traceback frame.
type Frame struct {
	File string
	Line int
	Func string
}

// Outermost returns the last link, or nil when there is none.
func (t *Traceback) Outermost() *Exception {
	if t == nil || len(t.Links) == 0 {
		return nil
	}
	return &t.Links[len(t.Links)-1]
}

// Unfinished reports whether the chain stops before its last section's
// exception line: the process was killed while it wrote the traceback, or
// the output or a paste was cut. Its frames still say where it was
// (the last frame line may itself be cut: its file is kept). False for
// a nil Traceback and for a bare one.
func (t *Traceback) Unfinished() bool {
	o := t.Outermost()
	return o != nil && !t.Bare && o.Type == "" && len(o.Frames) > 0
}

// AppendTypes appends the type of every link, root cause first; nothing
// for a nil Traceback. The matcher ranks hits by them.
func (t *Traceback) AppendTypes(dst []string) []string {
	if t == nil {
		return dst
	}
	for _, l := range t.Links {
		dst = append(dst, l.Type)
	}
	return dst
}

// RootCause returns the first link, or nil when there is none.
func (t *Traceback) RootCause() *Exception {
	if t == nil || len(t.Links) == 0 {
		return nil
	}
	return &t.Links[0]
}
