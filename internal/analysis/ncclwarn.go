package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// NCCL prints every warning through one macro, WARN, whose header is its
// own: "host:pid:tid [dev] file.cc:71 NCCL WARN <message>" since 2.x,
// "WARN file.h:344 <message>" in the first releases. The entry package
// reads the header when it opens the line; a launcher, a pod log, a
// timestamp or a paste often puts something else first ("10.0.0.1: " of
// pdsh, "(Actor pid=1) [time] ", "> "), or strips the host and keeps only
// "file.h:344 WARN". The message is the library's own: most WARN calls
// report what failed, the call or the operation and the reason, right
// before NCCL returns its error ("Cuda failure 'out of memory'", "Call to
// ibv_modify_qp failed with 110 Connection timed out", "socketProgress:
// Connection closed by remote peer ...", "Net : Socket creation failed :
// Address family not supported", "NET/IB : Got async event : port error",
// "NET/IB: Got completion from peer ... with status=12", "... collective
// mismatch error, local size ..."). Some are routine: a network plugin
// that is not installed, a variable that is deprecated, a feature the
// environment cannot enable ("Failed to open libibverbs.so[.1]", "NET/Plugin:
// Could not find: libnccl-net.so", "MSCCL++: Cannot enable MSCCL++"),
// after which NCCL carries on with its internal implementation.
// ncclWarnFailure reads such a line wherever its header stands; a routine
// warning, and a failure the line says NCCL got round, are not failures.

// ncclWarnMessage returns the message of an NCCL WARN line (see above),
// whatever precedes its header, and whether l is one: "NCCL WARN " at the
// line's start or after the device ("[0]"), a source location or the
// "host:pid:tid"; or the header without "NCCL" that the first releases
// print and a stripped line keeps, a source location next to "WARN".
// The releases before 2.4 print no "NCCL" in it: a source location after
// the device ("host:pid:tid [0] include/socket.h:360 WARN ..."). Prose
// that names NCCL's warnings ("with NCCL_DEBUG=WARN the following NCCL
// WARN lines") is none: only a header's own word stands before "WARN".
func ncclWarnMessage(l string) (string, bool) {
	i := strings.Index(l, "WARN ")
	if i < 0 {
		return "", false
	}
	msg := strings.TrimLeft(l[i+len("WARN "):], " ")
	before := strings.TrimRight(l[:i], " ")
	if b, ok := strings.CutSuffix(before, "NCCL"); ok && (b == "" || b[len(b)-1] == ' ') {
		before = strings.TrimRight(b, " ")
		if before == "" {
			return msg, true
		}
		w := before[strings.LastIndexByte(before, ' ')+1:]
		return msg, ncclSourceLocation(w) || ncclFunctionLocation(w) || deviceTag(w) || processTriple(w)
	}
	if before == "" {
		// "WARN file.h:344 <message>", the first releases' header.
		loc, rest, ok := strings.Cut(msg, " ")
		return rest, ok && ncclSourceLocation(loc)
	}
	if sp := strings.LastIndexByte(before, ' '); sp >= 0 {
		// "host:pid:tid [0] include/socket.h:360 WARN <message>": the
		// header of the releases before 2.4, without the word NCCL
		// (its source location right after the device or the
		// host:pid:tid).
		prev := strings.TrimRight(before[:sp], " ")
		prev = prev[strings.LastIndexByte(prev, ' ')+1:]
		return msg, ncclSourceLocation(before[sp+1:]) && (deviceTag(prev) || processTriple(prev))
	}
	// "file.h:344 WARN <message>": a stripped header.
	return msg, ncclSourceLocation(before)
}

// ncclFunctionLocation reports whether w is the function and line that a
// network plugin's warnings print where NCCL's own print a source file
// (aws-ofi-nccl's "nccl_net_ofi_rdma_init:7978 NCCL WARN NET/OFI ...",
// "create_nccl_ofi_component:459", "ofi_process_cq:196"), or the last
// piece of a C++ signature that a newer release prints there
// ("..., uint16_t):46"): a C identifier with an underscore, or a closing
// parenthesis, then a colon and the line's digits.
func ncclFunctionLocation(w string) bool {
	c := strings.LastIndexByte(w, ':')
	if c < 2 || !ascii.Digits(w[c+1:]) {
		return false
	}
	name := w[:c]
	if name[len(name)-1] == ')' {
		return true
	}
	if !ascii.Letter(name[0]) && name[0] != '_' || strings.IndexByte(name, '_') < 0 {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !isAlnum(name[i]) && name[i] != '_' {
			return false
		}
	}
	return true
}

// ncclSourceLocation reports whether w is a C or C++ source file's path
// and line as NCCL's header prints it: "misc/socket.cc:71",
// "include/socket.h:344", "transport/net_ib.cc:1038", "ibvwrap.c:262".
func ncclSourceLocation(w string) bool {
	c := strings.LastIndexByte(w, ':')
	if c < 3 || !ascii.Digits(w[c+1:]) {
		return false
	}
	file := w[:c]
	dot := strings.LastIndexByte(file, '.')
	if dot < 1 {
		return false
	}
	switch file[dot+1:] {
	case "c", "cc", "cpp", "cu", "h", "hpp", "cuh", "cxx":
		return true
	}
	return false
}

// deviceTag reports whether w is the bracketed device of an NCCL line,
// "[0]".
func deviceTag(w string) bool {
	return len(w) >= 3 && w[0] == '[' && w[len(w)-1] == ']' && ascii.Digits(w[1:len(w)-1])
}

// processTriple reports whether w ends in the "host:pid:tid" of an NCCL
// line: two colon-separated fields after the host, the last of digits
// (the pid may be masked in a paste, "host:XXXXXX:12").
func processTriple(w string) bool {
	c2 := strings.LastIndexByte(w, ':')
	if c2 < 1 || !ascii.Digits(w[c2+1:]) {
		return false
	}
	return strings.LastIndexByte(w[:c2], ':') > 0
}

// ncclFailureWords say, in an NCCL warning's message, that a call or an
// operation failed: what the WARN calls before an error return print.
var ncclFailureWords = [...]string{
	" failed", "failure", "Failed", " error", "Error",
	"Connection closed", "closed by remote", "timed out", "Timeout", "timeout",
	"truncated", "mismatch", "Got completion from peer", "Got async event",
	"Duplicate GPU", "exceeded", "Unable to", "unable to", "Could not", "could not", "Cannot", "cannot",
}

// ncclRoutineWords mark an NCCL warning that reports no failure of its
// own work: a plugin or an optional library it looks for and does without
// (and a library's symbol, symbolLookup), a setting it ignores or
// replaces, a feature the environment cannot use.
var ncclRoutineWords = [...]string{
	"Plugin", "plugin", "Failed to open lib", "dlopen", "deprecated", "internal implementation",
	"using default", "Using default", "falling back", "fall back", "MSCCL", "Cannot get incoming CPU",
	"Maximum retry reached", "ignor", "real path",
}

// ncclWarnFailure reports whether l is an NCCL WARN line (ncclWarnMessage)
// whose message says a call or an operation failed, and is no routine
// warning (see above).
func ncclWarnFailure(l string) bool {
	msg, ok := ncclWarnMessage(l)
	return ok && ncclFailureMessage(msg)
}

// ncclFailureMessage reports whether msg, an NCCL warning's message, says
// a call or an operation failed (ncclFailureWords) and is no routine
// warning (ncclRoutineWords).
func ncclFailureMessage(msg string) bool {
	return containsAnyOf(msg, ncclFailureWords[:]) && !ncclRoutineMessage(msg)
}

// ncclRoutineMessage reports whether msg, an NCCL warning's message, is a
// routine warning (ncclRoutineWords, symbolLookup): NCCL carries on.
func ncclRoutineMessage(msg string) bool {
	return containsAnyOf(msg, ncclRoutineWords[:]) || symbolLookup(msg)
}

// symbolLookup reports whether msg says a library's symbol was not found
// where it was looked up ("NET/OFI Could not find ncclGetVersion
// symbol", "Failed to find ncclCollNetPlugin_v4 symbol"): an optional
// entry point the plugin or NCCL does without. A symbol a kernel launch
// needs ("Cuda failure 'named symbol not found'") is no lookup.
func symbolLookup(msg string) bool {
	i := strings.Index(msg, "find ")
	return i >= 0 && strings.Contains(msg[i:], " symbol")
}

// ncclWarnCandidate is quiet's test for an entry with no level: whether
// its first line l may be an NCCL WARN line (ncclWarnMessage). Behind
// sglang's own logger header (header), whose messages open with a
// capital, only a line that opens as NCCL's header does, with its host,
// device or "NCCL", is searched.
func ncclWarnCandidate(l string, header bool) bool {
	if l == "" || header && isUpperByte(l[0]) && l[0] != 'N' {
		return false
	}
	return strings.Contains(l, "WARN ")
}
