package incident

import (
	"strings"
	"time"
)

// A wait that a kill ended. A program that starts a process and waits for
// it to become ready (Ollama's scheduler for its runner, a launcher for
// its workers, a client for its server) reports, when the process dies on
// the way, only that the wait ran out: "timed out waiting for llama runner
// to start". When the kernel's OOM killer killed a process in the same
// stream within the same moments ("ollama.service: A process of this unit
// has been killed by the OOM killer"), the wait's end is that kill's
// consequence, whichever line was printed first: the kill leads, and the
// timeout is listed in its incident. Only the OOM killer's kill is read
// so: a kill the waiter may have sent itself after the timeout ("signal:
// killed") is the timeout's consequence, not its cause. Two lines further
// apart than killGap bytes of their stream, or outside one settle time
// (unless a time was borrowed from a line before it, which says nothing
// about when it happened), stay apart.

// killGap bounds the bytes between a timed-out wait and the kill that
// ended it in their stream: a few dozen lines.
const killGap = borrowedGap

// waitTimedOut reports whether the first line of line says that a wait
// for something ran out of time ("timed out waiting for", "waiting for
// the server: timeout", "wait for workers timed out").
func waitTimedOut(line string) bool {
	line = firstLine(line)
	if !holdsLetter(line, 'w') || indexFold(line, "wait") < 0 {
		return false
	}
	return (indexFold(line, "waiting for") >= 0 || indexFold(line, "wait for") >= 0) &&
		(indexFold(line, "timed out") >= 0 || indexFold(line, "timeout") >= 0 || indexFold(line, "time out") >= 0)
}

// kernelKill reports whether the first line of line says that the
// kernel's OOM killer killed a process: the kernel's own report, or
// systemd's, Kubernetes' or a scheduler's word for it.
func kernelKill(line string) bool {
	line = firstLine(line)
	if !holdsLetter(line, 'k') || indexFold(line, "kill") < 0 {
		return false
	}
	for _, w := range [...]string{"oom killer", "oom-kill", "oom_kill", "oom killed", "oomkilled", "out of memory: killed process"} {
		if indexFold(line, w) >= 0 {
			return true
		}
	}
	return false
}

// holdsLetter reports whether s holds the lower-case ASCII letter c in
// either case: two vectorised searches, where indexFold reads every byte.
// waitTimedOut and kernelKill read every classified occurrence's line,
// and most hold no "w" or "k" to start their words.
func holdsLetter(s string, c byte) bool {
	return strings.IndexByte(s, c) >= 0 || strings.IndexByte(s, c-'a'+'A') >= 0
}

// nearKill reports whether the wait w and the kill k, one incident's span
// each in their source, are of one moment of one stream (see above).
func (g *Grouper) nearKill(wOff, wEnd int64, wAt time.Time, wBorrowed bool, k *group) bool {
	if gapBetween(wOff, wEnd, k.Off, k.End) > killGap {
		return false
	}
	if wBorrowed || k.Borrowed {
		return true
	}
	d := wAt.Sub(k.At)
	return d <= g.opts.Settle && d >= -g.opts.Settle
}

// claimWaited folds into the new incident k of an OOM kill the settling
// incidents of its stream that say a wait ran out just before it.
func (g *Grouper) claimWaited(k *group) {
	if !g.genericFolds() || k.Source == "" || !canBeRoot(k) || !kernelKill(lineOf(k)) {
		return
	}
	key := causeKey(k)
	folded := false
	for _, members := range [2][]member{g.sourceCauses(key), g.sourceMembers(g.failBySource, key)} {
		for _, m := range members {
			w := m.gr
			if w == k || !w.Settling || w.Consequence || !waitTimedOut(lineOf(w)) ||
				!g.nearKill(w.Off, w.End, w.At, w.Borrowed, k) {
				continue
			}
			k.foldIncident(w, &g.stats)
			g.remove(m.id)
			folded = true
		}
	}
	if folded {
		g.touch(k)
	}
}

// killBefore returns the incident of an OOM kill of the burst b's stream
// that ended the wait the occurrence o says ran out (see above), printed
// before it; nil when there is none.
func (g *Grouper) killBefore(o *Occurrence, b burst, borrowed bool) *group {
	if b.source == "" {
		return nil
	}
	o.Complete()
	if !waitTimedOut(lineOfAlert(&o.Alert)) {
		return nil
	}
	var best *group
	for _, m := range g.sourceCauses(sourceKey{b.scope, b.source}) {
		k := m.gr
		if !canBeRoot(k) || k.Off > b.off || !g.nearKill(b.off, b.end, b.from, borrowed, k) || !kernelKill(lineOf(k)) {
			continue
		}
		if best == nil || k.beganBefore(best) {
			best = k
		}
	}
	return best
}

// joinKill lists the occurrence o, a wait that ran out, in the incident k
// of the kill that ended it.
func (g *Grouper) joinKill(o *Occurrence, k *group, now time.Time) {
	k.fold(*o, now, &g.stats)
	k.spanTo(o.Offset, o.EndOffset)
	g.touch(k)
}
