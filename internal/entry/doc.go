// Package entry turns physical log lines into logical entries, the unit the
// matcher searches. An Assembler, one per stream, strips wrappers (ANSI
// colour, also with its ESC spelled out as text by a shipper or a paste:
// rsyslog's "#033", C and JSON escapes, caret notation; Ray, docker-compose and kubectl prefixes, collector and CI
// timestamps, syslog and journald prefixes, torchrun ranks, Markdown
// quotes, a parallel shell's host label, a code span opened before a line,
// a pager's "^M") and a per-stream prefix it learns (a collector's or wrapping
// logger's text repeated in front of tracebacks, glog lines and sglang
// records; a logging bridge's "time | LEVEL | stream | " relaying a
// child's every line, also behind a launcher's label learned on its own),
// reads apart the relay's lines a padded terminal glued into one, counts
// a copied console's column lines (a time alone, the source column after
// it) without reading them, reads a double-spaced paste (a blank line after every line)
// and one that leads every line with a code block's indent, a tab or a
// list item's marker as it was before (a code block's also from a traceback's
// frame at six spaces), keeps a traceback pasted with its indentation
// stripped as CPython printed it (frames at two spaces, their source and
// caret lines at four) and reads a frame's curled quotes straight
// (flushtb.go), rejoins a line a terminal or a
// paste hard-wrapped (at the width two breaks teach, once known, or two
// pieces of one length cut inside a token, or the width the stream's
// line lengths tell: its longest, recurring before shorter rests; inside
// a URL or a parenthesis; a record's repeated header cut inside it),
// reads a record whose newlines rsyslog escaped ("#012") as its lines,
// recognises sglang, uvicorn, Rust tracing
// (dynamo, the sglang router, TGI's launcher), the router's launcher and generic Python
// logging headers (default, basicConfig, loguru, vLLM and bracketed-time
// formats), the other engines' headers of ENGINE-LOGS.md (Ray core's C++
// lines, Go slog key=value lines, JSON lines, TensorRT-LLM's and
// TurboMind's tagged lines, LMDeploy's older format; engines.go), with
// a logger's location kept out of the message, and the native shapes of SGLANG-LOGS.md (faulthandler,
// terminate, c10d, glog, NCCL, CUDA asserts, C and C++ assertion lines,
// Rust panics with their message (ParsePanic; behind a launcher's tag, or
// relayed by a logger with its header on each line), a shell's report of a
// signal death in the wordings of the main languages and zsh's
// (ShellSignal), UCX's log lines with or without their time and
// process, the CUDA, HIP/ROCclr, Ascend/ACL/CANN and compiler or
// linker error lines printed outside Python, and a program's diagnostic
// in the Unix convention, "prog: error: ..." (diagnostic.go)), joins continuation
// lines, tracebacks and NCCL's multi-line error messages (up to the line
// after "Last error:") into one bounded entry, as well as the lines of one
// vLLM or Ray core record that each repeat its header and a shard's
// stderr that TGI's launcher relays with the lines that follow it, and fills in the facts a consumer decides on: the header's level
// normalised (Entry.Level), the native shape (Entry.Native), the parsed
// exception chain (Entry.Traceback, ParseTraceback), marked Bare for an
// exception line printed without a traceback (also when quoted in
// backticks or as a list item), the wrapper text removed
// (Entry.Prefix), the process or rank another engine's header names
// (Entry.Process), a re-raised copy of a logged traceback
// (Entry.Reraised), and the time: its own, or for an undated entry its
// stream's last known one (Entry.TimeInherited), a year or date missing
// from a timestamp taken from its neighbours. It decides no policy: which
// entries are failures is the consumer's call. It is pure: no I/O, no goroutines, no clock; the caller
// supplies time and decides when an idle stream is flushed.
//
// With Options.Reuse an Assembler allocates nothing for a line: it copies
// what it keeps of a line (which the caller may then overwrite) into
// arenas it reuses, and the entries it returns are valid until its next
// call. Entry.Own gives an entry strings of its own, for a caller that
// keeps it.
package entry
