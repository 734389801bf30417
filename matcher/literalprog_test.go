package matcher

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/logmatch/logmatch/internal/benchdata"
	"github.com/logmatch/logmatch/patterns"
)

func TestParseLitProg(t *testing.T) {
	type gap = litGap
	for _, tc := range []struct {
		expr   string
		lits   []string // nil: falls back to regexp2
		gaps   []gap
		groups int
	}{
		{expr: `abc`, lits: []string{"abc"}},
		{expr: `a\.b`, lits: []string{"a.b"}},
		{expr: `\(x\) \[y\] \{z\}`, lits: []string{"(x) [y] {z}"}},
		{expr: `\/\-\:\,\'\"\=\!\<\>\#\&\%\@\~\;`, lits: []string{`/-:,'"=!<>#&%@~;`}},
		{expr: `\\ \^ \$ \| \* \+ \? \.`, lits: []string{`\ ^ $ | * + ? .`}},
		{expr: "a\\nb\\tc\\rd", lits: []string{"a\nb\tc\rd"}},
		{expr: "raw\nnewline", lits: []string{"raw\nnewline"}},
		{expr: `Größe überschritten 😀`, lits: []string{"Größe überschritten 😀"}},
		{expr: `a(.+?)b`, lits: []string{"a", "b"}, gaps: []gap{{min1: true}}, groups: 1},
		{expr: `a.+?b.*?c`, lits: []string{"a", "b", "c"}, gaps: []gap{{min1: true}, {}}},
		{expr: `(.*?)x(.+?)`, lits: []string{"", "x", ""}, gaps: []gap{{}, {min1: true}}, groups: 2},
		{expr: `x(.+?)(.*?).+?`, lits: []string{"x", "", "", ""}, gaps: []gap{{min1: true}, {}, {min1: true}}, groups: 2},
		{expr: `#1, 2 # -- 'q' "r" ,:;=<>!%&@~` + "`", lits: []string{`#1, 2 # -- 'q' "r" ,:;=<>!%&@~` + "`"}},

		// Left to regexp2.
		{expr: ``},
		{expr: `(.+?)`},
		{expr: `.*?.+?`},
		{expr: `a.+b`},
		{expr: `a.*b`},
		{expr: `a.`},
		{expr: `a.?`},
		{expr: `a+`},
		{expr: `a?`},
		{expr: `a*`},
		{expr: `a{2}`},
		{expr: `a{`},
		{expr: `a}`},
		{expr: `a]`},
		{expr: `[ab]`},
		{expr: `a|b`},
		{expr: `^a`},
		{expr: `a$`},
		{expr: `\d+ x`},
		{expr: `\w`},
		{expr: `\s`},
		{expr: `\b`},
		{expr: `\B`},
		{expr: `(a)\1`},
		{expr: `\0`},
		{expr: `\x41`},
		{expr: `\u0041`},
		{expr: `\cJ`},
		{expr: `\f`},
		{expr: `\v`},
		{expr: `\_`},
		{expr: `\ `},
		{expr: `\é`},
		{expr: `a\`},
		{expr: `(a)`},
		{expr: `(?:.+?)x`},
		{expr: `(?<n>.+?)x`},
		{expr: `(?i)abc`},
		{expr: `a.+??b`},
		{expr: `a.+?+b`},
		{expr: `a(.+?`},
		{expr: `a(.+?)+`},
		{expr: `a(.+?)?`},
		{expr: `a(.+?x)`},
		{expr: `a)`},
		{expr: "bad \xff utf-8"},
		{expr: strings.Repeat("x.+?", maxLitGaps+1) + "x"},
	} {
		lp, ok := parseLitProg(tc.expr)
		if ok != (tc.lits != nil) {
			t.Errorf("parseLitProg(%q) ok = %v, want %v", tc.expr, ok, tc.lits != nil)
			continue
		}
		if !ok {
			continue
		}
		if diff := cmp.Diff(tc.lits, lp.lits); diff != "" {
			t.Errorf("parseLitProg(%q) literals (-want +got):\n%s", tc.expr, diff)
		}
		if diff := cmp.Diff(tc.gaps, lp.gaps, cmp.AllowUnexported(litGap{})); len(tc.gaps)+len(lp.gaps) > 0 && diff != "" {
			t.Errorf("parseLitProg(%q) gaps (-want +got):\n%s", tc.expr, diff)
		}
		re, err := patterns.Compile(tc.expr)
		if err != nil {
			t.Errorf("parseLitProg accepts %q, which regexp2 does not compile: %v", tc.expr, err)
			continue
		}
		if len(lp.groups) != tc.groups {
			t.Errorf("parseLitProg(%q): %d groups, want %d", tc.expr, len(lp.groups), tc.groups)
		}
		if diff := cmp.Diff(patternGroups(re), lp.groups, cmp.AllowUnexported(group{})); diff != "" {
			t.Errorf("parseLitProg(%q) groups differ from regexp2's (-regexp2 +litProg):\n%s", tc.expr, diff)
		}
		// The accepted cases match their own literals as regexp2 does.
		compareLitProg(t, tc.expr, re, lp, strings.Join(lp.lits, "x"))
	}
}

// seqMatch is one match of a FindStringMatch / FindNextMatch sequence.
type seqMatch struct {
	Start, End int
	Groups     map[string]string
}

// maxSeq bounds the sequences compared.
const maxSeq = 64

// regexpSeq is the sequence of matches regexp2 finds in text, first with
// FindStringMatch and then with FindNextMatch, with each match's groups as
// Matcher.hit reads them.
func regexpSeq(re *regexp2.Regexp, text string) ([]seqMatch, error) {
	groups := patternGroups(re)
	var seq []seqMatch
	m, err := re.FindStringMatch(text)
	for ; err == nil && m != nil && len(seq) < maxSeq; m, err = re.FindNextMatch(m) {
		start, length := m.ByteRange()
		sm := seqMatch{Start: start, End: start + length}
		for _, g := range groups {
			grp := m.GroupByNumber(g.num)
			if grp == nil || len(grp.Captures) == 0 {
				continue
			}
			if sm.Groups == nil {
				sm.Groups = map[string]string{}
			}
			sm.Groups[g.key] = grp.String()
			if g.name != "" {
				sm.Groups[g.name] = grp.String()
			}
		}
		seq = append(seq, sm)
	}
	return seq, err
}

// dirtyFind is the memos litSeq's findIn calls share, left as the last
// call left them (another pattern's, another text's) and spoiled before
// each: findIn sets whatever it reads.
var dirtyFind findState

// spoilFind fills st with memos no search made: by seed, each gap's
// search from 0 on found nothing to the end of any text, or found its
// literal at seed; and the line from 0 ends at 0.
func spoilFind(st *findState, seed int) {
	for i := range st.memo {
		if seed%2 == 0 {
			st.memo[i] = gapMemo{from: 0, b: -1, lineEnd: 1 << 30}
		} else {
			st.memo[i] = gapMemo{from: 0, b: seed + i}
		}
	}
	st.line = lineMemo{from: 0, end: 0}
}

// litSeq is regexpSeq for a litProg. Each match is found by find and by
// findIn with spoilt memos, which must agree.
func litSeq(lp *litProg, text string) []seqMatch {
	var seq []seqMatch
	for from := 0; len(seq) < maxSeq; {
		loc, ok := lp.find(text, from, nil)
		spoilFind(&dirtyFind, from+len(seq))
		if loc2, ok2 := lp.findIn(&dirtyFind, text, from, nil); ok2 != ok || !slices.Equal(loc, loc2) {
			panic(fmt.Sprintf("findIn with spoilt memos: %v %v, find: %v %v (%q from %d)", loc2, ok2, loc, ok, text, from))
		}
		if !ok {
			break
		}
		sm := seqMatch{Start: loc[0], End: loc[1]}
		for i, g := range lp.groups {
			if sm.Groups == nil {
				sm.Groups = map[string]string{}
			}
			gap := lp.slot[i]
			sm.Groups[g.key] = text[loc[2+2*gap]:loc[3+2*gap]]
		}
		seq = append(seq, sm)
		from = loc[1]
	}
	return seq
}

// compareLitProg reports where lp's matches in text differ from re's. Text
// that is not valid UTF-8 is regexp2's alone and is not compared.
func compareLitProg(t *testing.T, expr string, re *regexp2.Regexp, lp *litProg, text string) bool {
	t.Helper()
	if !utf8.ValidString(text) {
		return true
	}
	re.MatchTimeout = time.Minute
	want, err := regexpSeq(re, text)
	if err != nil {
		t.Errorf("regexp2 %q on %q: %v", expr, text, err)
		return false
	}
	return sameSeq(t, expr, text, want, litSeq(lp, text))
}

// sameSeq reports where a litProg's matches got differ from regexp2's want.
func sameSeq(t *testing.T, expr, text string, want, got []seqMatch) bool {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pattern %q on %q: litProg's matches differ from regexp2's (-regexp2 +litProg):\n%s", expr, text, diff)
		return false
	}
	return true
}

// litTexts builds texts for lp from its own literals: the pattern filled in
// many ways, near misses (a gap holding a newline, a literal split across
// lines, gaps left empty, the last literal missing), repetitions on one
// line and on several, literals doubled, and text around it all.
func litTexts(lp *litProg, example string, rng *rand.Rand) []string {
	fillers := []string{"", "x", "42", "a b", "é😀", "\n", "x\ny", "\t", "\r", " \u2028 ", "\u2029", "x\r\n", "\u2027\u202a"}
	build := func(fill func(i int) string) string {
		var b strings.Builder
		for i, l := range lp.lits {
			if i > 0 {
				b.WriteString(fill(i - 1))
			}
			b.WriteString(l)
		}
		return b.String()
	}
	x := build(func(int) string { return "x" })
	texts := []string{
		example,
		"Traceback (most recent call last):\n  File \"x.py\", line 1\n    " + example + "\nE: " + example,
		x,
		build(func(int) string { return "" }),
		"pre " + x + " post",
		x + x,
		x + "\n" + x,
		"  " + x + "\n" + x,
		x + "\n  " + x + "\n" + x + " " + x,
		strings.Join(lp.lits, ""),
		strings.Join(lp.lits, "\n"),
		build(func(i int) string { return strings.Repeat("y", i+1) + lp.lits[i+1] }),
	}
	for j := range lp.gaps {
		texts = append(texts, build(func(i int) string {
			if i == j {
				return "\n"
			}
			return "x"
		}))
	}
	for j, l := range lp.lits {
		// Literal j split across lines, and doubled.
		if h := len(l) / 2; h > 0 && utf8.RuneStart(l[h]) {
			split := append([]string(nil), lp.lits...)
			split[j] = l[:h] + "\n" + l[h:]
			texts = append(texts, strings.Join(split, "x"), strings.Join(split, "x")+"\n"+x)
		}
		double := append([]string(nil), lp.lits...)
		double[j] = l + l
		texts = append(texts, strings.Join(double, "x"))
	}
	if len(lp.lits) > 1 {
		texts = append(texts, strings.Join(lp.lits[:len(lp.lits)-1], "x"), strings.Join(lp.lits[:len(lp.lits)-1], "x")+"\n"+lp.lits[len(lp.lits)-1])
	}
	for range 8 {
		texts = append(texts, build(func(int) string { return fillers[rng.IntN(len(fillers))] }))
	}
	for range 4 {
		var b strings.Builder
		for range 1 + rng.IntN(4) {
			b.WriteString(fillers[rng.IntN(len(fillers))])
			b.WriteString(build(func(int) string { return fillers[rng.IntN(len(fillers))] }))
		}
		texts = append(texts, b.String())
	}
	return texts
}

// litCatalogs returns the generated catalog's records (when present) and
// the embedded catalog's.
func litCatalogs(t *testing.T) map[string][]patterns.Record {
	t.Helper()
	embedded, problems := patterns.Default()
	if len(problems) > 0 {
		t.Fatalf("embedded catalog: %v", problems)
	}
	return map[string][]patterns.Record{"generated": loadCatalog(t), "embedded": embedded}
}

// TestLitProgDifferential runs every catalog pattern that takes a litProg
// on texts built from its own literals and example, and compares the whole
// FindNextMatch sequence with regexp2's: ranges and groups.
func TestLitProgDifferential(t *testing.T) {
	step := 1
	if raceEnabled || testing.Short() {
		step = 7 // regexp2 compiles are slow under -race
	}
	for name, recs := range litCatalogs(t) {
		rng := rand.New(rand.NewPCG(3, 5))
		taken, failed := 0, 0
		for i := 0; i < len(recs) && failed < 10; i += step {
			r := &recs[i]
			lp, ok := parseLitProg(r.MessagePattern)
			if !ok {
				continue
			}
			taken++
			re, err := patterns.Compile(r.MessagePattern)
			if err != nil {
				t.Fatalf("record %s: %v", r.ID, err)
			}
			if diff := cmp.Diff(patternGroups(re), lp.groups, cmp.AllowUnexported(group{})); diff != "" {
				t.Errorf("record %s %q: groups differ (-regexp2 +litProg):\n%s", r.ID, r.MessagePattern, diff)
			}
			for _, text := range litTexts(lp, benchdata.Fill(r.ErrorMessage, "42"), rng) {
				if !compareLitProg(t, r.MessagePattern, re, lp, text) {
					failed++
					break
				}
			}
		}
		t.Logf("%s catalog: %d of %d records compared take a litProg", name, taken, (len(recs)+step-1)/step)
		if taken == 0 {
			t.Errorf("%s catalog: no record takes a litProg", name)
		}
	}
}

// TestLitProgHits compares the Matcher's hits with litProgs and without
// (every pattern on regexp2): ranges, lines, groups and the choice of the
// match off a traceback's code line, on texts built as
// TestLitProgDifferential builds them, with exception types.
func TestLitProgHits(t *testing.T) {
	step := 3
	if raceEnabled || testing.Short() {
		step = 29
	}
	for name, all := range litCatalogs(t) {
		var recs []patterns.Record
		for i := 0; i < len(all); i += step {
			recs = append(recs, all[i])
		}
		opts := Options{MatchTimeout: slowMachineTimeout, EntryBudget: time.Hour}
		lit := compileOK(t, recs, opts)
		ref := compileOK(t, recs, opts)
		ref.regexpOnly = true
		rng := rand.New(rand.NewPCG(7, 9))
		compared, failures := 0, 0
		for _, r := range recs {
			lp, ok := parseLitProg(r.MessagePattern)
			if !ok {
				continue
			}
			for k, text := range litTexts(lp, benchdata.Fill(r.ErrorMessage, "42"), rng) {
				s := Subject{Text: text}
				if k%2 == 0 {
					s.ExceptionTypes = []string{"builtins." + r.ErrorClass}
				}
				got, gotErrs := lit.Match(s)
				want, wantErrs := ref.Match(s)
				if len(gotErrs)+len(wantErrs) > 0 {
					t.Fatalf("%q: pattern errors %v, %v", text, gotErrs, wantErrs)
				}
				compared++
				if diff := cmp.Diff(view(want), view(got)); diff != "" && failures < 10 {
					failures++
					t.Errorf("%s: %q: hits differ (-regexp2 +litProg):\n%s", name, text, diff)
				}
			}
		}
		// Text that is not valid UTF-8 goes to regexp2 on both.
		for _, text := range []string{"\xff" + recs[0].ErrorMessage, "x\xc3(\n" + benchdata.Fill(recs[len(recs)-1].ErrorMessage, "\xe2\x80")} {
			got, _ := lit.Match(Subject{Text: text})
			want, _ := ref.Match(Subject{Text: text})
			if diff := cmp.Diff(view(want), view(got)); diff != "" {
				t.Errorf("%s: %q: hits differ (-regexp2 +litProg):\n%s", name, text, diff)
			}
		}
		t.Logf("%s: %d subjects compared", name, compared)
	}
}

// TestLitProgNoRegexp checks that a record with a litProg is matched
// without building its regexp2 program, unless the text is not valid UTF-8
// or Regexp asks for it.
func TestLitProgNoRegexp(t *testing.T) {
	recs := []patterns.Record{{ID: "a", MessagePattern: `CUDA error: (.+?) at (.+?)\.`}}
	m := compileOK(t, recs, Options{})
	hits, errs := m.Match(Subject{Text: "x CUDA error: out of memory at alloc.cu:12. y"})
	if len(errs) > 0 || len(hits) != 1 {
		t.Fatalf("Match: %v, %v", hits, errs)
	}
	want := map[string]string{"1": "out of memory", "2": "alloc"}
	if diff := cmp.Diff(want, hits[0].Groups()); diff != "" || hits[0].Start != 2 || hits[0].End != 37 {
		t.Errorf("hit %d-%d %v, want 2-37 %v", hits[0].Start, hits[0].End, hits[0].Groups(), want)
	}
	c := m.hot[0].prog.Load()
	if c == nil || c.lit == nil || c.re != nil || c.full.Load() != nil {
		t.Fatalf("program after a valid UTF-8 text: %+v, want a litProg and no regexp2 program", c)
	}
	if hits, _ := m.Match(Subject{Text: "\xff CUDA error: \xfe at x."}); len(hits) != 1 || hits[0].Groups()["1"] != "\xfe" {
		t.Errorf("invalid UTF-8 text: hits %v", hits)
	}
	if c.full.Load() == nil {
		t.Errorf("invalid UTF-8 text did not go to regexp2")
	}
	re, err := m.Regexp(0)
	if err != nil || re == nil || re != c.full.Load().re {
		t.Errorf("Regexp(0) = %v, %v; want the program built for the invalid text", re, err)
	}
}

// litPatternFromSpec builds a pattern of the litProg subset from spec:
// pieces split at '|', each a gap kind (its first byte) and literal text
// (the rest), escaped in the ways the subset allows.
// It returns the pattern, its number of gaps and whether it has literal
// text.
func litPatternFromSpec(spec string) (expr string, gaps int, hasLit bool) {
	var b strings.Builder
	for i, piece := range strings.Split(spec, "|") {
		if i > 0 && piece != "" {
			switch piece[0] % 6 {
			case 0:
				b.WriteString(`.+?`)
			case 1:
				b.WriteString(`.*?`)
			case 2:
				b.WriteString(`(.+?)`)
			case 3:
				b.WriteString(`(.*?)`)
			case 4:
				b.WriteString(`\n`)
				hasLit = true
			}
			if piece[0]%6 < 4 {
				gaps++
			}
			piece = piece[1:]
		}
		hasLit = hasLit || piece != ""
		for j := 0; j < len(piece); j++ {
			c := piece[j]
			switch {
			case c == '\n' && j%2 == 0:
				b.WriteString(`\n`)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\r':
				b.WriteString(`\r`)
			case strings.IndexByte(`\.()[]{}|*+?^$`, c) >= 0:
				b.WriteByte('\\')
				b.WriteByte(c)
			case c < utf8.RuneSelf && c != '_' && strings.IndexByte(asciiPunct, c) >= 0 && j%3 == 0:
				b.WriteByte('\\') // needless, and literal all the same
				b.WriteByte(c)
			default:
				b.WriteByte(c)
			}
		}
	}
	return b.String(), gaps, hasLit
}

// FuzzLiteralProgram compares litProgs with regexp2: a pattern built from
// fuzzed literal pieces and gap kinds (which parseLitProg must accept when
// it is valid UTF-8 with some literal text), and the fuzzed spec itself as
// a pattern when regexp2 and parseLitProg both take it, on fuzzed text.
func FuzzLiteralProgram(f *testing.F) {
	// The seed corpus is testdata/fuzz/FuzzLiteralProgram.
	f.Fuzz(func(t *testing.T, spec, text string) {
		if len(spec) > 100 || len(text) > 500 {
			return
		}
		expr, gaps, hasLit := litPatternFromSpec(spec)
		re, err := patterns.Compile(expr)
		if err != nil {
			t.Fatalf("built pattern %q does not compile: %v", expr, err)
		}
		lp, ok := parseLitProg(expr)
		if want := utf8.ValidString(expr) && hasLit && gaps <= maxLitGaps; want != ok {
			t.Fatalf("parseLitProg(%q) ok = %v, want %v", expr, ok, want)
		}
		if ok {
			fuzzCompare(t, expr, re, lp, text)
		}
		if re, err := patterns.Compile(spec); err == nil {
			if lp, ok := parseLitProg(spec); ok {
				fuzzCompare(t, spec, re, lp, text)
			}
		}
	})
}

// fuzzCompare is compareLitProg for fuzzed patterns and texts: many lazy
// gaps on a long line make regexp2 backtrack for long, and a text regexp2
// does not finish within a second is not compared.
func fuzzCompare(t *testing.T, expr string, re *regexp2.Regexp, lp *litProg, text string) {
	t.Helper()
	if !utf8.ValidString(text) {
		return
	}
	re.MatchTimeout = time.Second
	want, err := regexpSeq(re, text)
	if err != nil {
		return
	}
	sameSeq(t, expr, text, want, litSeq(lp, text))
}

// TestParseCompiledLitAllocations: a litProg of up to four literals
// (litsIn) and no groups is built in two allocations, its compiledLit and
// its literals' text.
func TestParseCompiledLitAllocations(t *testing.T) {
	expr := `CUDA error: .+? at .*?\.cu:.+?\)`
	if _, ok := parseCompiledLit(expr); !ok {
		t.Fatalf("%q is not a litProg", expr)
	}
	if n := testing.AllocsPerRun(50, func() { parseCompiledLit(expr) }); n > 2 {
		t.Errorf("parseCompiledLit: %v allocations, want 2", n)
	}
}

// TestLeadingGapSkipsFailedStarts: patterns that start with a gap, whose
// find goes on after a failed start from the first start whose first gap
// ends elsewhere, against regexp2 on random texts of the pieces they
// hold, line terminators and multi-byte characters among them.
func TestLeadingGapSkipsFailedStarts(t *testing.T) {
	exprs := []string{
		`(.+?)a(.+?)b`, `(.*?)a(.*?)b`, `.+?a.*?b.+?c`, `.*?ab.+?c`, `(.*?)(.+?)x`,
		`(.+?)(.*?)ab`, `.+?a`, `.*?é.+?b`, `(.+?)a\.b(.*?)c`,
	}
	pieces := []string{"a", "b", "c", "x", "ab", "é", "\n", "\r", "\u2028", " ", "a.b"}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, expr := range exprs {
		re, err := patterns.Compile(expr)
		if err != nil {
			t.Fatalf("%q: %v", expr, err)
		}
		lp, ok := parseLitProg(expr)
		if !ok {
			t.Fatalf("%q is not a litProg", expr)
		}
		for range 400 {
			var b strings.Builder
			for n := rng.IntN(14); n > 0; n-- {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			text := b.String()
			want, err := regexpSeq(re, text)
			if err != nil {
				t.Fatalf("%q on %q: %v", expr, text, err)
			}
			sameSeq(t, expr, text, want, litSeq(lp, text))
		}
	}
}
