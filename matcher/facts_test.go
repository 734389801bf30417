package matcher

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/logmatch/logmatch/patterns"
)

// loadOpts is the load path's compile (catalog.Load in internal/catalog).
var loadOpts = Options{Refuse: &patterns.LintOptions{}}

// roundTrip encodes f and decodes the encoding.
func roundTrip(tb testing.TB, f *Facts) *Facts {
	tb.Helper()
	b, err := f.AppendBinary(nil)
	if err != nil {
		tb.Fatal(err)
	}
	g, err := UnmarshalFacts(b)
	if err != nil {
		tb.Fatalf("decoding what was encoded: %v", err)
	}
	return g
}

// sameMatcher fails unless a and b hold the same records, literals and
// prefilter tables: they then match every text alike.
func sameMatcher(tb testing.TB, a, b *Matcher) {
	tb.Helper()
	if len(a.recs) != len(b.recs) {
		tb.Fatalf("%d records, want %d", len(b.recs), len(a.recs))
	}
	for i := range a.recs {
		if a.recs[i].ID != b.recs[i].ID {
			tb.Fatalf("record %d is %s, want %s", i, b.recs[i].ID, a.recs[i].ID)
		}
	}
	if diff := cmp.Diff(a.reqs, b.reqs); diff != "" {
		tb.Fatalf("required literals differ (-fresh +from facts):\n%s", diff)
	}
	if !reflect.DeepEqual(a.litLen, b.litLen) || !reflect.DeepEqual(a.classKey, b.classKey) {
		tb.Fatal("literal lengths or class keys differ")
	}
	if (a.pf == nil) != (b.pf == nil) {
		tb.Fatal("one has a prefilter, the other not")
	}
	if a.pf == nil {
		return
	}
	for _, t := range []struct {
		name string
		a, b windowTable
	}{{"short", a.pf.short, b.pf.short}, {"long", a.pf.long, b.pf.long}, {"low", a.pf.low, b.pf.low}, {"tiny", a.pf.tiny, b.pf.tiny}} {
		if !reflect.DeepEqual(t.a, t.b) {
			tb.Fatalf("%s window tables differ", t.name)
		}
	}
	if !reflect.DeepEqual(a.pf.strided, b.pf.strided) || a.pf.hasLow != b.pf.hasLow || !reflect.DeepEqual(a.pf.lits, b.pf.lits) {
		tb.Fatal("strided blooms or keyed literals differ")
	}
	if !reflect.DeepEqual(a.pf.keyClause, b.pf.keyClause) || !reflect.DeepEqual(a.pf.always, b.pf.always) {
		tb.Fatal("key clauses or unkeyed records differ")
	}
}

// TestFactsRebuildTheSameMatcher is the load path twice: the second load
// parses nothing the facts of the first know and chooses no key, and
// builds the same Matcher with the same problems.
func TestFactsRebuildTheSameMatcher(t *testing.T) {
	recs := parseWith(t, patterns.LoadOptions{})
	fresh, freshProbs := Compile(recs, loadOpts)
	facts := roundTrip(t, fresh.Facts())
	if facts.Len() == 0 {
		t.Fatal("no facts")
	}

	again := parseWith(t, patterns.LoadOptions{Parsed: facts.Parses})
	cached, cachedProbs := Compile(again, Options{Refuse: &patterns.LintOptions{}, Facts: facts})
	if u := cached.FactsUse(); !u.Complete() || u.Known != len(again) {
		t.Errorf("FactsUse %+v: want every pattern and the plan from the facts", u)
	}
	if u := fresh.FactsUse(); u.Known != 0 || u.Derived != len(recs) || u.Plan {
		t.Errorf("a compile without facts says it used some: %+v", u)
	}
	if diff := cmp.Diff(freshProbs, cachedProbs, cmp.Comparer(func(a, b error) bool { return (a == nil) == (b == nil) })); diff != "" {
		t.Errorf("problems differ (-fresh +from facts):\n%s", diff)
	}
	sameMatcher(t, fresh, cached)
	// The facts of a Matcher built from facts are those facts.
	if diff := cmp.Diff(encode(t, facts), encode(t, cached.Facts())); diff != "" {
		t.Error("a Matcher built from facts gives other facts")
	}
}

func encode(tb testing.TB, f *Facts) []byte {
	tb.Helper()
	b, err := f.AppendBinary(nil)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestFactsOfOtherOptionsAreNotUsed: facts depend on the backtracking
// check, the corpus and the prefilter; under other options they are
// ignored, and the Matcher is the one built without them.
func TestFactsOfOtherOptionsAreNotUsed(t *testing.T) {
	recs := loadCatalog(t)[:400]
	facts := roundTrip(t, compileOK(t, recs, Options{}).Facts())
	for _, o := range []Options{
		{Refuse: &patterns.LintOptions{}},
		{Refuse: &patterns.LintOptions{NoProbe: true}},
		{Corpus: []string{"a healthy line of some other server"}},
		{NoPrefilter: true},
	} {
		want, _ := Compile(recs, o)
		o.Facts = facts
		got, _ := Compile(recs, o)
		if u := got.FactsUse(); u.Known != 0 || u.Plan {
			t.Errorf("options %s: facts of other options used: %+v", factsOptions(o), u)
		}
		sameMatcher(t, want, got)
	}
}

// TestFactsOfAnEditedCatalog: an edited, reordered catalog takes the facts
// of the patterns it still has, chooses its keys again, and builds the
// Matcher a fresh compile builds.
func TestFactsOfAnEditedCatalog(t *testing.T) {
	all := loadCatalog(t)
	recs := all[:600]
	facts := roundTrip(t, compileOK(t, recs, Options{}).Facts())

	edited := append([]patterns.Record(nil), recs[100:]...)
	edited = append(edited, recs[:100]...)
	edited[3].MessagePattern = "a pattern (no facts know) of its own"
	edited = append(edited, all[600:650]...)
	want := compileOK(t, edited, Options{})
	got := compileOK(t, edited, Options{Facts: facts})
	u := got.FactsUse()
	if u.Plan || u.Complete() || u.Known < 550 || u.Known+u.Derived != len(edited) {
		t.Errorf("FactsUse %+v: want the known patterns' facts and a new plan", u)
	}
	sameMatcher(t, want, got)
}

// TestRefusedPatternsAreCheckedAgain: a pattern the backtracking check
// refuses is not a fact; every load checks it and refuses it again.
func TestRefusedPatternsAreCheckedAgain(t *testing.T) {
	recs := []patterns.Record{
		{ID: "ok", MessagePattern: "CUDA out of memory", Origin: patterns.Origin{File: "c.jsonl", Line: 1}},
		{ID: "bad", MessagePattern: "^(a+)+$", Origin: patterns.Origin{File: "c.jsonl", Line: 2}},
		{ID: "warn", MessagePattern: `Error: (a+)+`, Origin: patterns.Origin{File: "c.jsonl", Line: 3}},
	}
	m, probs := Compile(recs, loadOpts)
	var levels []string
	for _, p := range probs {
		levels = append(levels, p.Level.String()+" "+strings.Fields(p.Message)[1])
	}
	if want := []string{"error bad", "warning catastrophic"}; !reflect.DeepEqual(levels, want) {
		t.Fatalf("problems %q, want %q: %v", levels, want, probs)
	}
	facts := roundTrip(t, m.Facts())
	if facts.Parses(recs[1].MessagePattern) {
		t.Error("the refused pattern is a fact")
	}
	m2, probs2 := Compile(recs, Options{Refuse: loadOpts.Refuse, Facts: facts})
	if diff := cmp.Diff(probs, probs2, cmp.Comparer(func(a, b error) bool { return (a == nil) == (b == nil) })); diff != "" {
		t.Errorf("problems differ (-fresh +from facts):\n%s", diff)
	}
	if u := m2.FactsUse(); m2.Len() != m.Len() || u.Known != m.Len() || !u.Complete() {
		t.Errorf("from facts: %d records, %+v; want %d, all known", m2.Len(), m2.FactsUse(), m.Len())
	}
}

// TestUnmarshalFactsRefusesDamage: every prefix of an encoding, and every
// encoding with one byte changed, decodes to an error or to facts whose
// plan fits their patterns (UnmarshalFacts checks it), never a panic.
func TestUnmarshalFactsRefusesDamage(t *testing.T) {
	recs := loadCatalog(t)[:16]
	b := encode(t, compileOK(t, recs, Options{}).Facts())
	for n := range len(b) {
		if _, err := UnmarshalFacts(b[:n]); err == nil {
			t.Fatalf("a %d-byte prefix of %d decodes", n, len(b))
		}
	}
	if _, err := UnmarshalFacts(append(bytes.Clone(b), 0)); err == nil {
		t.Error("a trailing byte is accepted")
	}
	for i := range b {
		for _, x := range []byte{0x01, 0x80} {
			c := bytes.Clone(b)
			c[i] ^= x
			if f, err := UnmarshalFacts(c); err == nil {
				compileWith(t, recs, f)
			}
		}
	}
}

// compileWith compiles recs with facts that decoded, and matches their
// messages: whatever the facts say, this must not panic.
func compileWith(tb testing.TB, recs []patterns.Record, f *Facts) {
	tb.Helper()
	m, _ := Compile(recs, Options{Facts: f})
	for _, r := range recs {
		m.Match(Subject{Text: strings.ReplaceAll(r.MessagePattern, `\`, "")})
	}
}
