package matcher

import (
	"hash/maphash"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// A Matcher keeps the candidates of the texts its Searchers searched by
// their shape: the text with each run of ASCII digits that no literal of
// the catalog can touch replaced by one marker. Error lines repeat with
// other numbers in them (ranks, sizes, request ids, line numbers), and the
// prefilter's work on an error line (the probes, the refs and literals
// read, the other clauses checked: cache misses, most of them) is several
// times a routine line's. A text of a cached shape takes the cached
// candidates and is verified by the patterns as any other: its hits are
// its own. The cache is the Matcher's, so the streams and Searchers that
// share a catalog share it and its bound.
//
// Why two texts of one shape have the same candidates: a record is a
// candidate exactly when every clause of its Required has a literal in the
// text (prefilter.candidates). A literal without digits never overlaps a
// digit run, so it lies in the text's non-digit parts, which the shape
// keeps. A literal with digits overlaps only runs that shapeKey keeps as
// they are (digitSigs.touches is a necessary condition of an overlap, so
// it keeps every run an overlap is possible at): the bytes of its
// occurrence are all in the shape. Equal shapes therefore hold the same
// literals. The key is compared whole, never by its hash alone.
//
// Only texts with a window that is a key whose check bytes are there are
// looked up (keyedFrom): routine lines almost never have one, and pay for
// the cache only the test that sends them on, which the prefilter made
// anyway.

// shapeEntries bounds the shapes a Matcher keeps; shapeKeyMax bounds the
// length of a text whose shape is kept. An entry holds its key (about the
// text's length) and its candidates (two or three): a few hundred
// kilobytes when full, made as shapes are met.
const (
	shapeEntries = 4096
	shapeKeyMax  = 512
)

// shapeMarker starts an escape in a shape key: shapeMarker, 0 stands for a
// masked digit run, shapeMarker, shapeMarker for the byte itself. 0xff is
// never part of UTF-8 text, so the escape is rare.
const shapeMarker = 0xff

// shapeCache is a Matcher's shapes (or its texts, for exact): a map from
// the key's hash to an entry, entries replaced by a clock hand once
// shapeEntries are used.
type shapeCache struct {
	mu           sync.Mutex
	index        map[uint64]int32
	ents         []shapeEntry
	hand         int
	hits, misses atomic.Uint64
}

// shapeEntry is one key's: the candidates of a shape, or the hits of a
// text (with whether it was searched with exception types, which move a
// hit off a traceback's source line).
type shapeEntry struct {
	hash  uint64
	key   []byte
	cands []int32
	hits  []keptHit
	types bool
	tried int32 // the candidates hits was verified from
	used  bool  // the clock's reference bit
}

// keptHit is a litProg's hit kept for its text: where it matched and its
// groups' spans (the litProg's groups, which do not change once built).
type keptHit struct {
	rec        int32
	start, end int32
	lit        []group
	spans      [2 * inlineGroups]int32
}

func newShapeCache() *shapeCache {
	return &shapeCache{index: make(map[uint64]int32, 64)}
}

// entry returns the entry of key (hash h), or nil; the caller holds c.mu.
func (c *shapeCache) entry(h uint64, key string) *shapeEntry {
	i, ok := c.index[h]
	if !ok || string(c.ents[i].key) != key {
		return nil
	}
	e := &c.ents[i]
	e.used = true
	return e
}

// lookup appends the candidates cached for key (hash h) to dst, or
// reports false.
func (c *shapeCache) lookup(dst []int32, h uint64, key []byte) ([]int32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entry(h, unsafe.String(unsafe.SliceData(key), len(key)))
	if e == nil {
		return dst, false
	}
	return append(dst, e.cands...), true
}

// lookupHits appends the hits kept for text (hash h), searched with or
// without exception types, to dst, or reports false.
func (c *shapeCache) lookupHits(dst []keptHit, h uint64, text string, types bool) ([]keptHit, int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entry(h, text)
	if e == nil || e.types != types {
		return dst, 0, false
	}
	return append(dst, e.hits...), int(e.tried), true
}

// store returns the entry to fill for key (hash h), replacing an entry
// the clock hand finds unused since it last passed once the cache is
// full; its memory is reused. The caller holds c.mu.
func (c *shapeCache) store(h uint64, key string) *shapeEntry {
	i, ok := c.index[h]
	switch {
	case ok:
		// This key, stored by another Searcher meanwhile, or another key
		// of the same hash: the newer takes its place.
	case len(c.ents) < shapeEntries:
		i = int32(len(c.ents))
		c.ents = append(c.ents, shapeEntry{})
	default:
		for c.ents[c.hand].used {
			c.ents[c.hand].used = false
			c.hand = (c.hand + 1) % len(c.ents)
		}
		i = int32(c.hand)
		c.hand = (c.hand + 1) % len(c.ents)
		delete(c.index, c.ents[i].hash)
	}
	e := &c.ents[i]
	e.hash = h
	if cap(e.key) < len(key) {
		// Room for a somewhat longer key the next time the entry is
		// taken: most keys of a log are of a few lengths.
		e.key = make([]byte, 0, (len(key)+63)&^63)
	}
	e.key = append(e.key[:0], key...)
	e.used = false
	c.index[h] = i
	return e
}

// shapeCaches are a Matcher's two caches and what their keys need, built
// at the first text that uses them.
type shapeCaches struct {
	seed   maphash.Seed
	shapes *shapeCache // candidates by shape
	exact  *shapeCache // hits by text
	sigs   *digitSigs
}

// shapeSearch finds the candidates of s through the Matcher's caches. It
// reports found when s itself was searched before and kept: sc.hits then
// holds its hits, and nothing is left to verify. keep says whether what
// s matches may be kept for it (keepHits).
func (m *Matcher) shapeSearch(sc *scratch, se *Searcher, s *Subject) (found, keep bool) {
	p := m.pf
	text := s.Text
	first := p.scan(p, text, 0)
	if len(text) > shapeKeyMax {
		p.candidatesFrom(text, sc, first)
		return false, false
	}
	if first = p.keyedFrom(text, first); first >= len(text) {
		p.candidatesFrom(text, sc, first) // no block of s has a ref to verify
		return false, false
	}
	m.cachesOnce.Do(func() {
		m.caches.Store(&shapeCaches{seed: maphash.MakeSeed(), shapes: newShapeCache(), exact: newShapeCache(),
			sigs: buildDigitSigs(m.reqs)})
	})
	cs := m.caches.Load()
	types := len(s.ExceptionTypes) > 0
	se.textHash = maphash.String(cs.seed, text)
	var tried int
	if se.kept, tried, found = cs.exact.lookupHits(se.kept[:0], se.textHash, text, types); found {
		cs.exact.hits.Add(1)
		m.tried.Add(uint64(tried))
		sc.hits = sc.hits[:0]
		for i := range se.kept {
			k := &se.kept[i]
			h := m.hitAt(int(k.rec), int(k.start), int(k.end), *s)
			if len(k.lit) > 0 {
				h.text, h.lit = text, k.lit
				for j := range k.spans {
					h.spans[j] = int(k.spans[j])
				}
			}
			sc.hits = append(sc.hits, rankedHit{rec: k.rec, hit: h})
		}
		return true, false
	}
	cs.exact.misses.Add(1)

	c := cs.shapes
	se.key = cs.sigs.shapeKey(se.key[:0], text)
	h := maphash.Bytes(cs.seed, se.key)
	var ok bool
	if sc.cands, ok = c.lookup(sc.cands[:0], h, se.key); ok {
		c.hits.Add(1)
		return false, true
	}
	c.misses.Add(1)
	p.candidatesFrom(text, sc, first)
	c.mu.Lock()
	e := c.store(h, unsafe.String(unsafe.SliceData(se.key), len(se.key)))
	e.cands = append(grown(e.cands, len(sc.cands)), sc.cands...)
	c.mu.Unlock()
	return false, true
}

// keepHits keeps the hits sc holds of s, the text shapeSearch hashed, when
// every one is a litProg's with its groups as spans or has no groups (a hit
// with built groups is not kept: its map is the caller's to change). A
// text that matched nothing is kept too.
func (m *Matcher) keepHits(se *Searcher, sc *scratch, s *Subject) {
	se.kept = se.kept[:0]
	for i := range sc.hits {
		h := &sc.hits[i].hit
		if h.groups != nil {
			return
		}
		k := keptHit{rec: sc.hits[i].rec, start: int32(h.Start), end: int32(h.End), lit: h.lit}
		for j := range h.spans {
			k.spans[j] = int32(h.spans[j])
		}
		se.kept = append(se.kept, k)
	}
	c := m.caches.Load().exact
	c.mu.Lock()
	e := c.store(se.textHash, s.Text)
	e.hits = append(grown(e.hits, len(se.kept)), se.kept...)
	e.types = len(s.ExceptionTypes) > 0
	e.tried = int32(len(sc.cands))
	c.mu.Unlock()
}

// grown returns s emptied, with room for n: a cache entry's slice, which
// takes room for four so that later texts of the entry seldom need more.
func grown[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, 0, max(n, 4))
	}
	return s[:0]
}

// keyedFrom returns the first block of s, from the block first (what
// p.scan returns at 0) on, one of whose windows is a key of a strided
// table with a ref whose check bytes are there, as p.scan returns it;
// len(s) when there is none. It probes as candidatesFrom does and reads the
// refs' checks, not the literals behind them: a block it passes over gives
// candidatesFrom nothing (verifyChecked takes no ref whose check fails),
// so candidatesFrom may start where it stops. A routine line's blocks that
// pass the bloom are its false passes, or keys whose checks fail (none of
// 20,000 generated routine lines passes a check at 5,695 records); an
// error line passes several.
func (p *prefilter) keyedFrom(s string, first int) int {
	n := len(s) &^ (longStride - 1)
	for r := first; r < n; r = p.scan(p, s, r&^(longStride-1)+longStride) {
		i, pass := r&^(longStride-1), r&(longStride-1)
		w := blockKey(s, i)
		if pass == passLow && checkPasses(p.low.probe(w&0xffffffff), s, i) ||
			(pass == passHigh || pass == passLow && p.shortB.has((w>>32)*hashMul)) && checkPasses(p.short.probe(w>>32), s, i+shortWindow) ||
			(pass == passLong || p.longMay(w)) && checkPasses(p.long.probe(w), s, i) {
			return r
		}
	}
	return len(s)
}

// checkPasses reports whether the check of one of refs, keyed on the window
// at pos, is there in s (verifyChecked's first test).
func checkPasses(refs []keyRef, s string, pos int) bool {
	for i := range refs {
		ref := &refs[i]
		c := pos + int(ref.check.rel)
		if c < 0 || c+4 > len(s) {
			continue
		}
		t := s[c : c+4]
		if (uint32(t[0])|uint32(t[1])<<8|uint32(t[2])<<16|uint32(t[3])<<24)|keyFold&0xffffffff == ref.check.word {
			return true
		}
	}
	return false
}

// digitSigs is what the literals with digits of a catalog say about the
// digit runs of a text they can overlap. A run of digits in a literal is
// one of four kinds by what the literal has around it:
//
//   - closed (bytes before and after): the text's run is the same digits
//     between the same bytes, up to sigContext of them on each side;
//   - open at its end (the literal ends with it): the text's run starts
//     with its first digit, after the same bytes;
//   - open at its start: the text's run ends with its last digit, before
//     the same bytes;
//   - the whole literal: the text's run holds it.
//
// The first three are kept as bits of a bloom, by their bytes' hash: a run
// of a text none of whose readings hashes to a bit set cannot be overlapped
// by a literal. Letters are compared with ASCII case folded. A false bit,
// or the fold, keeps a run that could have been masked; never the other
// way.
type digitSigs struct {
	bits []uint64 // 1<<sigBloomLog bits
	// The context lengths the catalog's runs have: bit kb*4+ka of closed
	// for kb bytes before and ka after; bit k of endOpen and startOpen.
	closed             uint16
	endOpen, startOpen uint8
	whole              []string // literals that are digits alone
	// pre is a bloom of what a run must have for a full look, hashed from
	// one word (sigPrefix): its context before and first digit, for the
	// closed and end-open kinds; its last digit and context after, for the
	// start-open kind. Most runs of a text fail it and are masked at once.
	pre []uint64
	// before: bit k set when some run of the closed or end-open kinds has k
	// bytes of context before it.
	before uint8
}

const (
	sigContext  = 3
	sigBloomLog = 16
)

// The tags of the kinds, which start a signature's hash.
const (
	sigClosed = iota + 1
	sigEndOpen
	sigStartOpen
)

func buildDigitSigs(reqs []Required) *digitSigs {
	d := &digitSigs{bits: make([]uint64, 1<<sigBloomLog/64), pre: make([]uint64, 1<<sigBloomLog/64)}
	for _, req := range reqs {
		for _, clause := range req {
			for _, l := range clause {
				t := l.Text
				for i := 0; i < len(t); {
					if !isDigit(t[i]) {
						i++
						continue
					}
					j := i
					for j < len(t) && isDigit(t[j]) {
						j++
					}
					kb, ka := min(i, sigContext), min(len(t)-j, sigContext)
					if kb > 0 {
						setBit(d.pre, sigPrefix(t[i-kb:i], t[i]))
						d.before |= 1 << kb
					} else if ka > 0 {
						setBit(d.pre, sigSuffix(t[j-1], t[j:j+ka]))
					}
					switch {
					case kb > 0 && ka > 0:
						d.set(sigHash(sigClosed, t[i-kb:i], t[i:j], t[j:j+ka]))
						d.closed |= 1 << (kb*4 + ka)
					case kb > 0:
						d.set(sigHash(sigEndOpen, t[i-kb:i], t[i:i+1], ""))
						d.endOpen |= 1 << kb
					case ka > 0:
						d.set(sigHash(sigStartOpen, "", t[j-1:j], t[j:j+ka]))
						d.startOpen |= 1 << ka
					default:
						d.whole = append(d.whole, t)
					}
					i = j
				}
			}
		}
	}
	return d
}

func isDigit(b byte) bool { return b-'0' < 10 }

func lower(b byte) byte {
	if b-'A' < 26 {
		return b + 'a' - 'A'
	}
	return b
}

// sigHash hashes a signature: its kind, the bytes before, the digits, the
// bytes after (FNV-1a, letters folded, the parts' lengths mixed in).
func sigHash(kind int, before, digits, after string) uint64 {
	h := uint64(14695981039346656037)
	mix := func(b byte) { h = (h ^ uint64(b)) * 1099511628211 }
	mix(byte(kind))
	mix(byte(len(before)))
	for i := 0; i < len(before); i++ {
		mix(lower(before[i]))
	}
	mix(byte(len(digits)))
	for i := 0; i < len(digits); i++ {
		mix(digits[i])
	}
	for i := 0; i < len(after); i++ {
		mix(lower(after[i]))
	}
	return h
}

func (d *digitSigs) set(h uint64) { setBit(d.bits, h) }

func (d *digitSigs) has(h uint64) bool { return hasBit(d.bits, h) }

func setBit(bits []uint64, h uint64) {
	i := h >> (64 - sigBloomLog)
	bits[i>>6] |= 1 << (i & 63)
}

func hasBit(bits []uint64, h uint64) bool {
	i := h >> (64 - sigBloomLog)
	return bits[i>>6]&(1<<(i&63)) != 0
}

// sigPrefix hashes the context before a run (one to sigContext bytes,
// folded) and its first digit as one word; sigSuffix its last digit and
// the context after, tagged apart.
func sigPrefix(ctx string, digit byte) uint64 {
	w := uint64(digit) | uint64(len(ctx))<<32
	for i := 0; i < len(ctx); i++ {
		w |= uint64(foldTable[ctx[len(ctx)-1-i]]) << (8 * (i + 1))
	}
	return w * 0x9e3779b97f4a7c15
}

func sigSuffix(digit byte, ctx string) uint64 {
	w := uint64(digit) | uint64(len(ctx))<<32 | 1<<40
	for i := 0; i < len(ctx); i++ {
		w |= uint64(foldTable[ctx[i]]) << (8 * (i + 1))
	}
	return w * 0x9e3779b97f4a7c15
}

// touches reports whether some literal with digits may overlap the digit
// run s[i:j] (maximal: s[i-1] and s[j] are not digits).
func (d *digitSigs) touches(s string, i, j int) bool {
	if len(d.whole) > 0 && d.touchesWhole(s[i:j]) {
		return true
	}
	for kb := 1; kb <= sigContext && kb <= i; kb++ {
		if d.before&(1<<kb) != 0 && hasBit(d.pre, sigPrefix(s[i-kb:i], s[i])) && d.touchesBefore(s, i, j, kb) {
			return true
		}
	}
	for ka := 1; ka <= sigContext && j+ka <= len(s); ka++ {
		if d.startOpen&(1<<ka) != 0 && hasBit(d.pre, sigSuffix(s[j-1], s[j:j+ka])) &&
			d.has(sigHash(sigStartOpen, "", s[j-1:j], s[j:j+ka])) {
			return true
		}
	}
	return false
}

func (d *digitSigs) touchesWhole(run string) bool {
	for _, w := range d.whole {
		if strings.Contains(run, w) {
			return true
		}
	}
	return false
}

// touchesBefore is touches for the closed and end-open kinds with kb
// bytes of context before the run.
func (d *digitSigs) touchesBefore(s string, i, j, kb int) bool {
	if d.endOpen&(1<<kb) != 0 && d.has(sigHash(sigEndOpen, s[i-kb:i], s[i:i+1], "")) {
		return true
	}
	for ka := 1; ka <= sigContext && j+ka <= len(s); ka++ {
		if d.closed&(1<<(kb*4+ka)) != 0 && d.has(sigHash(sigClosed, s[i-kb:i], s[i:j], s[j:j+ka])) {
			return true
		}
	}
	return false
}

// shapeKey appends s's shape key to dst: s with each digit run that no
// literal may overlap written as shapeMarker, 0, and each shapeMarker byte
// doubled. Two texts have one key exactly when they differ only in the
// digits of masked runs.
func (d *digitSigs) shapeKey(dst []byte, s string) []byte {
	from := 0 // s[from:i] is yet to be copied
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case isDigit(b):
			j := i + 1
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			if d.touches(s, i, j) {
				i = j - 1
				continue // kept: copied with what follows
			}
			dst = append(dst, s[from:i]...)
			dst = append(dst, shapeMarker, 0)
			from = j
			i = j - 1
		case b == shapeMarker:
			dst = append(dst, s[from:i+1]...)
			dst = append(dst, shapeMarker)
			from = i + 1
		}
	}
	return append(dst, s[from:]...)
}
