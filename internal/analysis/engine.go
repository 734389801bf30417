package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/engine"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// SetEngine says which serving engine wrote the entries analysed from now
// on ("" when not known). A record that belongs to other engines only
// (patterns.Record.Engines) describes a message this engine never prints,
// whatever its text: its hits are dropped, so the entry is diagnosed as if
// the record were not in the catalog. An entry that carries another
// engine's own shapes is read as that engine's (see keeps).
func (a *Analyzer) SetEngine(name string) { a.engine = name }

// ConfigureEngine says whether SetEngine's engine was configured rather
// than detected from the stream's lines. A configured engine is the
// operator's word for every entry: an entry's own shapes do not change
// it, and no other engine's record applies (see keeps).
func (a *Analyzer) ConfigureEngine(configured bool) { a.configured = configured }

// SetVersion says which sglang release wrote the entries analysed from now
// on ("" when not known). A record whose introducedIn/removedIn leave that
// release out describes a message it never prints: its hits are dropped,
// so a record kept for older releases never displaces today's.
func (a *Analyzer) SetVersion(v string) { a.version = v }

// Version is the release SetVersion set.
func (a *Analyzer) Version() string { return a.version }

// search matches text and keeps the hits of records that apply to the
// engine, appending them to dst.
func (a *Analyzer) search(dst []matcher.Hit, text string) []matcher.Hit {
	n := len(dst)
	dst = a.searchAll(dst, text)
	keep := dst[:n]
	for _, h := range dst[n:] {
		if a.keeps(h.Record) && (a.version == "" || h.Record.AppliesTo(a.version)) {
			keep = append(keep, h)
		}
	}
	return keep
}

// keeps reports whether r may describe the entry analysed now. A record
// of no engine always may; one scoped to engines may when the engine is
// configured and r is its, or, when it was detected:
//   - the entry carries an engine's own shapes (engine.OfEntry) and r is
//     that engine's, whatever engine the stream was decided for: a log
//     that relays or interleaves two engines reads each entry with its
//     own engine's records;
//   - else the stream's engine is not known, or r is its;
//   - else r is another engine's than sglang: such a record's message is
//     that engine's own, and an entry with no shapes of the stream's
//     engine that prints it was relayed from it (an entry no header
//     names, in a stream another engine's lines decided). sglang's
//     records never reach another engine's stream that way: their
//     advice is for sglang alone.
func (a *Analyzer) keeps(r *patterns.Record) bool {
	if r == nil || len(r.Engines) == 0 {
		return true
	}
	if a.configured {
		return r.ForEngine(a.engine)
	}
	if ev := a.evidence(); ev != "" {
		return r.ForEngine(ev)
	}
	if a.engine == "" || r.ForEngine(a.engine) {
		return true
	}
	return !r.ForEngine(engine.SGLang)
}

// evidence is engine.OfEntry of the entry analysed now, read once per
// entry and only when asked.
func (a *Analyzer) evidence() string {
	if !a.evRead {
		a.evRead = true
		a.ev = ""
		if a.cur.raw != "" || a.cur.text != "" {
			a.ev = engine.OfEntry(a.cur.process, firstLine(a.cur.raw), a.cur.text)
		}
	}
	return a.ev
}

// entryEngine is the engine the entry analysed now is read as: the one
// its own shapes name, else the stream's.
func (a *Analyzer) entryEngine() string {
	if a.configured {
		return a.engine
	}
	if ev := a.evidence(); ev != "" {
		return ev
	}
	return a.engine
}

// EngineOf is the engine whose advice fits e, which d diagnosed (the
// last entry analysed): the engine e's own shapes name, else the
// stream's (SetEngine), unless d's cause is a record of other engines
// only, whose first engine it then is.
func (a *Analyzer) EngineOf(d *Diagnosis, e *entry.Entry) string {
	a.setEntry(e)
	eng := a.entryEngine()
	if d != nil && d.Cause != nil && d.Cause.Record != nil {
		if r := d.Cause.Record; !r.ForEngine(eng) {
			return r.Engines[0]
		}
	}
	return eng
}

// setEntry makes e the entry analysed now. Its strings are kept, not e:
// a lent entry's copy must not escape.
func (a *Analyzer) setEntry(e *entry.Entry) {
	a.cur, a.evRead = curEntry{e.Process, e.Raw, e.Text}, false
}

// curEntry is what evidence reads of the entry analysed now.
type curEntry struct{ process, raw, text string }

// firstLine is s up to its first newline.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
