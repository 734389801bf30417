package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// A memory checker reports a program's invalid memory access in its own
// shape, with no level word a reader can see: compute-sanitizer's (and
// cuda-memcheck's) "========= Invalid __global__ read of size 2 bytes",
// "========= Program hit cudaErrorIllegalAddress ...", "=========
// ERROR SUMMARY: 3 errors"; the compilers' sanitizers' "==4711==ERROR:
// AddressSanitizer: heap-use-after-free ...", "SUMMARY:
// UndefinedBehaviorSanitizer: ...", "WARNING: ThreadSanitizer: data race";
// glibc's allocator and fortify checks ("free(): invalid pointer", "double
// free or corruption (out)", "*** Error in `python': ...", "*** stack
// smashing detected ***: terminated"). memoryCheckReport reads them; the
// reports' detail lines (frames, addresses, a summary of no errors, a
// checker's banner) are not failures of their own.

// sanitizerReportKinds open what follows compute-sanitizer's "=========
// " mark on a report's first line, across its tools (memcheck,
// racecheck, initcheck, synccheck) and cuda-memcheck before it.
var sanitizerReportKinds = [...]string{
	"Invalid ", "Uninitialized ", "Race reported", "Error: Race reported", "ERROR: Race reported",
	"Barrier error", "Malloc/Free error", "Out-of-range ", "Misaligned ", "Hardware Exception", "Warp ",
	"Fatal UVM", "Leaked ",
}

// glibcHeapWords are the words of glibc's heap-consistency aborts after
// the function that found the damage ("free(): invalid pointer",
// "malloc(): corrupted top size", "realloc(): invalid next size").
var glibcHeapWords = [...]string{"invalid", "corrupt", "double free", "unaligned", "too many chunks", "mismatching next"}

// memCheckStart reports, with a byte test and at most two prefix
// comparisons, whether l may be a line memoryCheckReport accepts. It is
// what a routine line pays.
func memCheckStart(l string) bool {
	if len(l) < 8 {
		return false
	}
	switch l[0] {
	case '=':
		return l[1] == '='
	case 'S':
		return strings.HasPrefix(l, "SUMMARY: ")
	case 'W':
		return strings.HasPrefix(l, "WARNING: ThreadSanitizer")
	case '*':
		return strings.HasPrefix(l, "*** ")
	case 'f', 'm', 'r', 't', '_':
		return strings.Contains(l[:min(len(l), 28)], "(): ")
	case 'd':
		return strings.HasPrefix(l, "double free")
	case 'c':
		return strings.HasPrefix(l, "corrupted ")
	}
	return false
}

// memoryCheckReport reports whether l, a line with no level of its own,
// is a memory checker's report of a fault (see above).
func memoryCheckReport(l string) bool {
	report, _ := memoryCheck(l)
	return report
}

// memoryCheck says whether l is a memory checker's report of a fault, and
// whether it is the report's first line, which names the fault (lead):
// an invalid access, a race, a leak, a sanitizer's ERROR, glibc's abort.
// A summary ("ERROR SUMMARY: 3 errors", "SUMMARY: AddressSanitizer:
// ..."), a sanitizer's DEADLYSIGNAL and the API errors compute-sanitizer
// sees after an invalid access ("Program hit cudaErrorLaunchFailure")
// report the same fault again: alone they still alert.
func memoryCheck(l string) (report, lead bool) {
	if !memCheckStart(l) {
		return false, false
	}
	report, lead = memoryCheckShape(strings.TrimRight(l, " \r"))
	return report, report && lead
}

// memoryCheckShape is memoryCheck's reading of t by its first byte, which
// memCheckStart let through; lead says only whether the shape would open
// a report.
func memoryCheckShape(t string) (report, lead bool) {
	switch t[0] {
	case '=':
		if r, ok := strings.CutPrefix(t, "========= "); ok {
			return computeSanitizerReport(r)
		}
		return sanitizerError(t)
	case 'S':
		r := strings.TrimPrefix(t, "SUMMARY: ")
		name, _, ok := strings.Cut(r, ": ")
		return ok && strings.HasSuffix(name, "Sanitizer") && !strings.Contains(name, " "), false
	case 'W':
		return strings.HasPrefix(t, "WARNING: ThreadSanitizer: "), true
	case '*':
		return glibcFortify(t[4:]), true
	case 'd':
		return strings.HasPrefix(t, "double free or corruption"), true
	case 'c':
		return strings.HasPrefix(t, "corrupted size vs. prev_size") || strings.HasPrefix(t, "corrupted double-linked list"), true
	}
	return glibcHeapAbort(t), true
}

// computeSanitizerReport says whether r, a line of compute-sanitizer's
// after its "========= " mark, is a report, and whether it opens one: an
// invalid access, a race or barrier error, a leak open one; an API error
// the program hit and a failing error summary follow one. An indented
// line is a report's detail; the banner and a summary of no errors are
// not reports.
func computeSanitizerReport(r string) (report, lead bool) {
	if r == "" || r[0] == ' ' {
		return false, false
	}
	if n, ok := strings.CutPrefix(r, "ERROR SUMMARY: "); ok {
		return len(n) > 0 && isDigitByte(n[0]) && n[0] != '0', false
	}
	for _, k := range sanitizerReportKinds {
		if strings.HasPrefix(r, k) {
			return true, true
		}
	}
	return strings.HasPrefix(r, "Program hit ") || strings.HasPrefix(r, "Error: "), false
}

// sanitizerError says whether t is a compiler sanitizer's report line,
// and whether it opens the report: "==4711==ERROR: AddressSanitizer:
// ..." (LeakSanitizer's, MemorySanitizer's alike) does;
// "==4711==AddressSanitizer:DEADLYSIGNAL", the signal handler's mark
// before it, is a report but not its lead. A sanitizer's "==4711==WARNING:
// ..." about itself is no fault.
func sanitizerError(t string) (report, lead bool) {
	r := t[2:]
	end := strings.Index(r[:min(len(r), 12)], "==")
	if end < 1 || !ascii.Digits(r[:end]) {
		return false, false
	}
	r = r[end+2:]
	if e, ok := strings.CutPrefix(r, "ERROR: "); ok {
		name, _, _ := strings.Cut(e, ":")
		return strings.HasSuffix(name, "Sanitizer"), true
	}
	return strings.Contains(r, "Sanitizer:DEADLYSIGNAL"), false
}

// glibcFortify reports whether r, what follows a line's "*** ", is
// glibc's fortify or stack-protector abort ("stack smashing detected ***:
// terminated", "buffer overflow detected ***") or its older heap abort
// ("Error in `python': double free or corruption (fasttop): 0x... ***").
func glibcFortify(r string) bool {
	if strings.HasPrefix(r, "Error in `") {
		return true
	}
	return strings.HasPrefix(r, "stack smashing detected ***") || strings.HasPrefix(r, "buffer overflow detected ***") ||
		strings.HasPrefix(r, "longjmp causes uninitialized stack frame")
}

// glibcHeapAbort reports whether t is glibc's heap-consistency abort,
// "<function>(): <what is damaged>": "free(): invalid pointer",
// "malloc(): unaligned tcache chunk detected", "munmap_chunk(): invalid
// pointer".
func glibcHeapAbort(t string) bool {
	fn, what, ok := strings.Cut(t, "(): ")
	if !ok || fn == "" || strings.ContainsAny(fn, " .:") {
		return false
	}
	switch fn {
	case "free", "malloc", "realloc", "calloc", "munmap_chunk", "malloc_consolidate", "tcache_thread_shutdown", "_int_free", "_int_malloc", "_int_realloc":
	default:
		return false
	}
	for _, w := range glibcHeapWords {
		if strings.Contains(what, w) {
			return true
		}
	}
	return false
}

// nativeFollowUp reports whether msg, a message with no level, is a
// kernel or memory checker report that follows the line stating its
// failure (kernelReport's and memoryCheck's lead false).
func nativeFollowUp(msg string) bool {
	if report, lead := kernelReport(msg); report {
		return !lead
	}
	report, lead := memoryCheck(FirstLine(msg))
	return report && !lead
}
