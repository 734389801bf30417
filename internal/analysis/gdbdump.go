package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
)

// A native process that stops making progress is shown by gdb's
// backtrace of its threads ("thread apply all bt", pstack, gdb -batch -ex
// bt), as a Python one is by py-spy's or faulthandler's dump (hang.go):
//
//	Thread 3 (Thread 0x7f2bab462700 (LWP 2488)):
//	#0  0x00007f2baec811f3 in epoll_wait () from /lib64/libc.so.6
//	#1  0x00007f2bb0412dd5 in torrent::PollEPoll::poll(int) ()
//	   from /usr/lib/x86_64-linux-gnu/libtorrent.so.14
//	#2  WaitEventSetWait (set=0x55dce8621638, timeout=180000) at latch.c:1435
//
// Each frame is an entry of its own (no line of it has a header). The
// dump's first thread, read until hangHeadlineFrames of its frames are no
// wait in the system's C library (read, epoll_wait, a futex: where every
// blocked thread sits), is a hang: severity critical, headed by those
// frames, innermost first, and the wait they sit in, then the thread's
// header line as printed. Its other
// threads, and the rest of its frames, are the same dump. Near a crash
// (gdb's backtrace of the thread a signal stopped, after its "Program
// received signal SIGSEGV" that crashbanner.go reads), the hang is the
// crash's context, as any dump is (see internal/incident).

// gdbDump is what a Stream keeps of the gdb dump it is in: the frames of
// its first thread so far, as "func (where)", its own strings, and
// whether its hang was diagnosed.
type gdbDump struct {
	frames []string
	// own counts the frames of frames that are no wait of the system's
	// C library (isWaitFrame): a thread blocked in read() is headed by
	// the calls that wait in it.
	own int
	// header is the thread's header line, when the dump printed it
	// ("Thread 7 (Thread 0x7f... (LWP 2791195) \"executor_server\"):").
	header string
	done   bool
}

// gdbThreadHeader reports whether m is gdb's thread header: "Thread 3
// (Thread 0x7f... (LWP 2488)):", with the thread's name after the LWP in
// newer releases.
func gdbThreadHeader(m string) bool {
	r, ok := strings.CutPrefix(m, "Thread ")
	if !ok {
		return false
	}
	i := 0
	for i < len(r) && isDigitByte(r[i]) {
		i++
	}
	return i > 0 && strings.HasPrefix(r[i:], " (") && strings.Contains(r, "(LWP ")
}

// gdbFrame returns the frame of gdb's backtrace line l as "func (where)",
// where is the source file and line ("latch.c:1435") or the library's
// base name ("libc.so.6") after it, on l or on the continuation line in
// rest; ok is false when l is no frame: "#N", spaces, an optional
// "0x... in ", a function name and its argument list, and the address or
// the place (an inlined frame has no address).
func gdbFrame(l, rest string) (frame string, ok bool) {
	r, ok := strings.CutPrefix(l, "#")
	if !ok {
		return "", false
	}
	i := 0
	for i < len(r) && i < 4 && isDigitByte(r[i]) {
		i++
	}
	if i == 0 || i >= len(r) || r[i] != ' ' {
		return "", false
	}
	r = strings.TrimLeft(r[i:], " ")
	addressed := false
	if a, ok := strings.CutPrefix(r, "0x"); ok {
		addressed = true
		j := 0
		for j < len(a) && (isDigitByte(a[j]) || 'a' <= a[j] && a[j] <= 'f') {
			j++
		}
		b, ok := strings.CutPrefix(a[j:], " in ")
		if j == 0 || !ok {
			return "", false
		}
		r = b
	}
	open := gdbArgsAt(r)
	if open <= 0 {
		return "", false
	}
	fn := r[:open]
	if p := strings.IndexByte(fn, '('); p > 0 {
		// A C++ function's parameter types: its name says where.
		fn = fn[:p]
	}
	where := ""
	tail := r[open:] + " " + strings.TrimSpace(rest)
	if k := strings.LastIndex(tail, " at "); k >= 0 {
		where = strings.TrimSpace(tail[k+len(" at "):])
	} else if k := strings.LastIndex(tail, " from "); k >= 0 {
		where = strings.TrimSpace(tail[k+len(" from "):])
	}
	if sp := strings.IndexAny(where, " \t"); sp >= 0 {
		where = where[:sp]
	}
	where = where[strings.LastIndexByte(where, '/')+1:]
	if where == "" {
		if !addressed {
			// "#2 fix (see above)": a numbered line, not a frame,
			// which has its address or its place.
			return "", false
		}
		where = "?"
	}
	return cutRunes(fn, maxPrintedFrame) + " (" + where + ")", true
}

// maxGDBFunc bounds how far into a frame gdbArgsAt looks for the
// function's argument list: a C++ name with its template arguments and
// parameter types is long, never unbounded.
const maxGDBFunc = 2048

// gdbArgsAt returns where the " (" that opens the argument list of gdb's
// frame r ("f (x=1) at a.c:3", "ns::f(int, char*) () from /lib/x.so")
// begins: after the function's name, and a C++ function's parameter types
// and template arguments, whose spaces and parentheses are inside their
// brackets; -1 when r holds none there. A space outside brackets before
// it is a C++ name's only ("virtual thunk to a::b()"); in any other name
// it says r is prose ("#1 in the list (draft)").
func gdbArgsAt(r string) int {
	depth, spaced := 0, false
	for i := 0; i < len(r) && i < maxGDBFunc; i++ {
		switch r[i] {
		case '(', '<':
			depth++
		case ')', '>':
			if depth > 0 {
				depth--
			}
		case ' ', '\t':
			if depth > 0 {
				continue
			}
			if r[i] == ' ' && i > 0 && i+1 < len(r) && r[i+1] == '(' {
				if spaced && !strings.Contains(r[:i], "::") {
					return -1
				}
				return i
			}
			spaced = true
		}
	}
	return -1
}

// gdbDumpAt reads entry e, a quiet one of stream st, as a line of a gdb
// dump (see above), and fills d and reports true when it completes the
// headline frames of the dump's first thread, or ends that thread (the
// next thread's header, a line that is no frame) with fewer of them but
// hangHeadlineFrames frames at least.
func (a *Analyzer) gdbDumpAt(d *Diagnosis, st *Stream, e *entry.Entry, m string) bool {
	g := &st.gdb
	if m != "" && m[0] == '#' {
		rest := ""
		if _, r, ok := strings.Cut(e.Text, "\n"); ok {
			rest = FirstLine(r)
		}
		f, ok := gdbFrame(FirstLine(m), rest)
		if !ok {
			return a.gdbEnd(d, g, e)
		}
		if g.done || len(g.frames) >= MaxStackFrames {
			return false
		}
		g.frames = append(g.frames, strings.Clone(f))
		if !isWaitFrame(f) {
			g.own++
		}
		if g.own < hangHeadlineFrames && len(g.frames) < MaxStackFrames {
			return false
		}
		a.gdbHang(d, g, e)
		return true
	}
	if gdbThreadHeader(m) {
		// The dump's next thread: the first one's hang, once read,
		// stands for the dump.
		if g.done {
			return false
		}
		if len(g.frames) >= hangHeadlineFrames {
			a.gdbHang(d, g, e)
			return true
		}
		g.frames, g.own = g.frames[:0], 0
		g.header = strings.Clone(cutRunes(FirstLine(m), maxPrintedFrame))
		return false
	}
	return a.gdbEnd(d, g, e)
}

// gdbEnd ends the dump at e, a line that is no frame of it: a first
// thread read to hangHeadlineFrames frames but fewer of its own (a wait
// in the C library on top) is the hang, diagnosed at e.
func (a *Analyzer) gdbEnd(d *Diagnosis, g *gdbDump, e *entry.Entry) bool {
	hung := !g.done && len(g.frames) >= hangHeadlineFrames
	if hung {
		a.gdbHang(d, g, e)
	}
	g.reset()
	return hung
}

// gdbHang fills d with the hang of g's first thread, read so far.
func (a *Analyzer) gdbHang(d *Diagnosis, g *gdbDump, e *entry.Entry) {
	g.done = true
	*d = Diagnosis{PatternErrors: d.PatternErrors}
	a.hang(d, e, g.frames, nil)
	if g.header != "" {
		// The thread's header names it (its LWP, its name): where
		// the dump shows it, which the log is searched for.
		d.Headline += ": " + g.header
	}
	d.Stack = append([]string(nil), g.frames...)
}

// reset ends the dump.
func (g *gdbDump) reset() {
	g.frames, g.own, g.header, g.done = g.frames[:0], 0, "", false
}
