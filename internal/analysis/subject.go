package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
	"github.com/logmatch/logmatch/internal/entry"
)

// The subject of a failure is the one concrete thing its message names
// that the first step can point at: the path that is missing, the model
// id the Hub rejected, the module that does not import, the flag whose
// value a check rejected, the address that did not answer. It is log text,
// so only a short token of a narrow alphabet is taken (no blanks, quotes,
// brackets or control bytes), never the message around it; anything else
// gives no subject.

// maxSubject bounds a subject's length.
const maxSubject = 120

// Subject returns the subject the message msg of a failure of family
// names, "" when it names none that can be taken safely.
func Subject(family, msg string) string {
	if len(msg) > 4096 {
		msg = msg[:4096]
	}
	switch family {
	case FamilyHub:
		if s := firstToken(msg, isRepoID); s != "" {
			return s
		}
		return firstToken(msg, isPath)
	case FamilyFile, FamilyParse:
		if s := firstToken(msg, isPath); s != "" {
			return s
		}
		if family == FamilyParse {
			return firstToken(msg, isConfigFileName)
		}
	case FamilyImport:
		return importedModule(msg)
	case FamilyValue, FamilySupport:
		if s := firstToken(msg, isFlag); s != "" {
			return s
		}
		return firstToken(msg, isPath)
	case FamilyConfig, FamilyTokenizer:
		return firstToken(msg, isFlag)
	case FamilyNetwork:
		return firstToken(msg, isHostPort)
	case FamilyEnv:
		return EnvVar(msg)
	}
	return ""
}

// firstToken returns the first word of msg, quotes and the punctuation
// around it removed, that ok accepts.
func firstToken(msg string, ok func(string) bool) string {
	for w := range strings.FieldsFuncSeq(msg, isTokenBreak) {
		w = strings.TrimRight(w, ".,;:!?")
		if w != "" && len(w) <= maxSubject && ok(w) {
			return w
		}
	}
	return ""
}

// isTokenBreak ends a word: blanks, quotes, brackets, and backticks.
func isTokenBreak(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\'', '"', '`', '(', ')', '[', ']', '{', '}', '<', '>', ',', '|', '\u2018', '\u2019', '\u201c', '\u201d':
		return true
	}
	return false
}

// safeByte is the alphabet a subject is made of.
func safeByte(c byte) bool {
	return isAlnum(c) || strings.IndexByte("._-/~+@=:", c) >= 0
}

func allSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		if !safeByte(s[i]) {
			return false
		}
	}
	return true
}

// isRepoID reports whether w reads as a Hugging Face repo id, owner/name,
// possibly with what a user appended to it (":branch"): one slash, no
// scheme, a letter or digit at each end of the owner.
func isRepoID(w string) bool {
	owner, name, ok := strings.Cut(w, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") || strings.Contains(owner, ":") || !allSafe(w) {
		return false
	}
	return isAlnum(owner[0]) && isAlnum(owner[len(owner)-1]) && isAlnum(name[0]) && len(owner) <= 64
}

// isPath reports whether w reads as an absolute, home or explicitly
// relative file path with at least one directory.
func isPath(w string) bool {
	if !(strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~/") || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../")) {
		return false
	}
	if strings.HasPrefix(w, "//") || strings.Count(w, "/") < 2 && !strings.HasPrefix(w, "/") || len(w) < 3 {
		return false
	}
	return allSafe(w) && !strings.Contains(w, "://")
}

// isConfigFileName reports whether w is the name of a JSON, YAML or TOML
// file.
func isConfigFileName(w string) bool {
	for _, ext := range [...]string{".json", ".jsonl", ".yaml", ".yml", ".toml"} {
		if len(w) > len(ext) && strings.HasSuffix(w, ext) {
			return allSafe(w) && !strings.Contains(w, "://")
		}
	}
	return false
}

// isFlag reports whether w is a command-line flag: "--" and a lower-case
// name of letters, digits and '-' or '_'.
func isFlag(w string) bool {
	name, ok := strings.CutPrefix(w, "--")
	if !ok || len(name) < 2 || len(name) > 60 || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// isHostPort reports whether w is host:port, the host a qualified name,
// localhost or an IPv4 address, the port a number from 1024 to 65535.
func isHostPort(w string) bool {
	host, port, ok := strings.Cut(w, ":")
	if !ok || host == "" || len(port) < 2 || len(port) > 5 || !ascii.Digits(port) || strings.Contains(port, ":") {
		return false
	}
	if p := atoiSmall(port); p < 1024 || p > 65535 {
		// A service's port; below, a pid or a line number is likelier.
		return false
	}
	for i := 0; i < len(host); i++ {
		if c := host[i]; !(isAlnum(c) || c == '.' || c == '-') {
			return false
		}
	}
	// An address or a qualified name: a bare word before a colon is
	// more often a host name printed with a pid or a thread.
	return isAlnum(host[0]) && (strings.IndexByte(host, '.') > 0 || host == "localhost")
}

func atoiSmall(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// importedModule is the module an import error names: "No module named
// 'x.y'" names x.y, "cannot import name 'n' from 'x.y' (...)" names x.y,
// "libx.so.1: cannot open shared object file" names libx.so.1.
func importedModule(msg string) string {
	for _, k := range [...]string{"No module named ", "from "} {
		i := strings.Index(msg, k)
		if i < 0 {
			continue
		}
		// The quotes as Python prints them, or as a chat tool or an
		// editor retyped them (typographic quotes, backticks).
		rest := msg[i+len(k):]
		for _, q := range moduleQuotes {
			r, ok := strings.CutPrefix(rest, q.open)
			if !ok {
				continue
			}
			if j := strings.Index(r, q.close); j > 0 && isModule(r[:j]) {
				return r[:j]
			}
		}
	}
	if i := strings.Index(msg, ": cannot open shared object file"); i > 0 {
		lib := msg[:i]
		lib = lib[strings.LastIndexAny(lib, " \t/")+1:]
		if lib != "" && len(lib) <= maxSubject && allSafe(lib) && strings.Contains(lib, ".so") {
			return lib
		}
	}
	return ""
}

// moduleQuotes are the quotes around a module's name in an import error:
// Python's own, and those a paste retyped them as.
var moduleQuotes = [...]struct{ open, close string }{{"'", "'"}, {"‘", "’"}, {"“", "”"}, {"`", "`"}}

// isModule reports whether s is a dotted Python module name.
func isModule(s string) bool {
	if s == "" || len(s) > 100 || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(isAlnum(c) || c == '_' || c == '.') {
			return false
		}
	}
	return !(s[0] >= '0' && s[0] <= '9')
}

// importer is where the code that imported module lives: the file of the
// innermost frame of exc's chain, from its package on when it is
// installed (site-packages), else its last three parts; "" when there is
// no frame, when it is module's own package (an import inside it), or
// when it is not of the subject alphabet.
func importer(e *entry.Entry, exc *entry.Exception, module string) string {
	frames := exc.Frames
	if len(frames) == 0 && e.Traceback != nil {
		for i := len(e.Traceback.Links) - 1; i >= 0 && len(frames) == 0; i-- {
			frames = e.Traceback.Links[i].Frames
		}
	}
	if len(frames) == 0 {
		return ""
	}
	file := frames[len(frames)-1].File
	top, _, _ := strings.Cut(module, ".")
	if strings.Contains(file, "/"+top+"/") || !strings.HasSuffix(file, ".py") {
		return ""
	}
	var w string
	if i := max(strings.LastIndex(file, "site-packages/"), strings.LastIndex(file, "dist-packages/")); i >= 0 {
		w = file[i+len("site-packages/"):] // the package's own path
	} else {
		parts := strings.Split(file, "/")
		w = strings.Join(parts[max(len(parts)-3, 0):], "/")
	}
	if w == "" || len(w) > maxSubject || !allSafe(w) || strings.HasPrefix(w, "<") {
		return ""
	}
	return w
}
