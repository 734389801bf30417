package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/triples"
)

// Go's network errors print in fixed forms, set by the standard library
// rather than by the program: net.OpError "<op> <net> [<source>-><addr>]:
// <err>" ("dial tcp 104.21.75.227:443: connect: connection refused",
// "read tcp 10.0.0.1:5000->10.0.0.2:443: read: connection reset by peer",
// "dial tcp: lookup registry.ollama.ai on 127.0.0.53:53: no such host",
// "listen tcp :8080: bind: address already in use"), net.DNSError "lookup
// <host>[ on <server>]: <err>", and net/url's Error "<Method> \"<url>\":
// <err>" around whatever the HTTP client met ("Get \"https://...\": dial
// tcp ...", "Post \"http://...\": EOF", "... net/http: TLS handshake
// timeout", "... context deadline exceeded (Client.Timeout exceeded while
// awaiting headers)"). Programs built on Go (Ollama, Kubernetes'
// components, NATS, the Dynamo and llm-d operators) log such an error
// after their own words for what failed, and not always at an error
// level: Ollama reports a registry request that failed at INFO ("request
// failed: Get \"https://registry.ollama.ai/...\": dial tcp ...: connect:
// bad file descriptor"). A line whose words say something failed
// (failureVerb) before such an error is that failure whatever its level;
// the same error in a notice that carries on ("retrying in 2s", "will
// retry") is routine (goNetRetry), and so is a readiness probe's, which
// keeps traffic away while a server starts (kubestate.go).

// goNetOps are the operations a net.OpError names, each followed by its
// network.
var goNetOps = [...]string{"dial ", "read ", "write ", "listen "}

// goNetNetworks are the networks Go's net package names.
var goNetNetworks = [...]string{"tcp", "tcp4", "tcp6", "udp", "udp4", "udp6", "unix", "unixgram", "unixpacket", "ip", "ip4", "ip6"}

// goURLMethods are the operations a net/url Error names: the HTTP
// client's methods, capitalised as it prints them.
var goURLMethods = [...]string{"Get", "Post", "Head", "Put", "Delete", "Patch", "Options"}

// goDNSErrors are the texts a net.DNSError ends with.
var goDNSErrors = [...]string{"no such host", "server misbehaving", "i/o timeout", "Temporary failure in name resolution", "connection refused"}

// goNetCandidate is quiet's byte test for a line that may carry a Go
// network error (goNetErrorAt): one scan each for the network's and the
// URL's most common bytes, on the lines without a level or at INFO.
func goNetCandidate(msg string) bool {
	return strings.Contains(msg, "tcp") || strings.Contains(msg, "lookup ") || strings.Contains(msg, "http")
}

// goNetFailure reports whether msg, the first line of a message below an
// error level, reports a failure with a Go network error (see above): a
// failure verb before the error, and no retry after it.
func goNetFailure(msg string) bool {
	at := goNetErrorAt(msg)
	return at > 0 && failureVerb(msg[:at]) && !goNetRetry(msg) && !strings.Contains(msg[:at], "Readiness probe")
}

// goNetErrorAt returns where the first Go network error of s (see above)
// opens; -1 when s holds none.
func goNetErrorAt(s string) int {
	at := -1
	first := func(i int) {
		if i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	if goOpCandidate(s) {
		for _, op := range goNetOps {
			first(goOpErrorAt(s, op))
		}
	}
	first(goDNSErrorAt(s))
	first(goURLErrorAt(s))
	return at
}

// goOpCandidate is goNetErrorAt's byte test for a net.OpError: every one
// holds an operation (goNetOps, each ending in a space) right before its
// network, whose first two letters are "tc", "ud", "un" or "ip"; one
// vectorised pass (triples.Index) finds the space and those letters,
// seldom on a line together, where the four searches of goOpErrorAt
// stopped at every 'd', 'r', 'w' and 'l' of a line, and the operation is
// compared before each. A line shorter than the pass reads, or a processor
// without its instructions, is a candidate.
func goOpCandidate(s string) bool {
	if !triples.Vector || len(s) < triples.MinLen {
		return true
	}
	for from := 0; ; {
		j := triples.Index(s, from, goOpTriples)
		if j < 0 {
			return false
		}
		from = j + 1
		for _, op := range goNetOps {
			if strings.HasSuffix(s[:j+1], op) {
				return true
			}
		}
	}
}

// goOpTriples are the triples goOpCandidate searches: an operation's last
// space and its network's first two letters.
var goOpTriples = triples.Of(" tc", " ud", " un", " ip")

// goOpErrorAt returns where a net.OpError of operation op opens in s:
// op at a word's start, a network, its address or none, and after a colon
// the error with a letter in it. -1 when there is none.
func goOpErrorAt(s, op string) int {
	for from := 0; ; {
		i := strings.Index(s[from:], op)
		if i < 0 {
			return -1
		}
		at := from + i
		from = at + len(op)
		if at > 0 && isAlnum(s[at-1]) {
			continue
		}
		r := s[from:]
		end := 0
		for end < len(r) && isAlnum(r[end]) {
			end++
		}
		if !goNetwork(r[:end]) || end == len(r) || r[end] != ' ' && r[end] != ':' {
			continue
		}
		r = r[end:]
		if r[0] == ' ' {
			// The address: one field.
			sp := strings.IndexByte(r[1:], ' ')
			if sp < 0 {
				continue
			}
			r = r[1+sp:]
			if !strings.HasSuffix(s[from:len(s)-len(r)], ":") {
				continue
			}
		} else {
			r = r[1:]
		}
		if strings.HasPrefix(r, " ") && hasLetter(r) {
			return at
		}
	}
}

// goNetwork reports whether w is a network Go's net package names.
func goNetwork(w string) bool {
	for _, n := range goNetNetworks {
		if w == n {
			return true
		}
	}
	return false
}

// goDNSErrorAt returns where a net.DNSError opens in s: "lookup " at a
// word's start, the host, the server it asked or none, and one of the
// resolver's error texts after a colon. -1 when there is none.
func goDNSErrorAt(s string) int {
	i := strings.Index(s, "lookup ")
	if i < 0 || i > 0 && isAlnum(s[i-1]) {
		return -1
	}
	r := s[i+len("lookup "):]
	c := strings.Index(r, ": ")
	if c < 1 || strings.Count(r[:c], " ") > 2 {
		return -1
	}
	r = r[c+2:]
	for _, e := range goDNSErrors {
		if strings.HasPrefix(r, e) {
			return i
		}
	}
	return -1
}

// goURLErrorAt returns where a net/url Error opens in s: a method, a
// space, the URL in quotes (escaped or not, as a structured logger may
// leave them), a colon and the error with a letter in it. -1 when there
// is none.
func goURLErrorAt(s string) int {
	for from := 0; ; {
		i := strings.Index(s[from:], "http")
		if i < 0 {
			return -1
		}
		u := from + i
		from = u + len("http")
		q := u - 1
		if q < 0 || s[q] != '"' {
			continue
		}
		quote := `"`
		if q > 0 && s[q-1] == '\\' {
			q--
			quote = `\"`
		}
		method := s[:q]
		if !strings.HasSuffix(method, " ") {
			continue
		}
		method = method[:len(method)-1]
		name := method[strings.LastIndexAny(method, " \"=:(")+1:]
		if !goURLMethod(name) {
			continue
		}
		end := strings.Index(s[from:], quote+": ")
		if end < 0 || strings.IndexByte(s[from:from+end], ' ') >= 0 {
			continue
		}
		if hasLetter(s[from+end+len(quote)+2:]) {
			return len(method) - len(name)
		}
	}
}

// goURLMethod reports whether w is a method a net/url Error names.
func goURLMethod(w string) bool {
	for _, m := range goURLMethods {
		if w == m {
			return true
		}
	}
	return false
}

// failureVerbs say, before an error a line quotes, that something
// failed.
var failureVerbs = [...]string{"failed", "Failed", "failure", "error", "Error", "ERROR", "unable to", "Unable to", "could not", "Could not", "couldn't", "cannot", "Cannot", "can't"}

// failureVerb reports whether s, a line's words before the error it
// quotes, says something failed.
func failureVerb(s string) bool {
	return containsAnyOf(s, failureVerbs[:])
}

// containsAnyOf reports whether s holds any of words.
func containsAnyOf(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// goNetRetries are a notice's words that the writer tries again.
var goNetRetries = [...]string{"retrying", "Retrying", "will retry", "Will retry", "retry in", "retry after", "backing off"}

// goNetRetry reports whether msg says its writer tries again (a notice,
// not the failure).
func goNetRetry(msg string) bool {
	return containsAnyOf(msg, goNetRetries[:])
}
