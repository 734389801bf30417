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

// search matches text, which e's is or is rewritten from, and keeps the
// hits of records that apply to the engine, appending them to dst.
func (a *Analyzer) search(dst []matcher.Hit, text string, e *entry.Entry) []matcher.Hit {
	n := len(dst)
	dst = a.searchAll(dst, text)
	if len(dst) == n {
		return dst
	}
	keep := dst[:n]
	for _, h := range dst[n:] {
		if a.keeps(h.Record, e) && (a.version == "" || h.Record.AppliesTo(a.version)) {
			keep = append(keep, h)
		}
	}
	return keep
}

// keeps reports whether r may describe e, the entry analysed now. A
// record of no engine always may; one scoped to engines may when the
// engine is configured and r is its, or, when it was detected:
//   - e carries an engine's own shapes (engine.OfEntry) and r is that
//     engine's, whatever engine the stream was decided for: a log that
//     relays or interleaves two engines reads each entry with its own
//     engine's records;
//   - else the stream's engine is not known, or r is its;
//   - else r is another engine's than sglang: such a record's message is
//     that engine's own, and an entry with no shapes of the stream's
//     engine that prints it was relayed from it (an entry no header
//     names, in a stream another engine's lines decided). sglang's
//     records never reach another engine's stream that way: their
//     advice is for sglang alone.
func (a *Analyzer) keeps(r *patterns.Record, e *entry.Entry) bool {
	if r == nil || len(r.Engines) == 0 {
		return true
	}
	if a.configured {
		return r.ForEngine(a.engine)
	}
	if ev := a.evidence(e); ev != "" {
		return r.ForEngine(ev)
	}
	if a.engine == "" || r.ForEngine(a.engine) {
		return true
	}
	return !r.ForEngine(engine.SGLang)
}

// evidence is engine.OfEntry of e, the entry analysed now, read once per
// entry (searchEntry forgets it) and only when asked. sglang's ranked
// header, which the entry's parse read, is what OfEntry would find
// first: it is taken without the searches.
func (a *Analyzer) evidence(e *entry.Entry) string {
	if !a.evRead {
		a.evRead = true
		switch {
		case e == nil:
			a.ev = ""
		case e.Format == entry.FormatSRT && e.Ranks != entry.NoRanks:
			a.ev = engine.SGLang
		default:
			a.ev = engine.OfEntry(e.Process, firstLine(e.Raw), e.Text)
		}
	}
	return a.ev
}

// entryEngine is the engine e, the entry analysed now, is read as: the
// configured one, else the one its own shapes name, else the stream's.
func (a *Analyzer) entryEngine(e *entry.Entry) string {
	if a.configured {
		return a.engine
	}
	if ev := a.evidence(e); ev != "" {
		return ev
	}
	return a.engine
}

// EngineOf is the engine whose advice fits e, the entry analysed last,
// which d diagnosed: the engine e's own shapes name, else the stream's
// (SetEngine), unless d's cause is a record of other engines only, whose
// first engine it then is.
func (a *Analyzer) EngineOf(d *Diagnosis, e *entry.Entry) string {
	eng := a.entryEngine(e)
	if d != nil && d.Cause != nil && d.Cause.Record != nil {
		if r := d.Cause.Record; !r.ForEngine(eng) {
			return r.Engines[0]
		}
	}
	return eng
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
