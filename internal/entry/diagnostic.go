package entry

import "strings"

// NativeDiagnostic is a program's diagnostic line in the Unix convention:
// the program's name, a colon, then a level word and the message. Slurm's
// daemons and clients ("slurmstepd: error: Detected 2 oom-kill event(s)
// ..."), llama.cpp's functions ("main: error: unable to load model",
// "llama_model_load: error loading model: ..."), argparse's usage errors,
// the dynamic loader ("python3: error while loading shared libraries:
// ..."), docker's client ("docker: Error response from daemon: ...") and
// GNU make ("make: *** [Makefile:2: all] Error 1") write their failures
// so. ERROR, or FATAL for "fatal", "fatal error" and "FATAL". ggml's GGUF
// reader writes its errors in the same shape without the level word
// ("gguf_init_from_file_impl: failed to read tensor info"): ERROR too
// (ggufline.go).
const NativeDiagnostic = "diagnostic"

// Bounds of a diagnostic line.
const (
	// maxDiagnosticProgram bounds the program's name: a path to a
	// binary, a function name.
	maxDiagnosticProgram = 64
	// maxDiagnosticPhrase bounds an "error <doing something>:" phrase
	// after the program's name.
	maxDiagnosticPhrase = 48
	// maxExitCodeMessage bounds the message after a program's exit code
	// that toolExitCode reads for a failure's words.
	maxExitCodeMessage = 256
)

// parseDiagnosticLine reads s as a program's diagnostic of the Unix
// convention and returns its level: "prog: error: msg", "prog: fatal
// error: msg", "prog: fatal: msg", "prog: ERROR: msg", "prog: FATAL:
// msg", "prog: Error: msg", "prog: <kind> error: msg"; an error phrase in place of the word, whose
// first word says when or where it happened ("prog: error while loading
// shared libraries: ...", "prog: error loading model: ...", "prog: Error
// response from daemon: ..."); make's "prog: *** [target] Error N" and
// "prog: *** ...  Stop."; curl's "prog: (7) message". The program is one field of a name's bytes
// (letters, digits and "_./+-", a make level's "[N]" after it) with a
// lower-case letter in it, not an exception's class; a warning or a note
// is no failure and is not read.
func parseDiagnosticLine(s string) (string, bool) {
	i := strings.Index(s[:min(len(s), maxDiagnosticProgram+2)], ": ")
	if i <= 0 || !diagnosticProgram(s[:i]) {
		return "", false
	}
	r := s[i+2:]
	if r == "" {
		return "", false
	}
	if lvl, ok := levelWordOf(r); ok {
		return lvl, true
	}
	switch r[0] {
	case '*':
		if strings.HasPrefix(r, "*** ") && makeFailure(r[len("*** "):]) {
			return LevelError, true
		}
	case '(':
		if toolExitCode(r) {
			return LevelError, true
		}
	}
	if kindedError(r) || r[0] != ' ' && ggufReaderFailure(s[:i], r) {
		return LevelError, true
	}
	return "", false
}

// levelWordOf reads the level word a diagnostic's text r opens with
// ("error: ", "fatal error: ", "FATAL: ", an "error <doing>: " phrase)
// and returns its level when a message follows it.
func levelWordOf(r string) (string, bool) {
	switch r[0] {
	case 'e', 'E':
		for _, w := range [...]string{"error: ", "ERROR: ", "Error: "} {
			if strings.HasPrefix(r, w) {
				return LevelError, !isBlank(r[len(w):]) && !banner(r[len(w):])
			}
		}
		if strings.HasPrefix(r, "error ") || strings.HasPrefix(r, "Error ") {
			return LevelError, errorPhrase(r[len("error "):])
		}
	case 'f', 'F':
		for _, w := range [...]string{"fatal error: ", "fatal: ", "FATAL: ", "Fatal: ", "Fatal error: ", "FATAL ERROR: "} {
			if strings.HasPrefix(r, w) {
				return LevelFatal, !isBlank(r[len(w):])
			}
		}
	case 'C', 'c':
		for _, w := range [...]string{"CRITICAL: ", "critical: "} {
			if strings.HasPrefix(r, w) {
				return LevelCritical, !isBlank(r[len(w):])
			}
		}
	}
	return "", false
}

// UnixErrorLine reports whether msg, a line without a level of its own,
// is an error in the Unix convention with no program in front: the level
// word the program would follow ("error: could not compile `x`" of cargo,
// "fatal: not a git repository" of git, "Error response from daemon: ..."
// of docker's newer client, "FATAL ERROR: ..."), a compiler's coded
// "error[E0425]: ...", or apt's "E: Unable to locate package x".
func UnixErrorLine(msg string) bool {
	if msg == "" {
		return false
	}
	switch msg[0] {
	case 'e', 'E', 'f', 'F', 'C':
	default:
		return false
	}
	if locatedError(msg) {
		return false
	}
	if lvl, ok := levelWordOf(msg); ok {
		return lvl != ""
	}
	if r, ok := strings.CutPrefix(msg, "E: "); ok {
		return !isBlank(r)
	}
	if r, ok := strings.CutPrefix(msg, "error["); ok {
		c := strings.IndexByte(r[:min(len(r), 16)], ']')
		return c > 0 && strings.HasPrefix(r[c:], "]: ") && !isBlank(r[c+3:])
	}
	return false
}

// toolExitCode reports whether r, what follows a program's "prog: ",
// opens with the exit code the program fails with in parentheses and a
// message that states a failure: curl's "curl: (7) Failed to connect to
// localhost port 30000", "curl: (28) Operation timed out after ...". A
// count in parentheses ("found: (3) widgets") is none.
func toolExitCode(r string) bool {
	c := strings.IndexByte(r[:min(len(r), 6)], ')')
	if c < 2 {
		return false
	}
	for j := 1; j < c; j++ {
		if !isDigit(r[j]) {
			return false
		}
	}
	if strings.Trim(r[1:c], "0") == "" || !strings.HasPrefix(r[c:], ") ") {
		return false
	}
	msg := r[c+2:]
	return statesFailure(strings.ToLower(msg[:min(len(msg), maxExitCodeMessage)]))
}

// Bounds of a kinded error's word (kindedError).
const (
	minErrorKind = 3
	maxErrorKind = 16
)

// kindedError reports whether r opens with one lower-case word that
// names the kind of error, "error: " and a message: nvidia-container-cli's
// "initialization error: nvml error: driver not loaded", a "mount error:",
// a "syntax error:". "no error: " is none.
func kindedError(r string) bool {
	sp := strings.IndexByte(r[:min(len(r), maxErrorKind+1)], ' ')
	if sp < minErrorKind {
		return false
	}
	for j := 0; j < sp; j++ {
		if !isLower(r[j]) {
			return false
		}
	}
	if w := r[:sp]; w == "non" || w == "without" {
		return false
	}
	rest, ok := strings.CutPrefix(r[sp+1:], "error: ")
	return ok && !isBlank(rest)
}

// diagnosticProgram reports whether p is a program's or a function's name
// as a diagnostic opens with it: at most maxDiagnosticProgram bytes of
// letters, digits and "_./+-", starting with a letter, "_", "/" or ".",
// holding a lower-case letter, optionally ending in a make level "[N]";
// not an exception's class ("RuntimeError"), nor a level word itself.
func diagnosticProgram(p string) bool {
	if p == "" || len(p) > maxDiagnosticProgram {
		return false
	}
	if p[len(p)-1] == ']' {
		o := strings.LastIndexByte(p, '[')
		if o <= 0 || o == len(p)-2 {
			return false
		}
		for j := o + 1; j < len(p)-1; j++ {
			if !isDigit(p[j]) {
				return false
			}
		}
		p = p[:o]
	}
	if c := p[0]; !isLower(c) && !isUpper(c) && c != '_' && c != '/' && c != '.' {
		return false
	}
	lower := false
	for j := 0; j < len(p); j++ {
		c := p[j]
		switch {
		case isLower(c):
			lower = true
		case isUpper(c), isDigit(c), c == '_', c == '.', c == '/', c == '+', c == '-':
		default:
			return false
		}
	}
	if !lower || strings.HasSuffix(p, "Error") || strings.HasSuffix(p, "Exception") || strings.HasSuffix(p, "Warning") {
		return false
	}
	switch strings.ToLower(p) {
	case "error", "fatal", "warning", "warn", "note", "info", "debug", "hint", "help":
		return false
	}
	// A sentence's verb before its colon ("Liveness probe errored: rpc
	// error: ...", "request failed: ...") is no program: a diagnostic
	// searched for behind a prefix must not start mid-sentence.
	return !pastTense(p)
}

// pastTense reports whether p is a lower-case word in the past tense of a
// failure's verbs ("errored", "failed", "aborted"): letters only, ending
// in "ed".
func pastTense(p string) bool {
	if len(p) < 5 || !strings.HasSuffix(p, "ed") {
		return false
	}
	for j := 0; j < len(p); j++ {
		if !isLower(p[j]) {
			return false
		}
	}
	return true
}

// errorPhrase reports whether r, what follows "error " in a diagnostic,
// is a phrase that says when or where the error happened and then gives
// it after a colon: its first word is a preposition ("while", "in",
// "during", ...), a verb's -ing form ("loading", "parsing") or
// "response" (docker's "Error response from daemon"), a status in
// parentheses may end it (kubectl's "Error from server (NotFound)"), and
// a ": " with a message after it ends the phrase within
// maxDiagnosticPhrase bytes. An "error rate: 0.1" or "error count: 3" is
// a figure, not a failure.
func errorPhrase(r string) bool {
	c := strings.Index(r[:min(len(r), maxDiagnosticPhrase)], ": ")
	if c <= 0 || isBlank(r[c+2:]) {
		return false
	}
	phrase := r[:c]
	if o := strings.LastIndex(phrase, " ("); o > 0 && strings.HasSuffix(phrase, ")") && isLetter(phrase[o+2]) {
		// A status named at the phrase's end: kubectl's "Error from
		// server (NotFound): ...".
		for j := o + 2; j < len(phrase)-1; j++ {
			if !isLetter(phrase[j]) {
				return false
			}
		}
		phrase = phrase[:o]
	}
	w, _, _ := strings.Cut(phrase, " ")
	for j := 0; j < len(phrase); j++ {
		if b := phrase[j]; !isLower(b) && b != ' ' && b != '_' && b != '-' {
			return false
		}
	}
	switch w {
	case "while", "when", "during", "in", "on", "at", "from", "for", "response", "with":
		return true
	}
	return len(w) > 4 && strings.HasSuffix(w, "ing")
}

// makeFailure reports whether r, what follows make's "*** ", reports a
// failed target ("[Makefile:2: all] Error 1") or a stop ("No rule to make
// target 'x'.  Stop."), not make's wait for the other jobs.
func makeFailure(r string) bool {
	r = strings.TrimRight(r, " \r")
	if strings.HasSuffix(r, "Stop.") {
		return true
	}
	j := len(r)
	for j > 0 && isDigit(r[j-1]) {
		j--
	}
	return j < len(r) && strings.HasSuffix(r[:j], " Error ")
}

// banner reports whether msg is a notice framed in stars, as Slurm's
// daemons print a job's or step's end at level error ("*** STEP 12.0 ON
// node3 CANCELLED AT 2026-05-28T00:11:09 ***"): a state, which the
// catalog's records read when its reason is a failure ("... DUE TO TIME
// LIMIT ***"), not a failure line of its own.
func banner(msg string) bool {
	msg = strings.TrimRight(msg, " \r")
	return len(msg) > len("*** ***") && strings.HasPrefix(msg, "*** ") && strings.HasSuffix(msg, " ***")
}

// locatedError reports whether msg opens with "Error" and a preposition
// that says where: "Error in cpuinfo: prctl(PR_SVE_GET_VL) failed", "Error
// on request: ...". With no program in front, such a line is a library's
// own message in its own words, routine as often as not, which its level
// or a record decides; behind a program's name it is that program's
// diagnostic.
func locatedError(msg string) bool {
	r, ok := strings.CutPrefix(msg, "Error ")
	if !ok {
		r, ok = strings.CutPrefix(msg, "error ")
	}
	if !ok {
		return false
	}
	w, _, _ := strings.Cut(r, " ")
	switch w {
	case "in", "on", "at", "for", "with":
		return true
	}
	return false
}
