package analysis

import (
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/patterns"
)

// A launcher that waits for its workers says so again and again while it
// waits: TGI's "Waiting for shard 0 to be ready..." (newer: "Waiting for
// shard to be ready... rank=0") every ten seconds, vLLM's "Waiting for 1
// local, 0 remote core engine proc(s) to start.", Ollama's "waiting for
// server to become available". A large model loads for minutes, so a few
// such lines, or many over a few minutes, are a slow start, not a stuck
// one. A start is clearly stuck only when the lines' own times show the
// launcher waiting for longer than any load takes (waitStuck), with no
// other line of the stream in between (a shard's "ready", a download's
// progress, an error): then the waiting is a hang, critical, headed by the
// line and how long it has repeated. The log alone cannot tell a wait cut
// short by the paste from one that never ended: without that span in its
// own times, a run of waiting lines stays silent.

// waitStuck is how long a launcher may repeat its waiting line, by the
// lines' own times, before the wait is a hang: longer than a large
// model's load from a slow disk takes.
const waitStuck = 30 * time.Minute

// maxWaitKey bounds the waiting line a Stream keeps.
const maxWaitKey = 160

// waitRun is what a Stream keeps of a run of waiting lines: the line (its
// own copy, without its numbers), the time of its first, how many, and
// done once the run alerted.
type waitRun struct {
	key   []byte
	first time.Time
	n     int
	done  bool
}

// reset ends the run.
func (w *waitRun) reset() { w.key, w.first, w.n, w.done = w.key[:0], time.Time{}, 0, false }

// waitingLine reports whether m, a routine line's message, is a launcher's
// line that it waits for workers or a server to be ready, to start or to
// become available.
func waitingLine(m string) bool {
	r, ok := strings.CutPrefix(m, "Waiting for ")
	if !ok {
		r, ok = strings.CutPrefix(m, "waiting for ")
	}
	if !ok || len(r) > maxWaitKey {
		return false
	}
	return strings.Contains(r, " ready") || strings.Contains(r, " to start") || strings.Contains(r, " become available")
}

// waitKey is the waiting line m as a run compares it: up to its ellipsis or
// its rank field, without digits (the ranks of a sharded start take turns).
func waitKey(dst []byte, m string) []byte {
	if i := strings.Index(m, "..."); i >= 0 {
		m = m[:i]
	}
	if i := strings.Index(m, " rank="); i >= 0 {
		m = m[:i]
	}
	dst = dst[:0]
	for i := 0; i < len(m); i++ {
		if !isDigitByte(m[i]) {
			dst = append(dst, m[i])
		}
	}
	return dst
}

// waitAt reads entry e, a quiet one of stream st whose message is m
// (trimmed): a waiting line extends the run, any other line ends it. It
// fills d and reports true when the run's own times first span waitStuck.
func (a *Analyzer) waitAt(d *Diagnosis, st *Stream, e *entry.Entry, m string) bool {
	w := &st.wait
	line := FirstLine(m)
	if !waitingLine(line) || e.Lines > 1 && strings.IndexByte(strings.TrimSpace(e.Text), '\n') >= 0 {
		w.reset()
		return false
	}
	var key [maxWaitKey]byte
	k := waitKey(key[:0], line)
	if w.n > 0 && string(k) != string(w.key) {
		w.reset()
	}
	if e.Time.IsZero() || e.TimeInherited {
		// No time of its own: how long it waited is not known.
		return false
	}
	if w.n == 0 {
		w.key = append(w.key[:0], k...)
		w.first = e.Time
	}
	w.n++
	waited := e.Time.Sub(w.first)
	if w.done || w.n < 3 || waited < waitStuck {
		return false
	}
	w.done = true
	*d = Diagnosis{PatternErrors: d.PatternErrors}
	d.Role = patterns.RoleCause
	d.Signal = SignalHang
	d.Severity = patterns.SeverityCritical
	d.Headline = "no progress: '" + strings.TrimSpace(line) + "' repeated for " + waited.Round(time.Second).String() + " with no other line"
	d.Key = "unclassified:" + LineSignature(string(SignalHang), "wait;"+string(w.key))
	d.Triage = TriageOf(e, nil)
	d.Triage.Family = FamilyHang
	return true
}
