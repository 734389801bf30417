package incident

import (
	"time"

	"github.com/logmatch/logmatch/internal/entry"
)

// One exception, two records. A library's exception is often logged in
// two places of one burst, and each place matches another record: the
// Hub's GatedRepoError is printed once as "GatedRepoError: 401 Client
// Error" (matching the generic HTTP 401 record) and once as "Cannot access
// gated repo" (matching the gated-repo record). They are one failure. The
// record that names the exception itself, by its errorClass, says more
// than the one that matched a line of its message: when an incident's
// exception type is another classified cause's errorClass, and not its
// own record's, the two incidents of one burst from one source are one,
// led by the record of that class; the other is listed as its context,
// as a lone wrapper is (absorbWrapper).
//
// Python's built-in exception types (RuntimeError, ValueError, ...) name
// no failure of their own and never make two incidents one: two
// RuntimeErrors of one burst may be two failures.

// restates reports whether the incident a is the failure that the record
// of the incident b names by its exception class.
func restates(a, b *group) bool {
	x := a.Alert.Match.Exception
	if x == nil || x.Type == "" || !classifiedCause(a) || !classifiedCause(b) {
		return false
	}
	typ := lastDotted(x.Type)
	if entry.BuiltinException(typ) || lastDotted(b.Alert.Record.ErrorClass) != typ {
		return false
	}
	return lastDotted(a.Alert.Record.ErrorClass) != typ
}

// foldRestatements makes each settling classified cause whose exception
// another settling classified cause of its burst names (restates) context
// of that one: those whose settle time is over, or all at Flush, taken in
// the order of ids (sortedIDs). An incident announced already stays as it
// is: nothing is paged twice.
func (g *Grouper) foldRestatements(ids []string, now time.Time, all bool) {
	if !g.genericFolds() {
		return
	}
	for _, id := range ids {
		a := g.groups[id]
		if a == nil || !a.Settling || (!all && !g.due(a, now)) || a.Source == "" {
			continue
		}
		var by *group
		b := burstOf(a)
		for _, m := range g.sourceCauses(causeKey(a)) {
			c := m.gr
			if m.id == id || !c.Settling || !g.inBurst(c, b) || !restates(a, c) {
				continue
			}
			if by == nil || leads(c, by) {
				by = c
			}
		}
		if by == nil {
			continue
		}
		by.absorbWrapper(a, &g.stats)
		g.remove(id)
		g.touch(by)
	}
}
