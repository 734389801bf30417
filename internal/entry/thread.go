package entry

import "strings"

// ThreadExceptionHeader reports whether s is the header Python's threading module
// prints before a thread's uncaught exception: "Exception in thread
// Thread-13 (backup_thread_func):" or "Exception in thread worker:". Cut
// after it, the header alone still says that a thread of the process
// died.
func ThreadExceptionHeader(s string) bool {
	r, ok := strings.CutPrefix(strings.TrimRight(s, " \t"), threadHeaderPrefix)
	if !ok {
		return false
	}
	name, ok := strings.CutSuffix(r, ":")
	if !ok || name == "" || len(name) > maxThreadHeader {
		return false
	}
	if open := strings.IndexByte(name, '('); open >= 0 {
		// "Thread-13 (backup_thread_func)": the target's name in
		// parentheses, a Python identifier.
		fn, ok := strings.CutSuffix(name[open+1:], ")")
		if !ok || !isIdentifier(fn) || strings.TrimSpace(name[:open]) == "" {
			return false
		}
		name = strings.TrimSpace(name[:open])
	}
	return !strings.ContainsAny(name, " \t:")
}

// threadHeaderPrefix opens a thread's exception header.
const threadHeaderPrefix = "Exception in thread "

// maxThreadHeader bounds the thread name threadHeader reads.
const maxThreadHeader = 256

// isIdentifier reports whether s is a Python identifier of ASCII letters,
// digits and '_'.
func isIdentifier(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_') {
			return false
		}
	}
	return true
}

// ProcessExceptionHeader reads the header a server process logs before
// the traceback of the exception that ends it, in every wording sglang
// has used: "Exception in <Name>:" (its first releases: ModelRpcClient,
// ModelTpServer, run_tp_server, ControllerSingle, ControllerMulti) and
// "<Name> hit an exception:" (later ones: Scheduler, TpModelWorkerClient,
// DetokenizerManager; also with words between, "ModelWorker sync thread
// hit an exception:"). The traceback may follow on the same line. name is
// the process, class or function it names; ok is false for every other
// line, Python's own thread header included (ThreadExceptionHeader).
func ProcessExceptionHeader(s string) (name string, ok bool) {
	if r, ok := strings.CutPrefix(s, "Exception in "); ok {
		head, _, found := strings.Cut(r, ":")
		if !found || head == "thread" || len(head) > maxThreadHeader || !isIdentifier(head) {
			return "", false
		}
		return head, true
	}
	i := strings.Index(s, " hit an exception:")
	if i <= 0 || i > maxThreadHeader {
		return "", false
	}
	words := strings.Split(s[:i], " ")
	if len(words) > 4 || !isIdentifier(words[0]) || !isUpper(words[0][0]) {
		return "", false
	}
	for _, w := range words[1:] {
		if !isIdentifier(w) || isUpper(w[0]) {
			return "", false
		}
	}
	return words[0], true
}
