package matcher

import (
	"hash/maphash"
	"strings"
	"sync"
	"sync/atomic"
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
// length of a text whose shape is kept. An entry holds its key and its
// last text (each about the text's length), its candidates and hits (two
// or three): about 0.6 MB when full of 100-byte texts, 2.3 MB at most,
// made as shapes are met.
const (
	shapeEntries = 2048
	shapeKeyMax  = 512
)

// shapeMarker starts an escape in a shape key: shapeMarker, 0 stands for a
// masked digit run, shapeMarker, shapeMarker for the byte itself. 0xff is
// never part of UTF-8 text, so the escape is rare.
const shapeMarker = 0xff

// shapeCache is a Matcher's shapes: a map from the key's hash to an
// entry, entries replaced by a clock hand once shapeEntries are used.
type shapeCache struct {
	seed maphash.Seed
	sigs *digitSigs
	mu   sync.Mutex
	// index is an open-addressing table of 2*shapeEntries slots, by the
	// key's hash: an entry's index plus one, 0 for an empty slot. A
	// replaced entry's slot is refilled from the slots after it.
	index []int32
	ents  []shapeEntry
	hand  int

	shapeHits, shapeMisses, textHits atomic.Uint64
}

// shapeEntry is one shape's: its candidates, and the last text of the
// shape searched with what it matched, when that could be kept (with
// whether it was searched with exception types, which move a hit off a
// traceback's source line).
type shapeEntry struct {
	hash    uint64
	key     []byte
	cands   []int32
	text    []byte
	hits    []keptHit
	hasHits bool
	types   bool
	// moves: every candidate is a movable litProg (litProg.movable), so
	// the hits of another text of the shape are text's moved by the
	// masked runs (runs: start and length of each in text).
	moves bool
	runs  []int32
	used  bool // the clock's reference bit
}

// keptHit is a hit kept for its text: where it matched and, for a
// litProg's, its groups' spans (the litProg's groups, which do not change
// once built).
type keptHit struct {
	rec        int32
	start, end int32
	lit        []group
	spans      [2 * inlineGroups]int32
}

// slot returns the slot of the index that holds the entry of hash h, or
// the empty slot where it would go.
func (c *shapeCache) slot(h uint64) int {
	mask := len(c.index) - 1
	i := int(h>>32) & mask
	for c.index[i] != 0 && c.ents[c.index[i]-1].hash != h {
		i = (i + 1) & mask
	}
	return i
}

// entry returns the entry of key (hash h), or nil; the caller holds c.mu.
func (c *shapeCache) entry(h uint64, key []byte) *shapeEntry {
	i := c.index[c.slot(h)]
	if i == 0 || string(c.ents[i-1].key) != string(key) {
		return nil
	}
	e := &c.ents[i-1]
	e.used = true
	return e
}

// add returns a new entry for key (hash h), replacing one the clock hand
// finds unused since it last passed once the cache is full; its memory is
// reused. The caller holds c.mu and found no entry of key.
func (c *shapeCache) add(h uint64, key []byte) *shapeEntry {
	var i int
	if at := c.slot(h); c.index[at] != 0 {
		i = int(c.index[at]) - 1 // another key of the same hash: the newer takes its place
	} else if len(c.ents) < shapeEntries {
		i = len(c.ents)
		c.ents = append(c.ents, shapeEntry{})
		c.index[at] = int32(i + 1)
	} else {
		for c.ents[c.hand].used {
			c.ents[c.hand].used = false
			c.hand = (c.hand + 1) % len(c.ents)
		}
		i = c.hand
		c.hand = (c.hand + 1) % len(c.ents)
		c.remove(c.ents[i].hash)
		c.index[c.slot(h)] = int32(i + 1)
	}
	e := &c.ents[i]
	e.hash = h
	e.key = append(grown(e.key, len(key)), key...)
	e.cands = e.cands[:0]
	e.hasHits = false
	e.used = false
	return e
}

// remove empties the slot of hash h and moves up the slots after it that
// would no longer be found past the gap (linear probing's deletion).
func (c *shapeCache) remove(h uint64) {
	mask := len(c.index) - 1
	gap := c.slot(h)
	c.index[gap] = 0
	for i := (gap + 1) & mask; c.index[i] != 0; i = (i + 1) & mask {
		home := int(c.ents[c.index[i]-1].hash>>32) & mask
		// The entry at i stays when its home lies cyclically in (gap, i].
		if (i > gap && home > gap && home <= i) || (i < gap && (home > gap || home <= i)) {
			continue
		}
		c.index[gap], c.index[i] = c.index[i], 0
		gap = i
	}
}

// shapeSearch finds the candidates of s through the Matcher's shapes,
// given the first block of s with a key whose check bytes are there
// (keyedFrom; s is not longer than shapeKeyMax: appendMatch sends a text
// without such a block, most lines, to candidatesFrom at once). It
// reports found when s is the text last searched of its shape and its hits
// were kept: sc.hits then holds them, and nothing is left to verify.
// Otherwise sc.cands holds the candidates, and keep says that the caller
// is to give what s matched to keepShape.
func (m *Matcher) shapeSearch(sc *scratch, se *Searcher, s *Subject, first int) (found, keep bool) {
	p := m.pf
	text := s.Text
	c := m.shapes()
	se.keyOf(c, text)
	types := len(s.ExceptionTypes) > 0
	c.mu.Lock()
	e := c.entry(se.keyHash, se.key)
	switch {
	case e == nil:
		c.mu.Unlock()
		c.shapeMisses.Add(1)
		se.tally(false)
		p.candidatesFrom(text, sc, first)
		return false, true
	case e.hasHits && e.types == types && (e.moves || string(e.text) == text):
		same := string(e.text) == text
		se.kept = append(se.kept[:0], e.hits...)
		se.keptRuns = append(se.keptRuns[:0], e.runs...)
		sc.cands = append(sc.cands[:0], e.cands...)
		c.mu.Unlock()
		c.shapeHits.Add(1)
		se.tally(true)
		if !same && !se.move() {
			// A place inside a masked run, which no litProg's match
			// has: searched as any other text of the shape.
			return false, true
		}
		c.textHits.Add(1)
		m.tried.Add(uint64(len(sc.cands)))
		sc.hits = sc.hits[:0]
		for i := range se.kept {
			k := &se.kept[i]
			h := m.addHit(sc, k.rec, int(k.start), int(k.end), s)
			if len(k.lit) > 0 {
				h.text, h.lit = text, k.lit
				for j := range k.spans {
					h.spans[j] = int(k.spans[j])
				}
			}
		}
		return true, false
	default:
		sc.cands = append(sc.cands[:0], e.cands...)
		c.mu.Unlock()
		c.shapeHits.Add(1)
		se.tally(true)
		return false, true
	}
}

// move moves the places of the kept hits from the text they were kept for
// to the text searched, which has the same shape: the two differ only in
// their masked runs (keptRuns and runs, start and length each). It
// reports false when a place lies inside a masked run.
func (se *Searcher) move() bool {
	for i := range se.kept {
		k := &se.kept[i]
		ok1, ok2 := true, true
		k.start, ok1 = moved(k.start, se.keptRuns, se.runs)
		k.end, ok2 = moved(k.end, se.keptRuns, se.runs)
		if !ok1 || !ok2 {
			return false
		}
		for j := range 2 * len(k.lit) {
			var ok bool
			if k.spans[j], ok = moved(k.spans[j], se.keptRuns, se.runs); !ok {
				return false
			}
		}
	}
	return true
}

// moved is the place p of one text in another of its shape, whose masked
// runs are to where the first's are from.
func moved(p int32, from, to []int32) (int32, bool) {
	d := int32(0)
	for r := 0; r < len(from) && r < len(to); r += 2 {
		start, n := from[r], from[r+1]
		if p <= start {
			break
		}
		if p < start+n {
			return 0, false
		}
		d += to[r+1] - n
	}
	return p + d, true
}

// keepShape keeps what shapeSearch looked up and the caller searched: the
// candidates of the shape, and s with the hits sc holds of it when clean
// (no pattern failed) and every hit is a litProg's with its groups as
// spans or has no groups (a hit with built groups is not kept: its map is
// the caller's to change).
func (m *Matcher) keepShape(se *Searcher, sc *scratch, s *Subject, clean, lit bool) {
	se.kept = se.kept[:0]
	for i := range sc.hits {
		h := &sc.hits[i].hit
		if h.groups != nil {
			clean = false
			break
		}
		k := keptHit{rec: sc.hits[i].rec, start: int32(h.Start), end: int32(h.End), lit: h.lit}
		for j := range h.spans {
			k.spans[j] = int32(h.spans[j])
		}
		se.kept = append(se.kept, k)
	}
	c := m.caches.Load()
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entry(se.keyHash, se.key)
	if e == nil {
		e = c.add(se.keyHash, se.key)
		e.cands = append(grown(e.cands, len(sc.cands)), sc.cands...)
	}
	e.hasHits = clean
	e.moves = clean && lit
	if clean {
		e.text = append(grown(e.text, len(s.Text)), s.Text...)
		e.hits = append(grown(e.hits, len(se.kept)), se.kept...)
		e.runs = append(grown(e.runs, len(se.runs)), se.runs...)
		e.types = len(s.ExceptionTypes) > 0
	}
}

// grown returns s emptied, with room for n: a cache entry's slice, which
// takes room to spare so that later texts of the entry seldom need more.
func grown[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, 0, max(n+n/4, 4))
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
		if pass == passLow && checkedAt(&p.low, w&0xffffffff, s, i) ||
			(pass == passHigh || pass == passLow && p.shortB.has((w>>32)*hashMul)) && checkedAt(&p.short, w>>32, s, i+shortWindow) ||
			(pass == passLong || p.longMay(w)) && checkedAt(&p.long, w, s, i) {
			return r
		}
	}
	return len(s)
}

// checkedAt reports whether t keys a literal on k, the window at pos,
// whose check is there in s (verifyChecked's first test). It is kept out
// of keyedFrom's loop, as probeAt is out of candidatesFrom's.
//
//go:noinline
func checkedAt(t *windowTable, k uint64, s string, pos int) bool {
	refs := t.probe(k)
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

// sigHash hashes a signature: its kind, the bytes before, the digits, the
// bytes after (FNV-1a, letters folded, the parts' lengths mixed in).
func sigHash(kind int, before, digits, after string) uint64 {
	h := uint64(14695981039346656037)
	mix := func(b byte) { h = (h ^ uint64(b)) * 1099511628211 }
	mix(byte(kind))
	mix(byte(len(before)))
	for i := 0; i < len(before); i++ {
		mix(foldTable[before[i]])
	}
	mix(byte(len(digits)))
	for i := 0; i < len(digits); i++ {
		mix(digits[i])
	}
	for i := 0; i < len(after); i++ {
		mix(foldTable[after[i]])
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
	dst, _ = d.shapeKeyRuns(dst, nil, s)
	return dst
}

// shapeKeyRuns is shapeKey also appending to runs the start and the length
// of each masked run of s, in order.
func (d *digitSigs) shapeKeyRuns(dst []byte, runs []int32, s string) ([]byte, []int32) {
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
			runs = append(runs, int32(i), int32(j-i))
			from = j
			i = j - 1
		case b == shapeMarker:
			dst = append(dst, s[from:i+1]...)
			dst = append(dst, shapeMarker)
			from = i + 1
		}
	}
	return append(dst, s[from:]...), runs
}

// A Searcher looks texts up by their shape only while that pays. A text
// found saves the prefilter's search (and, when it is the last text of its
// shape or its hits move, the patterns'); a text looked up costs keyedFrom's
// probes, its key and the look-up, and one not found what is kept of it.
// Measured in a whole scan of the generated catalog's error lines (the
// fifteenth round's notes), a look-up costs about 1.1 µs, a shape found
// saves about 0.7 µs and a text found 0.5 µs more. Routine lines whose
// blocks pass the prefilter's bloom repeat a few shapes and are found far
// more cheaply than that: in a whole scan (BenchmarkScanLines, and
// BenchmarkScanErrorLines at 0 and 5% error lines) a Searcher that goes
// sparse only when fewer than half its look-ups find is faster at every
// rate than one that does so below seven in eight. So each Searcher counts
// its look-ups and finds in windows of shapeWindow: a window that found
// fewer than half makes it sparse, and a sparse Searcher searches every
// text as without the cache, looking up only one text with candidates in
// shapeSample (kept as before), until a window of those finds half again.
// The cache never changes what is found, only how.
const (
	shapeWindow = 64
	shapeSample = 16
)

// tally counts a look-up of the Searcher's, found or not, and decides
// at the end of a window whether the shapes pay.
func (se *Searcher) tally(found bool) {
	if se.m.shapesDense {
		return
	}
	se.looked++
	if found {
		se.found++
	}
	if se.looked == shapeWindow {
		se.sparse = 2*int(se.found) < int(se.looked)
		se.looked, se.found, se.sampled = 0, 0, 0
	}
}

// sparseSearch is shapeSearch for a sparse Searcher: the candidates of s
// from the prefilter, as without the cache, and one text with candidates
// in shapeSample looked up to tell when the shapes pay again. It reports
// whether what s matches is to be kept (keepShape).
func (m *Matcher) sparseSearch(sc *scratch, se *Searcher, s *Subject, first int) bool {
	m.pf.candidatesFrom(s.Text, sc, first)
	if len(sc.cands) == 0 {
		return false
	}
	if se.sampled++; se.sampled < shapeSample {
		return false
	}
	se.sampled = 0
	return m.shapeSampled(se, s)
}

// shapeSampled is a sparse Searcher's look-up of s, whose candidates
// sc holds (the prefilter's): it counts whether s's shape was found and
// reports that what s matches is to be kept (keepShape), refreshing or
// adding its entry.
func (m *Matcher) shapeSampled(se *Searcher, s *Subject) bool {
	c := m.shapes()
	se.keyOf(c, s.Text)
	c.mu.Lock()
	found := c.entry(se.keyHash, se.key) != nil
	c.mu.Unlock()
	if found {
		c.shapeHits.Add(1)
	} else {
		c.shapeMisses.Add(1)
	}
	se.tally(found)
	return true
}

// keyOf makes se's key, runs and hash those of text's shape in c.
func (se *Searcher) keyOf(c *shapeCache, text string) {
	se.key, se.runs = c.sigs.shapeKeyRuns(se.key[:0], se.runs[:0], text)
	se.keyHash = maphash.Bytes(c.seed, se.key)
}

// shapes returns the Matcher's shape cache, built on first use.
func (m *Matcher) shapes() *shapeCache {
	m.cachesOnce.Do(func() {
		m.caches.Store(&shapeCache{seed: maphash.MakeSeed(), sigs: buildDigitSigs(m.reqs), index: make([]int32, 2*shapeEntries)})
	})
	return m.caches.Load()
}
