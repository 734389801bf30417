package matcher

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// Window lengths of the prefilter's keys, and the stride at which the text
// is probed. Probing every stride-th position (not every byte) is what makes
// the scan cheap; it works because each literal is keyed on stride
// consecutive windows, and an occurrence of the literal anywhere puts exactly
// one of them at a probed position. So a literal of at least
// longWindow+stride-1 bytes is keyed on 8-byte windows, one of at least
// shortWindow+stride-1 bytes on 4-byte windows; a pattern whose literals are
// all shorter has no key and is tried on every text.
const (
	longWindow  = 8
	shortWindow = 4
	stride      = 4
)

// Literals too short for the strided windows (2 to 6 bytes) are keyed on
// one 2-byte window and found by a second pass that probes every byte
// pair of the text. That pass costs about a nanosecond per byte whatever
// the number of literals, while each record left unkeyed costs a
// substring search of every text (about 22 ns on a log line), so it runs
// only when at least minTinyRecords records need it.
const (
	tinyWindow     = 2
	minTinyRecords = 8
)

// keyRef ties a key window to the literal it was cut from.
type keyRef struct {
	rec int32 // record index
	off int32 // byte offset of the window inside lit.Text
	lit Literal
}

// slot is one entry of a windowTable's open-addressing array; refs[start:end]
// are the literals keyed on key. An empty slot has end == 0.
type slot struct {
	key        uint64
	start, end uint32
}

// windowTable finds the literals keyed on a window of one length. A bloom
// bitset (one bit per key, in cache) rejects almost every text position
// before the table is probed.
type windowTable struct {
	bloom      []uint64
	bloomShift uint
	slots      []slot
	slotShift  uint
	refs       []keyRef
}

const hashMul = 0x9E3779B97F4A7C15

// keyedRef is a literal keyed on a window, before the table is built.
type keyedRef struct {
	key uint64
	ref keyRef
}

// newWindowTable builds the table of refs: the refs of one key in record
// order, then by offset (verify marks the same candidates in any order).
// refs is sorted in place.
func newWindowTable(refs []keyedRef) windowTable {
	var t windowTable
	if len(refs) == 0 {
		return t
	}
	// One list sorted rather than a map of lists: a map would allocate a
	// list for each of the tens of thousands of keys.
	slices.SortFunc(refs, func(a, b keyedRef) int {
		return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.ref.rec, b.ref.rec), cmp.Compare(a.ref.off, b.ref.off))
	})
	keys := 1
	for i := 1; i < len(refs); i++ {
		if refs[i].key != refs[i-1].key {
			keys++
		}
	}
	t.refs = make([]keyRef, 0, len(refs))

	// 32 bloom bits per key keep false positives near 3%.
	bloomBits := max(12, bits.Len(uint(keys*32-1)))
	t.bloom = make([]uint64, 1<<bloomBits/64)
	t.bloomShift = uint(64 - bloomBits)
	slotBits := max(4, bits.Len(uint(keys*2-1)))
	t.slots = make([]slot, 1<<slotBits)
	t.slotShift = uint(64 - slotBits)
	mask := uint64(len(t.slots) - 1)

	for j := 0; j < len(refs); {
		k := refs[j].key
		h := k * hashMul
		b := h >> t.bloomShift
		t.bloom[b>>6] |= 1 << (b & 63)
		start := uint32(len(t.refs))
		for ; j < len(refs) && refs[j].key == k; j++ {
			t.refs = append(t.refs, refs[j].ref)
		}
		i := h >> t.slotShift
		for t.slots[i].end != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = slot{key: k, start: start, end: uint32(len(t.refs))}
	}
	return t
}

// probe returns the literals keyed on key, or nil. The caller has checked
// the bloom bit.
func (t *windowTable) probe(key uint64) []keyRef {
	h := key * hashMul
	mask := uint64(len(t.slots) - 1)
	for i := h >> t.slotShift; t.slots[i].end != 0; i = (i + 1) & mask {
		if t.slots[i].key == key {
			return t.refs[t.slots[i].start:t.slots[i].end]
		}
	}
	return nil
}

// foldTable lower-cases ASCII letters and keeps every other byte.
var foldTable = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] = byte(i + 'a' - 'A')
		}
	}
	return t
}()

// fold4 is foldTable applied to each byte of x at once: the bytes from 'A'
// to 'Z' get 0x20 added, the others are kept. Per byte, h is the low seven
// bits; adding 0x3f sets the top bit when h >= 'A', adding 0x25 when
// h > 'Z', neither carries into the next byte, and a byte whose own top
// bit is set is not a letter.
func fold4(x uint32) uint32 {
	h := x & 0x7f7f7f7f
	geA := h + 0x3f3f3f3f
	gtZ := h + 0x25252525
	upper := geA &^ gtZ &^ x & 0x80808080
	return x | upper>>2
}

// windowKey packs the folded bytes of w (at most 8) little-endian, the same
// layout the scanner's rolling register has.
func windowKey(w string) uint64 {
	var k uint64
	for i := len(w) - 1; i >= 0; i-- {
		k = k<<8 | uint64(foldTable[w[i]])
	}
	return k
}

// prefilter finds the records whose required literals all occur in a text.
type prefilter struct {
	long, short windowTable
	tiny        windowTable // 2-byte windows, probed at every byte
	reqs        []Required
	keyClause   []int   // per record: the clause its keys come from, -1 for none
	always      []int32 // records without a key, checked on every text
	plan        keyPlan // what the tables were built from (Facts keep it)
}

// scratch is the per-call state of a search; it lives in the Matcher's pool
// so a search allocates nothing once warm.
type scratch struct {
	mark  []uint32 // mark[rec] == gen: rec already a candidate of this call
	gen   uint32
	cands []int32
	hits  []rankedHit
}

func (p *prefilter) newScratch() *scratch {
	return &scratch{mark: make([]uint32, len(p.reqs))}
}

// candidates appends to sc.cands, in record order, every record whose
// required literals all occur in s.
func (p *prefilter) candidates(s string, sc *scratch) {
	sc.gen++
	if sc.gen == 0 { // wrapped: old marks could alias the new generation
		clear(sc.mark)
		sc.gen = 1
	}
	sc.cands = sc.cands[:0]

	// The bloom tests are written out here rather than in a method: this
	// loop runs for every four bytes of every line.
	sb, ss := p.short.bloom, p.short.bloomShift
	lb, ls := p.long.bloom, p.long.bloomShift
	haveShort, haveLong := len(sb) > 0, len(lb) > 0
	var w uint64
	n := len(s) &^ (stride - 1)
	for i := 0; i < n; i += stride {
		// w holds the last 8 folded bytes, the newest in the top byte;
		// the window ending at byte i+3 is probed. The four bytes are
		// loaded as one word and folded together.
		_ = s[i+3]
		x := uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
		w = w>>32 | uint64(fold4(x))<<32
		if haveShort {
			b := ((w >> 32) * hashMul) >> ss
			if sb[b>>6]&(1<<(b&63)) != 0 {
				if refs := p.short.probe(w >> 32); refs != nil {
					p.verify(refs, s, i+stride-shortWindow, sc)
				}
			}
		}
		if haveLong {
			b := (w * hashMul) >> ls
			if lb[b>>6]&(1<<(b&63)) != 0 {
				if refs := p.long.probe(w); refs != nil {
					p.verify(refs, s, i+stride-longWindow, sc)
				}
			}
		}
	}

	if tb := p.tiny.bloom; len(tb) > 0 {
		ts := p.tiny.bloomShift
		for i := 1; i < len(s); i++ {
			k := uint64(foldTable[s[i-1]]) | uint64(foldTable[s[i]])<<8
			b := (k * hashMul) >> ts
			if tb[b>>6]&(1<<(b&63)) != 0 {
				if refs := p.tiny.probe(k); refs != nil {
					p.verify(refs, s, i-1, sc)
				}
			}
		}
	}

	keyed := len(sc.cands)
	sc.cands = append(sc.cands, p.always...)
	// Keyed candidates are known to hold their key clause; check the rest.
	kept := sc.cands[:0]
	for i, r := range sc.cands {
		skip := -1
		if i < keyed {
			skip = p.keyClause[r]
		}
		if holdsClauses(s, p.reqs[r], skip) {
			kept = append(kept, r)
		}
	}
	sc.cands = kept
	slices.Sort(sc.cands)
}

// verify marks the records whose keyed literal really occurs around the
// window that starts at pos.
func (p *prefilter) verify(refs []keyRef, s string, pos int, sc *scratch) {
	for i := range refs {
		ref := &refs[i]
		if sc.mark[ref.rec] == sc.gen {
			continue
		}
		start := pos - int(ref.off)
		end := start + len(ref.lit.Text)
		if start < 0 || end > len(s) || !literalAt(s[start:end], ref.lit) {
			continue
		}
		sc.mark[ref.rec] = sc.gen
		sc.cands = append(sc.cands, ref.rec)
	}
}

// holdsClauses reports whether s satisfies every clause of req but skip.
func holdsClauses(s string, req Required, skip int) bool {
	for i, c := range req {
		if i == skip {
			continue
		}
		if !slices.ContainsFunc(c, func(l Literal) bool { return containsLiteral(s, l) }) {
			return false
		}
	}
	return true
}

func literalAt(t string, l Literal) bool {
	if !l.Fold {
		return t == l.Text
	}
	for i := 0; i < len(t); i++ {
		if foldTable[t[i]] != l.Text[i] {
			return false
		}
	}
	return true
}

func containsLiteral(s string, l Literal) bool {
	if !l.Fold {
		return strings.Contains(s, l.Text)
	}
	if l.Text == "" {
		return true
	}
	first := l.Text[0]
	for i := 0; i+len(l.Text) <= len(s); i++ {
		if foldTable[s[i]] == first && literalAt(s[i:i+len(l.Text)], l) {
			return true
		}
	}
	return false
}

func buildPrefilter(reqs []Required, corpus windowCosts) *prefilter {
	return assemblePrefilter(reqs, chooseKeys(reqs, corpus))
}

// keyPlan is where the prefilter keys each record: the choices the window
// costs led to. The tables are built from it alone (assemblePrefilter), so
// a plan kept in Facts rebuilds the very same prefilter without pricing a
// window again.
type keyPlan struct {
	choice []keyChoice // per record
	offs   []int32     // offs[choice.at+i]: the window offset of literal i of the clause
}

// keyChoice is one record's key: the clause its keys come from (-1 for
// none: the record is checked on every text), whether they are tiny
// windows (one per literal, probed at every byte) or strided ones (stride
// consecutive windows per literal), and where its offsets start in
// keyPlan.offs.
type keyChoice struct {
	clause int32
	tiny   bool
	at     int32
}

// chooseKeys keys each record on its cheapest keyable clause, each literal
// on its cheapest run of stride windows; the records left without one go to
// keyTiny.
func chooseKeys(reqs []Required, corpus windowCosts) keyPlan {
	plan := keyPlan{choice: make([]keyChoice, len(reqs)), offs: make([]int32, 0, len(reqs))}
	r := newRarity(corpus, reqs)
	lit := 0 // literal occurrences before this clause's, in catalog order
	// The chosen window offset of each literal of each keyable clause of
	// the record, clause after clause; at[ci] is where clause ci's begin.
	// Both are reused from record to record.
	var offs, at []int
	var unkeyed []int32
	for rec, req := range reqs {
		best, bestCost := -1, 0
		offs, at = offs[:0], at[:0]
		for _, c := range req {
			at = append(at, len(offs))
			cost := 0
			first := lit
			lit += len(c)
			for li, l := range c {
				if keyWindow(l) == 0 {
					offs, cost = offs[:at[len(at)-1]], -1
					break
				}
				off, lc := r.bestRun(l, first+li)
				offs = append(offs, off)
				cost += lc
			}
			if cost >= 0 && (best < 0 || cost < bestCost) {
				best, bestCost = len(at)-1, cost
			}
		}
		if best < 0 {
			plan.choice[rec] = keyChoice{clause: -1}
			unkeyed = append(unkeyed, int32(rec))
			continue
		}
		plan.choice[rec] = keyChoice{clause: int32(best), at: int32(len(plan.offs))}
		for li := range req[best] {
			plan.offs = append(plan.offs, int32(offs[at[best]+li]))
		}
	}
	plan.keyTiny(r, reqs, unkeyed)
	return plan
}

// keyTiny keys the unkeyed records on tiny windows, when at least
// minTinyRecords of them can be: on the cheapest clause whose literals are
// all at least tinyWindow bytes, each literal on its cheapest window. The
// others stay unkeyed.
func (plan *keyPlan) keyTiny(r *rarity, reqs []Required, unkeyed []int32) {
	type keyed struct {
		rec, clause int
	}
	var tiny []keyed
	for _, rec := range unkeyed {
		best, bestCost := -1, 0
		for ci, c := range reqs[rec] {
			cost := 0
			for _, l := range c {
				if len(l.Text) < tinyWindow {
					cost = -1
					break
				}
				_, lc := r.bestTiny(l)
				cost += lc
			}
			if cost >= 0 && (best < 0 || cost < bestCost) {
				best, bestCost = ci, cost
			}
		}
		if best >= 0 {
			tiny = append(tiny, keyed{int(rec), best})
		}
	}
	if len(tiny) < minTinyRecords {
		return
	}
	for _, t := range tiny {
		plan.choice[t.rec] = keyChoice{clause: int32(t.clause), tiny: true, at: int32(len(plan.offs))}
		for _, l := range reqs[t.rec][t.clause] {
			off, _ := r.bestTiny(l)
			plan.offs = append(plan.offs, int32(off))
		}
	}
}

// assemblePrefilter builds the prefilter plan describes for reqs.
func assemblePrefilter(reqs []Required, plan keyPlan) *prefilter {
	p := &prefilter{reqs: reqs, keyClause: make([]int, len(reqs)), plan: plan}
	var refs [3][]keyedRef
	// Most literals are long enough for the long windows (error messages
	// are): a key a stride for each record is the usual size of that list.
	refs[1] = make([]keyedRef, 0, stride*len(reqs))
	for rec, c := range plan.choice {
		p.keyClause[rec] = int(c.clause)
		if c.clause < 0 {
			p.always = append(p.always, int32(rec))
			continue
		}
		for li, l := range reqs[rec][c.clause] {
			off := int(plan.offs[int(c.at)+li])
			if c.tiny {
				k := windowKey(l.Text[off : off+tinyWindow])
				refs[2] = append(refs[2], keyedRef{k, keyRef{rec: int32(rec), off: int32(off), lit: l}})
				continue
			}
			wlen := keyWindow(l)
			m := &refs[lenIndex(wlen)]
			for j := range stride {
				k := windowKey(l.Text[off+j : off+j+wlen])
				*m = append(*m, keyedRef{k, keyRef{rec: int32(rec), off: int32(off + j), lit: l}})
			}
		}
	}
	p.short = newWindowTable(refs[0])
	p.long = newWindowTable(refs[1])
	p.tiny = newWindowTable(refs[2])
	return p
}

// check reports the first choice of plan that does not fit reqs: a clause
// or an offset out of range, a window the literal is too short for. A plan
// that passes builds a prefilter that finds every record whose clauses
// hold, as a freshly chosen one does.
func (plan keyPlan) check(reqs []Required) error {
	if len(plan.choice) != len(reqs) {
		return fmt.Errorf("key plan: %d records, catalog has %d", len(plan.choice), len(reqs))
	}
	for rec, c := range plan.choice {
		if c.clause < 0 {
			if c.clause != -1 || c.tiny {
				return fmt.Errorf("key plan: record %d: bad unkeyed choice", rec)
			}
			continue
		}
		if int(c.clause) >= len(reqs[rec]) {
			return fmt.Errorf("key plan: record %d: clause %d of %d", rec, c.clause, len(reqs[rec]))
		}
		lits := reqs[rec][c.clause]
		if c.at < 0 || int(c.at)+len(lits) > len(plan.offs) {
			return fmt.Errorf("key plan: record %d: offsets out of range", rec)
		}
		for li, l := range lits {
			off := int(plan.offs[int(c.at)+li])
			span := tinyWindow // the bytes the literal's windows cover
			if !c.tiny {
				wlen := keyWindow(l)
				if wlen == 0 {
					return fmt.Errorf("key plan: record %d: literal %d too short for a strided key", rec, li)
				}
				span = wlen + stride - 1
			}
			if off < 0 || off+span > len(l.Text) {
				return fmt.Errorf("key plan: record %d: literal %d: window at %d of %d bytes", rec, li, off, len(l.Text))
			}
		}
	}
	return nil
}
