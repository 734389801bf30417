package matcher

import "slices"

// Raised calls fn once for each record the prefilter raises for text, in
// record order: a keyed record whose key clause holds in text, with the
// literal of that clause found there, and an unkeyed record whose anchor
// occurs in it, with the anchor (every unkeyed record without one, with
// an empty literal). A raised record's other clauses are then checked
// against the text, and a record whose clauses all hold is tried; so
// what a routine line costs a catalog is mostly the records it raises.
// Without a prefilter every record is raised, with an empty literal.
//
// It is for tests and tools that bound that cost (a wide alternation keyed
// on a word of ordinary lines is raised by most of them): it reads the
// text once per raised record more than a search does.
func (m *Matcher) Raised(text string, fn func(rec int, lit Literal)) {
	p := m.pf
	if p == nil {
		for i := range m.hot {
			fn(i, Literal{})
		}
		return
	}
	sc := p.newScratch()
	sc.keyedOnly = true
	p.candidatesFrom(text, sc, p.scan(p, text, 0))
	keyed := make([]int32, len(sc.cands))
	copy(keyed, sc.cands)
	triples := haveIndexTriples
	for i, r := range p.always {
		a := &p.anchors[i]
		switch {
		case a.tclause >= 0 && (triples || a.clause < 0):
			if slices.ContainsFunc(p.reqs[r][a.tclause], func(l Literal) bool { return containsLiteral(text, l) }) {
				keyed = append(keyed, r)
			}
		case a.clause >= 0:
			if containsLiteral(text, a.lit) {
				keyed = append(keyed, r)
			}
		default:
			keyed = append(keyed, r)
		}
	}
	var mark []bool
	if len(keyed) > 0 {
		mark = make([]bool, len(p.reqs))
	}
	for _, r := range keyed {
		mark[r] = true
	}
	for r := range mark {
		if !mark[r] {
			continue
		}
		fn(r, p.raisedBy(text, r))
	}
}

// raisedBy is the literal that raises record r for text: of its key
// clause, the first found in text; an unkeyed record's anchor.
func (p *prefilter) raisedBy(text string, r int) Literal {
	if c := p.keyClause[r]; c >= 0 {
		for _, l := range p.reqs[r][c] {
			if containsLiteral(text, l) {
				return l
			}
		}
		return Literal{}
	}
	for i, a := range p.always {
		if int(a) != r {
			continue
		}
		an := &p.anchors[i]
		switch {
		case an.tclause >= 0 && (haveIndexTriples || an.clause < 0):
			for _, l := range p.reqs[r][an.tclause] {
				if containsLiteral(text, l) {
					return l
				}
			}
		case an.clause >= 0:
			return an.lit
		}
	}
	return Literal{}
}
