package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
)

// The root of a chain under a wrapper that says only that it failed.
// Python prints a chain root first ("The above exception was the direct
// cause of the following exception:", "During handling of the above
// exception, another exception occurred:"), and the last link is the one
// the outermost caller raised: often a wrapper of its own words that says
// what the program was doing and that it failed, not why ("RuntimeError:
// Failed to start the server", "Exception: request failed",
// "WorkerError: worker failed"). The why is the root: "ValueError:
// unknown rope_scaling type 'yarn2'", "ConnectionRefusedError: [Errno 111]
// Connection refused". So when the last link is such a vague wrapper, the
// root leads: its exception is the headline, the key and the triage's, and
// a record that reads the root is the cause even when it is a consequence
// record and the wrapper's line is read by none.

// maxVagueMessage bounds the message a vague wrapper says: a phrase, not
// an explanation.
const maxVagueMessage = 96

// vagueWords are the words by which a message says something failed.
var vagueWords = [...]string{"fail", "error", "unable to", "could not", "couldn't", "cannot", "can't", "crash", "abort", "exception"}

// vagueWrapper reports whether the exception x only says that something
// failed: a short message with a failure word and nothing that could be a
// reason (no digit, no quoted or bracketed name, no path, no colon before
// a detail), of a type that names no family of failure of its own
// (typeFamily: an ImportError or an OutOfMemoryError says why).
func vagueWrapper(x *entry.Exception) bool {
	if x == nil || x.Type == "" || typeFamily(x.Type) != "" {
		return false
	}
	return VagueMessage(x.Message)
}

// VagueMessage reports whether msg only says that something failed: at
// most maxVagueMessage bytes on one line, with a failure word and nothing
// that could be a reason (no digit, no quoted or bracketed name, no
// path, no colon before a detail): "Failed to load the model", "request
// failed", "An error occurred while processing the request".
func VagueMessage(msg string) bool {
	m := strings.TrimSpace(msg)
	for range 2 {
		// A level's or a logger's label left in front of the message
		// ("ERROR:bench.runner:Generation failed" behind a prefix the
		// header was not read under) is no reason.
		i := strings.IndexByte(m, ':')
		if i <= 0 || strings.ContainsAny(m[:i], " \t") {
			break
		}
		m = strings.TrimSpace(m[i+1:])
	}
	m = strings.TrimRight(m, ".!")
	if m == "" || len(m) > maxVagueMessage || strings.ContainsAny(m, "0123456789'\"`:/\\=()[]{}<>\n") {
		return false
	}
	m = strings.ToLower(m)
	for _, w := range vagueWords {
		if strings.Contains(m, w) {
			return true
		}
	}
	return false
}

// rootUnderWrapper returns the root link of tb when its last link, exc,
// is a vague wrapper (vagueWrapper) and the root says more: a link of its
// own with a type, which is no vague wrapper itself. Nil otherwise.
func rootUnderWrapper(tb *entry.Traceback, exc *entry.Exception) *entry.Exception {
	if tb == nil || len(tb.Links) < 2 || exc != tb.Outermost() || !vagueWrapper(exc) {
		return nil
	}
	root := tb.RootCause()
	if root == nil || root == exc || root.Type == "" || vagueWrapper(root) {
		return nil
	}
	return root
}

// readsEarlierLink reports whether one of spans covers the exception line
// of a link of e's chain before its last: a record read the root, or a
// middle link, of the chain.
func readsEarlierLink(e *entry.Entry, spans []span) bool {
	tb := e.Traceback
	if tb == nil || len(tb.Links) < 2 {
		return false
	}
	for i := 0; i < len(tb.Links)-1; i++ {
		line := FirstLine(ExceptionLine(&tb.Links[i]))
		if line == "" {
			continue
		}
		at := strings.Index(e.Text, line)
		for _, sp := range spans {
			if at >= 0 && at >= sp.from && at < sp.to {
				return true
			}
		}
	}
	return false
}
