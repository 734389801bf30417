package matcher

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/logmatch/logmatch/internal/benchdata"
	"github.com/logmatch/logmatch/patterns"
)

// imageOf lays m out and loads the image back, as a process of this build
// would.
func imageOf(tb testing.TB, m *Matcher, opts Options) *Matcher {
	tb.Helper()
	b, err := m.AppendImage(nil)
	if err != nil {
		tb.Fatal(err)
	}
	got, err := LoadImage(b, opts)
	if err != nil {
		tb.Fatalf("loading the image just written: %v", err)
	}
	return got
}

// patientOpts is the load path's compile with time enough for every
// candidate of the largest subject, on a loaded machine or under the race
// detector: two matchers compared hit for hit must not differ by which
// ran out of its entry budget.
var patientOpts = Options{Refuse: &patterns.LintOptions{}, MatchTimeout: time.Minute, EntryBudget: time.Hour}

// corpusSubjects are the repository's corpora (real logs as users posted
// them): every line of every file on its own, and each file whole.
func corpusSubjects(tb testing.TB) []Subject {
	tb.Helper()
	var subs []Subject
	for _, dir := range []string{"../testdata/corpus", "../testdata/engines", "../testdata/logs"} {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				tb.Fatal(err)
			}
			text := string(b)
			subs = append(subs, Subject{Text: text})
			for _, l := range strings.Split(text, "\n") {
				subs = append(subs, Subject{Text: l})
			}
			return nil
		})
	}
	if len(subs) < 100 {
		tb.Fatalf("only %d subjects from the corpora", len(subs))
	}
	return subs
}

// sameHits fails unless a and b give the same hits and errors on every
// subject.
func sameHits(tb testing.TB, a, b *Matcher, subs []Subject) (hits int) {
	tb.Helper()
	for _, s := range subs {
		ha, ea := a.Match(s)
		hb, eb := b.Match(s)
		if diff := cmp.Diff(view(ha), view(hb)); diff != "" {
			tb.Fatalf("hits on %.200q differ (-compiled +image):\n%s", s.Text, diff)
		}
		if len(ea) != len(eb) {
			tb.Fatalf("errors on %.200q differ: %v and %v", s.Text, ea, eb)
		}
		hits += len(ha)
	}
	return hits
}

// TestImageMatchesLikeCompile: a Matcher loaded from its image gives the
// same hits as the freshly compiled one, over the corpora with the
// embedded catalog and over the generated catalog's messages, holds the
// same records, and gives the same facts.
func TestImageMatchesLikeCompile(t *testing.T) {
	def, probs := patterns.Default()
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	fresh, _ := Compile(def, patientOpts)
	img := imageOf(t, fresh, patientOpts)
	subs := corpusSubjects(t)
	if n := sameHits(t, fresh, img, subs); n == 0 {
		t.Fatal("no hits on the corpora: the comparison proves nothing")
	}
	if u := img.FactsUse(); !u.Complete() || u.Known != img.Len() {
		t.Errorf("FactsUse %+v of an image, want complete", u)
	}
	if diff := cmp.Diff(encode(t, fresh.Facts()), encode(t, img.Facts())); diff != "" {
		t.Error("the image gives other facts")
	}

	recs := loadCatalog(t)
	fresh, _ = Compile(recs, patientOpts)
	img = imageOf(t, fresh, patientOpts)
	samePrefilter(t, fresh.pf, img.pf)
	gen := differentialSubjects(recs, 2000, 2000)
	if n := sameHits(t, fresh, img, append(gen, subs...)); n < len(recs)/2 {
		t.Fatalf("%d hits on the generated catalog's messages", n)
	}
	if diff := cmp.Diff(fresh.Records(), img.Records(), cmpopts.IgnoreUnexported(patterns.Record{}), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("records differ (-compiled +image):\n%.2000s", diff)
	}
	for i := range img.Len() {
		if fresh.Keyed(i) != img.Keyed(i) || !reflect.DeepEqual(fresh.Required(i), img.Required(i)) {
			t.Fatalf("record %d: keys or literals differ", i)
		}
	}
}

// TestImageOfALargeCatalog: a catalog of about 23,000 records (the
// generated one, and three copies whose patterns are their messages with
// the letters shifted, so that their keys are their own), whose
// prefilter takes the large catalogs' blooms and loops, loads from its
// image with the same prefilter and hits.
func TestImageOfALargeCatalog(t *testing.T) {
	base := loadCatalog(t)
	var recs []patterns.Record
	for k := range 4 {
		for _, r := range base {
			if k > 0 {
				msg := strings.Map(func(c rune) rune {
					if 'a' <= c && c <= 'z' {
						return 'a' + (c-'a'+rune(k))%26
					}
					return c
				}, benchdata.Fill(r.ErrorMessage, "42"))
				r.ID += "-" + strconv.Itoa(k)
				r.MessagePattern, r.ErrorMessage = regexp.QuoteMeta(msg), msg
			}
			recs = append(recs, r)
		}
	}
	fresh, _ := Compile(recs, patientOpts)
	if fresh.pf.blocked == nil {
		t.Errorf("%d records: the prefilter is not the large catalogs' (scan loop %d)", len(recs), scanIndex(fresh.pf.scan))
	}
	img := imageOf(t, fresh, patientOpts)
	samePrefilter(t, fresh.pf, img.pf)
	if n := sameHits(t, fresh, img, differentialSubjects(recs, 1000, 1000)); n < len(recs)/2 {
		t.Fatalf("%d hits on the catalog's messages", n)
	}
}

// samePrefilter fails unless every field of b is a's: a field the
// prefilter gains and the image does not carry fails it, when the catalog
// sets it.
func samePrefilter(tb testing.TB, a, b *prefilter) {
	tb.Helper()
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	for i := range va.NumField() {
		name := va.Type().Field(i).Name
		fa, fb := va.Field(i), vb.Field(i)
		if fa.Kind() == reflect.Func {
			if fa.Pointer() != fb.Pointer() {
				tb.Errorf("prefilter.%s: another function", name)
			}
			continue
		}
		if !reflect.DeepEqual(reflect.NewAt(fa.Type(), fa.Addr().UnsafePointer()).Elem().Interface(),
			reflect.NewAt(fb.Type(), fb.Addr().UnsafePointer()).Elem().Interface()) {
			tb.Errorf("prefilter.%s differs between the compiled Matcher and its image", name)
		}
	}
}

// TestImageRecordsKeepEveryField fills every field of a record and
// expects each back from the image: a field added to patterns.Record and
// not to visitRecord fails it.
func TestImageRecordsKeepEveryField(t *testing.T) {
	var r patterns.Record
	v := reflect.ValueOf(&r).Elem()
	n := 1
	var fill func(f reflect.Value)
	fill = func(f reflect.Value) {
		n++
		switch f.Kind() {
		case reflect.String:
			f.SetString("v" + strings.Repeat("x", n))
		case reflect.Int:
			f.SetInt(int64(n) << 33)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Pointer:
			p := reflect.New(f.Type().Elem())
			fill(p.Elem())
			f.Set(p)
		case reflect.Slice:
			if f.Type() == reflect.TypeOf(json.RawMessage{}) {
				f.SetBytes([]byte(`{"code":7}`))
				return
			}
			s := reflect.MakeSlice(f.Type(), 2, 2)
			fill(s.Index(0))
			fill(s.Index(1))
			f.Set(s)
		case reflect.Map:
			m := reflect.MakeMap(f.Type())
			for _, k := range []string{"sglang", "vllm"} {
				e := reflect.New(f.Type().Elem()).Elem()
				fill(e)
				m.SetMapIndex(reflect.ValueOf(k), e)
			}
			f.Set(m)
		case reflect.Struct:
			for i := range f.NumField() {
				if f.Type().Field(i).IsExported() {
					fill(f.Field(i))
				}
			}
		default:
			t.Fatalf("a field of kind %v: the image does not know it", f.Kind())
		}
	}
	fill(v)
	r.MessagePattern = `disk (\d+) failed`
	r.Severity, r.Role = patterns.SeverityError, patterns.RoleCause
	r.ErrorCode = json.RawMessage(`{"code":7}`)
	m, probs := Compile([]patterns.Record{r}, Options{})
	if len(probs) > 0 || m.Len() != 1 {
		t.Fatalf("problems %v", probs)
	}
	img := imageOf(t, m, Options{})
	got := img.Records()
	if diff := cmp.Diff([]patterns.Record{r}, got, cmpopts.IgnoreUnexported(patterns.Record{})); diff != "" {
		t.Errorf("a record through the image (-want +got):\n%s", diff)
	}
	hits, _ := img.Match(Subject{Text: "disk 3 failed"})
	if len(hits) != 1 || hits[0].Record.Documentation != r.Documentation || hits[0].Groups()["1"] != "3" {
		t.Errorf("hits %v", view(hits))
	}
}

// TestImagePatternAlone: an image's Matcher reads a record's pattern
// without building the record, and reads the record's own.
func TestImagePatternAlone(t *testing.T) {
	var recs []patterns.Record
	for i, p := range []string{`disk (\d+) failed`, `CUDA out of memory\. Tried to allocate`, `x+y`} {
		recs = append(recs, patterns.Record{ID: fmt.Sprintf("r%d", i), Slug: "s", ErrorMessage: "m", MessagePattern: p, Solutions: []string{"fix " + p}})
	}
	m, probs := Compile(recs, Options{})
	if len(probs) > 0 {
		t.Fatalf("problems %v", probs)
	}
	img := imageOf(t, m, Options{})
	for i := range recs {
		if got := img.pattern(i); got != recs[i].MessagePattern {
			t.Errorf("pattern(%d) = %q, want %q", i, got, recs[i].MessagePattern)
		}
		if img.img.ptrs[i].Load() != nil {
			t.Errorf("pattern(%d) built the record", i)
		}
	}
	if hits, _ := img.Match(Subject{Text: "disk 3 failed"}); len(hits) != 1 || hits[0].Record.ID != "r0" {
		t.Errorf("hits %v", view(hits))
	}
	if got := img.pattern(0); got != recs[0].MessagePattern {
		t.Errorf("pattern(0) of a built record = %q", got)
	}
}

// TestImageRefusesOtherOptions: an image is only taken under the options
// it was compiled under: its refusals were decided by them.
func TestImageRefusesOtherOptions(t *testing.T) {
	recs := loadCatalog(t)[:300]
	m, _ := Compile(recs, loadOpts)
	b, err := m.AppendImage(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{
		{},
		{Refuse: &patterns.LintOptions{NoProbe: true}},
		{Refuse: &patterns.LintOptions{}, Corpus: []string{"another server's line"}},
		{Refuse: &patterns.LintOptions{}, NoPrefilter: true},
	} {
		if _, err := LoadImage(b, o); err == nil {
			t.Errorf("an image of %q loaded under %q", factsOptions(loadOpts), factsOptions(o))
		}
	}
	img, err := LoadImage(b, Options{Refuse: &patterns.LintOptions{}, MatchTimeout: 3 * time.Second, EntryBudget: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if img.timeout != 3*time.Second || img.budget != 5*time.Second {
		t.Errorf("timeout %v, budget %v: the options' own", img.timeout, img.budget)
	}
}

// TestImageDamage: every truncation of a small image, and every byte of it
// changed, is refused or loads a Matcher that searches without panicking.
func TestImageDamage(t *testing.T) {
	recs := loadCatalog(t)[:40]
	m, _ := Compile(recs, loadOpts)
	b, err := m.AppendImage(nil)
	if err != nil {
		t.Fatal(err)
	}
	subs := differentialSubjects(recs, 20, 20)
	for n := range len(b) {
		if _, err := LoadImage(b[:n], loadOpts); err == nil {
			t.Fatalf("an image cut to %d of %d bytes loaded", n, len(b))
		}
	}
	step := 1
	if testing.Short() {
		step = 7
	}
	c := make([]byte, len(b))
	for i := 0; i < len(b); i += step {
		copy(c, b)
		c[i] ^= 0x5a
		if img, err := LoadImage(c, loadOpts); err == nil {
			for _, s := range subs {
				img.Match(s)
			}
			img.Records()
		}
	}
}

// seedImage is the image of a few records of the embedded catalog: the
// fuzz target's seed.
func seedImage(tb testing.TB) []byte {
	tb.Helper()
	def, _ := patterns.Default()
	m, _ := Compile(def[:min(len(def), 8)], loadOpts)
	b, err := m.AppendImage(nil)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestWriteImageSeeds writes the fuzz target's committed seed when
// LOGMATCH_WRITE_IMAGE_SEEDS is set (after a change of the layout).
func TestWriteImageSeeds(t *testing.T) {
	if os.Getenv("LOGMATCH_WRITE_IMAGE_SEEDS") == "" {
		t.Skip("set LOGMATCH_WRITE_IMAGE_SEEDS to rewrite testdata/fuzz/FuzzLoadImage")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzLoadImage")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b := seedImage(t)
	for name, data := range map[string][]byte{"image": b, "cut": b[:len(b)/2], "magic": []byte(imageMagic)} {
		seed := "go test fuzz v1\n[]byte(" + strconv.Quote(string(data)) + ")\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(seed), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzLoadImage: LoadImage never panics, and a Matcher it loads searches,
// gives its records and its facts without panicking or looping.
func FuzzLoadImage(f *testing.F) {
	f.Add(seedImage(f))
	subs := []Subject{
		{Text: "RuntimeError: CUDA error: an illegal memory access was encountered"},
		{Text: "[2026-05-28 00:11:09 TP0] Decode batch, #running-req: 12, #token: 4096"},
		{Text: "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", ExceptionTypes: []string{"torch.OutOfMemoryError"}},
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b := make([]byte, len(data)) // an allocation of its own is aligned
		copy(b, data)
		m, err := LoadImage(b, loadOpts)
		if err != nil {
			return
		}
		for _, s := range subs {
			m.Match(s)
		}
		m.Records()
		m.Stats()
		m.Facts()
	})
}

// TestImageKeepsEveryScanLoop: the prefilters of every scan loop (the
// blocked bloom's included) and of literals keyed every fourth byte by
// choice come back from their image with the same loop, blooms and key
// choices, and find the same candidates.
func TestImageKeepsEveryScanLoop(t *testing.T) {
	check := func(t *testing.T, m *Matcher, lits []string) {
		img := imageOf(t, m, Options{})
		if scanIndex(img.pf.scan) != scanIndex(m.pf.scan) || (img.pf.blocked == nil) != (m.pf.blocked == nil) ||
			m.pf.blocked != nil && *img.pf.blocked != *m.pf.blocked {
			t.Fatalf("scan loop %d, blocked %v; image: %d, %v", scanIndex(m.pf.scan), m.pf.blocked != nil, scanIndex(img.pf.scan), img.pf.blocked != nil)
		}
		if !reflect.DeepEqual(img.pf.plan, m.pf.plan) {
			t.Fatal("the image's key plan differs")
		}
		candidatesAtEveryOffset(t, img, lits)
	}
	for name, m := range strideMatchers(t) {
		t.Run(name, func(t *testing.T) { check(t, m, strideLiterals) })
	}
	lits := append(slices.Clone(strideLiterals), routineLiterals...)
	t.Run("routine", func(t *testing.T) { check(t, strideMatcherOf(t, lits, `NCCL error.*watchdog caught collective`), lits) })
}

// TestCheckWordsIsTheVisitorsCheck: the fast check of a record's words
// says what a recordReader that reads them in visitRecord's order says,
// on every record of an image and on words changed one at a time.
func TestCheckWordsIsTheVisitorsCheck(t *testing.T) {
	def, _ := patterns.Default()
	m, _ := Compile(def, loadOpts)
	img := imageOf(t, m, loadOpts)
	ri := img.img
	slow := func(w []uint32) bool {
		var scratch patterns.Record
		d := recordReader{words: w, blob: ri.blob}
		visitRecord(&d, &scratch)
		return !d.bad && len(d.words) == 0
	}
	values := []uint32{0, 1, 2, 3, uint32(len(ri.blob)), 1 << 30, ^uint32(0)}
	for i := range len(ri.start) - 1 {
		w := slices.Clone(ri.words[ri.start[i]:ri.start[i+1]])
		if !checkWords(w, uint64(len(ri.blob))) || !slow(w) {
			t.Fatalf("record %d: refused", i)
		}
		if i%20 != 0 {
			continue
		}
		for j := range w {
			old := w[j]
			for _, v := range values {
				w[j] = v
				if fast, want := checkWords(w, uint64(len(ri.blob))), slow(w); fast != want {
					t.Fatalf("record %d, word %d set to %d: checkWords %t, the visitor %t", i, j, v, fast, want)
				}
			}
			w[j] = old
		}
		if checkWords(w[:len(w)-1], uint64(len(ri.blob))) || checkWords(append(w, 0), uint64(len(ri.blob))) {
			t.Fatalf("record %d: a word short or past the end passes", i)
		}
	}
}
