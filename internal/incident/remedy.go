package incident

import (
	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/patterns"
)

// A wrapper that names the remedy of the code error it quotes leads it
// (analysis.RemedyWrapper and analysis.CodeError say when), across entries
// too: "torch._dynamo.exc.BackendCompilerFailed: backend='inductor'
// raised:" ends an entry and the NameError it raised begins the next (a
// traceback's last two lines, two glog lines of one report). Read alone,
// the wrapper waits for the cause of its burst (findCause); when that
// cause is the code error it quotes, printed just after it in the same
// source and not announced yet, the wrapper becomes the incident's cause
// instead: the code error is listed in it and gives it its exception. Any
// other cause (a library's or engine's record, an exception of another
// family) still leads the wrapper, as does one announced already: nothing
// is paged twice.

// quotesCodeError reports whether c, the cause findCause found for the
// lone wrapper w, is the code error w quotes: w's record names its
// remedy; c is an exception that says only that code failed, not yet
// announced, printed after w in w's source within borrowedGap bytes.
func quotesCodeError(w, c *group) bool {
	r := &w.Alert.Record
	if w.Fragment || w.Consequence || !analysis.RemedyWrapper(patterns.Role(r.Role), r.HandlingStrategy, len(r.Solutions)) {
		return false
	}
	if c.Consequence || !c.Settling || c.Sent > 0 || c.Source == "" || c.Source != w.Source ||
		c.Off < w.Off || c.Off-w.End > borrowedGap {
		return false
	}
	typ, repo, class := "", "", ""
	if x := c.Alert.Match.Exception; x != nil {
		typ = x.Type
	}
	if c.Alert.Record.ID != "" {
		repo, class = c.Alert.Record.Repo, c.Alert.Record.ErrorClass
		if typ == "" {
			// A line the record read as its class, with no
			// traceback to parse (a glog line's message).
			typ = class
		}
	}
	return typ != "" && analysis.CodeError(typ, repo, class)
}

// leadQuoted makes the lone wrapper w (fingerprint id) the cause of its
// incident and folds into it c, the code error it quotes.
func (g *Grouper) leadQuoted(w *group, id string, c *group) {
	g.unindexScope(id, w)
	w.Alert.Record.Role = string(patterns.RoleCause)
	g.indexScope(id, w)
	w.foldIncident(c, &g.stats)
	if x := c.Alert.Match.Exception; x != nil {
		e := *x
		if own := w.Alert.Match.Exception; own != nil && len(own.Stacktrace) > len(e.Stacktrace) {
			// The wrapper's entry held the frames.
			e.Stacktrace = own.Stacktrace
		}
		w.Alert.Match.Exception = &e
	}
	g.absorbed(w, c)
}

// absorbed ends the fold of c into w's incident (foldIncident done): w's
// span and last sighting take in c's, and c goes.
func (g *Grouper) absorbed(w, c *group) {
	if c.Source == w.Source {
		w.spanTo(c.Off, c.End)
	}
	if c.LastSeen.After(w.LastSeen) {
		w.LastSeen = c.LastSeen
	}
	g.remove(c.id)
	w.changed()
	g.touch(w)
}
