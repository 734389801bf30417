package matcher

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"sync/atomic"
	"unsafe"
)

// Window lengths of the prefilter's keys, and the strides at which the text
// is probed. Probing every stride-th position (not every byte) is what makes
// the scan cheap; it works because each literal is keyed on as many
// consecutive windows as the stride, and an occurrence of the literal
// anywhere puts exactly one of them at a probed position. The text is read
// eight bytes at a time from its start, and each block of eight is probed
// as one 8-byte window and as its upper 4-byte half (stride 8), and as its
// lower half too (stride 4) when some literal needs it:
//
//   - a literal of at least longWindow+longStride-1 (15) bytes is keyed on
//     eight 8-byte windows, probed every eighth byte;
//   - one of at least shortWindow+longStride-1 (11) bytes on eight 4-byte
//     windows, probed every eighth byte (the upper halves);
//   - one of at least shortWindow+shortStride-1 (7) bytes on four 4-byte
//     windows, probed every fourth byte (both halves, and the four bytes
//     after the last whole block).
//
// A pattern whose literals are all shorter has no strided key.
const (
	longWindow  = 8
	shortWindow = 4
	longStride  = 8
	shortStride = 4
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

// keyRef ties a key window to the literal it was cut from: 20 bytes, for
// the tens of thousands of windows of a large catalog.
type keyRef struct {
	rec int32 // record index
	off int32 // byte offset of the window inside the literal's text
	lit int32 // the literal, an index into prefilter.lits
	// check is four bytes of the literal beside its window (setChecks),
	// compared before the literal is read; zero in the tiny table. It
	// lies beside the ref rather than in an array of its own, so that a
	// probe whose check passes reads one cache line for both: an error
	// line has about three such probes, each a cache miss.
	check refCheck
}

// slot is one entry of a windowTable's open-addressing array; refs[start:end]
// are the literals keyed on key. An empty slot has end == 0.
type slot struct {
	key        uint64
	start, end uint32
}

// windowTable finds the literals keyed on a window of one length. A bloom
// bitset (one bit per key, in cache) rejects almost every text position
// before the table is probed: the tiny table has its own, the strided ones
// share one (prefilter.strided).
type windowTable struct {
	bloom     bloom
	slots     []slot
	slotShift uint
	refs      []keyRef
}

// refCheck is four bytes of a keyed literal, folded with keyFold, and
// where they lie from the key window's start. Most windows a probe finds
// in ordinary text belong to literals that are not there: comparing four
// bytes of the text, which is in cache, rejects them without reading the
// literal or the candidate marks, which at tens of thousands of records
// are cache misses.
type refCheck struct {
	word uint32
	rel  int32
}

// setChecks fills the checks of the refs of a strided table of windows of
// wlen bytes: the four bytes before the window when the literal has them,
// else the four after it, else its last four; unless other literals keyed
// on the same window have those bytes there too, and four other bytes of
// the literal tell it from more of them. At 50,000 records the variants
// of one message share words: an error line read 38.5 refs a line and 8.8
// passed their checks, 3.5 of them literals that were there.
func (t *windowTable) setChecks(lits []Literal, wlen int) {
	for _, sl := range t.slots {
		if sl.end == 0 {
			continue
		}
		group := t.refs[sl.start:sl.end]
		for i := range group {
			group[i].check = chooseCheck(lits, group, i, wlen)
		}
	}
}

// maxCheckGroup bounds the refs of one key whose checks are chosen
// against each other; a larger group keeps the plain choice.
const maxCheckGroup = 64

// chooseCheck is the check of group[i], one of the refs of a key.
func chooseCheck(lits []Literal, group []keyRef, i, wlen int) refCheck {
	text := lits[group[i].lit].Text
	off := int(group[i].off)
	at := len(text) - 4
	switch {
	case off >= 4:
		at = off - 4
	case off+wlen+4 <= len(text):
		at = off + wlen
	}
	if len(group) > 1 && len(group) <= maxCheckGroup {
		// Four bytes most other refs of the key do not have at the same
		// place from the window; the plain choice on a tie.
		same := func(at int) int {
			w, n := windowKey(text[at:at+4]), 0
			for j := range group {
				other := lits[group[j].lit].Text
				o := int(group[j].off) + at - off
				if j != i && o >= 0 && o+4 <= len(other) && windowKey(other[o:o+4]) == w {
					n++
				}
			}
			return n
		}
		best := same(at)
		for a := 0; a+4 <= len(text) && best > 0; a++ {
			if n := same(a); n < best {
				at, best = a, n
			}
		}
	}
	return refCheck{word: uint32(windowKey(text[at : at+4])), rel: int32(at - off)}
}

// bloom is a bitset of one bit per key, chosen by the top bits of the key's
// hash (key * hashMul).
type bloom struct {
	bits  []uint64
	shift uint
}

// newBloom sizes a bloom for n keys: 32 bits per key keep false positives
// near 3%.
func newBloom(n int) bloom {
	b := max(12, bits.Len(uint(n*32-1)))
	return bloom{bits: make([]uint64, 1<<b/64), shift: uint(64 - b)}
}

// A strided bloom of 2^fixedBloomLog bits is scanned by loops whose shift
// is a constant and whose word index is in range by construction: no
// shift by a variable count (and the register shuffling it needs) and no
// bounds check, about a fifth of the instructions of a block. The strided
// bloom of a catalog of minFixedBloomKeys keys or more is made that size
// (at least 32 bits a key up to 65,536 keys; 256 KB), so that catalogs of
// about fifty records and more take those loops; a larger catalog gets a
// larger bloom and the general loops. The embedded catalog (about 1,500
// keys) is one: in a bloom of 256 KB rather than 8 KB its keys also wake
// far fewer table probes, which pays for the bloom's size in cache (the
// scan of a 3M-line log took 5% less CPU time, its instructions a line 7%
// fewer).
const (
	fixedBloomLog     = 21
	minFixedBloomKeys = 1 << 9
)

// fixedBloom is the bitset of a bloom of 2^fixedBloomLog bits.
type fixedBloom = [1 << (fixedBloomLog - 6)]uint64

// newStridedBloom sizes the strided bloom for n keys (see fixedBloomLog).
func newStridedBloom(n int) bloom {
	b := newBloom(n)
	if n >= minFixedBloomKeys && len(b.bits) < len(fixedBloom{}) {
		b = bloom{bits: make([]uint64, len(fixedBloom{})), shift: 64 - fixedBloomLog}
	}
	return b
}

// fixed reports whether b has the size of a fixedBloom.
func (b *bloom) fixed() bool { return len(b.bits) == len(fixedBloom{}) }

// add sets the bit of the key whose hash is h.
func (b *bloom) add(h uint64) {
	i := h >> b.shift
	b.bits[i>>6] |= 1 << (i & 63)
}

const hashMul = 0x9E3779B97F4A7C15

// lowTag marks the keys of the lower 4-byte halves in the strided bloom, so
// that they set other bits than the same four bytes as an upper half do.
// (An 8-byte window whose upper half is 01 00 00 00 has the same hash as
// a tagged key: that only costs a table probe.)
const lowTag = 1 << 32

// lowHash is the strided bloom's hash of the lower 4-byte half of a block
// w, or of a key of the low table.
func lowHash(w uint64) uint64 { return (uint64(uint32(w)) | lowTag) * hashMul }

// keyedRef is a literal keyed on a window, before the table is built.
type keyedRef struct {
	key uint64
	ref keyRef
}

// newWindowTable builds the table of refs: the refs of one key in the
// order refs lists them (verify marks the same candidates in any order).
func newWindowTable(refs []keyedRef, withBloom bool) windowTable {
	var t windowTable
	if len(refs) == 0 {
		return t
	}
	// One list sorted rather than a map of lists: a map would allocate a
	// list for each of the tens of thousands of keys. What is sorted is
	// each key's hash with its ref's index, 16 bytes rather than a whole
	// ref. The hash is a bijection of the key, so it groups the refs as
	// the key would, and in the order of the keys' home slots: the slots
	// are then filled from first to last rather than at random, which at
	// a large catalog's megabytes of slots is most of the table's cost.
	order := make([]keyIndex, len(refs))
	for i := range refs {
		order[i] = keyIndex{refs[i].key * hashMul, uint64(i)}
	}
	order = sortKeyIndexes(order)
	keys := 1
	for i := 1; i < len(order); i++ {
		if order[i].key != order[i-1].key {
			keys++
		}
	}
	t.refs = make([]keyRef, 0, len(refs))

	if withBloom {
		t.bloom = newBloom(keys)
	}
	// At least half again as many slots as keys (a load of at most two
	// thirds): a probe that misses, after a bloom false positive, reads
	// a few slots.
	slotBits := max(4, bits.Len(uint(keys+keys/2-1)))
	t.slots = make([]slot, 1<<slotBits)
	t.slotShift = uint(64 - slotBits)
	mask := uint64(len(t.slots) - 1)

	for j := 0; j < len(order); {
		h := order[j].key
		k := refs[order[j].i].key
		if withBloom {
			t.bloom.add(h)
		}
		start := uint32(len(t.refs))
		for ; j < len(order) && order[j].key == h; j++ {
			t.refs = append(t.refs, refs[order[j].i].ref)
		}
		i := h >> t.slotShift
		for t.slots[i].end != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = slot{key: k, start: start, end: uint32(len(t.refs))}
	}
	return t
}

// keyIndex is a key's hash and the index of its ref, as newWindowTable
// sorts them.
type keyIndex struct {
	key, i uint64
}

// sortKeyIndexes sorts order by key, and by index within a key, and
// returns the sorted slice (order's memory or another's). order is in
// index order, so a stable sort by key alone gives that: a least
// significant digit radix sort, 11 bits a pass, which at a large
// catalog's hundreds of thousands of refs takes a fraction of a
// comparison sort's time. Small lists are sorted in place.
func sortKeyIndexes(order []keyIndex) []keyIndex {
	const bits, passes = 11, 6
	if len(order) < 1<<12 {
		slices.SortFunc(order, func(a, b keyIndex) int {
			return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.i, b.i))
		})
		return order
	}
	var counts [passes][1 << bits]int
	for _, o := range order {
		for p := range passes {
			counts[p][o.key>>(p*bits)&(1<<bits-1)]++
		}
	}
	tmp := make([]keyIndex, len(order))
	src, dst := order, tmp
	for p := range passes {
		c := &counts[p]
		if c[src[0].key>>(p*bits)&(1<<bits-1)] == len(src) {
			continue // every key has this digit: the pass would move nothing
		}
		sum := 0
		for d := range c {
			sum, c[d] = sum+c[d], sum
		}
		for _, o := range src {
			d := o.key >> (p * bits) & (1<<bits - 1)
			dst[c[d]] = o
			c[d]++
		}
		src, dst = dst, src
	}
	return src
}

// probe returns the literals keyed on key, or nil. The caller has checked
// the bloom bit.
func (t *windowTable) probe(key uint64) []keyRef {
	if len(t.slots) == 0 {
		return nil // the bit was another table's
	}
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

// keyFold is what the keys fold a window's bytes with: every byte gets its
// 0x20 bit set. Upper-case ASCII letters become lower-case, as foldTable
// makes them, so a text folds to the key of every literal it holds, with
// or without case; other bytes fold together too ('[' with '{', '\r' with
// '-'), which only wakes a few more probes, each of which compares the
// whole literal. One OR folds eight bytes.
const keyFold = 0x2020202020202020

// windowKey packs the bytes of w (at most 8), folded with keyFold,
// little-endian, as the scanner reads a block of the text.
func windowKey(w string) uint64 {
	var k uint64
	for i := len(w) - 1; i >= 0; i-- {
		k = k<<8 | uint64(w[i]|keyFold&0xff)
	}
	return k
}

// prefilter finds the records whose required literals all occur in a text.
type prefilter struct {
	long  windowTable // 8-byte windows, probed every eighth byte
	short windowTable // every 4-byte key, probed at the upper half of each block of eight
	low   windowTable // the 4-byte keys of stride 4, probed at the lower half too
	tiny  windowTable // 2-byte windows, probed at every byte
	// strided is the bloom of the long, short and low keys (the low ones
	// tagged with lowTag, by lowHash): one bitset keeps the scan's
	// registers few. With split keys (setSplit) it holds the long keys
	// only, and the short and low keys have small blooms of their own.
	strided bloom
	// shortB and lowB are the blooms candidates tests the short and low
	// keys with: strided's bits, or the small ones of split keys.
	shortB, lowB bloom
	// blocked, when not nil, is the bloom of the long keys instead of
	// strided: a catalog with more long keys than the fixed bloom holds
	// (setSplit).
	blocked *blockedBloom
	// ext confirms the halves' passes in the blocked loop (confirm.go),
	// which must have it.
	ext *extBloom
	// longCtx confirms the long keys' passes in the blocked loop
	// (confirm.go), which must have it.
	longCtx *blockedBloom
	// scan is the loop that tests strided's blocks: one of the four
	// below, chosen with the bloom (scanNone without one).
	scan      scanFunc
	hasLow    bool
	lits      []Literal // the keyed literals, which keyRef.lit indexes
	reqs      []Required
	keyClause []int    // per record: the clause its keys come from, -1 for none
	always    []int32  // records without a key, checked on every text
	anchors   []anchor // per always record: the literal searched first (anchorAlways)
	// anchorSets are the anchors searched several at a time when
	// haveIndexTriples (anchorAlways); allTriples: every unkeyed record
	// is in one.
	anchorSets []anchorSet
	allTriples bool
	plan       keyPlan // what the tables were built from (Facts keep it)
	// progClauses[r]: record r's program is a litProg, which searches
	// for every literal of its clauses itself (in order, on one line),
	// so a keyed candidate's other clauses are not searched for first
	// (Matcher.program sets it when it keeps the litProg). On an error
	// line nearly every keyed candidate holds them, and both searches
	// read the text.
	progClauses []atomic.Bool
}

// scratch is the per-call state of a search; it lives in the Matcher's pool
// so a search allocates nothing once warm.
type scratch struct {
	mark  []uint32 // mark[rec] == gen: rec already a candidate of this call
	gen   uint32
	cands []int32
	hits  []rankedHit
	order []int32 // the places of hits, best first (Matcher.ranked)
	// pad holds a text shorter than minTriplesLen for the anchors'
	// search by triples, padded with zero bytes.
	pad [minTriplesLen]byte
	// probes are the windows candidatesFrom found in the bloom, waiting
	// to be looked up a batch at a time (probeBatch); touched keeps that
	// batch's loads of refs and literals.
	probes  [probeBatchLen]pendingProbe
	touched int32
	// keyedOnly stops candidatesFrom once the keyed records whose key
	// clause holds are in cands, in the order their keys were found
	// (Matcher.Raised's scratch).
	keyedOnly bool
	// find is the memos of a litProg's find (litProg.findIn), which sets
	// what it reads.
	find findState
}

func (p *prefilter) newScratch() *scratch {
	return &scratch{mark: make([]uint32, len(p.reqs))}
}

// candidates appends to sc.cands, in record order, every record whose
// required literals all occur in s.
func (p *prefilter) candidates(s string, sc *scratch) { p.candidatesFrom(s, sc, p.scan(p, s, 0)) }

// candidatesFrom is candidates given what p.scan returns for s at 0, or
// a later block before which no block holds a key of a strided table
// (shapes.go's keyedFrom).
func (p *prefilter) candidatesFrom(s string, sc *scratch, first int) {
	sc.gen++
	if sc.gen == 0 { // wrapped: old marks could alias the new generation
		clear(sc.mark)
		sc.gen = 1
	}
	sc.cands = sc.cands[:0]

	// The blocks of eight bytes with a window in the bloom (a few per line)
	// are found by scan, then probed a batch at a time (probeBatch). scan
	// says which test passed first (passLow, passHigh, passLong added to
	// the block's offset): the tests before it failed, and it needs no
	// second look.
	n := len(s) &^ (longStride - 1)
	np := 0 // probes waiting in sc.probes
	for r := first; r < n; r = p.scan(p, s, r&^(longStride-1)+longStride) {
		i, first := r&^(longStride-1), r&(longStride-1)
		w := blockKey(s, i)
		if np > len(sc.probes)-3 {
			p.probeBatch(sc.probes[:np], s, sc)
			np = 0
		}
		if first == passLow {
			sc.probes[np] = pendingProbe{k: w & 0xffffffff, pos: i, table: tableLow}
			np++
		}
		if first == passHigh || first == passLow && p.shortB.has((w>>32)*hashMul) {
			sc.probes[np] = pendingProbe{k: w >> 32, pos: i + shortWindow, table: tableShort}
			np++
		}
		if first == passLong || p.longMay(w) {
			sc.probes[np] = pendingProbe{k: w, pos: i, table: tableLong}
			np++
		}
	}
	if p.hasLow && len(s)-n >= shortWindow {
		// The lower half of a last block that is not whole: a stride-4
		// key window can end there.
		if k := windowKey(s[n : n+shortWindow]); p.lowB.has(lowHash(k)) {
			if np == len(sc.probes) {
				p.probeBatch(sc.probes[:np], s, sc)
				np = 0
			}
			sc.probes[np] = pendingProbe{k: k, pos: n, table: tableLow}
			np++
		}
	}
	switch {
	case np == 1:
		// Most lines with a window in the bloom have one: nothing to
		// overlap.
		b := &sc.probes[0]
		p.probeAt(p.table(b.table), b.k, s, b.pos, sc)
	case np > 1:
		p.probeBatch(sc.probes[:np], s, sc)
	}

	if tb := p.tiny.bloom.bits; len(tb) > 0 {
		ts := p.tiny.bloom.shift
		for i := 1; i < len(s); i++ {
			k := uint64(s[i-1]|keyFold&0xff) | uint64(s[i]|keyFold&0xff)<<8
			b := (k * hashMul) >> ts
			if tb[b>>6]&(1<<(b&63)) != 0 {
				if refs := p.tiny.probe(k); refs != nil {
					p.verify(refs, s, i-1, sc)
				}
			}
		}
	}

	keyed := len(sc.cands)
	if keyed == 0 && len(p.always) == 0 || sc.keyedOnly {
		return // most texts: nothing to check or sort
	}
	// Keyed candidates are known to hold their key clause; check the rest.
	kept := sc.cands[:0]
	for _, r := range sc.cands[:keyed] {
		if p.progClauses[r].Load() || holdsClauses(s, p.reqs[r], p.keyClause[r]) {
			kept = append(kept, r)
		}
	}
	// An unkeyed record is searched for its anchor first, which most
	// texts lack, then for its other clauses. Records searched by three
	// bytes (anchorSets) are marked where they hold them: an unkeyed
	// record is never marked as a keyed candidate.
	triples := haveIndexTriples && len(p.anchorSets) > 0
	always := p.always
	if triples {
		// A text shorter than the search reads is searched padded with
		// zero bytes (sc.pad), which no triple holds; the literals are
		// compared within the text alone.
		t := s
		if len(s) < minTriplesLen {
			copy(sc.pad[:], s)
			clear(sc.pad[len(s):])
			t = unsafe.String(&sc.pad[0], len(sc.pad))
		}
		found := 0
		for i := range p.anchorSets {
			found += p.markAnchored(&p.anchorSets[i], t, len(s), sc)
		}
		if found == 0 && p.allTriples {
			always = nil // most texts: no unkeyed record holds its three bytes
		}
	}
	for i, r := range always {
		a := &p.anchors[i]
		skip := a.clause
		switch {
		case triples && a.tclause >= 0:
			if sc.mark[r] != sc.gen {
				continue
			}
			skip = a.tclause
		case a.clause >= 0 && !a.holds(s):
			continue
		case a.clause < 0 && a.tclause >= 0:
			if !a.coverHolds(s) {
				continue
			}
			skip = a.tclause
		}
		if holdsClauses(s, p.reqs[r], skip) {
			kept = append(kept, r)
		}
	}
	sc.cands = kept
	if len(kept) > 1 {
		slices.Sort(sc.cands)
	}
}

// blockKey is windowKey(s[i:i+8]): the eight bytes at i loaded as one
// word and folded at once.
func blockKey(s string, i int) uint64 {
	t := s[i : i+longStride]
	return (uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56) | keyFold
}

// A scanFunc returns the first block of eight bytes of s at or after i (a
// multiple of eight) one of whose windows may be a key of the strided
// bloom b: the lower 4-byte half (for the loops that test it), the upper
// half, or the 8-byte window, tested in that order. It returns the block's
// offset plus passLow, passHigh or passLong, the first test that passed
// (the offset is a multiple of eight, so the sum is below the next
// block's), or len(s) when no block passes. The prefilter chooses its loop
// with its bloom (prefilter.setStrided), once, rather than on every call.
type scanFunc func(p *prefilter, s string, i int) int

// What a scanFunc adds to the offset of the block it returns.
const (
	passLow  = 0 // the lower half passed
	passHigh = 1 // the upper half passed, the lower one failed or was not tested
	passLong = 2 // only the 8-byte window passed
)

// scanNone is the scanFunc of a prefilter without strided keys.
func scanNone(_ *prefilter, s string, _ int) int { return len(s) }

// The fixed loops read two blocks a turn: one slice of sixteen bytes (one
// bounds check) and one loop test for both. A last odd block is tested by
// a second loop of one turn at most.

// scanHighFixed is scanHigh for a bloom of 2^fixedBloomLog bits.
//
//go:noinline
func scanHighFixed(p *prefilter, s string, i int) int {
	b := &p.strided
	bl := (*fixedBloom)(b.bits)
	for ; i+2*longStride <= len(s); i += 2 * longStride {
		t := s[i : i+2*longStride]
		w, x := blockKey(t, 0), blockKey(t, longStride)
		if h := ((w >> 32) * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passHigh
		}
		if h := (w * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passLong
		}
		if h := ((x >> 32) * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + longStride + passHigh
		}
		if h := (x * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + longStride + passLong
		}
	}
	for ; i+longStride <= len(s); i += longStride {
		w := blockKey(s, i)
		if h := ((w >> 32) * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passHigh
		}
		if h := (w * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passLong
		}
	}
	return len(s)
}

// scanLowFixed is scanLow for a bloom of 2^fixedBloomLog bits. It reads
// four blocks a turn (one slice of 32 bytes, one bounds check, one loop
// test and one load of each constant for the four), then two, then one.
//
//go:noinline
func scanLowFixed(p *prefilter, s string, i int) int {
	b := &p.strided
	bl := (*fixedBloom)(b.bits)
	for ; i+4*longStride <= len(s); i += 4 * longStride {
		t := s[i : i+4*longStride]
		w, x := blockKey(t, 0), blockKey(t, longStride)
		if h := lowHash(w) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passLow
		}
		if h := ((w >> 32) * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passHigh
		}
		if h := (w * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passLong
		}
		if h := lowHash(x) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + longStride + passLow
		}
		if h := ((x >> 32) * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + longStride + passHigh
		}
		if h := (x * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + longStride + passLong
		}
		w, x = blockKey(t, 2*longStride), blockKey(t, 3*longStride)
		if h := lowHash(w) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + 2*longStride + passLow
		}
		if h := ((w >> 32) * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + 2*longStride + passHigh
		}
		if h := (w * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + 2*longStride + passLong
		}
		if h := lowHash(x) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + 3*longStride + passLow
		}
		if h := ((x >> 32) * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + 3*longStride + passHigh
		}
		if h := (x * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + 3*longStride + passLong
		}
	}
	if i+2*longStride <= len(s) {
		t := s[i : i+2*longStride]
		w, x := blockKey(t, 0), blockKey(t, longStride)
		if h := lowHash(w) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passLow
		}
		if h := ((w >> 32) * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passHigh
		}
		if h := (w * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passLong
		}
		if h := lowHash(x) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + longStride + passLow
		}
		if h := ((x >> 32) * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + longStride + passHigh
		}
		if h := (x * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + longStride + passLong
		}
		i += 2 * longStride
	}
	if i+longStride <= len(s) {
		w := blockKey(s, i)
		if h := lowHash(w) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passLow
		}
		if h := ((w >> 32) * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passHigh
		}
		if h := (w * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passLong
		}
	}
	return len(s)
}

// scanLowSplit is scanLowFixed for split keys: the lower half is tested in
// the low keys' bloom, the upper half in the short keys', the 8-byte
// window in the fixed bloom of the long keys. It reads four blocks a turn,
// then two, then one, as scanLowFixed does.
//
//go:noinline
func scanLowSplit(p *prefilter, s string, i int) int {
	bl := (*fixedBloom)(p.strided.bits)
	sb := (*shortBloom)(p.shortB.bits)
	lb := (*lowBloom)(p.lowB.bits)
	for ; i+4*longStride <= len(s); i += 4 * longStride {
		t := s[i : i+4*longStride]
		w, x := blockKey(t, 0), blockKey(t, longStride)
		if h := lowHash(w) >> (64 - lowBloomLog); lb[h>>6]&(1<<(h&63)) != 0 {
			return i + passLow
		}
		if h := ((w >> 32) * hashMul) >> (64 - shortBloomLog); sb[h>>6]&(1<<(h&63)) != 0 {
			return i + passHigh
		}
		if h := (w * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passLong
		}
		if h := lowHash(x) >> (64 - lowBloomLog); lb[h>>6]&(1<<(h&63)) != 0 {
			return i + longStride + passLow
		}
		if h := ((x >> 32) * hashMul) >> (64 - shortBloomLog); sb[h>>6]&(1<<(h&63)) != 0 {
			return i + longStride + passHigh
		}
		if h := (x * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + longStride + passLong
		}
		w, x = blockKey(t, 2*longStride), blockKey(t, 3*longStride)
		if h := lowHash(w) >> (64 - lowBloomLog); lb[h>>6]&(1<<(h&63)) != 0 {
			return i + 2*longStride + passLow
		}
		if h := ((w >> 32) * hashMul) >> (64 - shortBloomLog); sb[h>>6]&(1<<(h&63)) != 0 {
			return i + 2*longStride + passHigh
		}
		if h := (w * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + 2*longStride + passLong
		}
		if h := lowHash(x) >> (64 - lowBloomLog); lb[h>>6]&(1<<(h&63)) != 0 {
			return i + 3*longStride + passLow
		}
		if h := ((x >> 32) * hashMul) >> (64 - shortBloomLog); sb[h>>6]&(1<<(h&63)) != 0 {
			return i + 3*longStride + passHigh
		}
		if h := (x * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + 3*longStride + passLong
		}
	}
	if i+2*longStride <= len(s) {
		t := s[i : i+2*longStride]
		w, x := blockKey(t, 0), blockKey(t, longStride)
		if h := lowHash(w) >> (64 - lowBloomLog); lb[h>>6]&(1<<(h&63)) != 0 {
			return i + passLow
		}
		if h := ((w >> 32) * hashMul) >> (64 - shortBloomLog); sb[h>>6]&(1<<(h&63)) != 0 {
			return i + passHigh
		}
		if h := (w * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passLong
		}
		if h := lowHash(x) >> (64 - lowBloomLog); lb[h>>6]&(1<<(h&63)) != 0 {
			return i + longStride + passLow
		}
		if h := ((x >> 32) * hashMul) >> (64 - shortBloomLog); sb[h>>6]&(1<<(h&63)) != 0 {
			return i + longStride + passHigh
		}
		if h := (x * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + longStride + passLong
		}
		i += 2 * longStride
	}
	if i+longStride <= len(s) {
		w := blockKey(s, i)
		if h := lowHash(w) >> (64 - lowBloomLog); lb[h>>6]&(1<<(h&63)) != 0 {
			return i + passLow
		}
		if h := ((w >> 32) * hashMul) >> (64 - shortBloomLog); sb[h>>6]&(1<<(h&63)) != 0 {
			return i + passHigh
		}
		if h := (w * hashMul) >> (64 - fixedBloomLog); bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passLong
		}
	}
	return len(s)
}

// scanLowSplitLarge is scanLowSplit for a bloom of long keys larger than
// the fixed one: its shift is a variable, as in scanLow.
//
//go:noinline
func scanLowSplitLarge(p *prefilter, s string, i int) int {
	bl, bs := p.strided.bits, p.strided.shift&63
	sb := (*shortBloom)(p.shortB.bits)
	lb := (*lowBloom)(p.lowB.bits)
	for ; i+longStride <= len(s); i += longStride {
		w := blockKey(s, i)
		if h := lowHash(w) >> (64 - lowBloomLog); lb[h>>6]&(1<<(h&63)) != 0 {
			return i + passLow
		}
		if h := ((w >> 32) * hashMul) >> (64 - shortBloomLog); sb[h>>6]&(1<<(h&63)) != 0 {
			return i + passHigh
		}
		if h := (w * hashMul) >> bs; bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passLong
		}
	}
	return len(s)
}

// scanLowSplitBlocked is scanLowSplit with the long keys in a blocked bloom
// (blockedBloom) and the low keys in a blockedLowBloom, four blocks a
// turn.
//
//go:noinline
func scanLowSplitBlocked(p *prefilter, s string, i int) int {
	bl, ext, lx := p.blocked, p.ext, p.longCtx
	sb := (*shortBloom)(p.shortB.bits)
	lb := (*blockedLowBloom)(p.lowB.bits)
	for ; i+4*longStride <= len(s); i += 4 * longStride {
		t := s[i : i+4*longStride]
		for j := 0; j < 4*longStride; j += longStride {
			w := blockKey(t, j)
			if h := lowHash(w) >> (64 - blockedLowBloomLog); lb[h>>6]&(1<<(h&63)) != 0 {
				if ext.has(w&mask48|extLowFwd) || i+j >= 2 && ext.has(blockKey(s, i+j-2)&mask48|extLowBwd) {
					return i + j + passLow
				}
			}
			if h := ((w >> 32) * hashMul) >> (64 - shortBloomLog); sb[h>>6]&(1<<(h&63)) != 0 {
				at := i + j + shortWindow
				k := min(at, len(s)-longWindow)
				if ext.has(w>>16&mask48|extHighBwd) || at+6 <= len(s) && ext.has(blockKey(s, k)>>(8*(at-k)&63)&mask48|extHighFwd) {
					return i + j + passHigh
				}
			}
			if bl.has(w * hashMul) {
				q := i + j
				k := min(q+longStride, len(s)-longWindow)
				if q >= longStride && lx.has(longCtxHash(w, blockKey(s, q-longStride)>>32|longCtxBwd)) ||
					q+longWindow+4 <= len(s) && lx.has(longCtxHash(w, blockKey(s, k)>>(8*(q+longStride-k)&63)&0xffffffff|longCtxFwd)) {
					return q + passLong
				}
			}
		}
	}
	for ; i+longStride <= len(s); i += longStride {
		w := blockKey(s, i)
		if h := lowHash(w) >> (64 - blockedLowBloomLog); lb[h>>6]&(1<<(h&63)) != 0 {
			if ext.has(w&mask48|extLowFwd) || i >= 2 && ext.has(blockKey(s, i-2)&mask48|extLowBwd) {
				return i + passLow
			}
		}
		if h := ((w >> 32) * hashMul) >> (64 - shortBloomLog); sb[h>>6]&(1<<(h&63)) != 0 {
			at := i + shortWindow
			k := min(at, len(s)-longWindow)
			if ext.has(w>>16&mask48|extHighBwd) || at+6 <= len(s) && ext.has(blockKey(s, k)>>(8*(at-k)&63)&mask48|extHighFwd) {
				return i + passHigh
			}
		}
		if bl.has(w * hashMul) {
			k := min(i+longStride, len(s)-longWindow)
			if i >= longStride && lx.has(longCtxHash(w, blockKey(s, i-longStride)>>32|longCtxBwd)) ||
				i+longWindow+4 <= len(s) && lx.has(longCtxHash(w, blockKey(s, k)>>(8*(i+longStride-k)&63)&0xffffffff|longCtxFwd)) {
				return i + passLong
			}
		}
	}
	return len(s)
}

// scanHigh is scan without the lower halves. It calls nothing, so its loop
// keeps everything in registers; each test is a bit test (BT) that leaves
// the loop, not a shift by a variable count, which would need the register
// bs is shifted by; bs is masked so that the compiler knows it below 64.
//
//go:noinline
func scanHigh(p *prefilter, s string, i int) int {
	b := &p.strided
	bl, bs := b.bits, b.shift&63
	for ; i+longStride <= len(s); i += longStride {
		w := blockKey(s, i)
		if h := ((w >> 32) * hashMul) >> bs; bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passHigh
		}
		if h := (w * hashMul) >> bs; bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passLong
		}
	}
	return len(s)
}

// scanLow is scanHigh testing the lower halves too.
//
//go:noinline
func scanLow(p *prefilter, s string, i int) int {
	b := &p.strided
	bl, bs := b.bits, b.shift&63
	for ; i+longStride <= len(s); i += longStride {
		w := blockKey(s, i)
		if h := lowHash(w) >> bs; bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passLow
		}
		if h := ((w >> 32) * hashMul) >> bs; bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passHigh
		}
		if h := (w * hashMul) >> bs; bl[h>>6]&(1<<(h&63)) != 0 {
			return i + passLong
		}
	}
	return len(s)
}

// longMay reports whether the block w may be a long key.
func (p *prefilter) longMay(w uint64) bool {
	if p.blocked != nil {
		return p.blocked.has(w * hashMul)
	}
	return p.strided.has(w * hashMul)
}

// has reports whether the key whose hash is h may be in b.
func (b *bloom) has(h uint64) bool {
	i := h >> b.shift
	return b.bits[i>>6]&(1<<(i&63)) != 0
}

// pendingProbe is a window of a text that passed a strided table's bloom,
// waiting in scratch.probes for its batch (probeBatch): its key, where it
// lies in the text, and its table (tableLow, tableShort, tableLong); the
// refs of its slot once looked up (end 0: no slot).
type pendingProbe struct {
	k          uint64
	pos        int
	start, end uint32
	table      uint8
}

// The strided tables, as pendingProbe names them.
const (
	tableLow = iota
	tableShort
	tableLong
)

// table returns the strided table t names (tableLow, tableShort,
// tableLong).
func (p *prefilter) table(t uint8) *windowTable {
	switch t {
	case tableLow:
		return &p.low
	case tableShort:
		return &p.short
	}
	return &p.long
}

// probeAt verifies the literals t keys on k, the window at pos: a batch
// of one.
//
//go:noinline
func (p *prefilter) probeAt(t *windowTable, k uint64, s string, pos int, sc *scratch) {
	if len(t.slots) == 0 {
		return // the bit was another table's
	}
	h := k * hashMul
	mask := uint64(len(t.slots) - 1)
	for i := h >> t.slotShift; t.slots[i].end != 0; i = (i + 1) & mask {
		if sl := &t.slots[i]; sl.key == k {
			p.verifyChecked(t.refs[sl.start:sl.end], s, pos, sc)
			return
		}
	}
}

// probeBatchLen is how many probes candidatesFrom batches: a block adds
// up to three, and an error line has a few such blocks.
const probeBatchLen = 16

// probeBatch verifies the literals the tables key on each probe of batch,
// in order. It looks up every probe's slot first, then reads the first
// ref of every slot found, and only then verifies: each of those reads is a cache miss on an error line (the
// tables are megabytes at thousands of records, and an error line's keys
// are not those of the lines before it), and the reads of one step do not
// depend on one another, so they overlap, where probing and verifying
// each window in turn waits for every miss alone. The candidates, their
// order and their marks are those of probing each window in turn: the
// look-ups read nothing verification writes.
//
//go:noinline
func (p *prefilter) probeBatch(batch []pendingProbe, s string, sc *scratch) {
	tables := [3]*windowTable{&p.low, &p.short, &p.long}
	for j := range batch {
		b := &batch[j]
		t := tables[b.table]
		b.start, b.end = 0, 0
		if len(t.slots) == 0 {
			continue // the bit was another table's
		}
		h := b.k * hashMul
		mask := uint64(len(t.slots) - 1)
		for i := h >> t.slotShift; t.slots[i].end != 0; i = (i + 1) & mask {
			if sl := &t.slots[i]; sl.key == b.k {
				b.start, b.end = sl.start, sl.end
				break
			}
		}
	}
	// The first ref of each slot found, summed so that the loads are
	// kept: sc.touched is never read.
	touched := int32(0)
	for j := range batch {
		if b := &batch[j]; b.end > b.start {
			touched += tables[b.table].refs[b.start].check.rel
		}
	}
	sc.touched = touched
	for j := range batch {
		if b := &batch[j]; b.end > b.start {
			p.verifyChecked(tables[b.table].refs[b.start:b.end], s, b.pos, sc)
		}
	}
}

// verifyChecked is verify for the refs of a strided table, with their
// checks.
func (p *prefilter) verifyChecked(refs []keyRef, s string, pos int, sc *scratch) {
	for i := range refs {
		ref := &refs[i]
		c := pos + int(ref.check.rel)
		if c < 0 || c+4 > len(s) {
			continue // the literal does not fit in s there
		}
		t := s[c : c+4]
		if (uint32(t[0])|uint32(t[1])<<8|uint32(t[2])<<16|uint32(t[3])<<24)|keyFold&0xffffffff != ref.check.word {
			continue
		}
		if sc.mark[ref.rec] == sc.gen {
			continue
		}
		lit := &p.lits[ref.lit]
		start := pos - int(ref.off)
		end := start + len(lit.Text)
		if start < 0 || end > len(s) || !literalAt(s[start:end], *lit) {
			continue
		}
		sc.mark[ref.rec] = sc.gen
		sc.cands = append(sc.cands, ref.rec)
	}
}

// verify marks the records whose keyed literal really occurs around the
// window that starts at pos.
func (p *prefilter) verify(refs []keyRef, s string, pos int, sc *scratch) {
	for i := range refs {
		ref := &refs[i]
		if sc.mark[ref.rec] == sc.gen {
			continue
		}
		lit := &p.lits[ref.lit]
		start := pos - int(ref.off)
		end := start + len(lit.Text)
		if start < 0 || end > len(s) || !literalAt(s[start:end], *lit) {
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
// windows (one per literal, probed at every byte) or strided ones
// (keyStride consecutive windows per literal), and where its offsets start in
// keyPlan.offs.
type keyChoice struct {
	clause int32
	tiny   bool
	// low: the clause's literals keyed on short windows are probed every
	// fourth byte (four windows each) even when long enough for every
	// eighth, because a run of eight of their windows holds a word of
	// ordinary lines (lowerStrides).
	low bool
	at  int32
}

// stride is the stride at which c keys literal l of its clause.
func (c keyChoice) stride(l Literal) int {
	if c.low && keyWindow(l) == shortWindow {
		return shortStride
	}
	return keyStride(l)
}

// chooseKeys keys each record on its cheapest keyable clause, each literal
// on its cheapest run of keyStride windows; the records left without one go
// to keyTiny.
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
				off, lc := r.bestRun(l, first+li, keyStride(l))
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
	plan.lowerStrides(r, reqs)
	plan.keyTiny(r, reqs, unkeyed)
	return plan
}

// maxLowLiterals bounds the literals probed every fourth byte: at four
// keys each, their keys fit the low keys' bloom (setSplit). A catalog
// whose long keys take the blocked bloom has a larger low bloom
// (blockedLowBloom), and maxBlockedLowLiterals of them: at 50,000 records
// the smaller bound left 318 records on windows of ordinary lines.
const (
	maxLowLiterals        = maxLowBloomKeys / shortStride
	maxBlockedLowLiterals = maxBlockedLowBloomKeys / shortStride
)

// blockedRefs is how many refs of long keys a plan must have for
// lowerStrides to expect the blocked bloom: twice the keys the fixed bloom
// takes, as literals share some of their windows. A plan near the bound
// that gets the fixed bloom with more low keys than its low bloom holds is
// scanned by the general loop (setStrided): slower, and as exact.
const blockedRefs = 2 << (fixedBloomLog - 5)

// lowerStrides moves literals of 11 to 14 bytes, keyed on eight short
// windows probed every eighth byte, to four windows probed every fourth
// byte (keyChoice.low) where that is cheaper: a literal made of the words
// of ordinary lines ("ragged tokens") has no run of eight windows without
// one ("toke", "oken"), and wakes a probe on most lines, while four of its
// windows can avoid them. A record may move to another of its clauses so:
// "Encoder " (every run of its windows holds "code", as "Decode batch"
// does) keyed on eight windows was cheaper than " token error ", but
// " token error " on four is cheaper still. A record moves when that saves
// at least one window seen in the corpus; those that save most move first,
// while the literals probed every fourth byte stay within maxLowLiterals
// (maxBlockedLowLiterals for a catalog of the blocked bloom).
func (plan *keyPlan) lowerStrides(r *rarity, reqs []Required) {
	type move struct {
		rec, clause, lits, saved int
		offs                     []int32
	}
	var moves []move
	low := 0 // literals probed every fourth byte
	lit := 0 // literal occurrences before this record's
	var offs []int32
	longRefs := 0
	for rec, c := range plan.choice {
		if c.clause >= 0 && !c.tiny {
			for _, l := range reqs[rec][c.clause] {
				if keyWindow(l) == longWindow {
					longRefs += longStride
				}
			}
		}
	}
	budget := maxLowLiterals
	if longRefs >= blockedRefs {
		budget = maxBlockedLowLiterals
	}
	for rec, c := range plan.choice {
		first := lit
		for _, cl := range reqs[rec] {
			lit += len(cl)
		}
		if c.clause < 0 || c.tiny {
			continue
		}
		// What the chosen clause costs as it is keyed, and its literals
		// already probed every fourth byte.
		cur, curLow := 0, 0
		for ci, cl := range reqs[rec] {
			if ci == int(c.clause) {
				for li, l := range cl {
					_, cost := r.bestRun(l, first+li, keyStride(l))
					cur += cost
					if keyStride(l) == shortStride {
						curLow++
					}
				}
				break
			}
			first += len(cl)
		}
		low += curLow
		// The cheapest clause with every literal of short windows probed
		// every fourth byte: every one of them moves, or none.
		best := move{rec: rec, clause: -1}
		bestCost := 0
		first = lit
		for _, cl := range reqs[rec] {
			first -= len(cl)
		}
		for ci, cl := range reqs[rec] {
			cost, lits := 0, 0
			offs = offs[:0]
			for li, l := range cl {
				if keyWindow(l) == 0 {
					cost = -1
					break
				}
				st := keyStride(l)
				if keyWindow(l) == shortWindow {
					st = shortStride
					lits++
				}
				off, lc := r.bestRun(l, first+li, st)
				offs = append(offs, int32(off))
				cost += lc
			}
			first += len(cl)
			if cost < 0 || lits == 0 {
				continue
			}
			if best.clause < 0 || cost < bestCost || cost == bestCost && ci == int(c.clause) {
				best.clause, best.lits, best.offs, bestCost = ci, lits-curLow, append(best.offs[:0], offs...), cost
			}
		}
		if best.clause < 0 {
			continue
		}
		best.saved = cur - bestCost
		if best.saved >= corpusCost {
			moves = append(moves, best)
		}
	}
	slices.SortStableFunc(moves, func(a, b move) int { return cmp.Compare(b.saved, a.saved) })
	for _, m := range moves {
		if low+m.lits > budget {
			continue
		}
		low += m.lits
		c := &plan.choice[m.rec]
		c.low = true
		if int(c.clause) != m.clause {
			c.clause, c.at = int32(m.clause), int32(len(plan.offs))
			plan.offs = append(plan.offs, m.offs...)
			continue
		}
		copy(plan.offs[c.at:], m.offs)
	}
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
	p := &prefilter{reqs: reqs, keyClause: make([]int, len(reqs)), plan: plan, lits: make([]Literal, 0, len(reqs))}
	var refs [3][]keyedRef
	var low []keyedRef
	// Most literals are long enough for the long windows (error messages
	// are): longStride keys for each record is the usual size of that list.
	refs[1] = make([]keyedRef, 0, longStride*len(reqs))
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
				refs[2] = append(refs[2], keyedRef{k, keyRef{rec: int32(rec), off: int32(off), lit: int32(len(p.lits))}})
				p.lits = append(p.lits, l)
				continue
			}
			wlen, st := keyWindow(l), c.stride(l)
			m := &refs[lenIndex(wlen)]
			for j := range st {
				kr := keyedRef{windowKey(l.Text[off+j : off+j+wlen]), keyRef{rec: int32(rec), off: int32(off + j), lit: int32(len(p.lits))}}
				*m = append(*m, kr)
				if st == shortStride {
					low = append(low, kr)
				}
			}
			p.lits = append(p.lits, l)
		}
	}
	p.short = newWindowTable(refs[0], false)
	p.long = newWindowTable(refs[1], false)
	p.low = newWindowTable(low, false)
	p.tiny = newWindowTable(refs[2], true)
	p.hasLow = len(low) > 0
	p.derive()
	p.scan = scanNone
	nShort, nLong, nLow := p.short.keys(), p.long.keys(), p.low.keys()
	switch {
	case nLong >= minFixedBloomKeys && nLow > 0 && nShort <= maxShortBloomKeys && (nLow <= maxLowBloomKeys || blocked(nLong) && nLow <= maxBlockedLowBloomKeys):
		if blocked(nLong) {
			p.setSplitBlocked()
		} else {
			p.setSplit(newStridedBloom(nLong))
		}
	case nShort+nLong+nLow > 0:
		p.setStrided(newStridedBloom(nShort + nLong + nLow))
	}
	return p
}

// blocked reports whether a prefilter of n long keys (and low keys) keeps
// them in a blocked bloom: more than the fixed bloom holds at 32 bits a
// key (newStridedBloom), and few enough for the blocked one.
func blocked(n int) bool {
	return n > 1<<(fixedBloomLog-5) && n <= maxBlockedBloomKeys
}

// derive builds what the prefilter's search uses beside its tables and
// plan, from them alone: the checks of the strided tables' refs and the
// anchors of the unkeyed records. A prefilter put together from its
// tables (a catalog image) calls it too.
func (p *prefilter) derive() {
	p.long.setChecks(p.lits, longWindow)
	p.short.setChecks(p.lits, shortWindow)
	p.low.setChecks(p.lits, shortWindow)
	p.anchorAlways()
}

// keys is the number of keys t holds.
func (t *windowTable) keys() int {
	n := 0
	for _, sl := range t.slots {
		if sl.end != 0 {
			n++
		}
	}
	return n
}

// Split keys. Of the three tests of a block, the lower and upper 4-byte
// halves test few keys in most catalogs (the generated one of 5,695
// records: 162 low and 325 short keys against 34,182 long ones), and in a
// bloom of their own those keys fit the first-level cache: a block then
// reads one word of the large bloom instead of three, and the halves'
// tests pass less often (fewer keys a bit). A catalog whose low and short
// keys fit these sizes at 32 bits a key, and whose long keys take the
// fixed bloom, is scanned so (scanLowSplit). A larger catalog, whose long
// keys need a larger bloom than the fixed one, is scanned so too, its
// long keys in a blocked bloom (scanLowSplitBlocked; a catalog of 20,000
// records from scripts/scale-catalog.py has 121,264 long keys, 697 low
// and 1,282 short ones, one of 50,000 283,392, 1,085 and 3,084), and
// beyond maxBlockedBloomKeys in a larger one-bit bloom with the general
// loop's variable shift (scanLowSplitLarge).
const (
	lowBloomLog            = 16 // 8 KB
	shortBloomLog          = 17 // 16 KB
	blockedLowBloomLog     = 17 // 16 KB, with the blocked bloom
	maxLowBloomKeys        = 1 << (lowBloomLog - 5)
	maxShortBloomKeys      = 1 << (shortBloomLog - 5)
	maxBlockedLowBloomKeys = 1 << (blockedLowBloomLog - 5)
)

type (
	lowBloom        = [1 << (lowBloomLog - 6)]uint64
	shortBloom      = [1 << (shortBloomLog - 6)]uint64
	blockedLowBloom = [1 << (blockedLowBloomLog - 6)]uint64
)

// Blocked bloom. The long keys of a catalog of about 12,000 records and
// more outgrow the fixed bloom; at 32 bits a key, one bit each, their
// bloom would be megabytes (2 MB at 50,000 records), read at random out
// of the second-level cache three times a block. A blocked bloom sets
// three bits of one word per key: a test reads one word, and at the 12
// bits a key or more of 512 KB for up to maxBlockedBloomKeys keys it
// passes as seldom as the larger one (about 1%).
const (
	blockedBloomLog     = 22 // 512 KB
	maxBlockedBloomKeys = 1 << blockedBloomLog / 12
)

// blockedBloom is a bloom of 2^blockedBloomLog bits, three bits of one
// word per key: the word is chosen by the hash's top bits, the three bits
// by the next ten (blockedMask).
type blockedBloom [1 << (blockedBloomLog - 6)]uint64

// blockedMask is the three bits of the key whose hash is h: one of
// blockedPatterns, chosen by four bits of the hash, rotated by six more.
// One rotation, where three bits each at a place of their own took three
// shifts by a variable count (each through the one register x86 shifts
// by): the test of every block of a large catalog's lines. 1,024 masks
// rather than 41,664: at 50,000 records 0.6% of the blocks of routine
// lines pass where no key is, against 0.4%; candidates took 5% less.
func blockedMask(h uint64) uint64 {
	return bits.RotateLeft64(blockedPatterns[h>>(48-blockedBloomLog)&15], int(h>>(58-blockedBloomLog)&63))
}

// blockedPatterns are three bits each, spread over the word: bit 0, one
// of bits 5 to 26, one of bits 29 to 59.
var blockedPatterns = [16]uint64{
	1 | 1<<5 | 1<<33, 1 | 1<<7 | 1<<41, 1 | 1<<9 | 1<<29, 1 | 1<<11 | 1<<47,
	1 | 1<<13 | 1<<37, 1 | 1<<15 | 1<<53, 1 | 1<<17 | 1<<31, 1 | 1<<19 | 1<<43,
	1 | 1<<21 | 1<<59, 1 | 1<<23 | 1<<35, 1 | 1<<25 | 1<<49, 1 | 1<<6 | 1<<39,
	1 | 1<<10 | 1<<55, 1 | 1<<14 | 1<<45, 1 | 1<<18 | 1<<51, 1 | 1<<26 | 1<<57,
}

func (b *blockedBloom) add(h uint64) { b[h>>(64-blockedBloomLog+6)] |= blockedMask(h) }

// has reports whether the key whose hash is h may be in b.
func (b *blockedBloom) has(h uint64) bool {
	m := blockedMask(h)
	return b[h>>(64-blockedBloomLog+6)]&m == m
}

// setSplit makes long, empty and of the fixed size or larger, the bloom of
// the long keys, gives the short and low keys small blooms of their own,
// and scans with scanLowSplit (scanLowSplitLarge for a larger bloom). The
// prefilter must have low keys.
func (p *prefilter) setSplit(long bloom) {
	p.strided = long
	p.blocked, p.ext, p.longCtx = nil, nil, nil
	p.scan = scanLowSplit
	if !long.fixed() {
		p.scan = scanLowSplitLarge
	}
	p.splitHalves(lowBloomLog)
	for _, sl := range p.long.slots {
		if sl.end != 0 {
			p.strided.add(sl.key * hashMul)
		}
	}
}

// setSplitBlocked is setSplit with the long keys in a blocked bloom,
// scanned by scanLowSplitBlocked.
func (p *prefilter) setSplitBlocked() {
	p.strided, p.blocked, p.scan = bloom{}, new(blockedBloom), scanLowSplitBlocked
	p.splitHalves(blockedLowBloomLog)
	for _, sl := range p.long.slots {
		if sl.end != 0 {
			p.blocked.add(sl.key * hashMul)
		}
	}
	p.setExt()
}

// splitHalves gives the short and low keys small blooms of their own: the
// low bloom of lowLog bits (lowBloomLog, or blockedLowBloomLog with the
// blocked bloom).
func (p *prefilter) splitHalves(lowLog uint) {
	p.shortB = bloom{bits: make([]uint64, len(shortBloom{})), shift: 64 - shortBloomLog}
	p.lowB = bloom{bits: make([]uint64, 1<<(lowLog-6)), shift: 64 - lowLog}
	for _, sl := range p.short.slots {
		if sl.end != 0 {
			p.shortB.add(sl.key * hashMul)
		}
	}
	for _, sl := range p.low.slots {
		if sl.end != 0 {
			p.lowB.add(lowHash(sl.key))
		}
	}
}

// setStrided makes b, empty, the strided bloom, adds every key of the
// long, short and low tables to it and chooses the loop that scans it.
func (p *prefilter) setStrided(b bloom) {
	p.strided, p.shortB, p.lowB, p.blocked, p.ext, p.longCtx = b, b, b, nil, nil, nil
	switch {
	case b.fixed() && p.hasLow:
		p.scan = scanLowFixed
	case b.fixed():
		p.scan = scanHighFixed
	case p.hasLow:
		p.scan = scanLow
	default:
		p.scan = scanHigh
	}
	for _, t := range []*windowTable{&p.short, &p.long} {
		for _, sl := range t.slots {
			if sl.end != 0 {
				p.strided.add(sl.key * hashMul)
			}
		}
	}
	for _, sl := range p.low.slots {
		if sl.end != 0 {
			p.strided.add(lowHash(sl.key))
		}
	}
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
		if c.tiny && c.low {
			return fmt.Errorf("key plan: record %d: tiny and low", rec)
		}
		if c.clause < 0 {
			if c.clause != -1 || c.tiny || c.low {
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
				span = wlen + c.stride(l) - 1
			}
			if off < 0 || off+span > len(l.Text) {
				return fmt.Errorf("key plan: record %d: literal %d: window at %d of %d bytes", rec, li, off, len(l.Text))
			}
		}
	}
	return nil
}
