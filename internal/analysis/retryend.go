package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// A client that retries a call logs each failed attempt, often at WARNING
// or below, and carries on: those lines are notices (notice.go, goNetRetry),
// for most retries recover. The last attempt's line is another matter: it
// says the writer stops trying, and what it tried stays failed. Writers
// say it by numbering the attempt against its bound, the bound reached
// ("Generate request to http://w:8001 failed (attempt 3/3)", "attempt 5
// of 5 failed"), by counting what they spent ("failed to connect to the
// store after 10 attempts", "... after 3 retries", "Failed to connect to
// GCS within 60 seconds"), or in words ("giving up", "gave up", "retries
// exhausted"). A line whose words say something failed (failureVerb) and
// that says its retries ended is a failure at whatever level it carries;
// an attempt below its bound ("attempt 1/3") is none.

// retryEnd reports whether l says something failed and that its writer
// stopped retrying (see above). Its searches go by rare bytes ('p' of
// "attempt", 'y' of "retry", 'f' of "after", 'h' of "within", 'v' of
// "giving up", 'x' of "exhausted"), and the failure words are read only
// on a line that says its retries ended.
func retryEnd(l string) bool {
	return (lastAttempt(l) || spentRetries(l) || retryEndPhrase(l)) && failureVerb(l)
}

// retryEndWords say in words that a writer stopped retrying.
var retryEndWords = [...]string{"giving up", "Giving up", "gave up", "retries exhausted", "exhausted all retries", "exhausted retries", "Max retries exceeded", "max retries exceeded"}

// retryEndPhrase reports whether l holds one of retryEndWords, each of
// which has a 'v' or an 'x'.
func retryEndPhrase(l string) bool {
	if strings.IndexByte(l, 'v') < 0 && strings.IndexByte(l, 'x') < 0 {
		return false
	}
	return containsAnyOf(l, retryEndWords[:])
}

// lastAttempt reports whether l numbers an attempt against its bound and
// the two are equal, the bound above one: "attempt 3/3", "Attempt 5 of 5",
// "retry 2/2".
func lastAttempt(l string) bool {
	for _, w := range [...]struct {
		word string
		rare int
	}{{"ttempt ", 4}, {"retry ", 4}} {
		for from := 0; from < len(l); {
			i := ascii.IndexByRare(l[from:], w.word, w.rare)
			if i < 0 {
				break
			}
			from += i + len(w.word)
			n, rest := leadingNumber(l[from:])
			if n == "" {
				continue
			}
			var ok bool
			if rest, ok = strings.CutPrefix(rest, "/"); !ok {
				if rest, ok = strings.CutPrefix(rest, " of "); !ok {
					continue
				}
			}
			m, _ := leadingNumber(rest)
			if m == n && m != "1" && m != "0" {
				return true
			}
		}
	}
	return false
}

// spentRetries reports whether l counts the attempts or the time a writer
// spent before it stopped: "after <n> attempts|retries|tries", "within
// <n> seconds" after a connect that failed.
func spentRetries(l string) bool {
	for _, w := range [...]string{"after ", "within "} {
		rare := 1 // the 'f' of "after", the 'h' of "within"
		if w == "within " {
			rare = 3
		}
		for from := 0; from < len(l); {
			i := ascii.IndexByRare(l[from:], w, rare)
			if i < 0 {
				break
			}
			from += i + len(w)
			n, rest := leadingNumber(l[from:])
			if n == "" {
				continue
			}
			switch w {
			case "after ":
				for _, u := range [...]string{" attempts", " retries", " tries", " retry attempts"} {
					if strings.HasPrefix(rest, u) {
						return true
					}
				}
			case "within ":
				if strings.Contains(l[:from], "connect") && (strings.HasPrefix(rest, " seconds") || strings.HasPrefix(rest, "s")) {
					return true
				}
			}
		}
	}
	return false
}

// leadingNumber splits s into the decimal digits it opens with and the
// rest; "" and s when it opens with none.
func leadingNumber(s string) (string, string) {
	n := 0
	for n < len(s) && n < 9 && isDigitByte(s[n]) {
		n++
	}
	return s[:n], s[n:]
}
