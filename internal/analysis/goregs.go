package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/patterns"
)

// When a fatal signal ends a Go program (a segfault or an abort in its
// cgo code, as a llama runner's CUDA error aborts it, or a SIGQUIT), the
// Go runtime prints the signal's name ("SIGABRT: abort", crashbanner.go),
// the goroutines' stacks and then the machine's registers, one a line, a
// name padded to a column and its value in hex:
//
//	rax    0x0
//	...
//	rip    0x77f67e49eb1c
//	rflags 0x246
//	cs     0x33
//
// (amd64; arm64 ends "pc      0x...", "fault   0x..."). A journal that kept
// only the dump's tail, or a paste of it, loses the signal's line: the
// register dump is then all that says the program died. Read as a run of
// entries, each one line: the instruction pointer's line followed by the
// flags' (amd64) or the fault address's (arm64) is the dump, a native
// crash, critical, headed by the last goroutine the dump named
// ("created by ... in goroutine N", when in sight). It is a fragment of
// the crash's report: the signal's line leads it when in sight. gdb's
// "info registers" (three columns, "eflags") and the kernel's "RIP:
// 0033:..." are not this shape.

// goRegRun is what a Stream keeps of a Go runtime's register dump: the
// previous entry's register name when it was a register line, and the
// last "created by" line of the goroutines before it (its own copy,
// bounded by maxSaid).
type goRegRun struct {
	prev    string
	created []byte
}

// goRegNames are the registers Go's dumpregs prints on amd64 and arm64
// (r0 to r29 on arm64 are read by their digits).
var goRegNames = [...]string{"rax", "rbx", "rcx", "rdx", "rdi", "rsi", "rbp", "rsp", "rip", "rflags", "cs", "fs", "gs", "lr", "sp", "pc", "fault"}

// goRegister reads t, a line trimmed, as one line of Go's register dump:
// a register's name, spaces to its column, and "0x" with hex digits, and
// nothing else. It returns the name.
func goRegister(t string) (string, bool) {
	name, val, ok := strings.Cut(t, " ")
	if !ok || len(name) > 6 {
		return "", false
	}
	val = strings.TrimLeft(val, " ")
	h, ok := strings.CutPrefix(val, "0x")
	if !ok || h == "" || len(h) > 16 {
		return "", false
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; !isDigitByte(c) && (c < 'a' || c > 'f') {
			return "", false
		}
	}
	if len(name) >= 2 && name[0] == 'r' && isDigitByte(name[1]) {
		// r8 to r15 on amd64, r0 to r29 on arm64.
		if len(name) > 3 || len(name) == 3 && !isDigitByte(name[2]) {
			return "", false
		}
		return name, true
	}
	for _, n := range goRegNames {
		if name == n {
			return name, true
		}
	}
	return "", false
}

// goCreatedBy opens the line that ends a goroutine's stack in a Go
// traceback: "created by main.main in goroutine 1".
const goCreatedBy = "created by "

// goDumpAt reads entry e, a quiet one of stream st whose message m
// (trimmed) opens with a letter a register dump's line or a goroutine's
// creator line opens with, or follows a register line. It fills d and
// reports true when e ends a Go runtime's register dump (see above); d's
// strings are then its own.
func (a *Analyzer) goDumpAt(d *Diagnosis, st *Stream, e *entry.Entry, m string) bool {
	r := &st.goRegs
	if strings.HasPrefix(m, goCreatedBy) {
		l := strings.TrimSpace(FirstLine(m))
		if len(l) <= maxSaid && strings.Contains(l, " in goroutine ") {
			r.created = append(r.created[:0], l...)
		}
		r.prev = ""
		return false
	}
	name, ok := goRegister(strings.TrimSpace(FirstLine(m)))
	if !ok || e.Lines > 1 && strings.IndexByte(strings.TrimSpace(e.Text), '\n') >= 0 {
		// One line each (a blank line after it, as a double-spaced
		// paste prints, is still one).
		r.prev = ""
		return false
	}
	prev := r.prev
	r.prev = name
	if !(name == "rflags" && prev == "rip" || name == "fault" && prev == "pc") {
		return false
	}
	r.prev = ""
	*d = Diagnosis{PatternErrors: d.PatternErrors}
	d.Role = patterns.RoleCause
	d.Signal = SignalNative
	d.Severity = patterns.SeverityCritical
	// The signal's own line ("SIGABRT: abort"), when in sight, leads.
	d.Fragment = true
	d.Headline = goDumpLabel
	sig := "goregs"
	if len(r.created) > 0 {
		d.Headline += ", after the goroutine " + string(r.created)
		fn, _, _ := strings.Cut(strings.TrimPrefix(string(r.created), goCreatedBy), " in goroutine ")
		sig += ";" + fn
		r.created = r.created[:0]
	}
	d.Key = "unclassified:" + LineSignature(string(SignalNative), sig)
	d.Triage = TriageOf(e, nil)
	d.Triage.Family = FamilyNative
	return true
}

// goDumpLabel opens the headline of a Go runtime's register dump read
// without its signal's line.
const goDumpLabel = "native crash, a Go runtime's register dump of a fatal signal without the signal's line"
