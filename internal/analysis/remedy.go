package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// When a wrapper's own record leads over the exception it quotes. A
// wrapper record names where a failure was caught, and most say nothing
// else: a process's catch-all ("Scheduler hit an exception:", an engine
// core's or a Ray task's error, a worker's death), an HTTP handler's 500.
// Their advice is to read the exception inside, so the exception leads
// and the wrapper is its context, whatever the exception is.
//
// A few wrappers name an optional component whose failure has a remedy of
// its own, whatever went wrong inside it: a compiler backend
// ("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:"),
// CUDA graph capture ("Capture cuda graph failed: ..."), an adapter's
// load. The catalog marks them by their handling strategy: reconfigure
// (turn the component off, or configure it otherwise), with solutions.
// When the exception such a wrapper quotes is only a code error of the
// language (a NameError, AttributeError, TypeError, KeyError, IndexError,
// AssertionError, NotImplementedError, UnboundLocalError) that no record
// names, or that only the language's own record names, the exception says
// no more than that the component's code failed; the component is what the
// operator acts on: the wrapper leads, with that exception as its
// exception. An exception that a library's or engine's own record names
// (out of memory, a CUDA error, a collective's timeout, a weight's
// missing key) says what to fix, and leads as before; so does any
// exception under a wrapper that only points at it.

// languageRepo is the repository of the records that name an exception of
// the language itself (NameError's "name '...' is not defined"), not a
// failure of the code that raised it.
const languageRepo = "python/cpython"

// codeErrorTypes are the language's exceptions that say code failed, not
// which resource or setting did.
var codeErrorTypes = map[string]bool{
	"NameError": true, "UnboundLocalError": true, "AttributeError": true, "TypeError": true,
	"KeyError": true, "IndexError": true, "AssertionError": true, "NotImplementedError": true,
}

// RemedyWrapper reports whether a record of role role, handling strategy
// handling and n solutions is a wrapper that names the remedy of what it
// wraps: reconfigure the component it names.
func RemedyWrapper(role patterns.Role, handling string, n int) bool {
	return role.Is(patterns.RoleWrapper) && handling == "reconfigure" && n > 0
}

// CodeError reports whether an exception of type typ, read by a record of
// repository repo and error class class ("" and "" when no record reads
// it), says only that code failed: a code error of the language that no
// record names, or only the language's own record.
func CodeError(typ, repo, class string) bool {
	if !codeErrorTypes[lastDotted(typ)] {
		return false
	}
	return repo == "" && class == "" || repo == languageRepo && lastDotted(class) == lastDotted(typ)
}

// remedyHit reports whether h is the hit of a wrapper that names its
// remedy.
func remedyHit(h *matcher.Hit) bool {
	return RemedyWrapper(h.Record.Role, h.Record.HandlingStrategy, len(h.Record.Solutions))
}

// remedyOver returns the index in s.hits of the wrapper that leads over
// the code error exc it quotes, -1 when none does: the best ranked
// wrapper hit that names its remedy (RemedyWrapper) and begins on or
// before exc's line, on it when the wrapper's line quotes the error
// itself. cause is the hit that read exc, nil when none did.
func (s *selection) remedyOver(e *entry.Entry, exc *entry.Exception, cause *matcher.Hit) int {
	if exc == nil || exc.Type == "" {
		return -1
	}
	typ, repo, class := exc.Type, "", ""
	if cause != nil {
		repo, class = cause.Record.Repo, cause.Record.ErrorClass
		if class != "" {
			// The record read the exception the line quotes
			// ("Exception: Capture cuda graph failed: NameError: ...").
			typ = class
		}
	}
	if !CodeError(typ, repo, class) {
		return -1
	}
	line := FirstLine(ExceptionLine(exc))
	if line == "" {
		return -1
	}
	at := strings.LastIndex(e.Text, line)
	if at < 0 {
		return -1
	}
	for i := range s.hits {
		if remedyHit(&s.hits[i]) && s.spans[i].from <= at {
			return i
		}
	}
	return -1
}
