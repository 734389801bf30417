package analysis

import (
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/entry"
)

// A server's health, liveness and readiness endpoints answer 503 Service
// Unavailable until it can serve: that is how a probe (Kubernetes', a load
// balancer's, a launcher's) learns to wait. Web frameworks that log every
// failed response at ERROR log those answers too (tower-http's
// "response failed classification=Status code: 503 Service Unavailable
// ... method=GET uri=/live"), so a server that starts slowly writes one
// ERROR line per probe. While it starts they are the probe's answer, not
// a failure. What is bounded and cheap to know of a stream says when they
// are one: the server said it is ready (its start-up line, looked for only
// once a probe's 503 was let pass), or the 503s went on longer than any
// start-up (probeGrace since the first, by the lines' own times). A 503 on
// any other path (a request) is a failure as before.

// probeGrace bounds how long a probe's 503 answers are read as a start-up:
// a server that still answers its probe so after it is no longer starting.
const probeGrace = 20 * time.Minute

// probeStarting reports whether e, a failure no record names at an error
// level, is a probe's 503 answer while the server of stream st starts (see
// above), and notes it in st.
func (st *Stream) probeStarting(e *entry.Entry) bool {
	if st.ready || e.Traceback != nil || !probeUnavailable(FirstLine(e.Message)) {
		return false
	}
	if !st.probing {
		st.probing, st.probeSince = true, e.Time
		return true
	}
	return st.probeSince.IsZero() || e.Time.IsZero() || e.Time.Sub(st.probeSince) < probeGrace
}

// noteReady sets st.ready when e says its server is ready, once a probe's
// 503 was let pass (st.probing): until then no line is looked at.
func (st *Stream) noteReady(e *entry.Entry) {
	if st.probing && !st.ready && serverReady(FirstLine(e.Message)) {
		st.ready = true
	}
}

// probeUnavailable reports whether l reports a 503 answer to a request
// for a health, liveness or readiness endpoint (healthProbeURL): a status
// 503 and a request's GET or HEAD target, or a uri=, path= or url= field,
// that is such an endpoint.
func probeUnavailable(l string) bool {
	if !status503(l) {
		return false
	}
	for _, mark := range [...]string{"uri=", "path=", "url=", "GET ", "HEAD "} {
		i := strings.Index(l, mark)
		if i < 0 || i > 0 && isWordByte(l[i-1]) {
			continue
		}
		t := strings.TrimLeft(l[i+len(mark):], `"'`)
		if j := strings.IndexAny(t, " \t\"',"); j >= 0 {
			t = t[:j]
		}
		if t != "" && (t[0] == '/' || strings.HasPrefix(t, "http")) && healthProbeURL(t) {
			return true
		}
	}
	return false
}

// status503 reports whether l holds 503 as a number of its own.
func status503(l string) bool {
	for rest := l; ; {
		i := strings.Index(rest, "503")
		if i < 0 {
			return false
		}
		if (i == 0 || !isWordByte(rest[i-1])) && (i+3 == len(rest) || !isWordByte(rest[i+3])) {
			return true
		}
		rest = rest[i+3:]
	}
}

// isWordByte reports whether c is an ASCII letter, digit or underscore.
func isWordByte(c byte) bool {
	return isAlnum(c) || c == '_'
}

// serverReady reports whether l says a server finished starting: "ready"
// said of it ("Worker is ready", "ready to roll", "Server ready"), or a web
// framework's start-up line ("Application startup complete.", "Uvicorn
// running on http://...", "listening on 0.0.0.0:8000"). A line that waits
// for readiness, or denies it, is none.
func serverReady(l string) bool {
	t := lowerASCII(l)
	if strings.Contains(t, "not ") || strings.Contains(t, "waiting") || strings.Contains(t, "until") || strings.Contains(t, "unavailable") {
		return false
	}
	for _, p := range [...]string{"is ready", "are ready", "ready to ", "ready!", " ready.", "server ready", "worker ready",
		"startup complete", "running on http", "listening on", "serving on", "started http"} {
		if strings.Contains(t, p) {
			return true
		}
	}
	return strings.HasSuffix(t, " ready")
}
