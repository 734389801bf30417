package analysis

import "github.com/logmatch/logmatch/matcher"

// SetEngine says which serving engine wrote the entries analysed from now
// on ("" when not known). A record that belongs to other engines only
// (patterns.Record.Engines) describes a message this engine never prints,
// whatever its text: its hits are dropped, so the entry is diagnosed as if
// the record were not in the catalog.
func (a *Analyzer) SetEngine(name string) { a.engine = name }

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
	if a.engine == "" && a.version == "" {
		return dst
	}
	keep := dst[:n]
	for _, h := range dst[n:] {
		if (a.engine == "" || h.Record.ForEngine(a.engine)) && (a.version == "" || h.Record.AppliesTo(a.version)) {
			keep = append(keep, h)
		}
	}
	return keep
}
