package analysis

import (
	"slices"
	"strconv"
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/patterns"
)

// Hangs. A process that stops making progress prints no error: what shows
// it is a dump of its threads, taken by a watchdog or by hand. sglang's
// watchdog logs a py-spy dump of each scheduler ("Pyspy dump for PID
// ..."), an operator pastes py-spy's own output (a "Thread N (active):"
// block per thread), faulthandler's dump_traceback_later prints "Thread
// 0x... (most recent call first):" blocks, and the legacy watchdog prints
// the running batch ("self.cur_batch.batch_size()=..."). Such an entry,
// when no record names it and it holds no error line, is a hang: severity
// critical, headed by the stuck thread's top frames, which it carries as
// its Stack. Within a burst with a failure (a watchdog timeout record, a
// crash whose faulthandler output dumps every thread) it is that
// failure's context (see internal/incident).

// batchDumpMarker opens the legacy watchdog's dump of the running batch.
const batchDumpMarker = "self.cur_batch"

// hangHeadlineFrames is how many of the stuck thread's frames a hang's
// headline names.
const hangHeadlineFrames = 3

// maybeHang reports whether e may be a thread dump, cheaply: most entries
// open otherwise.
func maybeHang(e *entry.Entry) bool {
	m := e.Message
	if m == "" {
		return false
	}
	switch m[0] {
	case 'P':
		return strings.HasPrefix(m, pyspyMarker)
	case 'T':
		return pySpyThread(e)
	case 's':
		return strings.HasPrefix(m, batchDumpMarker)
	}
	return false
}

// pySpyThread reports whether e is one thread of py-spy's output printed
// without sglang's header: `Thread 309 (active): "MainThread"` and its
// frames.
func pySpyThread(e *entry.Entry) bool {
	m := e.Message
	if !strings.HasPrefix(m, "Thread ") || e.Lines < 2 {
		return false
	}
	rest := m[len("Thread "):]
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	return i > 0 && strings.HasPrefix(rest[i:], " (")
}

// hangStack returns the stuck thread's top frames of a thread dump entry,
// innermost first, and whether e is a thread dump at all (a batch dump has
// no frames). For a faulthandler dump, printed holds the same frames as
// the dump printed them (py-spy prints them as stack does).
func hangStack(e *entry.Entry) (stack, printed []string, ok bool) {
	switch {
	case e.Native == entry.NativeFaulthandler:
		if strings.Contains(e.Text, fatalPythonError) {
			return nil, nil, false
		}
		fs, ps := faulthandlerStack(e.Text)
		return fs, ps, len(fs) > 0
	case strings.HasPrefix(e.Message, pyspyMarker):
		fs := PySpyStack(e.Text)
		return fs, nil, len(fs) > 0
	case pySpyThread(e):
		fs := PySpyStack(pyspyMarker + "\n" + e.Text)
		return fs, nil, len(fs) > 0
	case strings.HasPrefix(e.Message, batchDumpMarker):
		return nil, nil, true
	}
	return nil, nil, false
}

// faulthandlerStack returns the frames of a faulthandler dump's current
// thread, else of its first thread that runs code of its own (not only the
// standard library's waits and tqdm's monitor), else of its first thread,
// as "func (file:line)", innermost first (the order faulthandler prints),
// at most MaxStackFrames; and the same frames as the dump printed them
// (`File "/x/sglang/srt/utils.py", line 693 in broadcast_pyobj`).
func faulthandlerStack(text string) (frames, printed []string) {
	type thread struct{ frames, printed []string }
	var cur thread
	var threads []thread
	var in *thread
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "Current thread "):
			in = &cur
		case strings.HasPrefix(t, "Thread 0x"):
			if len(threads) < maxDumpThreads {
				threads = append(threads, thread{})
				in = &threads[len(threads)-1]
			} else {
				in = nil
			}
		case in != nil && strings.HasPrefix(t, `File "`) && len(in.frames) < MaxStackFrames:
			rest := t[len(`File "`):]
			q := strings.IndexByte(rest, '"')
			if q < 0 {
				continue
			}
			file, tail := rest[:q], rest[q+1:]
			fn, ln := "", ""
			if i := strings.LastIndex(tail, " in "); i >= 0 {
				fn = strings.TrimSpace(tail[i+len(" in "):])
				tail = tail[:i]
			}
			if i := strings.Index(tail, "line "); i >= 0 {
				ln = strings.TrimSpace(tail[i+len("line "):])
			}
			in.frames = append(in.frames, fn+" ("+shortPath(file)+":"+ln+")")
			in.printed = append(in.printed, t)
		}
	}
	if len(cur.frames) > 0 {
		return cur.frames, cur.printed
	}
	for _, th := range threads {
		if runsOwnCode(th.frames) {
			return th.frames, th.printed
		}
	}
	for _, th := range threads {
		if len(th.frames) > 0 {
			return th.frames, th.printed
		}
	}
	return nil, nil
}

// maxDumpThreads bounds the threads of one dump that are read.
const maxDumpThreads = 64

// waitFiles are the standard library's modules (and tqdm's monitor) whose
// frames a thread shows while it waits: a lock, a queue, a socket, a
// selector, a child process, a pool's work queue. A stack whose top frames
// are these is waiting for something further down; a thread made of them
// only is a helper that idles by design. helperFiles are among them.
var waitFiles = [...]string{
	"threading.py", "queue.py", "selectors.py", "socket.py", "ssl.py", "subprocess.py",
	"multiprocessing/connection.py", "multiprocessing/synchronize.py", "multiprocessing/queues.py",
	"multiprocessing/popen_fork.py", "multiprocessing/pool.py",
	"concurrent/futures/_base.py", "concurrent/futures/thread.py",
	"asyncio/base_events.py", "asyncio/runners.py", "asyncio/events.py",
	"tqdm/_monitor.py", "torch/_inductor/compile_worker/subproc_pool.py",
}

// helperFiles are the waitFiles of installed packages rather than of the
// standard library: a background thread every process of theirs starts
// and that idles by design (tqdm's monitor, the reader of torch's kernel
// compile workers).
var helperFiles = [...]string{"tqdm/_monitor.py", "torch/_inductor/compile_worker/subproc_pool.py"}

// isWaitFrame reports whether a "func (file:line)" frame is in one of
// waitFiles, printed bare (py-spy: "threading.py") or under an
// interpreter's library directory (faulthandler: "/usr/lib/python3.10/
// threading.py"). A package's own file of the same name is not.
func isWaitFrame(f string) bool {
	open := strings.LastIndexByte(f, '(')
	if open < 0 {
		return false
	}
	file := f[open+1:]
	if c := strings.LastIndexByte(file, ':'); c >= 0 {
		file = file[:c]
	}
	if systemCLibrary(file) {
		return true
	}
	for _, w := range waitFiles {
		if file == w {
			return true
		}
		if strings.HasSuffix(file, "/"+w) {
			dir := file[:len(file)-len(w)]
			if slices.Contains(helperFiles[:], w) || strings.Contains(dir, "/lib/python3") && !strings.Contains(dir, "-packages/") {
				return true
			}
		}
	}
	return false
}

// systemCLibrary reports whether file, a native frame's library as gdb
// names it ("libpthread.so.0", "libc-2.31.so"), is the system's C
// library: a thread blocked in it (read, epoll_wait, pthread_cond_wait,
// a futex) waits for what the calls above it asked, as a Python thread in
// threading.py does, and its first frames (start_thread, clone) are every
// thread's.
func systemCLibrary(file string) bool {
	for _, l := range [...]string{"libc.so", "libc-", "libpthread.so", "libpthread-"} {
		if strings.HasPrefix(file, l) {
			return true
		}
	}
	return false
}

// runsOwnCode reports whether a thread's stack has a frame that is not a
// wait of the standard library's: the thread is doing the process's work.
func runsOwnCode(stack []string) bool {
	for _, f := range stack {
		if !isWaitFrame(f) {
			return true
		}
	}
	return false
}

// shortPath keeps a frame's file from its package on, as py-spy prints
// it: ".../site-packages/sglang/srt/managers/scheduler.py" is
// "sglang/srt/managers/scheduler.py".
func shortPath(p string) string {
	for _, m := range [...]string{"site-packages/", "dist-packages/", "/python/sglang/"} {
		if i := strings.LastIndex(p, m); i >= 0 {
			if m == "/python/sglang/" {
				return "sglang/" + p[i+len(m):]
			}
			return p[i+len(m):]
		}
	}
	return p
}

// stackFrames turns "func (file:line)" frames, innermost first, into
// entry frames, innermost last, for TriageOf.
func stackFrames(stack []string) []entry.Frame {
	out := make([]entry.Frame, 0, len(stack))
	for i := len(stack) - 1; i >= 0; i-- {
		s := stack[i]
		f := entry.Frame{Func: s}
		if open := strings.LastIndexByte(s, '('); open > 0 && strings.HasSuffix(s, ")") {
			f.Func = strings.TrimSpace(s[:open])
			loc := s[open+1 : len(s)-1]
			if c := strings.LastIndexByte(loc, ':'); c > 0 {
				f.File = loc[:c]
				f.Line, _ = strconv.Atoi(loc[c+1:])
			} else {
				f.File = loc
			}
		}
		out = append(out, f)
	}
	return out
}

// hang fills d for a thread dump no record names and no error line marks.
// printed, when not nil, is stack as the dump printed it: the headline
// ends with the line of the frame where the thread's work stopped, as
// printed, so that it is found in the log as it reads.
func (a *Analyzer) hang(d *Diagnosis, e *entry.Entry, stack, printed []string) {
	d.Role = patterns.RoleCause
	d.Signal = SignalHang
	d.Severity = patterns.SeverityCritical
	d.Stack = stack
	top := stack
	var sig strings.Builder
	for _, f := range stack {
		// Function and file, not the line: the same hang from two
		// runs of a build is one incident.
		sf := stackFrames([]string{f})
		sig.WriteString(sf[0].Func + "|" + sf[0].File + ";")
	}
	if len(top) > 0 {
		d.Headline = "no progress: stuck in " + hangFrames(stack)
		if k := workFrame(stack); k < len(printed) {
			d.Headline += ": " + cutRunes(printed[k], maxPrintedFrame)
		}
	} else {
		d.Headline = "no progress: the watchdog dumped the running batch: " + cutRunes(FirstLine(e.Message), 160)
		sig.WriteString(batchDumpMarker)
	}
	d.Key = "unclassified:" + LineSignature(string(SignalHang), sig.String())
	d.Triage = TriageOf(e, nil)
	if len(stack) > 0 {
		triageStack(&d.Triage, stack)
	}
	d.Triage.Family = FamilyHang
}

// cutRunes cuts s to at most n runes, marking the cut.
func cutRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// maxPrintedFrame bounds the printed frame line a hang's headline quotes.
const maxPrintedFrame = 300

// libraryFiles are the path prefixes (as shortPath leaves them) of the
// libraries a serving engine's work calls into: a frame there is how the
// engine's own frame below it waits (torch's broadcast under sglang's
// broadcast_pyobj), not where its work stopped.
var libraryFiles = [...]string{"torch/", "triton/", "numpy/", "zmq/", "<frozen "}

// isLibraryFrame reports whether a "func (file:line)" frame is in one of
// libraryFiles or in the standard library under an interpreter's
// directory.
func isLibraryFrame(f string) bool {
	open := strings.LastIndexByte(f, '(')
	if open < 0 {
		return false
	}
	file := f[open+1:]
	for _, l := range libraryFiles {
		if strings.HasPrefix(file, l) {
			return true
		}
	}
	return strings.Contains(file, "/lib/python3") && !strings.Contains(file, "-packages/")
}

// workFrame is the index of the frame of stack (innermost first) where
// the thread's own work stopped: the innermost frame that is neither a
// standard library wait nor in a library the work calls into, else the
// innermost that is no wait, else the innermost.
func workFrame(stack []string) int {
	for i, f := range stack {
		if !isWaitFrame(f) && !isLibraryFrame(f) {
			return i
		}
	}
	for i, f := range stack {
		if !isWaitFrame(f) {
			return i
		}
	}
	return 0
}

// hangFrames is the headline's part of a stuck thread's stack, innermost
// first: hangHeadlineFrames frames from the innermost one that is not a
// standard library wait, which is where the thread's own work stopped,
// followed by the wait it sits in ("resolve_batch_result (...) < ... waiting
// in wait (threading.py:355)"). A stack of waits only is named as it is.
func hangFrames(stack []string) string {
	k := 0
	for k < len(stack) && isWaitFrame(stack[k]) {
		k++
	}
	if k == len(stack) {
		k = 0
	}
	top := stack[k:]
	if len(top) > hangHeadlineFrames {
		top = top[:hangHeadlineFrames]
	}
	h := strings.Join(top, " < ")
	if k > 0 {
		h += ", waiting in " + stack[0]
	}
	return h
}
