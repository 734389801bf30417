package matcher

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/logmatch/logmatch/patterns"
)

// ErrMatchTimeout is wrapped by a PatternError whose pattern ran past
// patterns.MatchTimeout.
var ErrMatchTimeout = errors.New("match timed out")

// ErrStackLimit is wrapped by a PatternError whose pattern exceeded the
// regexp2 backtracking-stack limit.
var ErrStackLimit = errors.New("backtracking stack limit exceeded")

// ErrEntryBudget is wrapped by the PatternError that reports an entry
// whose match budget (Options.EntryBudget) ran out before every candidate
// pattern was tried; it names the first pattern left untried.
var ErrEntryBudget = errors.New("entry match budget spent")

// DefaultEntryBudget is the whole time one entry may spend matching, all
// candidate patterns together. patterns.MatchTimeout bounds one pattern;
// this bounds the sum, so an entry that several slow patterns meet cannot
// stall the stream behind it.
const DefaultEntryBudget = time.Second

// Options tune Compile. The zero value is what production uses.
type Options struct {
	// Corpus is sample text of ordinary (healthy) log lines. The prefilter
	// avoids keying a pattern on a window that occurs in it. Empty means a
	// built-in sample of sglang output. It changes speed, never results.
	Corpus []string
	// NoPrefilter makes Match try every pattern on every subject: the
	// reference the prefilter is tested and benchmarked against.
	NoPrefilter bool
	// MatchTimeout replaces patterns.MatchTimeout when positive: tests on a
	// loaded machine raise it, latency-sensitive callers may lower it.
	MatchTimeout time.Duration
	// EntryBudget replaces DefaultEntryBudget when positive. Once an entry
	// has spent it, the candidates not yet tried are skipped (reported as
	// one ErrEntryBudget PatternError), and a timed-out pattern is
	// confirmed with a longer rerun only when the rerun fits in what is
	// left. An entry thus takes at most about EntryBudget plus one
	// pattern's MatchTimeout.
	EntryBudget time.Duration
	// Refuse, when set, runs patterns.RefuseCatastrophic's check with
	// these options as the records compile, on the parse tree Compile
	// reads the literals from: the load path's backtracking check without
	// parsing every pattern a second time. A refused record is left out
	// and reported as RefuseCatastrophic reports it; those problems come
	// before the others.
	Refuse *patterns.LintOptions
	// Facts, when set, are an earlier Compile's (Matcher.Facts) of this
	// build: a record whose pattern they know is not parsed, and the
	// prefilter's keys are not chosen again when the records' patterns
	// are the ones they were chosen for. Facts derived under other
	// Options (Refuse, Corpus, NoPrefilter) are not used. The Matcher is
	// the same with or without them.
	Facts *Facts
	// NoShapeCache turns off the Searchers' cache of candidates by the
	// shape of the text (shapes.go): the reference tests compare it
	// with. It changes speed, never results.
	NoShapeCache bool
}

// Matcher is a compiled catalog. It is pure (no I/O, no goroutines) and
// safe for concurrent use.
type Matcher struct {
	recs     []patterns.Record    // nil when img holds them
	img      *recordImage         // the records of an image (LoadImage)
	hot      []recHot             // per record, what matching reads of it
	timeout  time.Duration        // Options.MatchTimeout
	budget   time.Duration        // Options.EntryBudget or DefaultEntryBudget
	clock    func() time.Duration // monotonic time (monotonic); tests step it
	reqs     []Required
	litLen   []int
	classKey []string   // last dotted component of each record's errorClass
	pf       *prefilter // nil with Options.NoPrefilter
	pool     sync.Pool  // *scratch
	// The candidates of texts by their shape, and the hits of texts
	// (shapes.go); built at the first text that needs them.
	cachesOnce sync.Once
	caches     atomic.Pointer[shapeCache]

	factsOptions string           // factsOptions of the Options compiled with
	warnings     map[int32]string // the backtracking check's warnings, by record
	factsUse     FactsUse
	regexpOnly   bool // no litProgs: tests compare the two engines with it
	noShapes     bool // Options.NoShapeCache
	shapesDense  bool // tests: a Searcher never turns sparse (shapes.go)

	subjects   atomic.Uint64
	tried      atomic.Uint64
	retries    atomic.Uint64 // timeouts retried with a larger budget
	overBudget atomic.Uint64 // entries whose match budget ran out
	hits       atomic.Uint64
	timeouts   []atomic.Uint64 // per record
	stackLimit []atomic.Uint64 // per record
}

// recHot is what matching reads of a record for each candidate and hit:
// its program, its class key and the length of its literals, side by side.
// An error line's candidates are records the lines before it did not
// touch, so each is a cache miss at thousands of records: one here, where
// three arrays cost three.
type recHot struct {
	prog     atomic.Pointer[compiled] // nil until the pattern is first tried
	classKey string                   // classKey's
	litLen   int                      // litLen's
}

// setHot builds m.hot from the class keys and literal lengths.
func (m *Matcher) setHot() {
	m.hot = make([]recHot, len(m.classKey))
	for i := range m.hot {
		m.hot[i].classKey, m.hot[i].litLen = m.classKey[i], m.litLen[i]
	}
}

// compiled is a record's program. Programs are built on first use: in a
// given log most patterns never become candidates, and the 5,695 regexp2
// programs of the generated catalog would hold about 20 MB. A pattern that
// is literal text joined by lazy gaps gets a litProg instead, which is
// cheaper to build and to run; its regexp2 program is built only for the
// texts a litProg leaves to it (not valid UTF-8) and for Regexp.
type compiled struct {
	re     *regexp2.Regexp // nil when lit is set
	lit    *litProg
	groups []group // capture groups, group 0 left out
	// full is the regexp2 program of a litProg's pattern, built on first
	// use.
	full atomic.Pointer[compiled]
	// slow is the same pattern with retryFactor times the timeout, built
	// the first time re times out.
	slow atomic.Pointer[regexp2.Regexp]
}

// group is one capture group of a pattern: its number and, for a named
// group, its name.
type group struct {
	num  int
	key  string // strconv.Itoa(num), kept to avoid formatting per hit
	name string
}

// Compile parses every record's messagePattern once (as patterns.Compile
// does), reads its literals from that parse and builds the prefilter; each
// regexp2 program itself is built the first time its pattern is tried. A pattern
// that does not compile is reported as a Problem naming the record's origin
// and skipped; the other records still compile. The Matcher keeps recs
// itself when it leaves none out (a copy of those kept otherwise): hits
// point into it, and the caller must not change recs afterwards. The parse
// tree a record from patterns.Parse keeps is taken from it
// (Record.PatternTree), so the pattern is parsed once from file to Matcher.
func Compile(recs []patterns.Record, opts Options) (*Matcher, []patterns.Problem) {
	m := &Matcher{timeout: opts.MatchTimeout, budget: opts.EntryBudget, noShapes: opts.NoShapeCache}
	if m.budget <= 0 {
		m.budget = DefaultEntryBudget
	}
	m.clock = monotonic
	var problems, refused []patterns.Problem
	kept := make([]int32, 0, len(recs)) // indexes into recs
	m.reqs = make([]Required, 0, len(recs))
	m.litLen = make([]int, 0, len(recs))
	m.classKey = make([]string, 0, len(recs))
	var run []litChar // literal extraction's buffer, shared by all patterns
	m.factsOptions = factsOptions(opts)
	facts := opts.Facts
	if facts != nil && facts.options != m.factsOptions {
		facts = nil
	}
	keep := func(i int, req Required, warn string) {
		if warn != "" {
			if m.warnings == nil {
				m.warnings = map[int32]string{}
			}
			m.warnings[int32(len(kept))] = warn
		}
		kept = append(kept, int32(i))
		m.reqs = append(m.reqs, req)
		m.litLen = append(m.litLen, req.LiteralLen())
		m.classKey = append(m.classKey, lastDotted(recs[i].ErrorClass))
	}
	for i := range recs {
		rec := &recs[i]
		if f := facts.lookup(rec.MessagePattern); f != nil {
			m.factsUse.Known++
			if f.warn != "" {
				// What RefuseTree says of it (the warning is a fact of
				// the pattern, the place is the record's).
				refused = append(refused, patterns.Problem{File: rec.Origin.File, Line: rec.Origin.Line,
					Field: "messagePattern", Level: patterns.LevelWarning, Message: f.warn})
			}
			keep(i, f.req, f.warn)
			continue
		}
		tree, err := rec.PatternTree()
		warn := ""
		if err == nil && opts.Refuse != nil {
			if p, bad := patterns.RefuseTree(rec, tree, *opts.Refuse); bad {
				refused = append(refused, p)
				if p.Level == patterns.LevelError {
					continue
				}
				warn = p.Message
			}
		}
		if err != nil && opts.Refuse != nil {
			// What RefuseCatastrophic says of a pattern it cannot parse.
			refused = append(refused, patterns.Problem{File: rec.Origin.File, Line: rec.Origin.Line, Field: "messagePattern",
				Message: fmt.Sprintf("record %s refused: does not compile: %v", rec.ID, err), Err: err})
			continue
		}
		if err != nil {
			problems = append(problems, patterns.Problem{
				File:    rec.Origin.File,
				Line:    rec.Origin.Line,
				Field:   "messagePattern",
				Level:   patterns.LevelError,
				Message: fmt.Sprintf("record %s: does not compile, skipped: %v", rec.ID, err),
				Err:     err,
			})
			continue
		}
		m.factsUse.Derived++
		keep(i, extractWith(tree.Root, &run), warn)
	}
	if len(kept) == len(recs) {
		m.recs = recs[:len(recs):len(recs)] // an append by the caller cannot reach it
	} else {
		m.recs = make([]patterns.Record, len(kept))
		for j, i := range kept {
			m.recs[j] = recs[i]
		}
	}
	m.setHot()
	m.timeouts = make([]atomic.Uint64, len(m.recs))
	m.stackLimit = make([]atomic.Uint64, len(m.recs))
	if !opts.NoPrefilter {
		m.factsUse.prefilter = true
		if plan, ok := facts.planFor(m.recs); ok {
			m.pf = assemblePrefilter(m.reqs, plan)
			m.factsUse.Plan = true
		} else if len(opts.Corpus) == 0 {
			m.pf = buildPrefilter(m.reqs, defaultCorpusCosts())
		} else {
			m.pf = buildPrefilter(m.reqs, corpusCosts(opts.Corpus))
		}
	}
	m.pool.New = func() any { return m.newScratch() }
	return m, append(refused, problems...)
}

// program returns record i's program, building it on first use: a litProg
// when the pattern is one, a regexp2 program otherwise. Two goroutines may
// both build it; one result is kept.
func (m *Matcher) program(i int) (*compiled, error) {
	if c := m.hot[i].prog.Load(); c != nil {
		return c, nil
	}
	if lp, ok := parseCompiledLit(m.pattern(i)); ok && !m.regexpOnly {
		c := keep(&m.hot[i].prog, &lp.c)
		if m.pf != nil && c.lit != nil {
			m.pf.progClauses[i].Store(true)
		}
		return c, nil
	}
	c, err := m.buildRegexp(i)
	if err != nil {
		return nil, err
	}
	return keep(&m.hot[i].prog, c), nil
}

// regexpOf returns the regexp2 program of c, record i's program.
func (m *Matcher) regexpOf(i int, c *compiled) (*compiled, error) {
	if c.lit == nil {
		return c, nil
	}
	if f := c.full.Load(); f != nil {
		return f, nil
	}
	f, err := m.buildRegexp(i)
	if err != nil {
		return nil, err
	}
	return keep(&c.full, f), nil
}

// keep stores v in p unless another goroutine stored one first, and
// returns the one stored: of two programs built at once, one is kept.
func keep[T any](p *atomic.Pointer[T], v *T) *T {
	if p.CompareAndSwap(nil, v) {
		return v
	}
	return p.Load()
}

// buildRegexp compiles record i's pattern with regexp2.
func (m *Matcher) buildRegexp(i int) (*compiled, error) {
	re, err := patterns.Compile(m.pattern(i))
	if err != nil {
		// Compile checked this pattern with the same parser and writer.
		rec := m.rec(i)
		return nil, fmt.Errorf("%s: record %s: messagePattern: %w", rec.Origin, rec.ID, err)
	}
	if m.timeout > 0 {
		re.MatchTimeout = m.timeout
	}
	return &compiled{re: re, groups: patternGroups(re)}, nil
}

func patternGroups(re *regexp2.Regexp) []group {
	var gs []group
	for _, n := range re.GetGroupNumbers() {
		if n == 0 {
			continue
		}
		g := group{num: n, key: strconv.Itoa(n)}
		if name := re.GroupNameFromNumber(n); name != "" && name != g.key {
			g.name = name
		}
		gs = append(gs, g)
	}
	return gs
}

func (m *Matcher) newScratch() *scratch {
	if m.pf != nil {
		return m.pf.newScratch()
	}
	return &scratch{}
}

// Len returns the number of records compiled (skipped records not counted).
func (m *Matcher) Len() int { return len(m.hot) }

// Records returns the compiled records in catalog order. The slice is the
// Matcher's own: callers must not modify it. A Matcher loaded from an
// image builds it at the first call.
func (m *Matcher) Records() []patterns.Record {
	if m.img != nil {
		return m.img.records()
	}
	return m.recs
}

// rec returns record i; a Matcher loaded from an image builds it on first
// use.
func (m *Matcher) rec(i int) *patterns.Record {
	if m.img != nil {
		return m.img.get(i)
	}
	return &m.recs[i]
}

// pattern returns record i's messagePattern; from an image, without
// building the record (recordImage.pattern).
func (m *Matcher) pattern(i int) string {
	if m.img != nil {
		return m.img.pattern(i)
	}
	return m.recs[i].MessagePattern
}

// Required returns the literals the prefilter demands of record i (an index
// into Records): empty when the pattern has no literal anchor.
func (m *Matcher) Required(i int) Required { return m.reqs[i] }

// Regexp returns the compiled pattern of record i (an index into Records),
// for callers that measure or inspect patterns one by one. It is shared with
// the Matcher: callers must not change its MatchTimeout.
func (m *Matcher) Regexp(i int) (*regexp2.Regexp, error) {
	c, err := m.program(i)
	if err == nil {
		c, err = m.regexpOf(i, c)
	}
	if err != nil {
		return nil, err
	}
	return c.re, nil
}

// Keyed reports whether record i is found through the prefilter's keys;
// false means it is tried on every subject (its literals, if any, are too
// short to key on). Without a prefilter every record is tried.
func (m *Matcher) Keyed(i int) bool { return m.pf != nil && m.pf.keyClause[i] >= 0 }

// Match returns the hits of s ranked best first, and the patterns that
// failed on it. It allocates only for hits and errors.
func (m *Matcher) Match(s Subject) ([]Hit, []PatternError) {
	return m.AppendMatch(nil, nil, s)
}

// rankedHit is a hit with its record index, for sorting.
type rankedHit struct {
	rec int32
	hit Hit
}

// AppendMatch is Match appending to caller-supplied slices, so a caller that
// reuses them allocates nothing on subjects that no pattern matches.
// The appended hits are ranked best first among themselves:
//  1. ClassAgrees (the record's errorClass is one of the exception types);
//  2. longer LiteralLen;
//  3. records with solutions before records without;
//  4. catalog order.
func (m *Matcher) AppendMatch(hits []Hit, errs []PatternError, s Subject) ([]Hit, []PatternError) {
	sc := m.pool.Get().(*scratch)
	defer m.pool.Put(sc)
	m.subjects.Add(1)
	return m.appendMatch(sc, nil, hits, errs, &s)
}

// Searcher is one goroutine's use of a Matcher: AppendMatch with the search
// state kept in the Searcher instead of taken from and returned to the
// Matcher's pool for every subject. A Searcher is not safe for concurrent
// use; the Matcher it searches still is, and many Searchers may share it.
type Searcher struct {
	m  *Matcher
	sc *scratch
	// counted is how many subjects the Searcher has searched and not yet
	// added to the Matcher's shared count: an atomic add on every subject
	// cost more than the prefilter's work on a short quiet line.
	counted uint64
	// shapeSearch's state (shapes.go): the shape key and its hash, the
	// kept hits read or written.
	key      []byte
	keyHash  uint64
	kept     []keptHit
	runs     []int32 // the masked runs of the text searched
	keptRuns []int32 // those of the text the kept hits were kept for
	// Whether the shapes pay (shapePays): shapes looked up and found in
	// the current window; sparse when the last window found too few, and
	// then sampled counts the texts with candidates since the last one
	// looked up.
	looked, found uint16
	sparse        bool
	sampled       uint16
}

// searcherFlush is how many subjects a Searcher counts before it adds
// them to the Matcher's Stats.
const searcherFlush = 64

// NewSearcher returns a Searcher over m.
func (m *Matcher) NewSearcher() *Searcher { return &Searcher{m: m, sc: m.newScratch()} }

// Matcher returns the Matcher s searches.
func (s *Searcher) Matcher() *Matcher { return s.m }

// AppendMatch is Matcher.AppendMatch with the subject passed by pointer,
// which it does not keep: a Subject passed by value is built on the
// caller's stack with word stores and copied out with wider loads, which
// stall on every subject. The Matcher's Stats count the Searcher's
// subjects in batches: up to searcherFlush-1 of them may not show yet
// (every other counter is exact).
func (s *Searcher) AppendMatch(hits []Hit, errs []PatternError, subj *Subject) ([]Hit, []PatternError) {
	if s.counted++; s.counted == searcherFlush {
		s.m.subjects.Add(s.counted)
		s.counted = 0
	}
	return s.m.appendMatch(s.sc, s, hits, errs, subj)
}

// appendMatch is AppendMatch with the search state sc; the caller counts s.
// A Searcher (nil for Matcher.AppendMatch) looks the text up by its shape
// and, when it was searched before, by itself (shapes.go).
func (m *Matcher) appendMatch(sc *scratch, se *Searcher, hits []Hit, errs []PatternError, s *Subject) ([]Hit, []PatternError) {
	keep := false // whether to keep what s matched (shapes.go)
	switch {
	case m.pf != nil && se != nil && !m.noShapes:
		p := m.pf
		if first := p.scan(p, s.Text, 0); first >= len(s.Text)&^(longStride-1) || len(s.Text) > shapeKeyMax {
			p.candidatesFrom(s.Text, sc, first) // most lines: no block passes the bloom
		} else if se.sparse {
			keep = m.sparseSearch(sc, se, s, first)
		} else if first = p.keyedFrom(s.Text, first); first >= len(s.Text) {
			p.candidatesFrom(s.Text, sc, first) // no block has a ref to verify: most lines left
		} else {
			var found bool
			if found, keep = m.shapeSearch(sc, se, s, first); found {
				return m.ranked(sc, hits), errs
			}
		}
	case m.pf != nil:
		m.pf.candidates(s.Text, sc)
	default:
		sc.cands = sc.cands[:0]
		for i := range m.hot {
			sc.cands = append(sc.cands, int32(i))
		}
	}

	sc.hits = sc.hits[:0]
	if len(sc.cands) == 0 {
		if keep {
			m.keepShape(se, sc, s, true, true)
		}
		return hits, errs // most lines: no clock reading, nothing to rank
	}
	n := len(errs)
	var lit bool
	errs, lit = m.verify(sc, errs, s)
	if keep {
		m.keepShape(se, sc, s, len(errs) == n, lit)
	}
	if len(sc.hits) == 0 {
		return hits, errs
	}
	return m.ranked(sc, hits), errs
}

// insertionHits is how many hits ranked orders by insertion.
const insertionHits = 12

// ranked appends sc.hits to hits, best first, and clears them. It orders
// their places (sc.order), not the hits: a rankedHit is 176 bytes, and a
// sort moves and compares them by value.
func (m *Matcher) ranked(sc *scratch, hits []Hit) []Hit {
	m.hits.Add(uint64(len(sc.hits)))
	sc.order = sc.order[:0]
	for i := range sc.hits {
		sc.order = append(sc.order, int32(i))
	}
	switch {
	case len(sc.order) == 2:
		if m.compareHits(&sc.hits[0], &sc.hits[1]) > 0 {
			sc.order[0], sc.order[1] = 1, 0
		}
	case len(sc.order) <= insertionHits:
		// A few hits, an error line's: moved into place one by one,
		// which a general sort's set-up and calls through a closure
		// cost several times over. compareHits is a total order (the
		// record breaks ties), so the order is the sort's.
		for i := 1; i < len(sc.order); i++ {
			for j := i; j > 0 && m.compareHits(&sc.hits[sc.order[j-1]], &sc.hits[sc.order[j]]) > 0; j-- {
				sc.order[j-1], sc.order[j] = sc.order[j], sc.order[j-1]
			}
		}
	default:
		slices.SortFunc(sc.order, func(a, b int32) int { return m.compareHits(&sc.hits[a], &sc.hits[b]) })
	}
	for _, i := range sc.order {
		hits = append(hits, sc.hits[i].hit)
	}
	clear(sc.hits) // drop references before pooling
	return hits
}

// verify tries every candidate of sc on s, within the entry's budget: the
// hits to sc.hits, the patterns that failed to errs. It reports whether
// every candidate was tried by a movable litProg.
//
// The clock is read before every candidate but the first, before which
// nothing is spent yet; a single candidate reads it only for a pattern
// that runs as a regexp (its timeout's retry asks what is left).
func (m *Matcher) verify(sc *scratch, errs []PatternError, s *Subject) ([]PatternError, bool) {
	lit := true
	var start time.Duration
	timed := len(sc.cands) > 1 // whether start was read
	if timed {
		start = m.clock()
	}
	valid := -1 // whether s.Text is valid UTF-8 (a litProg's condition); -1 until asked
	var locBuf [2 + 2*maxLitGaps]int
	tried := 0 // added to m.tried once, at the end
	defer func() { m.tried.Add(uint64(tried)) }()
	for ci, r := range sc.cands {
		if ci > 0 && m.clock()-start > m.budget {
			m.overBudget.Add(1)
			rec := m.rec(int(r))
			errs = append(errs, PatternError{Record: rec, Err: fmt.Errorf("%s: record %s: messagePattern: not tried, %d of %d candidate patterns left: %w (%s)",
				rec.Origin, rec.ID, len(sc.cands)-ci, len(sc.cands), ErrEntryBudget, m.budget)})
			break
		}
		tried++
		prog, err := m.program(int(r))
		if err != nil {
			errs = append(errs, PatternError{Record: m.rec(int(r)), Err: err})
			continue
		}
		lit = lit && prog.lit != nil && prog.lit.movable
		if prog.lit != nil {
			if valid < 0 {
				valid = 0
				if utf8.ValidString(s.Text) {
					valid = 1
				}
			}
			if valid == 1 {
				loc, ok := prog.lit.findIn(&sc.find, s.Text, 0, locBuf[:0])
				if !ok {
					continue
				}
				if len(s.ExceptionTypes) > 0 && onCodeLine(s.Text, loc[0]) {
					loc = litPreferExceptionLine(prog.lit, loc, s.Text)
				}
				setLitGroups(m.addHit(sc, r, loc[0], loc[1], s), prog.lit, loc, s.Text)
				continue
			}
			lit = false
			if m.pf != nil && m.pf.progClauses[r].Load() && !holdsClauses(s.Text, m.pf.reqs[r], -1) {
				continue // its clauses were left to the litProg (prefilter.progClauses)
			}
			if prog, err = m.regexpOf(int(r), prog); err != nil {
				errs = append(errs, PatternError{Record: m.rec(int(r)), Err: err})
				continue
			}
		}
		if !timed {
			// The one candidate, here: the regexp runs from now.
			start, timed = m.clock(), true
		}
		match, err := prog.re.FindStringMatch(s.Text)
		if err != nil && !errors.Is(err, regexp2.ErrBacktrackingStackLimit) &&
			m.clock()-start+retryFactor*prog.re.MatchTimeout <= m.budget {
			// Confirm a timeout with a larger budget before reporting it,
			// when the entry's budget has room for that.
			match, err = m.confirm(int(r), prog, s.Text)
		}
		if err != nil {
			errs = append(errs, m.patternError(int(r), err))
			continue
		}
		if match == nil {
			continue
		}
		if len(s.ExceptionTypes) > 0 {
			if at, _ := match.ByteRange(); onCodeLine(s.Text, at) {
				match = preferExceptionLine(prog.re, match, s.Text)
			}
		}
		start, length := match.ByteRange()
		setGroups(m.addHit(sc, r, start, start+length, s), prog.groups, match)
	}
	return errs, lit
}

// compareHits orders hits best first; see AppendMatch.
func (m *Matcher) compareHits(a, b *rankedHit) int {
	if a.hit.ClassAgrees != b.hit.ClassAgrees {
		if a.hit.ClassAgrees {
			return -1
		}
		return 1
	}
	if c := cmp.Compare(b.hit.LiteralLen, a.hit.LiteralLen); c != 0 {
		return c
	}
	as, bs := len(m.rec(int(a.rec)).Solutions) > 0, len(m.rec(int(b.rec)).Solutions) > 0
	if as != bs {
		if as {
			return -1
		}
		return 1
	}
	return cmp.Compare(a.rec, b.rec)
}

// clockEpoch is the instant monotonic counts from.
var clockEpoch = time.Now()

// monotonic is the time since clockEpoch by the monotonic clock: one
// reading of it, where time.Now reads the wall clock as well.
func monotonic() time.Duration { return time.Since(clockEpoch) }

// retryFactor multiplies the match timeout for the one retry of a pattern
// that timed out. regexp2's timeout is wall-clock time, so a starved
// process (a busy node, a CPU-throttled container, the race detector) can
// time out a pattern that is cheap; the retry tells that apart from a
// pattern that really backtracks, which still fails and is reported.
const retryFactor = 10

// confirm runs record r's pattern again with retryFactor times the budget,
// building that slower copy of the program on first use.
func (m *Matcher) confirm(r int, prog *compiled, text string) (*regexp2.Match, error) {
	m.retries.Add(1)
	slow := prog.slow.Load()
	if slow == nil {
		re, err := patterns.Compile(m.pattern(r))
		if err != nil {
			return nil, err
		}
		re.MatchTimeout = retryFactor * prog.re.MatchTimeout
		slow = keep(&prog.slow, re)
	}
	return slow.FindStringMatch(text)
}

func (m *Matcher) patternError(r int, err error) PatternError {
	rec := m.rec(r)
	// regexp2's timeout error quotes the whole input, which may hold
	// secrets, so it is replaced by a sentinel rather than wrapped.
	kind := ErrMatchTimeout
	if errors.Is(err, regexp2.ErrBacktrackingStackLimit) {
		kind = ErrStackLimit
		m.stackLimit[r].Add(1)
	} else {
		m.timeouts[r].Add(1)
	}
	return PatternError{
		Record: rec,
		Err:    fmt.Errorf("%s: record %s: messagePattern: %w", rec.Origin, rec.ID, kind),
	}
}

// addHit appends a hit of record r to sc.hits and returns it, set to r
// matching s.Text[start:end], groups left out. The hit is built in its
// place: a Hit is some 170 bytes, and one returned by value was copied
// twice on its way into sc.hits, for each hit of each error line.
func (m *Matcher) addHit(sc *scratch, r int32, start, end int, s *Subject) *Hit {
	if n := len(sc.hits); n < cap(sc.hits) {
		sc.hits = sc.hits[:n+1]
	} else {
		sc.hits = append(sc.hits, rankedHit{})
	}
	rh := &sc.hits[len(sc.hits)-1]
	rh.rec = r
	h, hot := &rh.hit, &m.hot[r]
	h.Record = m.rec(int(r))
	h.Start, h.End = start, end
	h.Line = SurroundingLines(s.Text, start, end)
	h.ClassAgrees = classAgrees(hot.classKey, s.ExceptionTypes)
	h.ord = r + 1
	h.LiteralLen = hot.litLen
	h.text, h.lit, h.spans, h.groups = "", nil, [2 * inlineGroups]int{}, nil
	return h
}

// setGroups sets h's groups to those of a regexp's match.
func setGroups(h *Hit, groups []group, match *regexp2.Match) {
	for _, g := range groups {
		grp := match.GroupByNumber(g.num)
		if grp == nil || len(grp.Captures) == 0 {
			continue // did not take part in the match
		}
		if h.groups == nil {
			h.groups = make(map[string]string, 2*len(groups))
		}
		v := grp.String()
		h.groups[g.key] = v
		if g.name != "" {
			h.groups[g.name] = v
		}
	}
}

// setLitGroups sets h's groups to those of a litProg's match loc in text
// (see litProg.find). Every group of a litProg takes part in every match.
// Up to inlineGroups groups are kept as spans of text, which Hit.Groups
// reads, so no allocation is made.
func setLitGroups(h *Hit, lp *litProg, loc []int, text string) {
	switch {
	case len(lp.groups) == 0:
	case len(lp.groups) <= inlineGroups:
		h.text, h.lit = text, lp.groups
		for i := range lp.groups {
			gap := lp.slot[i]
			h.spans[2*i], h.spans[2*i+1] = loc[2+2*gap], loc[3+2*gap]
		}
	default:
		h.groups = make(map[string]string, 2*len(lp.groups))
		for i, g := range lp.groups {
			gap := lp.slot[i]
			h.groups[g.key] = text[loc[2+2*gap]:loc[3+2*gap]]
		}
	}
}

// onCodeLine reports whether a match at byte start is on an indented line:
// in a traceback, a frame's source line such as
// `    raise RuntimeError("...")`.
func onCodeLine(text string, start int) bool {
	from := lineStart(text, start)
	return from < len(text) && (text[from] == ' ' || text[from] == '\t')
}

// preferExceptionLine looks past a match on a traceback's source line for
// one on a line that is not indented (the exception line, or the log
// message), which is what an operator should be shown. It keeps the first
// match when there is no such later match or the search fails.
func preferExceptionLine(re *regexp2.Regexp, first *regexp2.Match, text string) *regexp2.Match {
	for next, err := re.FindNextMatch(first); err == nil && next != nil; next, err = re.FindNextMatch(next) {
		if start, _ := next.ByteRange(); !onCodeLine(text, start) {
			return next
		}
	}
	return first
}

// litPreferExceptionLine is preferExceptionLine for a litProg's match loc.
// A litProg's matches are never empty, so the next one is searched from
// where the last ended, as FindNextMatch does.
func litPreferExceptionLine(lp *litProg, first []int, text string) []int {
	var buf [2 + 2*maxLitGaps]int
	for from := first[1]; ; {
		next, ok := lp.find(text, from, buf[:0])
		if !ok {
			return first
		}
		if !onCodeLine(text, next[0]) {
			return append(first[:0], next...)
		}
		from = next[1]
	}
}

// SurroundingLines returns the whole lines of text that [start, end)
// touches: a Hit's Line. A caller that moves a hit onto other text (a
// match found in a rewritten copy) takes its Line from here too.
func SurroundingLines(text string, start, end int) string {
	from := lineStart(text, start)
	to := len(text)
	if end > start && text[end-1] == '\n' {
		to = end - 1
	} else if i := strings.IndexByte(text[end:], '\n'); i >= 0 {
		to = end + i
	}
	if to < from { // an empty match right after a newline
		to = from
	}
	return text[from:to]
}

func lastDotted(s string) string {
	return s[strings.LastIndexByte(s, '.')+1:]
}

func classAgrees(class string, types []string) bool {
	if class == "" {
		return false
	}
	for _, t := range types {
		if lastDotted(t) == class {
			return true
		}
	}
	return false
}

// Stats is a snapshot of a Matcher's counters.
type Stats struct {
	Subjects    uint64 // Match calls
	Tried       uint64 // regex evaluations (prefilter candidates confirmed or refuted)
	Hits        uint64
	Retries     uint64            // timeouts retried with retryFactor times the budget
	OverBudget  uint64            // entries whose EntryBudget ran out before every candidate was tried
	Timeouts    uint64            // pattern timeouts that the retry confirmed, all records
	StackLimits uint64            // backtracking-stack errors, all records
	ByRecord    map[string]uint64 // timeouts plus stack errors by record id; nil when none
	// ShapeHits and ShapeMisses count the texts whose candidates a
	// Searcher looked up by their shape (shapes.go): found, and searched
	// then kept.
	ShapeHits, ShapeMisses uint64
	// TextHits counts the shape hits that were the very text last
	// searched of that shape: its hits were kept and it was not searched
	// again.
	TextHits uint64
}

// Stats returns the counters since Compile.
func (m *Matcher) Stats() Stats {
	st := Stats{Subjects: m.subjects.Load(), Tried: m.tried.Load(), Hits: m.hits.Load(), Retries: m.retries.Load(), OverBudget: m.overBudget.Load()}
	if cs := m.caches.Load(); cs != nil {
		st.ShapeHits, st.ShapeMisses, st.TextHits = cs.shapeHits.Load(), cs.shapeMisses.Load(), cs.textHits.Load()
	}
	for i := range m.hot {
		t, s := m.timeouts[i].Load(), m.stackLimit[i].Load()
		st.Timeouts += t
		st.StackLimits += s
		if t+s > 0 {
			if st.ByRecord == nil {
				st.ByRecord = map[string]uint64{}
			}
			st.ByRecord[m.rec(i).ID] += t + s
		}
	}
	return st
}
