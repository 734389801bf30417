package matcher

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/patterns"
)

// strideLiterals cover every keying of the strided windows: 7 to 10 bytes
// (4-byte windows every fourth byte, the lower halves included), 11 to 14
// (4-byte windows every eighth byte) and 15 and more (8-byte windows every
// eighth byte), with and without case folding, a byte above 0x7f, and
// bytes that keyFold merges with others ('[' and '{', '\r' and '-').
var strideLiterals = []string{
	"Timeout", "Killed!!", "xid=79 ab", "NCCL error", "(?i)cuda fault",
	"Bad [frame]", "rank 7 {lost", "ECC uncorrected", "Größe 12",
	"RuntimeError: boom", "(?i)Out Of Memory at", "watchdog caught collective",
	"line one\r-line two", "CUDA error: an illegal memory access was encountered",
	"[x]{y}[z]{w}[v]", "abcdefghijklmn", "abcdefghijklmno", "0123456789",
}

// strideMatcher compiles one record per strideLiterals entry (its pattern
// the literal itself), and one with two clauses of different keyings.
func strideMatcher(tb testing.TB) *Matcher {
	return strideMatcherOf(tb, strideLiterals, `NCCL error.*watchdog caught collective`)
}

// highStrideLiterals are the strideLiterals of 11 bytes and more: a catalog
// of them needs no lower halves.
func highStrideLiterals() []string {
	var lits []string
	for _, l := range strideLiterals {
		if len(strings.TrimPrefix(l, "(?i)")) >= shortWindow+longStride-1 {
			lits = append(lits, l)
		}
	}
	return lits
}

// strideMatcherOf compiles one record per literal of lits (its pattern the
// literal itself), and one whose pattern is two.
func strideMatcherOf(tb testing.TB, lits []string, two string) *Matcher {
	var recs []patterns.Record
	for i, l := range lits {
		pat := regexp.QuoteMeta(l)
		if rest, ok := strings.CutPrefix(l, "(?i)"); ok {
			pat = "(?i)" + regexp.QuoteMeta(rest)
		}
		recs = append(recs, patterns.Record{ID: fmt.Sprintf("s%d", i), MessagePattern: pat})
	}
	recs = append(recs, patterns.Record{ID: "two", MessagePattern: two})
	return compileOK(tb, recs, Options{})
}

// strideMatchers are strideMatcher with its own small bloom, with the
// bloom of 2^fixedBloomLog bits of a large catalog, and with split keys
// (the halves in small blooms of their own) beside a fixed, a larger or a
// blocked bloom, whose scan loops are others, and the literals of
// highStrideLiterals with the small or the fixed bloom, which take the
// loops without lower halves: each of the seven scan loops.
func strideMatchers(tb testing.TB) map[string]*Matcher {
	fixedBloomOf := func(m *Matcher) *Matcher {
		m.pf.setStrided(bloom{bits: make([]uint64, len(fixedBloom{})), shift: 64 - fixedBloomLog})
		return m
	}
	fixed := fixedBloomOf(strideMatcher(tb))
	if small := strideMatcher(tb); small.pf.strided.fixed() || !fixed.pf.strided.fixed() {
		tb.Fatalf("bloom sizes: small %d words, fixed %d words", len(small.pf.strided.bits), len(fixed.pf.strided.bits))
	}
	high := fixedBloomOf(strideMatcherOf(tb, highStrideLiterals(), `ECC uncorrected.*watchdog caught collective`))
	if high.pf.hasLow || len(high.pf.short.slots) == 0 || len(high.pf.long.slots) == 0 {
		tb.Fatalf("high-stride catalog: low %v, short %d slots, long %d slots", high.pf.hasLow, len(high.pf.short.slots), len(high.pf.long.slots))
	}
	smallHigh := strideMatcherOf(tb, highStrideLiterals(), `ECC uncorrected.*watchdog caught collective`)
	if smallHigh.pf.hasLow || smallHigh.pf.strided.fixed() {
		tb.Fatalf("small high-stride catalog: low %v, fixed bloom %v", smallHigh.pf.hasLow, smallHigh.pf.strided.fixed())
	}
	split := strideMatcher(tb)
	split.pf.setSplit(bloom{bits: make([]uint64, len(fixedBloom{})), shift: 64 - fixedBloomLog})
	if len(split.pf.lowB.bits) != len(lowBloom{}) || len(split.pf.shortB.bits) != len(shortBloom{}) {
		tb.Fatalf("split blooms: low %d words, short %d words", len(split.pf.lowB.bits), len(split.pf.shortB.bits))
	}
	large := strideMatcher(tb)
	large.pf.setSplit(bloom{bits: make([]uint64, 2*len(fixedBloom{})), shift: 64 - fixedBloomLog - 1})
	if large.pf.strided.fixed() || len(large.pf.lowB.bits) != len(lowBloom{}) {
		tb.Fatalf("large split blooms: long %d words, low %d words", len(large.pf.strided.bits), len(large.pf.lowB.bits))
	}
	blocked := strideMatcher(tb)
	blocked.pf.setSplitBlocked()
	if blocked.pf.blocked == nil || len(blocked.pf.strided.bits) != 0 || len(blocked.pf.lowB.bits) != len(blockedLowBloom{}) {
		tb.Fatalf("blocked split blooms: long %d words, low %d words", len(blocked.pf.strided.bits), len(blocked.pf.lowB.bits))
	}
	return map[string]*Matcher{"small": strideMatcher(tb), "fixed": fixed, "fixed-high": high, "small-high": smallHigh,
		"fixed-split": split, "large-split": large, "blocked-split": blocked}
}

// exactCandidates is what candidates must return: every record all of
// whose clauses hold in s, in record order.
func exactCandidates(p *prefilter, s string) []int32 {
	var want []int32
	for r, req := range p.reqs {
		if holdsClauses(s, req, -1) {
			want = append(want, int32(r))
		}
	}
	return want
}

func checkCandidates(tb testing.TB, m *Matcher, sc *scratch, s string) {
	tb.Helper()
	m.pf.candidates(s, sc)
	if want := exactCandidates(m.pf, s); !slices.Equal(sc.cands, want) {
		tb.Fatalf("candidates(%q) = %v, want %v", s, sc.cands, want)
	}
}

// Every keying is exercised: the catalog above has keys of each kind.
func TestStrideLiteralsUseEveryKeying(t *testing.T) {
	m := strideMatcher(t)
	p := m.pf
	if len(p.long.slots) == 0 || len(p.short.slots) == 0 || len(p.low.slots) == 0 || !p.hasLow {
		t.Fatalf("tables: long %d short %d low %d slots", len(p.long.slots), len(p.short.slots), len(p.low.slots))
	}
	for i := range p.reqs {
		if !m.Keyed(i) {
			t.Errorf("record %d (%s) is not keyed", i, m.Records()[i].MessagePattern)
		}
	}
}

// A literal is found wherever it lies: at every offset from the start of
// a text, up to its end, inside and across the eight-byte blocks, in upper
// and lower case, and so is every pair of literals.
func TestCandidatesAtEveryOffset(t *testing.T) {
	for name, m := range strideMatchers(t) {
		t.Run(name, func(t *testing.T) { candidatesAtEveryOffset(t, m, strideLiterals) })
	}
}

func candidatesAtEveryOffset(t *testing.T, m *Matcher, lits []string) {
	sc := m.pf.newScratch()
	for _, l := range lits {
		l = strings.TrimPrefix(l, "(?i)")
		for _, form := range []string{l, strings.ToUpper(l), strings.ToLower(l)} {
			for pre := 0; pre < 2*longStride; pre++ {
				for post := 0; post < 2*longStride; post++ {
					checkCandidates(t, m, sc, strings.Repeat(".", pre)+form+strings.Repeat("_", post))
				}
			}
		}
	}
	for _, a := range lits {
		for _, b := range lits {
			a, b = strings.TrimPrefix(a, "(?i)"), strings.TrimPrefix(b, "(?i)")
			for gap := range longStride {
				checkCandidates(t, m, sc, a+strings.Repeat(" ", gap)+b)
			}
		}
	}
}

// FuzzStrideCandidates checks the prefilter's candidates against the
// plain search of every record's literals on any text.
func FuzzStrideCandidates(f *testing.F) {
	ms := strideMatchers(f)
	for _, s := range []string{
		"", "Timeout", "..Timeout", "xxxxxxxTimeout", "NCCL errorxx", "xxxxNCCL error",
		"RUNTIMEERROR: BOOM", "1234567watchdog caught collective", "Bad {frame]", "line one\r-line two",
		"[2026-05-28 00:11:09 TP0] CUDA error: an illegal memory access was encountered",
		"abcdefghijklmnabcdefghijklmno", "GRÖSSE 12 Größe 12", "\xff\xfeKilled!!\x00",
	} {
		f.Add(s)
	}
	type checked struct {
		m  *Matcher
		sc *scratch
	}
	var all []checked
	for _, name := range []string{"small", "fixed", "fixed-high", "small-high", "fixed-split", "large-split", "blocked-split"} {
		all = append(all, checked{ms[name], ms[name].pf.newScratch()})
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range all {
			checkCandidates(t, c.m, c.sc, s)
		}
	})
}

// The generated catalog's halves take blooms of their own: few keys, a
// large catalog (see setSplit).
func TestGeneratedCatalogSplitsItsKeys(t *testing.T) {
	m := compileOK(t, loadCatalog(t), Options{})
	if len(m.pf.lowB.bits) != len(lowBloom{}) || len(m.pf.shortB.bits) != len(shortBloom{}) || !m.pf.strided.fixed() {
		t.Fatalf("blooms: low %d, short %d, long %d words; keys: low %d, short %d, long %d",
			len(m.pf.lowB.bits), len(m.pf.shortB.bits), len(m.pf.strided.bits), m.pf.low.keys(), m.pf.short.keys(), m.pf.long.keys())
	}
}

// routineLiterals are 11 to 14 bytes, each with a word of ordinary lines
// in every run of eight of its 4-byte windows ("batch", "token") and
// four rare windows before it: they are keyed every fourth byte
// (keyChoice.low). The last has no such word and stays every eighth.
var routineLiterals = []string{"qzxwj batch, ", "(?i)QZXWJ Token: ", "qzxwj vbnmkl"}

func TestRoutineWordsMoveToTheLowerStride(t *testing.T) {
	lits := append(slices.Clone(strideLiterals), routineLiterals...)
	m := strideMatcherOf(t, lits, `NCCL error.*watchdog caught collective`)
	var low []string
	for rec, c := range m.pf.plan.choice {
		if c.low {
			low = append(low, lits[rec])
		}
	}
	if want := routineLiterals[:2]; !slices.Equal(low, want) {
		t.Fatalf("literals keyed every fourth byte by choice: %q, want %q", low, want)
	}
	if err := m.pf.plan.check(m.pf.reqs); err != nil {
		t.Fatal(err)
	}
	inLow := map[string]bool{}
	for _, ref := range m.pf.low.refs {
		inLow[lits[ref.rec]] = true
	}
	for _, l := range low {
		if !inLow[l] {
			t.Errorf("%q has no key in the low table", l)
		}
	}
	candidatesAtEveryOffset(t, m, lits)
	// A routine line holding the words wakes no probe of these literals.
	sc := m.pf.newScratch()
	checkCandidates(t, m, sc, "[2026-05-28 00:11:09 TP0] Prefill batch, #new-seq: 1, #new-token: 512, token usage: 0.01")
}

// A record keyed every eighth byte on its cheapest clause can be cheaper
// still on another clause keyed every fourth byte: "qzcode!!" holds
// "code" (of "Decode batch") in every run of its windows, and
// "qzxw token: " holds "toke" and "oken" in every run of eight, but has
// four rare windows in a row. The record moves to that clause.
func TestRoutineWordsMoveToAnotherClause(t *testing.T) {
	const two = `qzcode!!.*qzxw token: `
	m := strideMatcherOf(t, strideLiterals, two)
	p := m.pf
	rec := len(strideLiterals)
	if c := p.plan.choice[rec]; c.clause != 1 || !c.low {
		t.Fatalf("choice %+v for %q, want clause 1 every fourth byte", c, two)
	}
	if err := p.plan.check(p.reqs); err != nil {
		t.Fatal(err)
	}
	corpus := defaultCorpusCosts()
	for _, ref := range p.low.refs {
		if int(ref.rec) != rec {
			continue
		}
		l := p.lits[ref.lit].Text
		if w := l[ref.off : ref.off+shortWindow]; corpus[lenIndex(shortWindow)].get(windowKey(w)) != 0 {
			t.Errorf("keyed on %q, a window of the corpus", w)
		}
	}
	candidatesAtEveryOffset(t, m, append(slices.Clone(strideLiterals), "qzcode!!", "qzxw token: "))
	sc := p.newScratch()
	for _, s := range []string{"qzcode!! and qzxw token: ", "qzxw token: qzcode!!", "qzcode!! qzxw token:", "[2026-05-28 00:11:10 TP0] Decode batch, #running-req: 12, #token: 4096, token usage: 0.05"} {
		checkCandidates(t, m, sc, s)
	}
}

// A catalog whose long keys take the blocked bloom has a larger low bloom,
// and keys more literals every fourth byte than a smaller catalog may:
// 700 ragged literals all move beside 17,000 records of long literals,
// 512 (maxLowLiterals) without them.
func TestLargeCatalogsMoveMoreToTheLowerStride(t *testing.T) {
	var ragged, long []patterns.Record
	for i := range 700 {
		ragged = append(ragged, patterns.Record{ID: fmt.Sprintf("r%d", i), MessagePattern: fmt.Sprintf(`q%03dj batch, `, i)})
	}
	rnd := uint64(1)
	for i := range 17_000 {
		var b [20]byte
		for j := range b {
			rnd = rnd*6364136223846793005 + 1442695040888963407
			b[j] = 'a' + byte(rnd>>33)%26
		}
		long = append(long, patterns.Record{ID: fmt.Sprintf("l%d", i), MessagePattern: string(b[:])})
	}
	lows := func(m *Matcher) int {
		n := 0
		for _, c := range m.pf.plan.choice {
			if c.low {
				n++
			}
		}
		return n
	}
	small := compileOK(t, ragged, Options{})
	if n := lows(small); n != maxLowLiterals {
		t.Errorf("small catalog: %d literals every fourth byte, want %d", n, maxLowLiterals)
	}
	large := compileOK(t, append(slices.Clone(ragged), long...), Options{})
	p := large.pf
	if p.blocked == nil || len(p.lowB.bits) != len(blockedLowBloom{}) {
		t.Fatalf("large catalog: blocked bloom %v, low bloom of %d words", p.blocked != nil, len(p.lowB.bits))
	}
	if n := lows(large); n != len(ragged) {
		t.Errorf("large catalog: %d literals every fourth byte, want all %d", n, len(ragged))
	}
	if err := p.plan.check(p.reqs); err != nil {
		t.Fatal(err)
	}
	sc := p.newScratch()
	for i := 0; i < len(ragged); i += 37 {
		lit := fmt.Sprintf("q%03dj batch, ", i)
		for pre := range shortStride {
			checkCandidates(t, large, sc, strings.Repeat(".", pre)+"Decode batch, "+lit+long[i].MessagePattern)
		}
	}
}

// blocked agrees with the blooms newStridedBloom makes: a catalog of long
// keys takes the blocked bloom exactly when the fixed one is too small.
func TestBlockedAgreesWithTheStridedBloom(t *testing.T) {
	for _, n := range []int{minFixedBloomKeys, 1 << 15, 1<<(fixedBloomLog-5) - 1, 1 << (fixedBloomLog - 5), 1<<(fixedBloomLog-5) + 1, 200_000, maxBlockedBloomKeys, maxBlockedBloomKeys + 1} {
		b := newStridedBloom(n)
		if want := !b.fixed() && n <= maxBlockedBloomKeys; blocked(n) != want {
			t.Errorf("blocked(%d) = %v, want %v (a bloom of %d words)", n, blocked(n), want, len(b.bits))
		}
	}
}

// Refs of one key whose literals share the four bytes before the window
// take checks that tell them apart, and every check is four bytes of its
// own literal.
func TestChecksTellRefsOfAKeyApart(t *testing.T) {
	lits := []Literal{
		{Text: "xxxxABCDwindow12zzz1"}, {Text: "xxxxABCDwindow12zzz2"}, {Text: "qqABCDwindow12"},
		{Text: "abcdwindow12 tail", Fold: true},
	}
	group := []keyRef{{rec: 0, off: 8, lit: 0}, {rec: 1, off: 8, lit: 1}, {rec: 2, off: 6, lit: 2}, {rec: 3, off: 4, lit: 3}}
	seen := map[refCheck]int{}
	for i, ref := range group {
		c := chooseCheck(lits, group, i, longWindow)
		text := lits[ref.lit].Text
		at := int(ref.off) + int(c.rel)
		if at < 0 || at+4 > len(text) || c.word != uint32(windowKey(text[at:at+4])) {
			t.Fatalf("ref %d: check %+v is not four bytes of %q", i, c, text)
		}
		if j, ok := seen[c]; ok {
			t.Errorf("refs %d and %d have one check %+v", j, i, c)
		}
		seen[c] = i
	}
	// Alone, a ref keeps the four bytes before its window.
	if c := chooseCheck(lits, group[:1], 0, longWindow); c.rel != -4 {
		t.Errorf("a lone ref's check at %d from its window, want -4", c.rel)
	}
}
