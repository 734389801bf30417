package entry

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// Compiler, linker and build-tool diagnostics: what a JIT build (FlashInfer,
// triton, DeepGEMM, torch extensions) or a package install prints when it
// fails.

// compilerTools are the programs whose "prog: error: ..." lines count. A
// target-triple prefix ("x86_64-linux-gnu-gcc") and a directory
// ("/usr/bin/ld") are allowed.
var compilerTools = [...]string{"gcc", "g++", "cc", "c++", "clang", "clang++", "nvcc", "hipcc", "ld", "ld.lld", "ld.gold", "collect2", "ninja", "cicc", "ptxas", "nvlink"}

// parseCompilerLine matches the first line of a diagnostic and returns its
// level:
//
//	file.cu(12): error: identifier "x" is undefined             (nvcc, EDG)
//	file.cpp:3:10: fatal error: x.h: No such file or directory  (gcc, clang)
//	gcc: fatal error: no input files / nvcc fatal   : Unsupported gpu architecture
//	/usr/bin/ld: cannot find -lcuda: No such file or directory
//	collect2: error: ld returned 1 exit status
//	error: command 'gcc' failed with exit code 1                 (setuptools)
//	FAILED: x.cuda.o / ninja: build stopped: subcommand failed.  (ninja)
//	7 errors detected in the compilation of "x.cu".              (nvcc summary)
//	Error limit reached.
//
// "warning:" diagnostics of the same shapes are WARNING, "fatal error:" and
// "catastrophic error:" FATAL, the rest ERROR.
func parseCompilerLine(s string) (level string, ok bool) {
	switch {
	case strings.HasPrefix(s, "error: command '"):
		return LevelError, true
	case strings.HasPrefix(s, "FAILED: "):
		return LevelError, true
	case strings.HasPrefix(s, "ninja: build stopped: "):
		return LevelError, true
	case strings.HasPrefix(s, "Error limit reached."):
		return LevelError, true
	case strings.HasPrefix(s, "nvcc fatal"):
		r := strings.TrimLeft(s[len("nvcc fatal"):], " ")
		if strings.HasPrefix(r, ": ") {
			return LevelFatal, true
		}
		return "", false
	}
	if isDigit(s[0]) {
		j := 0
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		r := s[j:]
		if strings.HasPrefix(r, " errors detected in the compilation of ") || strings.HasPrefix(r, " error detected in the compilation of ") {
			return LevelError, true
		}
	}
	// The location or program: a first field without spaces, ended by ":"
	// and a space, or by "(N): ".
	end := strings.IndexByte(s, ' ')
	if end <= 1 || end > 512 {
		return "", false
	}
	loc := s[:end]
	rest := s[end+1:]
	if !strings.HasSuffix(loc, ":") || strings.Contains(loc, "://") {
		return "", false
	}
	loc = loc[:len(loc)-1]
	switch {
	case isNVCCLocation(loc), isGCCLocation(loc):
		return diagnosticLevel(rest)
	case isCompilerTool(loc):
		if lvl, ok := diagnosticLevel(rest); ok {
			return lvl, true
		}
		if isLinker(loc) {
			// ld reports most of its failures without a level word:
			// "cannot find -lcuda", "undefined reference to ...".
			return LevelError, true
		}
	}
	return "", false
}

// diagnosticLevel reads the level word that starts a diagnostic's text.
func diagnosticLevel(r string) (string, bool) {
	switch {
	case strings.HasPrefix(r, "fatal error: "), strings.HasPrefix(r, "catastrophic error: "):
		return LevelFatal, true
	case strings.HasPrefix(r, "error: "), strings.HasPrefix(r, "error #"):
		return LevelError, true
	case strings.HasPrefix(r, "warning: "), strings.HasPrefix(r, "warning #"):
		return LevelWarning, true
	}
	return "", false
}

// isNVCCLocation matches "path/file.cu(123)".
func isNVCCLocation(loc string) bool {
	if !strings.HasSuffix(loc, ")") {
		return false
	}
	o := strings.LastIndexByte(loc, '(')
	return o > 0 && ascii.Digits(loc[o+1:len(loc)-1])
}

// isGCCLocation matches "path/file.c:12" and "path/file.c:12:5" whose file
// has an extension.
func isGCCLocation(loc string) bool {
	c := strings.LastIndexByte(loc, ':')
	if c <= 0 || !ascii.Digits(loc[c+1:]) {
		return false
	}
	f := loc[:c]
	if c2 := strings.LastIndexByte(f, ':'); c2 > 0 && ascii.Digits(f[c2+1:]) {
		f = f[:c2]
	}
	dot := strings.LastIndexByte(f, '.')
	return dot > 0 && dot < len(f)-1 && strings.IndexByte(f[dot:], '/') < 0
}

// compilerToolEnds holds the last byte of every name in compilerTools.
var compilerToolEnds = func() string {
	var b []byte
	for _, t := range compilerTools {
		if strings.IndexByte(string(b), t[len(t)-1]) < 0 {
			b = append(b, t[len(t)-1])
		}
	}
	return string(b)
}()

// isCompilerTool reports whether prog names one of compilerTools.
func isCompilerTool(prog string) bool {
	base := prog[strings.LastIndexByte(prog, '/')+1:]
	if base == "" || strings.IndexByte(compilerToolEnds, base[len(base)-1]) < 0 {
		// No tool ends so ("RuntimeError" of a bare exception line).
		return false
	}
	for _, t := range compilerTools {
		// base is t, or ends with "-" and t (no string is built).
		if n := len(base) - len(t); n >= 0 && base[n:] == t && (n == 0 || base[n-1] == '-') {
			return true
		}
	}
	return false
}

func isLinker(prog string) bool {
	base := prog[strings.LastIndexByte(prog, '/')+1:]
	return base == "ld" || strings.HasSuffix(base, "-ld") || strings.HasPrefix(base, "ld.")
}

// compilerContinues reports whether s continues a diagnostic whose first
// line is first and which holds lines lines so far. gcc and nvcc print the
// offending source line right after a located diagnostic, then a caret line
// (gcc 9+ with a "  3 | " gutter), nvcc its "detected during" notes, and
// gcc ends a fatal error with "compilation terminated.". Other indented
// lines are not the compiler's: a traceback interleaved with a linker's
// output keeps its frames.
func compilerContinues(first, s string, afterBlank bool, lines int) bool {
	if afterBlank {
		return false
	}
	if s == "compilation terminated." || s == "Compilation terminated." {
		return true
	}
	t := strings.TrimLeft(s, " \t")
	if len(t) == len(s) || isFrameLine(s) {
		return false
	}
	if isMarkLine(t) || isGutterLine(t) || strings.HasPrefix(t, "detected during") {
		return true
	}
	return lines == 1 && hasSourceLocation(first)
}

// isMarkLine matches caret lines: "^~~~~", "|          ^~~~~~".
func isMarkLine(t string) bool {
	mark := false
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '^', '~':
			mark = true
		case ' ', '|':
		default:
			return false
		}
	}
	return mark
}

// isGutterLine matches gcc's numbered excerpt "3 | #include ...".
func isGutterLine(t string) bool {
	j := 0
	for j < len(t) && isDigit(t[j]) {
		j++
	}
	return j > 0 && strings.HasPrefix(t[j:], " | ")
}

// hasSourceLocation reports whether a diagnostic's first line names a
// source location (file.cu(12): or file.c:3:10:).
func hasSourceLocation(first string) bool {
	end := strings.IndexByte(first, ' ')
	if end <= 1 || first[end-1] != ':' {
		return false
	}
	loc := first[:end-1]
	return isNVCCLocation(loc) || isGCCLocation(loc)
}
