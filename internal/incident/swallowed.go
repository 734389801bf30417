package incident

import (
	"strings"

	"github.com/logmatch/logmatch/sinks"
)

// A swallowed failure's follow-on. A program that catches a failed call,
// logs it and goes on then uses what the call was to return: Python
// raises UnboundLocalError ("local variable 'x' referenced before
// assignment", since 3.11 "cannot access local variable 'x' where it is
// not associated with a value"). That error is the program's own bug,
// but it happened because of the failure logged just before it: printed
// after a failure of its source within its burst, it is listed in that
// failure's incident rather than paged apart.

// unboundWords are the wordings of CPython's UnboundLocalError (none holds
// a colon, each holds "ass": unboundLocal).
var unboundWords = [...]string{
	"referenced before assignment",
	"where it is not associated with a value",
}

// unboundLocal reports whether o says that a local variable was used
// before it was assigned: its line, or its exception's type or message.
// The exception's two are read apart, not joined by ": " into a new
// string: no wording holds a colon, so none lies across the join.
func unboundLocal(o *Occurrence) bool {
	texts := [3]string{o.Alert.Match.Text}
	if x := o.Alert.Match.Exception; x != nil {
		texts[1], texts[2] = x.Type, x.Message
	}
	for _, t := range texts {
		// Both wordings hold "ass" (assignment, associated): most texts
		// hold none, and are read once, not once a wording.
		if !strings.Contains(t, "ass") {
			continue
		}
		for _, w := range unboundWords {
			if strings.Contains(t, w) {
				return true
			}
		}
	}
	return false
}

// swallowedFailure returns the failure o, a use of a variable the failed
// call left unassigned (unboundLocal) that no process's wrapper reports,
// follows: the latest failure of its source and burst printed before it,
// error or worse (a consequence too: a client's report of the server
// error its call got); nil when there is none.
func (g *Grouper) swallowedFailure(o *Occurrence, b burst) *group {
	if b.source == "" || len(o.Alert.Context) > 0 || !unboundLocal(o) {
		// (One a wrapper reports, "Scheduler hit an exception:", is a
		// process's death of its own bug.)
		return nil
	}
	var best *group
	for _, m := range g.scopeGroups(b.scope) {
		c := m.gr
		if c.Source != b.source || sinks.SeverityRank(c.Alert.Record.Severity) < sinks.SeverityRank("error") ||
			c.Off >= b.off || !g.inBurst(c, b) || unboundAlert(c) {
			continue
		}
		if best == nil || c.Off > best.Off {
			best = c
		}
	}
	return best
}

// unboundAlert reports whether the incident c is itself a use of an
// unassigned variable.
func unboundAlert(c *group) bool {
	for _, w := range unboundWords {
		if strings.Contains(c.Alert.Match.Text, w) {
			return true
		}
	}
	return false
}
