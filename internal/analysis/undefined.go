package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
)

// One import that failed, then the names it should have defined. A
// package imported under a guard logs the failure and goes on: vLLM's
// "Failed to import from vllm._C with ModuleNotFoundError(\"No module named
// 'vllm._C'\")", a server's "flashinfer not found, falling back to triton
// attention: No module named 'flashinfer'", "Failed to import deep_gemm:
// cannot import name 'get_num_sms' from 'deep_gemm'". The code that later
// uses what the import should have defined fails with a code error that
// names it: "NameError: name 'deep_gemm_gemm_nt_f8f8bf16' is not defined",
// "AttributeError: '_OpNamespace' '_C' object has no attribute
// 'rms_norm'", "ImportError: cannot import name 'flashinfer_ops'". The
// import failure is the cause, whatever level it was logged at: the code
// error only says where its absence was met.

// maxImportScan bounds the text UndefinedAfterImport reads of each line.
const maxImportScan = 4096

// UndefinedAfterImport reports whether the line use is a code error naming
// a name or attribute that is not there (NameError, UnboundLocalError,
// AttributeError's "has no attribute", an ImportError's "cannot import
// name") of a module that the line imp says failed to import
// (FamilyImport, or a shared library that did not load): a name use quotes
// is a module imp quotes, or begins or ends with one (deep_gemm's
// "deep_gemm_gemm_nt_f8f8bf16"), a part of a dotted module name counting
// (vllm._C's "_C").
func UndefinedAfterImport(imp, use string) bool {
	if len(imp) > maxImportScan {
		imp = imp[:maxImportScan]
	}
	if len(use) > maxImportScan {
		use = use[:maxImportScan]
	}
	if !UndefinedUse(use) {
		return false
	}
	if MessageFamily(imp) != FamilyImport && !SharedLibraryUnloaded(imp) {
		return false
	}
	var mods []string
	for _, q := range quotedNames(imp) {
		for _, seg := range strings.FieldsFunc(q, func(r rune) bool { return r == '.' || r == '/' }) {
			if len(seg) >= 2 {
				mods = append(mods, seg)
			}
		}
	}
	for _, n := range quotedNames(use) {
		for _, m := range mods {
			if n == m || strings.HasPrefix(n, m+"_") || strings.HasSuffix(n, "_"+m) {
				return true
			}
		}
	}
	return false
}

// maxQuoted bounds the quoted names quotedNames returns.
const maxQuoted = 8

// quotedNames returns the identifiers (letters, digits, '_', '.', '/')
// quoted in single quotes in s, at most maxQuoted.
func quotedNames(s string) []string {
	var out []string
	for len(out) < maxQuoted {
		i := strings.IndexByte(s, '\'')
		if i < 0 {
			break
		}
		s = s[i+1:]
		j := strings.IndexByte(s, '\'')
		if j < 0 {
			break
		}
		q := s[:j]
		s = s[j+1:]
		if q != "" && identifier(q) {
			out = append(out, q)
		}
	}
	return out
}

func identifier(q string) bool {
	for i := 0; i < len(q); i++ {
		c := q[i]
		if !(c == '_' || c == '.' || c == '/' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// UndefinedUse reports whether line is a code error naming a name or an
// attribute that is not there: the use UndefinedAfterImport reads. Only
// its first maxImportScan bytes are read.
func UndefinedUse(line string) bool {
	if len(line) > maxImportScan {
		line = line[:maxImportScan]
	}
	// Each wording holds "no" ("is not defined", "has no attribute",
	// "cannot import name"): one search for it, where a search a wording
	// read a failure's text three times, and the wordings compared where
	// it stands.
	for i := 0; i < len(line); {
		j := strings.Index(line[i:], "no")
		if j < 0 {
			return false
		}
		j += i
		if hasAt(line, j-3, "is not defined") || hasAt(line, j-4, "has no attribute") || hasAt(line, j-3, "cannot import name") {
			return true
		}
		i = j + 1
	}
	return false
}

// hasAt reports whether s holds w at byte k.
func hasAt(s string, k int, w string) bool {
	return k >= 0 && strings.HasPrefix(s[k:], w)
}

// importWarning reports whether e is a line logged at a warning's level,
// with no traceback, whose message says an import failed: a guarded
// import that went on (see above). Only a warning's line is read further,
// so a routine line costs one comparison of its level.
func importWarning(e *entry.Entry) bool {
	m := e.Message
	if e.Level == "" && (m == "" || m[0] != 'W') {
		// No level, and no warning's word to lead the line (warningLead):
		// most lines of a log whose header has no level, at once.
		return false
	}
	if e.Traceback != nil || len(m) > maxImported || m == "" {
		return false
	}
	switch e.Level {
	case "WARNING", "WARN", "W":
	case "":
		// A header without a time the entry package reads no level
		// in ("WARNING utils.py:50: ...", "Warning: ...").
		if !warningLead(m) {
			return false
		}
	default:
		return false
	}
	if !strings.Contains(m, "mport") && !strings.Contains(m, "module named") && !strings.Contains(m, "shared object") {
		return false
	}
	return MessageFamily(m) == FamilyImport || SharedLibraryUnloaded(m)
}

// maxImported bounds the line a Stream keeps of a failed import.
const maxImported = 512

// warningLead reports whether msg begins with a warning's level word
// followed by a separator.
func warningLead(msg string) bool {
	if msg == "" || msg[0] != 'W' {
		// Every word below starts so, and most lines otherwise: one
		// comparison for them.
		return false
	}
	for _, w := range [...]string{"WARNING", "WARN", "Warning"} {
		if strings.HasPrefix(msg, w) && len(msg) > len(w) {
			switch msg[len(w)] {
			case ' ', ':', '|', '-', ']':
				return true
			}
		}
	}
	return false
}

// namedImport names, in d, the import that failed before it (imp, the
// line importWarning kept) when d is a code error that names what that
// import should have defined (UndefinedAfterImport) and no record says
// more than the language: its headline says which import failed, and its
// triage's family is the import's.
func namedImport(d *Diagnosis, imp string) {
	x := d.Exception
	if x == nil || x.Type == "" || d.Cause != nil && !CodeError(x.Type, d.Cause.Record.Repo, d.Cause.Record.ErrorClass) {
		return
	}
	if d.Cause == nil && !codeErrorTypes[lastDotted(x.Type)] && lastDotted(x.Type) != "ImportError" {
		return
	}
	if !UndefinedAfterImport(imp, FirstLine(ExceptionLine(x))) {
		return
	}
	d.Headline += " (after a failed import: " + imp + ")"
	d.Triage.Family = FamilyImport
}
