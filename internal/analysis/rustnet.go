package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// Rust's HTTP and gRPC clients (reqwest over hyper, tonic) print their
// errors in fixed forms, set by the crates rather than by the program
// (sglang's router, TGI's router, Dynamo's frontend). Their Display: reqwest's
// "error sending request for url (http://...)", "builder error for url
// (...)", "HTTP status server error (503 Service Unavailable) for url
// (...)"; hyper's "error trying to connect: tcp connect error: Connection
// refused (os error 111)", hyper-util's "client error (Connect)"; the
// standard library's I/O error "Connection refused (os error 111)". Their
// Debug, which tracing's `?err` prints: "reqwest::Error { kind: Request,
// url: ..., source: hyper_util::client::legacy::Error(Connect, ...) }",
// tonic's "Status { code: Unavailable, message: ..., source:
// Some(tonic::transport::Error(Transport, hyper::Error(...))) }". A
// program logs one after its own words for what failed ("HTTP health
// check failed for http://...: ", "gRPC health RPC error for ...: "), at
// whatever level it chose, often WARN for a check it repeats. As for Go's
// network errors (gonet.go), a line whose words say something failed
// (failureVerb) before such an error is that failure, and the same error
// in a notice that carries on (goNetRetry) is routine.

// rustErrorsBeforeParen are the words a Rust client error prints right
// before a '(' that opens its detail.
var rustErrorsBeforeParen = [...]string{
	"for url ", "hyper::Error", "tonic::transport::Error", "legacy::Error", "client error ", "status server error ",
}

// rustErrorsBeforeBrace are the Debug forms that open with a '{' after
// the type.
var rustErrorsBeforeBrace = [...]string{"reqwest::Error ", "Status "}

// rustNetCandidate is the byte test before rustNetFailure: the '(' or '{'
// every form above holds, or the 'y' of hyper's "trying to connect: ",
// each found in one vectorised scan.
func rustNetCandidate(l string) bool {
	return strings.IndexByte(l, '(') >= 0 || strings.IndexByte(l, '{') >= 0 || ascii.IndexByRare(l, "trying to connect: ", 2) >= 0
}

// rustNetFailure reports whether l quotes a Rust client's error (see
// above) after words that say something failed, and does not say its
// writer tries again or is still waiting (a router's start-up wait
// reports each health check "pending with error: ..." until the worker
// answers).
func rustNetFailure(l string) bool {
	at := rustNetErrorAt(l)
	return at > 0 && failureVerb(l[:at]) && !goNetRetry(l) && !containsAnyOf(l[:at], rustNetWaitWords[:])
}

// rustNetWaitWords say, before the error a line quotes, that its writer
// is still waiting for what failed.
var rustNetWaitWords = [...]string{"pending", "waiting", "Waiting", "not ready yet", "not yet ready"}

// rustNetErrorAt returns where the first Rust client error of s (see
// above) opens; -1 when s holds none.
func rustNetErrorAt(s string) int {
	at := -1
	first := func(i int) {
		if i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	first(openedBefore(s, '(', rustErrorsBeforeParen[:]))
	first(openedBefore(s, '{', rustErrorsBeforeBrace[:]))
	first(osErrorAt(s))
	if i := ascii.IndexByRare(s, "error trying to connect: ", 8); i >= 0 {
		first(i)
	}
	return at
}

// openedBefore returns where, in s, one of words ends right before the
// byte open: the word's start, -1 when no such word stands before any
// open in s.
func openedBefore(s string, open byte, words []string) int {
	for from := 0; from < len(s); {
		i := strings.IndexByte(s[from:], open)
		if i < 0 {
			return -1
		}
		p := from + i
		from = p + 1
		for _, w := range words {
			if strings.HasSuffix(s[:p], w) {
				return p - len(w)
			}
		}
	}
	return -1
}

// osErrorAt returns where the Rust I/O error that ends in "(os error
// <n>)" opens in s ("Connection refused (os error 111)"): the start of its
// words, after the last ": " before it or at the line's start when there
// is none. -1 when s holds none.
func osErrorAt(s string) int {
	for from := 0; from < len(s); {
		i := strings.Index(s[from:], "(os error ")
		if i < 0 {
			return -1
		}
		p := from + i
		from = p + 1
		r := s[p+len("(os error "):]
		n := 0
		for n < len(r) && isDigitByte(r[n]) {
			n++
		}
		if n == 0 || n == len(r) || r[n] != ')' {
			continue
		}
		if c := strings.LastIndex(s[:p], ": "); c >= 0 {
			return c + 2
		}
		return 0
	}
	return -1
}
