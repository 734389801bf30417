package matcher

import (
	"fmt"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/benchdata"
	"github.com/logmatch/logmatch/patterns"
)

// benchLines is the benchmark input: realistic sglang serving output with
// 0.1% error lines built from the catalog's own messages.
func benchLines(recs []patterns.Record, n int) []string {
	msgs := make([]string, 0, len(recs))
	for _, r := range recs {
		msgs = append(msgs, r.ErrorMessage)
	}
	return benchdata.New(benchdata.Config{Seed: 1, ErrorRate: 0.001, ErrorMessages: msgs}).Lines(n)
}

func benchmarkMatch(b *testing.B, opts Options, n int) {
	recs := loadCatalog(b)
	m := compileOK(b, recs, opts)
	lines := benchLines(recs, n)
	var hits []Hit
	var errs []PatternError
	// Build the regexp2 programs the first line needs (all of them for
	// the naive loop) outside the timing.
	hits, errs = m.AppendMatch(hits, errs, Subject{Text: lines[0]})
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime(b)
	i := 0
	for b.Loop() {
		hits, errs = m.AppendMatch(hits[:0], errs[:0], Subject{Text: lines[i%len(lines)]})
		i++
	}
	b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "lines/s")
	// CPU time, unlike wall time, hardly moves when other processes share
	// the machine; it is the number to compare across runs.
	b.ReportMetric(float64(i)/(cpuTime(b)-cpu0).Seconds(), "cpu-lines/s")
	if len(errs) > 0 {
		b.Fatalf("pattern errors: %v", errs)
	}
}

// cpuTime is the user plus system time the process has used so far.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkMatch is the prefiltered matcher over the whole catalog; one op
// is one line.
func BenchmarkMatch(b *testing.B) { benchmarkMatch(b, Options{}, 100_000) }

// BenchmarkNaive tries every pattern on every line: the baseline the
// prefilter is measured against. Run it with a small -benchtime.
// The timeout is raised so that a loaded machine measures the patterns'
// cost instead of failing on it.
func BenchmarkNaive(b *testing.B) {
	benchmarkMatch(b, Options{NoPrefilter: true, MatchTimeout: slowMachineTimeout, EntryBudget: time.Hour}, 1_000)
}

// BenchmarkMatchErrorLines is BenchmarkMatch at other shares of error
// lines: none, 0.1%, 1% and 5%, over the same 100k lines Vectorscan's
// reference driver scans in scripts/bench-vectorscan.sh (genlines' output).
// cpu-ns/line is user+system time a line; what an error line costs is the
// difference of two shares over the difference of the shares.
func BenchmarkMatchErrorLines(b *testing.B) {
	recs := loadCatalog(b)
	m := compileOK(b, recs, Options{})
	msgs := make([]string, 0, len(recs))
	for _, r := range recs {
		if r.ErrorMessage != "" {
			msgs = append(msgs, r.ErrorMessage)
		}
	}
	for _, rate := range []float64{0, 0.001, 0.01, 0.05} {
		b.Run(fmt.Sprintf("rate=%g", rate), func(b *testing.B) {
			lines := benchdata.New(benchdata.Config{Seed: 1, ErrorRate: rate, ErrorMessages: msgs}).Lines(100_000)
			var hits []Hit
			var errs []PatternError
			// Build every program the lines need outside the timing.
			for _, l := range lines {
				hits, errs = m.AppendMatch(hits[:0], errs[:0], Subject{Text: l})
			}
			b.ReportAllocs()
			cpu0 := cpuTime(b)
			n := 0
			for b.Loop() {
				for _, l := range lines {
					hits, errs = m.AppendMatch(hits[:0], errs[:0], Subject{Text: l})
				}
				n += len(lines)
			}
			b.ReportMetric(float64((cpuTime(b)-cpu0).Nanoseconds())/float64(n), "cpu-ns/line")
			if len(errs) > 0 {
				b.Fatalf("pattern errors: %v", errs)
			}
		})
	}
}

// BenchmarkMatchQuiet is one ordinary line that wakes no candidate: the
// allocation goal there is zero.
func BenchmarkMatchQuiet(b *testing.B) {
	recs := loadCatalog(b)
	m := compileOK(b, recs, Options{})
	line := "[2026-05-28 00:11:09 DP0 TP0 EP0] Prefill batch, #new-seq: 1, #new-token: 512, #cached-token: 0, token usage: 0.01, #running-req: 0, #queue-req: 0, input throughput (token/s): 1024.50"
	var hits []Hit
	var errs []PatternError
	b.ReportAllocs()
	cpu0 := cpuTime(b)
	n := 0
	for b.Loop() {
		hits, errs = m.AppendMatch(hits[:0], errs[:0], Subject{Text: line})
		n++
	}
	b.ReportMetric(float64((cpuTime(b)-cpu0).Nanoseconds())/float64(n), "cpu-ns/op")
	if len(hits)+len(errs) > 0 {
		b.Fatalf("quiet line matched: %v %v", hits, errs)
	}
}

// BenchmarkCompile compiles the whole catalog and reports the heap it keeps.
func BenchmarkCompile(b *testing.B) {
	recs := loadCatalog(b)
	benchmarkBuild(b, func() *Matcher { return compileOK(b, recs, Options{}) })
}

// BenchmarkLoadCompile is the whole catalog load path of scan and run
// (catalog.Load in internal/catalog): read and parse the file, then compile it, refusing
// catastrophic patterns. It
// reports CPU time per load, and the heap the Matcher keeps.
func BenchmarkLoadCompile(b *testing.B) {
	loadCatalog(b) // skips when the catalog is absent
	benchmarkBuild(b, func() *Matcher {
		f, err := os.Open(catalogPath)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		recs, probs := patterns.Parse(f, catalogPath)
		m, cprobs := Compile(recs, Options{Refuse: &patterns.LintOptions{}})
		for _, p := range append(probs, cprobs...) {
			if p.Level == patterns.LevelError {
				b.Fatalf("load: %v", p)
			}
		}
		return m
	})
}

// BenchmarkLoadCompileFacts is BenchmarkLoadCompile with the facts of an
// earlier load of the same catalog (what internal/factcache keeps): each
// load decodes them from their encoding, parses the file skipping the
// patterns they know, and compiles with them. Edited is the reload of a
// catalog in which one pattern changed since: that pattern is derived and
// the prefilter's keys chosen again.
func BenchmarkLoadCompileFacts(b *testing.B) {
	recs := loadCatalog(b)
	m, _ := Compile(recs, Options{Refuse: &patterns.LintOptions{}})
	enc, err := m.Facts().AppendBinary(nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, edited := range []bool{false, true} {
		name := "Unchanged"
		if edited {
			name = "Edited"
		}
		b.Run(name, func(b *testing.B) {
			benchmarkBuild(b, func() *Matcher {
				facts, err := UnmarshalFacts(enc)
				if err != nil {
					b.Fatal(err)
				}
				f, err := os.Open(catalogPath)
				if err != nil {
					b.Fatal(err)
				}
				defer f.Close()
				recs, probs := patterns.LoadOptions{Parsed: facts.Parses}.Parse(f, catalogPath)
				if edited {
					recs[len(recs)/2].MessagePattern = "an edited pattern no facts know: (\\d+) retries"
				}
				m, cprobs := Compile(recs, Options{Refuse: &patterns.LintOptions{}, Facts: facts})
				for _, p := range append(probs, cprobs...) {
					if p.Level == patterns.LevelError {
						b.Fatalf("load: %v", p)
					}
				}
				if u := m.FactsUse(); u.Complete() == edited {
					b.Fatalf("facts used: %+v", u)
				}
				return m
			})
		})
	}
}

// benchmarkBuild times build, reporting CPU time per build and, after the
// loop, the heap one built Matcher keeps.
func benchmarkBuild(b *testing.B, build func() *Matcher) {
	var m *Matcher
	b.ReportAllocs()
	cpu0 := cpuTime(b)
	n := 0
	for b.Loop() {
		m = build()
		n++
	}
	b.ReportMetric((cpuTime(b)-cpu0).Seconds()/float64(n), "cpu-s/op")
	b.StopTimer()
	var before, after runtime.MemStats
	m = nil
	runtime.GC()
	runtime.ReadMemStats(&before)
	m = build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "heap-MB")
	runtime.KeepAlive(m)
}

// BenchmarkMatchShortLiterals is BenchmarkMatch with 32 user records whose
// literals are 2 to 6 bytes long added to the catalog: too short for the
// strided windows, they are found by the tiny-window pass instead of each
// being searched for in every line.
func BenchmarkMatchShortLiterals(b *testing.B) {
	recs := loadCatalog(b)
	lines := benchLines(recs, 100_000)
	for i, w := range strings.Fields("OOM NaN Killed SIGSEGV EPIPE ENOSPC EIO ECONNRESET " +
		"xid=79 ECC!! pcie! hang! stall! abort! panic! fatal! " +
		"rc=-9 rc=137 exit=1 code=7 oops! bad! wedge! lost! " +
		"Xid79 UCE! DBE! SBE! NVL! IB_ERR RDMA! GDR!") {
		recs = append(recs, patterns.Record{ID: fmt.Sprintf("short-%d", i), MessagePattern: regexp.QuoteMeta(w) + `\b`})
	}
	m := compileOK(b, recs, Options{})
	var hits []Hit
	var errs []PatternError
	b.ReportAllocs()
	cpu0 := cpuTime(b)
	n := 0
	for b.Loop() {
		hits, errs = m.AppendMatch(hits[:0], errs[:0], Subject{Text: lines[n%len(lines)]})
		n++
	}
	b.ReportMetric(float64((cpuTime(b)-cpu0).Nanoseconds())/float64(n), "cpu-ns/op")
}

// BenchmarkSearchErrorTexts is a Searcher on error texts alone, the
// catalog's messages (every 3rd) filled with numbers as
// BenchmarkScanRepeatedErrors fills them, 1,900 texts in turn: with the
// Matcher's shape cache (shapes.go) and without. One op is one text.
func BenchmarkSearchErrorTexts(b *testing.B) {
	recs := loadCatalog(b)
	var texts []string
	for i := 0; i < len(recs); i += 3 {
		texts = append(texts, benchdata.Fill(recs[i].ErrorMessage, strconv.Itoa(3+i%16*37)))
	}
	// Every message of the catalog in turn: more shapes than the cache
	// holds, so that every text is a miss.
	var all []string
	for i := range recs {
		all = append(all, benchdata.Fill(recs[i].ErrorMessage, strconv.Itoa(3+i%16*37)))
	}
	for _, cache := range []bool{true, false} {
		b.Run(fmt.Sprintf("cache=%t/all", cache), func(b *testing.B) { searchTexts(b, recs, all, cache) })
	}
	for _, cache := range []bool{true, false} {
		b.Run(fmt.Sprintf("cache=%t", cache), func(b *testing.B) { searchTexts(b, recs, texts, cache) })
	}
}

// searchTexts is BenchmarkSearchErrorTexts on texts, one after another.
func searchTexts(b *testing.B, recs []patterns.Record, texts []string, cache bool) {
	m := compileOK(b, recs, Options{NoShapeCache: !cache})
	se := m.NewSearcher()
	var hits []Hit
	var errs []PatternError
	for _, t := range texts { // the programs, and the cache, warm
		hits, errs = se.AppendMatch(hits[:0], errs[:0], &Subject{Text: t})
	}
	b.ReportAllocs()
	cpu0 := cpuTime(b)
	n := 0
	for b.Loop() {
		hits, errs = se.AppendMatch(hits[:0], errs[:0], &Subject{Text: texts[n%len(texts)]})
		n++
	}
	b.ReportMetric(float64((cpuTime(b)-cpu0).Nanoseconds())/float64(n), "cpu-ns/op")
}
