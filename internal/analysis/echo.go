package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// searchAll matches text, appending the hits to dst, with the echo zones of
// text masked: an echo record's hit (patterns.RoleEcho) marks where the
// server starts repeating text it was sent, and from there to the end of
// that line no record may match. The echo hits themselves are dropped.
//
// Most texts hold no echo and are matched once. One that does is matched
// again with its zones blanked, rather than having the hits inside them
// dropped: a record whose first match was in the zone may still match
// the server's own text after it.
func (a *Analyzer) searchAll(dst []matcher.Hit, text string) []matcher.Hit {
	n := len(dst)
	dst, a.perrs = a.m.AppendMatch(dst, a.perrs, &matcher.Subject{Text: text, ExceptionTypes: a.types})
	if !hasEcho(dst[n:]) {
		return dst
	}
	masked := maskEchoes(text, dst[n:])
	dst, a.perrs = a.m.AppendMatch(dst[:n], a.perrs, &matcher.Subject{Text: masked, ExceptionTypes: a.types})
	keep := dst[:n]
	for _, h := range dst[n:] {
		if !h.Record.Role.Is(patterns.RoleEcho) {
			keep = append(keep, h)
		}
	}
	return keep
}

func hasEcho(hits []matcher.Hit) bool {
	for i := range hits {
		if hits[i].Record.Role.Is(patterns.RoleEcho) {
			return true
		}
	}
	return false
}

// maskEchoes returns text with every echo zone of hits blanked with
// spaces: the same length, so offsets into it are offsets into text. A
// zone runs from an echo hit's start to the end of its line. The echo
// pattern's own text stays, so the second match finds the echo hits again
// and they can be told apart and dropped.
func maskEchoes(text string, hits []matcher.Hit) string {
	b := []byte(text)
	for i := range hits {
		h := &hits[i]
		if !h.Record.Role.Is(patterns.RoleEcho) {
			continue
		}
		end := len(text)
		if k := strings.IndexByte(text[h.End:], '\n'); k >= 0 {
			end = h.End + k
		}
		for j := h.End; j < end; j++ {
			b[j] = ' '
		}
	}
	return string(b)
}
