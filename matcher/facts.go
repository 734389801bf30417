package matcher

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/logmatch/logmatch/patterns"
)

// Facts are what Compile derives from a catalog's patterns before any
// program is built, which is most of a load's CPU: that each pattern
// parses, the backtracking check's warning on it (Options.Refuse), its
// required literals, and the prefilter's key plan for the records, in order.
// A Matcher gives out its Facts (Matcher.Facts); Compile given them
// (Options.Facts) takes every pattern they know from them instead of
// parsing it, and the key plan when its records' patterns are the same, in
// the same order. patterns.LoadOptions.Parsed takes Parses so the load skips
// the same parse.
//
// Facts hold what this build's code derived: they are only valid for the
// same build (internal/factcache keys its files by the executable's build
// ID). A pattern the backtracking check refuses is never in them; it is
// checked again at every load.
//
// Facts are immutable, and safe for concurrent use.
type Facts struct {
	options string           // factsOptions of the Options they were derived under
	pats    []patternFacts   // one for each distinct pattern
	index   map[string]int32 // messagePattern to its pats entry
	order   []int32          // the records' patterns, in order (indexes into pats); nil without a plan
	plan    keyPlan          // the prefilter's keys for those records
}

// patternFacts are the facts of one messagePattern.
type patternFacts struct {
	expr string
	req  Required
	warn string // the backtracking check's warning, "" for none
}

// Parses reports whether expr is a pattern f knows, so one that parses.
// A nil *Facts knows none.
func (f *Facts) Parses(expr string) bool {
	if f == nil {
		return false
	}
	_, ok := f.index[expr]
	return ok
}

// Len is the number of distinct patterns f knows.
func (f *Facts) Len() int {
	if f == nil {
		return 0
	}
	return len(f.pats)
}

// lookup returns expr's facts, or nil.
func (f *Facts) lookup(expr string) *patternFacts {
	if f == nil {
		return nil
	}
	if i, ok := f.index[expr]; ok {
		return &f.pats[i]
	}
	return nil
}

// planFor returns f's key plan when it was made for exactly recs' patterns.
func (f *Facts) planFor(recs []patterns.Record) (keyPlan, bool) {
	if f == nil || f.order == nil || len(f.order) != len(recs) {
		return keyPlan{}, false
	}
	for i, p := range f.order {
		if f.pats[p].expr != recs[i].MessagePattern {
			return keyPlan{}, false
		}
	}
	return f.plan, true
}

// FactsUse says how much of a Compile came from Options.Facts. Records
// the backtracking check refused are in neither count.
type FactsUse struct {
	Known   int  // records kept whose pattern's facts were known
	Derived int  // records kept whose pattern was parsed and analysed
	Plan    bool // the prefilter was built from the known key plan

	prefilter bool // the Matcher has a prefilter
}

// Complete reports that nothing was derived anew: the Matcher's Facts
// would be the ones it was given.
func (u FactsUse) Complete() bool {
	return u.Derived == 0 && (u.Plan || !u.prefilter)
}

// factsOptions names the Options facts depend on: the backtracking check
// and its settings, the corpus the prefilter's keys are priced on, and
// whether there is a prefilter at all.
func factsOptions(o Options) string {
	var b strings.Builder
	b.WriteString("refuse=")
	if r := o.Refuse; r != nil {
		fmt.Fprintf(&b, "probe:%t,timeout:%d,runes:%d", !r.NoProbe, r.ProbeTimeout, r.ProbeRunes)
	} else {
		b.WriteString("none")
	}
	b.WriteString(";corpus=")
	if len(o.Corpus) == 0 {
		b.WriteString("builtin")
	} else {
		h := sha256.New()
		var n [binary.MaxVarintLen64]byte
		for _, s := range o.Corpus {
			h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
			h.Write([]byte(s))
		}
		fmt.Fprintf(&b, "%x", h.Sum(nil))
	}
	b.WriteString(";prefilter=" + strconv.FormatBool(!o.NoPrefilter))
	return b.String()
}

// Facts returns what Compile derived for m's records, to give a later
// Compile of the same build (Options.Facts). They share m's memory.
func (m *Matcher) Facts() *Facts {
	n := m.Len()
	f := &Facts{options: m.factsOptions, index: make(map[string]int32, n)}
	f.pats = make([]patternFacts, 0, n)
	if m.pf != nil {
		f.order = make([]int32, n)
		f.plan = m.pf.plan
	}
	for i := range n {
		expr := m.rec(i).MessagePattern
		p, ok := f.index[expr]
		if !ok {
			p = int32(len(f.pats))
			f.index[expr] = p
			f.pats = append(f.pats, patternFacts{expr: expr, req: m.reqs[i], warn: m.warnings[int32(i)]})
		}
		if f.order != nil {
			f.order[i] = p
		}
	}
	return f
}

// FactsUse says how much of m's Compile came from Options.Facts.
func (m *Matcher) FactsUse() FactsUse { return m.factsUse }
