// Package source reads log lines for logmatch: it follows the files matched
// by globs through rotation and truncation, decodes Kubernetes
// container-runtime framing (CRI and docker json-file), reads stdin, and runs
// a wrapped command whose output it passes through. Every delivered Line says
// where its bytes came from (file identity, path, start offset and the offset
// to resume after it) so that the consumer can checkpoint it, and a restart
// neither loses nor repeats lines.
//
// # Identity
//
// A file is identified by its device and inode plus a fingerprint (SHA-256)
// of its first bytes (1 KiB by default, like the OpenTelemetry Collector's
// file consumer), never by its path. A file shorter than that is
// fingerprinted on what it has and re-fingerprinted as it grows; a saved
// identity matches a file when the file's first Size bytes hash to it.
//
// # What is guaranteed
//
// The Tailer wakes on a file-system watch (fsnotify: inotify on Linux) of
// the directories of the globs and of the files it follows, with a full look
// every RescanInterval as a safety net; where the watch cannot be had (no
// inotify, its limits reached, a directory not there yet, NoWatch) or may
// not hear of every change (a directory on a network or FUSE file system)
// it polls every PollInterval. Tests drive it with an injected Tick channel instead.
// It reads with os.File and bufio, one goroutine for all files, each file
// in one explicit state (design.md beside this file has the states, their
// transitions and what each event does). Across these events no line is
// lost or read twice:
//
//   - rename and create (logrotate create, kubelet): the renamed file is
//     followed by inode inside the globs, or read to its end through the
//     open descriptor when it left them, for RotateWait more (writers that
//     finish a line before reopening); the new file of the same source is
//     read once that wait is over, so a late line of the old file never
//     comes after the new file's first lines;
//   - copytruncate: the truncation is seen (size below the read position,
//     or first bytes changed), and the copy is found by fingerprint among
//     the followed files or next to the original (names starting like it),
//     so the lines written between our last read and the copy come from the
//     copy; a copy inside the globs is never read as a new file, even while
//     logrotate is still writing it. A generation never read (written,
//     copied and truncated between two looks, after a truncation that left
//     the file empty or one the tailer has not taken yet) is read from its
//     copy, after the old content's tail and before the new content: a new
//     file named like a rotation of the original waits unread while the
//     original's content is not known (such a copy outside the globs is
//     found only after a truncation that left the file empty). Lines written between logrotate's copy
//     and its truncation are lost by copytruncate itself, and a copy
//     compressed before the next poll is not found (use delaycompress);
//   - plain truncation, any number of times: read again from the start; what
//     was written after the last read and before the truncation is gone;
//   - delete and recreate, and a file replaced between two polls (rename
//     over it, or rewritten in place past our offset): as rename, or read
//     from the start when the content changed in place;
//   - restart: Positions gives the last checkpoint of a path; the file there
//     resumes at it when it has the checkpoint's identity, otherwise the
//     checkpointed file is looked for among the matches and next to the path
//     (rotated while logmatch was down) and read from the checkpoint, and the
//     path's new file from its beginning. Files without a checkpoint start
//     where StartAt says; files that appear later start at their beginning;
//   - a generation moved aside before it was opened (a writer that reopens
//     its log by name recreates it between logrotate's rename and create,
//     and logrotate renames the writer's file to NAME-YYYYMMDDHH.backup; a
//     rotation faster than the polls; rotations while logmatch was down):
//     when the file before it is closed, a file next to its path named like
//     a rotation, read by no one, not empty, no copy of a file read, not
//     compressed, last written no earlier than that file (nor later than
//     a newer generation still draining) and, where creation times are
//     kept, created no earlier than it is read whole, before the path's
//     current file; at most 16 at once (design.md, strays.go).
//
// A file created at a matching name is opened on its create event, so one
// renamed away again within milliseconds is still read to its end; without
// the watch a file must stay at a matching path for one poll to be seen at
// all, unless it is found as a generation moved aside. A truncate-and-rewrite to the same size is seen by its first bytes,
// and every Line after it carries the new fingerprint. A file that appears
// as a prefix of a followed file in the same directory is taken as its copy.
//
// A file stops being followed when it was drained after leaving the globs:
// its last line is followed by one Line with Gone set. Files beyond
// MaxOpenFiles are counted, logged once per change and take turns with
// the open ones (the file idle longest is parked: closed, its identity and
// offset kept, reopened when it grows or its turn comes; Coverage counts
// them); a file whose real path (links resolved) lies outside the fixed
// leading directories of the globs and SymlinkRoots is refused, logged and
// counted; a generation seen but never opened is counted as lost. Lines held back when Run stops (an unterminated last
// line, an open CRI/docker partial line) lie after the last Line.Next, so a
// restart reads them again.
//
// # Why not github.com/nxadm/tail
//
// The product brief named nxadm/tail v1.4.11. TestEvaluateNxadmTail runs it
// (ReOpen, Follow, polling and inotify) against the writer used by this
// package's own tests, Python logging writing 300 numbered lines while the
// file is rotated every 80 ms, on the 2-core development machine (two runs,
// the second on a loaded machine):
//
//	rename without pause, polling:   43 and 66 of 300 lines lost
//	rename without pause, inotify:   15 and 3 of 300 lines lost
//	logrotate copytruncate, polling: 88 of 298 and 115 of 300 lines on disk lost
//	logrotate copytruncate, inotify: none lost
//	truncate twice:                  passed in both modes
//
// It also has no notion of file identity or resumable offsets across a
// rename, and delivers 0.1-0.12M lines/s against 1.5-3.2M lines/s for this
// package's bufio reader (BenchmarkNxadmCatchUp, BenchmarkTailerCatchUp on
// a 1M-line file, same loaded 2-core machine), which matters for catch-up
// after a restart. So the Tailer is its own reader, modelled on the
// Collector's file consumer; run the evaluation with LOGMATCH_EVAL_NXADM=1.
//
// # Watch and polling
//
// The Tailer watches with github.com/fsnotify/fsnotify (inotify), and the
// watch is what it waits on: a Create opens the new file at once, a Rename
// or Remove rescans the globs, a Write reads. Measured on the 2-core
// development machine, shared with other jobs (LOGMATCH_MEASURE=1,
// TestMeasureLatency and TestMeasureIdleCPU; LOGMATCH_MEASURE_POLL=250ms
// for the poll):
//
//	write -> Emit, 300 lines at 3-22 ms gaps:
//	  watch:               p50 21-55 us, p99 2.2-2.3 ms, max 3.3 ms
//	  polling every 250ms: p50 127 ms, p99 246 ms (before the watch: the same)
//	20,000 lines/s, one write each, CPU per line with the writer (TestMeasureWriteLoad):
//	  watch: 2.4-2.65 us (415-549 passes in 3 s); polling every 250 ms: 2.22-2.24 us
//	idle, 4 quiet files, user+sys over 60 s:
//	  watch (a scan every RescanInterval, then 1 s): 0.031% of a core
//	  polling every 250 ms:                     0.13-0.14%
//	rename rotation every 0.2 s, live name only (TestRealFastRotation, 1000 lines, 26-29 rotations):
//	  watch:                0 lost, 0 duplicated (TestMeasureFastRotation too)
//	  polling every 250 ms: 0 lost, 0 duplicated in two runs (TestMeasureFastRotation,
//	                        LOGMATCH_MEASURE_POLL=250ms); 169 and 153 lost, alternating
//	                        on the same loaded machine, before a file that lived less
//	                        than a poll was found next to the path as a generation
//	                        moved aside (192 before that, 185 before the watch)
//
// A write after a quiet spell is read at once; passes caused by a stream
// of writes are at least 20 ms apart, which bounds their cost: the whole
// `logmatch run` (scripts/measure-run.py, two alternating runs) costs
// 10.1 us a line at 10,000 lines/s with a 5 ms gap against 6.4 us with
// 20 ms, and 3.6 against 2.5 us at 50,000 lines/s, while write -> alert
// goes from p50 4 ms, p99 7 ms to p50 12 ms, p99 23 ms (250 ms polling:
// p50 130 ms, p99 210-250 ms). The figures above were taken with 5 ms. Polling stays for what the watch cannot cover: NoWatch, no inotify (the
// watcher cannot be created), a directory that cannot be watched (inotify's
// limits reached, not there yet) and a directory on a network or FUSE file
// system, which another machine changes without an event, all make the
// Tailer poll every PollInterval; and every RescanInterval, while the
// watch covers everything, a full scan catches an event the watch lost.
//
// # Framing and bounds
//
// Format auto decides per file from its first non-empty line (docker JSON,
// then CRI, else raw). CRI "P" and docker unterminated lines are joined per
// stream until their end, so stdout and stderr of one container assemble
// apart; a framed line that does not parse is passed through raw and
// counted. Lines longer than MaxLineBytes are cut and marked Truncated; the
// rest is skipped up to the newline without being buffered. Every bound and
// event is counted through an Observer.
//
// # Streams and commands
//
// Stream reads an io.Reader (stdin, --path -); its offsets are byte counts
// and cannot be resumed. Command runs a child (logmatch run -- COMMAND),
// copies its stdout and stderr to ours byte for byte as they are read,
// delivers both as streams, forwards signals, and reports its exit status.
package source
