package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
)

// A Rust panic (the router, a model gateway, TGI's router and launcher)
// says what broke in the message after its "panicked at <location>:" line;
// the line alone names only a place. panicHeadline joins the two, and
// rustPanic gives the triage of a panic: a bug of the Rust program that
// printed it, which for a serving engine is its router or launcher.

// maxPanicMessage bounds the message a panic's headline carries.
const maxPanicMessage = 400

// panicHeadline is the headline of a Rust panic entry: "thread 'main'
// panicked at src/x.rs:1:2: <the message's first line>", the location
// without the path of the cargo registry that holds a dependency's
// source. "" when text holds no panic.
func panicHeadline(text string) string {
	i := strings.Index(text, "thread '")
	if i < 0 {
		return ""
	}
	p, ok := entry.ParsePanic(text[i:])
	if !ok {
		return ""
	}
	h := "thread '" + p.Thread + "' panicked"
	if p.Location != "" {
		h += " at " + registryRelative(p.Location)
	}
	msg := strings.TrimSpace(FirstLine(p.Message))
	if msg == "" {
		return h
	}
	return h + ": " + cutRunes(msg, maxPanicMessage)
}

// registryRelative cuts the cargo registry's directories from a location
// in a dependency's source ("/root/.cargo/registry/src/index.crates.io-
// 1949cf8c6b5b557f/tokio-1.45.1/src/x.rs:1:2" is "tokio-1.45.1/src/x.rs:
// 1:2"): the crate and its version are what says where it broke.
func registryRelative(loc string) string {
	const reg = "/.cargo/registry/src/"
	i := strings.Index(loc, reg)
	if i < 0 {
		return loc
	}
	rest := loc[i+len(reg):]
	if j := strings.IndexByte(rest, '/'); j > 0 && j+1 < len(rest) {
		return rest[j+1:]
	}
	return loc
}

// isRustPanic reports whether e is a Rust panic.
func isRustPanic(e *entry.Entry) bool { return e.Native == entry.NativeRustPanic }

// panicProcess names the Rust process a panic stopped: the launcher when
// its location or thread says so, else the router (sglang's and vLLM's
// routers, the model gateway and TGI's router are the Rust programs in
// front of an engine).
func panicProcess(text string) string {
	if i := strings.Index(text, "thread '"); i >= 0 {
		text = text[i:]
	}
	if strings.Contains(FirstLine(text), "launcher") {
		return "launcher"
	}
	return "router"
}
