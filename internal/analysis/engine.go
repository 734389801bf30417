package analysis

import "github.com/logmatch/logmatch/matcher"

// SetEngine says which serving engine wrote the entries analysed from now
// on ("" when not known). A record that belongs to other engines only
// (patterns.Record.Engines) describes a message this engine never prints,
// whatever its text: its hits are dropped, so the entry is diagnosed as if
// the record were not in the catalog.
func (a *Analyzer) SetEngine(name string) { a.engine = name }

// search matches text and keeps the hits of records that apply to the
// engine, appending them to dst.
func (a *Analyzer) search(dst []matcher.Hit, text string) []matcher.Hit {
	n := len(dst)
	dst = a.searchAll(dst, text)
	if a.engine == "" {
		return dst
	}
	keep := dst[:n]
	for _, h := range dst[n:] {
		if h.Record.ForEngine(a.engine) {
			keep = append(keep, h)
		}
	}
	return keep
}
