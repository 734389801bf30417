package analysis

import "strings"

// A native library's own logger prints its name, the backend it runs on
// in parentheses, a colon, the level and the function that logged in
// brackets: MIOpen's "MIOpen(HIP): Error [SetIsaName] 'amd_comgr_...'
// ... INVALID_ARGUMENT (2)", "MIOpen: Error [Compile] 'hiprtcCompile
// Program(...)' ... HIPRTC_ERROR_COMPILATION (6)" (its Windows builds),
// "MIOpen(HIP): Warning [SQLiteBase] Unable to read system database
// file ...". Its Error and Fatal lines are the library's failures; its
// Warning and Info lines are not.

// libraryLoggerError reports whether tok, the first token of a line with
// no level, and r, the rest after one blank, are a library logger's error
// line (see above): tok a library's name (libraryName), its backend in
// parentheses optional, then a colon; r the level Error or Fatal, the
// function in brackets and a message.
func libraryLoggerError(tok, r string) bool {
	name, ok := strings.CutSuffix(tok, ":")
	if !ok {
		return false
	}
	if i := strings.IndexByte(name, '('); i > 0 {
		q, ok := strings.CutSuffix(name[i+1:], ")")
		if !ok || q == "" || !libraryName(q) && !isWord(q) {
			return false
		}
		name = name[:i]
	}
	if !libraryName(name) {
		return false
	}
	rest, ok := strings.CutPrefix(r, "Error [")
	if !ok {
		if rest, ok = strings.CutPrefix(r, "Fatal ["); !ok {
			return false
		}
	}
	end := strings.IndexByte(rest[:min(len(rest), maxLoggerFunc)], ']')
	return end > 0 && !strings.ContainsAny(rest[:end], " \t[") && strings.HasPrefix(rest[end:], "] ") && hasLetter(rest[end+2:])
}

// maxLoggerFunc bounds the bracketed function name libraryLoggerError
// reads.
const maxLoggerFunc = 64

// isWord reports whether s is ASCII letters and digits only.
func isWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) {
			return false
		}
	}
	return s != ""
}

// LibraryOf returns the library whose logger wrote msg, an error line:
// in its logger's form ("MIOpen(HIP): Error [SetIsaName] ...", see
// above) or as its exceptions print ("MIOpen Error: /MIOpen/src/...:
// Code object build failed"): its name, without the backend; "" when msg
// is no such line. A line that names a library in other words (a
// timeout, a failed action, "NCCL error: ...") names no writer.
func LibraryOf(msg string) string {
	sp := strings.IndexByte(msg[:min(len(msg), maxLibraryName+1)], ' ')
	if sp < minLibraryName {
		return ""
	}
	tok, r := msg[:sp], msg[sp+1:]
	if libraryName(tok) {
		if m, ok := strings.CutPrefix(r, "Error: "); ok && hasLetter(m) {
			return tok
		}
		return ""
	}
	if !libraryLoggerError(tok, r) {
		return ""
	}
	name := strings.TrimSuffix(tok, ":")
	if i := strings.IndexByte(name, '('); i > 0 {
		name = name[:i]
	}
	return name
}
