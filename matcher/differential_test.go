package matcher

import (
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/logmatch/logmatch/internal/benchdata"
	"github.com/logmatch/logmatch/patterns"
)

// hitView is what the differential test compares: everything a Hit says,
// with the record named by id (the two matchers hold separate copies).
type hitView struct {
	ID          string
	Start, End  int
	Line        string
	Groups      map[string]string
	ClassAgrees bool
	LiteralLen  int
}

func view(hits []Hit) []hitView {
	out := make([]hitView, len(hits))
	for i := range hits {
		h := &hits[i]
		out[i] = hitView{h.Record.ID, h.Start, h.End, h.Line, h.Groups(), h.ClassAgrees, h.LiteralLen}
	}
	return out
}

// differentialSubjects builds the test input: every record's errorMessage
// filled in the ways sglang prints it, ordinary serving lines, and noise
// spliced from catalog messages with flipped case and stray bytes (to
// exercise folding and literal verification near key windows).
func differentialSubjects(recs []patterns.Record, ordinary, noise int) []Subject {
	var subs []Subject
	for i, r := range recs {
		msg := benchdata.Fill(r.ErrorMessage, "42")
		switch i % 3 {
		case 0:
			subs = append(subs, Subject{Text: msg})
		case 1:
			subs = append(subs, Subject{Text: "[2026-05-28 00:11:09 DP0 TP0 EP0] " + msg})
		default:
			subs = append(subs, Subject{
				Text:           "Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\n" + r.ErrorClass + ": " + msg,
				ExceptionTypes: []string{"builtins." + r.ErrorClass},
			})
		}
	}
	msgs := make([]string, len(recs))
	for i, r := range recs {
		msgs[i] = r.ErrorMessage
	}
	for _, l := range benchdata.New(benchdata.Config{Seed: 7}).Lines(ordinary) {
		subs = append(subs, Subject{Text: l})
	}
	rng := rand.New(rand.NewPCG(11, 13))
	for range noise {
		var b strings.Builder
		for range 1 + rng.IntN(4) {
			m := benchdata.Fill(msgs[rng.IntN(len(msgs))], "x")
			from := rng.IntN(len(m) + 1)
			to := from + rng.IntN(len(m)-from+1)
			for _, c := range []byte(m[from:to]) {
				switch rng.IntN(20) {
				case 0:
					c ^= 0x20 // flip the case of letters, garble the rest
				case 1:
					b.WriteByte(byte(rng.IntN(256)))
				case 2:
					b.WriteByte('\n')
				}
				b.WriteByte(c)
			}
		}
		subs = append(subs, Subject{Text: b.String()})
	}
	return subs
}

// slowMachineTimeout replaces the production match timeout in differential
// tests: under -race on a busy CI machine a healthy pattern can take longer
// than 50 ms, and a timeout would hide the comparison.
const slowMachineTimeout = 20 * time.Second

// The differential tests also lift the entry budget (EntryBudget: an
// hour): the naive reference tries every pattern on every subject, and the
// comparison needs all of them tried.

// compareMatchers runs both matchers on every subject, spread over the CPUs,
// and reports each subject where the hits differ.
func compareMatchers(t *testing.T, pre, naive *Matcher, subs []Subject) {
	t.Helper()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		failures int
		skipped  int
	)
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(subs); i += workers {
				s := subs[i]
				gotHits, gotErrs := pre.Match(s)
				wantHits, wantErrs := naive.Match(s)
				mu.Lock()
				if len(gotErrs)+len(wantErrs) > 0 {
					// A timeout depends on the machine's load, not on the
					// prefilter; such subjects cannot be compared.
					skipped++
					mu.Unlock()
					continue
				}
				if diff := cmp.Diff(view(wantHits), view(gotHits)); diff != "" && failures < 10 {
					failures++
					t.Errorf("subject %d %q: prefiltered hits differ from naive (-naive +prefiltered):\n%s", i, s.Text, diff)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if skipped > len(subs)/100 {
		t.Errorf("%d of %d subjects hit pattern errors and were not compared", skipped, len(subs))
	}
	t.Logf("%d subjects compared, %d skipped for pattern errors", len(subs)-skipped, skipped)
}

// TestDifferentialSample compares the prefiltered matcher with the naive
// loop on a deterministic sample of the catalog (every 32nd record), small
// enough for -race: the naive loop's cost is dominated by the patterns that
// start with (.+?), which take milliseconds per line.
func TestDifferentialSample(t *testing.T) {
	all := loadCatalog(t)
	var recs []patterns.Record
	for i := 0; i < len(all); i += 32 {
		recs = append(recs, all[i])
	}
	pre := compileOK(t, recs, Options{MatchTimeout: slowMachineTimeout, EntryBudget: time.Hour})
	naive := compileOK(t, recs, Options{NoPrefilter: true, MatchTimeout: slowMachineTimeout, EntryBudget: time.Hour})
	compareMatchers(t, pre, naive, differentialSubjects(recs, 100, 300))
}

// TestDifferentialFull compares the two on the whole catalog: every record's
// message, ordinary lines and noise. It takes minutes of CPU, so it runs
// only without -short and without the race detector.
func TestDifferentialFull(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("full sweep: run without -short and without -race")
	}
	recs := loadCatalog(t)
	pre := compileOK(t, recs, Options{MatchTimeout: slowMachineTimeout, EntryBudget: time.Hour})
	naive := compileOK(t, recs, Options{NoPrefilter: true, MatchTimeout: slowMachineTimeout, EntryBudget: time.Hour})
	compareMatchers(t, pre, naive, differentialSubjects(recs, 1000, 1000))
}

// TestEveryRecordFindsItsMessage checks the whole catalog under any build:
// whenever a record's own pattern matches its filled message, the
// prefiltered matcher reports that record.
func TestEveryRecordFindsItsMessage(t *testing.T) {
	recs := loadCatalog(t)
	// The timeouts of a slow machine: a pattern timed out under the race
	// detector on a loaded machine is a pattern error, not a hit, and
	// would read as a miss.
	m := compileOK(t, recs, Options{MatchTimeout: slowMachineTimeout, EntryBudget: time.Hour})
	subs := differentialSubjects(recs, 0, 0)
	missed := 0
	for i, s := range subs {
		re, err := m.Regexp(i)
		if err != nil {
			t.Fatal(err)
		}
		want, err := re.MatchString(s.Text)
		if err != nil || !want {
			continue
		}
		hits, perrs := m.Match(s)
		for _, pe := range perrs {
			t.Errorf("record %s: %v", pe.Record.ID, pe.Err)
		}
		found := false
		for _, h := range hits {
			found = found || h.Record == &m.recs[i]
		}
		if !found && missed < 10 {
			missed++
			t.Errorf("record %s: pattern %q matches %q but Match did not report it", m.recs[i].ID, m.recs[i].MessagePattern, s.Text)
		}
	}
}
