package incident

import (
	"time"

	"github.com/logmatch/logmatch/internal/analysis"
)

// One import that failed, then the names it should have defined
// (analysis.UndefinedAfterImport). A guarded import fails at start-up and
// the server goes on; the code that uses what it should have defined
// fails later, at the first request or the first batch that reaches it,
// seconds or minutes after: a code error naming the module's name or
// attribute. Within the correlation window, in the same source, such a
// code error (classified or not) printed after a classified import
// failure that names its module is listed in the import failure's
// incident, which leads, announced already or not: one cause, one page.
// A code error that names something else, another source's, or one read
// past the correlation window, stays its own.

// importBefore returns the incident of the classified import failure of
// o's source that the code error o, read at, names (see above), or nil:
// the earliest, begun before o in its source, within the correlation
// window unless its time is the read time (a line without a timestamp
// among dated ones).
func (g *Grouper) importBefore(o *Occurrence, at time.Time) *group {
	if o.SourceKey == "" || g.opts.Correlation <= 0 {
		return nil
	}
	// The exception's type and message are read apart first: no wording
	// UndefinedUse looks for holds a colon, so none lies across the ": "
	// their text joins them with, and most failures are no such use.
	if x := o.Alert.Match.Exception; x != nil && x.Type != "" && !analysis.UndefinedUse(x.Type) && !analysis.UndefinedUse(x.Message) {
		return nil
	}
	use := alertExceptionText(&o.Alert)
	if !analysis.UndefinedUse(use) {
		return nil
	}
	var best *group
	for _, m := range g.sourceCauses(sourceKey{o.Scope, o.SourceKey}) {
		c := m.gr
		if !classifiedCause(c) || c.End > o.Offset || !c.Untimed && (at.Before(c.At) || at.Sub(c.last()) > g.opts.Correlation) ||
			!analysis.UndefinedAfterImport(exceptionText(c), use) {
			continue
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	}
	return best
}
