package matcher

import (
	"math/bits"
	"slices"
	"strings"
	"sync"
)

// rarity judges how often a key window would fire on ordinary log text, so
// each pattern can be keyed on its rarest windows.
//
// A window costs its corpus price plus one for every window of a catalog
// literal with the same key. The build prices every window of every
// literal, about 300,000 of them for a catalog of 5,695 records, so how
// they are counted decides the build's speed: a table of every key is
// megabytes, and looking each window up in it is a cache miss. Instead
// the strided windows (short and long) are counted by partition: scattered
// by the top bits of their hash into partitions of a few thousand, each
// counted in a table that stays in cache, and their costs written into
// one array in catalog order, so bestRun reads a literal's window costs
// as a slice. Tiny windows are few; they stay in a table, which bestTiny
// also asks about the tiny windows of longer literals.
type rarity struct {
	// costs holds the cost of every strided window of every literal
	// occurrence, in catalog order (record, clause, literal, offset);
	// at[i] is where literal occurrence i's windows start in it, -1 for
	// a literal with no strided window.
	costs []int32
	at    []int32
	// tiny prices the tiny windows of the literals too short for a
	// strided one; corpus prices the other windows. corpus is shared and
	// only read.
	tiny   costTable
	corpus windowCosts
}

// windowCosts holds a cost per window, by window length (short, long,
// tiny). A window it does not hold costs nothing.
type windowCosts [3]costTable

// costTable maps window keys to costs by open addressing, key and cost in
// one slot so a probe touches one cache line. A zero cost marks an empty
// slot: every key in it costs at least one. The slot is chosen by the
// hash's bits below its top skip bits, so a partition of keys that share
// those top bits still spreads over the whole table.
type costTable struct {
	slots []costSlot
	shift uint
	skip  uint
}

type costSlot struct {
	key  uint64
	cost int32
}

// reset empties t and sizes it for n keys at a load of at most 0.8, at
// which a linear probe still ends within a slot or two. Its slots are
// reused when they are enough.
func (t *costTable) reset(n int, skip uint) {
	b := max(4, bits.Len(uint(n+n/4)))
	if cap(t.slots) >= 1<<b {
		t.slots = t.slots[:1<<b]
		clear(t.slots)
	} else {
		t.slots = make([]costSlot, 1<<b)
	}
	t.shift, t.skip = uint(64-b), skip
}

// slot is where key k is, or the empty slot where it would go.
func (t *costTable) slot(k uint64) *costSlot {
	mask := uint64(len(t.slots) - 1)
	i := (k * hashMul << t.skip) >> t.shift
	for t.slots[i].cost != 0 && t.slots[i].key != k {
		i = (i + 1) & mask
	}
	return &t.slots[i]
}

// add adds c (at least 1) to k's cost, inserting k; a cost stops at
// maxCost, so sums of a few costs cannot overflow. The table must have
// been sized for every key added.
func (t *costTable) add(k uint64, c int32) {
	s := t.slot(k)
	s.key = k
	s.cost = int32(min(int64(s.cost)+int64(c), maxCost))
}

// maxCost is where a window's cost stops: a window seen that often in the
// corpus is as common as any.
const maxCost = 1 << 28

// price adds to every key in t its cost in corpus, the windows' corpus
// price on top of what the literals gave them.
func (t *costTable) price(corpus *costTable) {
	for i := range t.slots {
		if s := &t.slots[i]; s.cost != 0 {
			s.cost = min(s.cost+corpus.get(s.key), maxCost)
		}
	}
}

// get is k's cost, 0 when k is not in t.
func (t *costTable) get(k uint64) int32 {
	if len(t.slots) == 0 {
		return 0
	}
	return t.slot(k).cost
}

func lenIndex(wlen int) int {
	switch wlen {
	case longWindow:
		return 1
	case tinyWindow:
		return 2
	}
	return 0
}

// Costs of a key window, in "texts woken per text" units: a window seen in
// the sample corpus fires on ordinary lines, which dwarfs everything else;
// each catalog literal that holds the window adds one, because records keyed
// on a shared window wake together; a short window is likelier to occur in
// text nobody sampled.
const (
	corpusCost      = 1000
	shortWindowCost = 20
)

// corpusCosts prices every window of the sample corpus. The windows are
// counted in a map first, so each table is sized by the distinct windows
// however long the corpus.
func corpusCosts(corpus []string) windowCosts {
	var c windowCosts
	for _, wlen := range []int{shortWindow, longWindow, tinyWindow} {
		seen := map[uint64]int64{}
		for _, line := range corpus {
			for i := 0; i+wlen <= len(line); i++ {
				seen[windowKey(line[i:i+wlen])] += corpusCost
			}
		}
		t := &c[lenIndex(wlen)]
		t.reset(len(seen), 0)
		for k, cost := range seen {
			t.add(k, int32(min(cost, maxCost)))
		}
	}
	return c
}

// defaultCorpusCosts prices the built-in corpus once for every Compile
// that uses it.
var defaultCorpusCosts = sync.OnceValue(func() windowCosts {
	return corpusCosts(strings.Split(defaultCorpus, "\n"))
})

// pricedLit is a literal whose strided windows are priced: their costs go
// to costs[at:].
type pricedLit struct {
	text string
	at   int32
}

func newRarity(corpus windowCosts, reqs []Required) *rarity {
	r := &rarity{corpus: corpus}
	lits := 0
	for _, req := range reqs {
		for _, c := range req {
			lits += len(c)
		}
	}
	r.at = make([]int32, 0, lits)
	// By lenIndex: short, long. Most literals have long windows.
	strided := [2][]pricedLit{nil, make([]pricedLit, 0, lits)}
	var windows [2]int
	var tinyLits []string
	tinyWindows := 0
	n := int32(0)
	for _, req := range reqs {
		for _, c := range req {
			for _, l := range c {
				at := int32(-1)
				switch wlen := litWindow(l); wlen {
				case shortWindow, longWindow:
					i := lenIndex(wlen)
					at = n
					w := len(l.Text) - wlen + 1
					strided[i] = append(strided[i], pricedLit{l.Text, at})
					windows[i] += w
					n += int32(w)
				case tinyWindow:
					tinyLits = append(tinyLits, l.Text)
					tinyWindows += len(l.Text) - tinyWindow + 1
				}
				r.at = append(r.at, at)
			}
		}
	}
	r.costs = make([]int32, n)
	var part partitionCounter
	part.count(r.costs, strided[0], windows[0], shortWindow, &corpus[0])
	part.count(r.costs, strided[1], windows[1], longWindow, &corpus[1])

	r.tiny.reset(tinyWindows, 0)
	for _, t := range tinyLits {
		for i := 0; i+tinyWindow <= len(t); i++ {
			r.tiny.add(windowKey(t[i:i+tinyWindow]), 1)
		}
	}
	r.tiny.price(&corpus[2])
	return r
}

// partitionWindows is about how many windows one partition holds: its
// table (twice as many 16-byte slots) then stays in a core's cache.
const partitionWindows = 4096

// partitionCounter counts window keys by partition; its buffers are reused
// from one window length to the next.
type partitionCounter struct {
	keys  []uint64
	pos   []int32  // where each key's cost goes in costs
	start []int    // per partition: its first entry in keys
	win   []uint64 // one literal's window keys
	table costTable
}

// appendWindowKeys appends the keys of the wlen-byte windows of s, in
// order, to dst: windowKey of each, rolled from the one before.
func appendWindowKeys(dst []uint64, s string, wlen int) []uint64 {
	if len(s) < wlen {
		return dst
	}
	k := windowKey(s[:wlen])
	dst = append(dst, k)
	top := uint(8 * (wlen - 1))
	for i := wlen; i < len(s); i++ {
		k = k>>8 | uint64(s[i]|keyFold&0xff)<<top
		dst = append(dst, k)
	}
	return dst
}

// count writes, for every window of wlen bytes of every literal in lits,
// its cost into costs: how many of these windows have its key, plus the
// key's corpus price. n is the number of windows.
func (pc *partitionCounter) count(costs []int32, lits []pricedLit, n, wlen int, corpus *costTable) {
	if n == 0 {
		return
	}
	pbits := uint(bits.Len(uint(n / partitionWindows)))
	parts := 1 << pbits
	part := func(k uint64) uint64 {
		if pbits == 0 {
			return 0
		}
		return (k * hashMul) >> (64 - pbits)
	}
	pc.start = slices.Grow(pc.start[:0], parts+1)[:parts+1]
	clear(pc.start)
	for _, l := range lits {
		pc.win = appendWindowKeys(pc.win[:0], l.text, wlen)
		for _, k := range pc.win {
			pc.start[part(k)+1]++
		}
	}
	for p := 1; p <= parts; p++ {
		pc.start[p] += pc.start[p-1]
	}
	pc.keys = slices.Grow(pc.keys[:0], n)[:n]
	pc.pos = slices.Grow(pc.pos[:0], n)[:n]
	next := slices.Clone(pc.start[:parts])
	for _, l := range lits {
		pc.win = appendWindowKeys(pc.win[:0], l.text, wlen)
		for i, k := range pc.win {
			p := part(k)
			pc.keys[next[p]] = k
			pc.pos[next[p]] = l.at + int32(i)
			next[p]++
		}
	}
	t := &pc.table
	for p := range parts {
		keys := pc.keys[pc.start[p]:pc.start[p+1]]
		pos := pc.pos[pc.start[p]:pc.start[p+1]]
		t.reset(len(keys), pbits)
		for _, k := range keys {
			t.add(k, 1)
		}
		t.price(corpus)
		for i, k := range keys {
			costs[pos[i]] = t.slot(k).cost
		}
	}
}

// keyWindow is the window length a literal is keyed on, 0 when too short.
func keyWindow(l Literal) int {
	switch {
	case len(l.Text) >= longWindow+longStride-1:
		return longWindow
	case len(l.Text) >= shortWindow+shortStride-1:
		return shortWindow
	}
	return 0
}

// keyStride is the stride at which a literal's key windows are probed, and
// so how many consecutive windows it is keyed on: longStride when the
// literal has that many of its keyWindow, shortStride otherwise.
func keyStride(l Literal) int {
	if len(l.Text) >= keyWindow(l)+longStride-1 {
		return longStride
	}
	return shortStride
}

// litWindow is the window length a literal's windows are priced at: its
// strided key window, or the tiny window for a literal too short for one.
func litWindow(l Literal) int {
	if w := keyWindow(l); w > 0 {
		return w
	}
	if len(l.Text) >= tinyWindow {
		return tinyWindow
	}
	return 0
}

// tinyCost is what the tiny window k costs.
func (r *rarity) tinyCost(k uint64) int {
	if c := r.tiny.get(k); c != 0 {
		return int(c)
	}
	return int(r.corpus[2].get(k))
}

// bestTiny returns the offset of the cheapest tiny window of l, and its
// cost.
func (r *rarity) bestTiny(l Literal) (off, cost int) {
	cost = -1
	for i := 0; i+tinyWindow <= len(l.Text); i++ {
		if c := r.tinyCost(windowKey(l.Text[i : i+tinyWindow])); cost < 0 || c < cost {
			off, cost = i, c
		}
	}
	return off, cost
}

// bestRun returns the offset of the cheapest run of st (keyStride, or
// shortStride for a literal of short windows) consecutive windows of l,
// literal occurrence lit of the catalog, and its cost. The
// cost is per eight bytes of text: a run probed every fourth byte costs
// twice its windows' sum, so literals of either stride compare.
func (r *rarity) bestRun(l Literal, lit, st int) (off, cost int) {
	wlen := keyWindow(l)
	extra := 0
	if wlen == shortWindow {
		extra = shortWindowCost
	}
	at := int(r.at[lit])
	costs := r.costs[at : at+len(l.Text)-wlen+1]
	cost = -1
	run := 0
	for i, c := range costs {
		run += int(c) + extra
		if i >= st {
			run -= int(costs[i-st]) + extra
		}
		if i >= st-1 && (cost < 0 || run < cost) {
			off, cost = i-st+1, run
		}
	}
	return off, cost * (longStride / st)
}
