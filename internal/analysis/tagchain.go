package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// Native libraries and the tools around them print their own lines behind
// a chain of bracketed tags, with no level word the entry package reads:
// TensorRT's logger a one-letter severity ("[TRT] [E] 1:
// [defaultAllocator.cpp::deallocate::42] Error Code 1: Cuda Runtime
// (invalid argument)"), trtexec the same after its time ("[05/25/2023-20:44:13]
// [E] Error[1]: ..."); JIT and kernel libraries their name and then what
// failed, with no level at all ("[DeepGEMM] Failed to compile kernel",
// "[sgl_kernel] Failed to load common_ops: ...", "[vllm-flash-attn]
// Unsupported GPU architecture sm_61"), and TensorRT's sample logger its
// "INTERNAL_ERROR: " with no tag. taggedFailureLine reads them; a
// tag chain whose severity is W, I or V, and a tag followed by a routine
// message, are not failures.

// Bounds of taggedFailureLine's chain.
const (
	maxChainTags = 4
	maxChainTag  = 48
)

// taggedFailureLine reports whether msg, the first line of a message with
// no level of its own, is a library's failure line behind bracketed tags
// (see above): a one-letter error severity among the tags ("[E]", "[F]"),
// or a library's name as a tag followed by a failure's first words
// (failureLead), or TensorRT's "Error[1]: " after its tags or alone.
func taggedFailureLine(msg string) bool {
	if r, ok := strings.CutPrefix(msg, "Error["); ok {
		// TensorRT's own error line with no tag before it.
		return errorIndex(r)
	}
	if r, ok := strings.CutPrefix(msg, "INTERNAL_ERROR: "); ok {
		// TensorRT's sample logger's word for kINTERNAL_ERROR.
		return hasLetter(r)
	}
	if msg == "" || msg[0] != '[' {
		return false
	}
	rest, named := msg, false
	for n := 0; n < maxChainTags && strings.HasPrefix(rest, "["); n++ {
		end := strings.IndexByte(rest[:min(len(rest), maxChainTag+2)], ']')
		if end < 2 || strings.IndexByte(rest[1:end], '[') >= 0 {
			return false
		}
		tag := rest[1:end]
		switch tag {
		case "E", "F":
			// TensorRT's kERROR and kINTERNAL_ERROR, trtexec's too.
			return strings.TrimSpace(rest[end+1:]) != ""
		case "W", "I", "V", "D", "T":
			// A lower severity: the line's own words do not make
			// it a failure ("[V] [TRT] Failed to find a tactic").
			return false
		}
		named = named || libraryTag(tag)
		rest = strings.TrimLeft(rest[end+1:], " ")
	}
	if r, ok := strings.CutPrefix(rest, "Error["); ok {
		// TensorRT's "Error[1]: ..." after a time or a component.
		return errorIndex(r)
	}
	return named && failureLead(rest)
}

// errorIndex reports whether r, what follows TensorRT's "Error[", is its
// error code, the closing bracket and a message: "1]: [file.cpp::f::146]
// Error Code 1: ...".
func errorIndex(r string) bool {
	end := strings.Index(r[:min(len(r), 12)], "]: ")
	return end > 0 && ascii.Digits(r[:end]) && hasLetter(r[end+3:])
}

// libraryTag reports whether tag, a bracket's inside, names a library or
// a component: a token of letters, digits, '_', '-' and '.', with a letter,
// that is no level word ("[W]", "[INFO]") and no time or rank.
func libraryTag(tag string) bool {
	if len(tag) < 2 || !hasLetter(tag) {
		return false
	}
	for i := 0; i < len(tag); i++ {
		c := tag[i]
		if !isAlnum(c) && c != '_' && c != '-' && c != '.' {
			return false
		}
	}
	switch strings.ToUpper(tag) {
	case "INFO", "WARN", "WARNING", "DEBUG", "TRACE", "NOTICE", "VERBOSE", "OK", "DONE", "PASS", "PASSED", "SKIP", "SKIPPED":
		return false
	}
	return true
}

// failureLead reports whether s opens with the words a library's line
// uses to state its failure: "Failed to ...", "Failed: ...", "Could not
// ...", "Cannot ...", "Unable to ...", "Unsupported ...", "... failed:"
// in a compiler's "Compilation failed: ...". The rest of the line must
// say something.
func failureLead(s string) bool {
	for _, p := range [...]string{"Failed to ", "Failed: ", "Failed ", "Could not ", "Couldn't ", "Cannot ", "Can't ", "Unable to ", "Unsupported "} {
		if r, ok := strings.CutPrefix(s, p); ok {
			return hasLetter(r)
		}
	}
	if i := strings.Index(s[:min(len(s), 40)], " failed: "); i > 0 && !strings.Contains(s[:i], " ") {
		return hasLetter(s[i+len(" failed: "):])
	}
	return false
}

// ownLibraryName returns the library that names itself on l, a library's
// own failure line (libraryErrorLine, taggedFailureLine): its first name
// tag ("sgl_kernel" of "[sgl_kernel] Failed to load ..."), else its
// leading name ("DeepGEMM" of "DeepGEMM failed for ...", "NCCL" of "NCCL
// error: ..."); "" when l is no such line or names none (trtexec's "[E]
// Error[1]: ..." after its time).
func ownLibraryName(l string) string {
	switch {
	case taggedFailureLine(l):
		for rest := l; strings.HasPrefix(rest, "["); {
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				break
			}
			if tag := rest[1:end]; libraryTag(tag) {
				return tag
			}
			rest = strings.TrimLeft(rest[end+1:], " ")
		}
	case failedActionLine(l):
		return failedActionLibrary(l)
	case libraryErrorLine(l) && l[0] != '[':
		name, _, _ := strings.Cut(l, " ")
		if subjectFailed(l) && !libraryName(name) {
			// What failed, in words: no library named.
			return ""
		}
		return name
	}
	return ""
}
