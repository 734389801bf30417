package analysis

import (
	"strings"
	"unsafe"

	"github.com/logmatch/logmatch/internal/ascii"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// Notices: a failure the program tolerated.
//
// Serving engines and their libraries report a failure they then get
// round in one line of their own, usually at INFO or WARNING, often with
// the error quoted: sglang's "Ignore import error when loading
// sglang.srt.models.x: No module named 'y'" and "Failed to load generation
// config for m: ... Proceeding without generation config.", vLLM's
// "Failed to initialize Flashinfer allreduce workspace. ... fusion will be
// disabled.", flashinfer's "cuDNN fp8 GEMM tactic failed; falling back to
// default tactic=-1.", huggingface_hub's "... thrown while requesting HEAD
// ... Retrying in 1s [Retry 1/5].". The quoted error reads as a failure to
// any record of it, and to the line's own error words; the notice around
// it says the writer carried on: it ignores, skips, proceeds without,
// falls back, continues, retries, uses the default, disables the feature,
// or says the thing "will be" skipped, ignored or disabled.
//
// The rule lives at the line's analysis and only marks the diagnosis
// Tolerated, the mark an info record reading the notice sets too
// (select.go's tolerated); what becomes of it is decided in one place, the
// incident grouper's settle step: held like a consequence for a failure
// of its source after it, which it then leads, and dropped unannounced
// alone or repeated by every rank (internal/incident's routineAlone,
// awaitsCause). Only the line knows it is a notice: a record's role cannot
// say it when no record was written for the notice itself, since the
// record that reads the quoted error ("No module named", "does not appear
// to have a file named") is the same record that reads that error raised
// for real, and the settle step sees incidents, not wordings. Nor may the
// notice be dropped here: the error it quotes often explains a failure
// printed after it (a model module skipped on a compiler error, then the
// scheduler that finds no such architecture). A record written for the
// notice's own words, not an info one ("skip invalid json schema", "step
// creation still disabled, retrying"), is the catalog's judgment of that
// notice and stands.
//
// What a notice is, read on the entry's first line only (bounded by
// maxNoticeScan):
//   - one line, with no traceback but an exception the notice quotes
//     in its own words (quotedException): an exception or a native
//     backtrace printed with the notice is a failure whatever the words;
//   - no ERROR, CRITICAL or FATAL level: a writer that carries on and
//     still logs at an error level means it (most notices carry no level
//     or a WARNING one);
//   - a clause of the writer's own that carries on (carryOnAt): at the
//     line's start or after a clause break (". ", "; ", ", ", ": ",
//     " - ", " -- "), one of the carry-on openers, or a passive "will be
//     skipped/ignored/disabled", "is disabled", "can be ignored";
//   - after that clause, no word of giving up ("giving up", "exiting",
//     "aborting", "terminating", "exhausted", "exceeded") outside the
//     error it quotes, and within it no failure of the fall-back itself
//     ("Falling back to CPU failed"): a retry that gave up, a fall-back
//     that failed and an exit are failures;
//   - no record other than an info one reads the carry-on words.

// maxNoticeScan bounds the bytes of a line read for a notice.
const maxNoticeScan = 2048

// noticeOf reports whether entry e, whose record hits are hits, is a
// notice that a failure was tolerated (see above).
func noticeOf(e *entry.Entry, hits []matcher.Hit) bool { return noticeRead(e, hits, true) }

// noticeRead is noticeOf, which asks hitsHideNotice first when hide is set
// (a test reads every line without it, to compare).
func noticeRead(e *entry.Entry, hits []matcher.Hit, hide bool) bool {
	switch e.Level {
	case "ERROR", "CRITICAL", "FATAL", "ERR", "CRIT", "EMERG", "ALERT", "PANIC":
		return false
	}
	text := strings.TrimRight(e.Text, "\r\n ")
	if strings.IndexByte(text, '\n') >= 0 {
		// More than its line: a native backtrace under it ("Exception
		// raised from ...", "frame #0"), or lines no notice prints.
		return false
	}
	if hide && hitsHideNotice(text, hits) {
		// Most failures a record reads: the line is its hit and little
		// else.
		return false
	}
	msg := FirstLine(e.Message)
	if msg == "" {
		msg = text
	}
	lowMsg, at, end, ok := carryOnLower(msg)
	if !ok {
		if at, end, ok = importNotice(msg); !ok {
			return false
		}
	}
	// Where the carry-on words are in the entry's text: a record that
	// reads them, not an info one, was written for this very notice
	// ("skip invalid json schema", "step creation still disabled,
	// retrying"), and the catalog's judgment of it stands.
	if len(text) > maxNoticeScan {
		text = text[:maxNoticeScan]
	}
	lower := lowMsg // the message is the line itself: lowered once
	if text != msg[:min(len(msg), maxNoticeScan)] {
		lower = lowerASCII(text)
	}
	off := strings.Index(lower, lowMsg)
	if off < 0 {
		off = strings.Index(lower, lowMsg[at:end])
		if off < 0 {
			return false
		}
		off -= at
	}
	from, to := off+at, off+end
	for i := range hits {
		h := &hits[i]
		if h.Record.Severity != patterns.SeverityInfo && h.Start < to && from < h.End {
			return false
		}
	}
	return true
}

// CarriesOn reports whether the message line says its writer carried on
// past a failure it reports (see noticeOf): a carry-on clause, no giving
// up after it, and no failure of the carrying on itself.
func CarriesOn(line string) bool {
	_, _, ok := carriesOn(line)
	return ok
}

// carriesOnPast reports whether l, a line that a reader of one failure
// shape found (funcfailed.go, cudastatus.go, httpclient.go,
// nativewarn.go, quotedexception.go), says its writer carries on past the
// failure it reports: a carry-on clause of its own (CarriesOn), or one of
// the words (own) that the writers of that shape carry on with in their
// own way (an optional piece, a status that "may not be an issue").
func carriesOnPast(l string, own []string) bool {
	return containsAnyOf(l, own) || CarriesOn(l)
}

// carriesOn is CarriesOn, which also returns where in line the words that
// carry on are ([at, end)).
func carriesOn(line string) (at, end int, ok bool) {
	_, at, end, ok = carryOnLower(line)
	return at, end, ok
}

// carryOnLower is carriesOn, which also returns the line as it read it: its
// first maxNoticeScan bytes lower-cased (lowerASCII), or "" when it holds
// no carry-on stem. noticeOf searches the entry's text for that, and
// made the same copy again.
func carryOnLower(line string) (t string, at, end int, ok bool) {
	if len(line) > maxNoticeScan {
		line = line[:maxNoticeScan]
	}
	if !mayCarryOn(line) {
		// Most lines: no copy made.
		return "", 0, 0, false
	}
	t = lowerASCII(line)
	at, wordEnd, end, kind := carryOnAt(t)
	if at < 0 {
		return t, 0, 0, false
	}
	rest := t[at:]
	if at == 0 || kind == carryIgnore {
		// The clause that opens the line, or an "ignoring ...", quotes
		// the error after its colon: only its own words count.
		if i := strings.Index(rest, ": "); i >= 0 {
			rest = rest[:i]
		}
	}
	for _, q := range errorQuotes {
		if i := strings.Index(rest, q); i >= 0 {
			rest = rest[:i]
		}
	}
	rest = unquoted(rest)
	for _, w := range givingUp {
		if strings.Contains(rest, w) {
			return t, 0, 0, false
		}
	}
	if kind == carryOn {
		// "Falling back to CPU failed", "retry also failed": the
		// carrying on failed. A reason after "because", "due to" or a
		// colon is the failure it carried on from.
		clause := t[at:end]
		for _, cut := range reasonCuts {
			if i := strings.Index(clause, cut); i >= 0 {
				clause = clause[:i]
			}
		}
		for _, w := range failedWords {
			if strings.Contains(clause, w) {
				return t, 0, 0, false
			}
		}
	}
	return t, at, wordEnd, true
}

// The kinds of carry-on clause: one that goes on past the failure (falls
// back, retries, proceeds, continues, uses a default), and one that
// ignores or skips what failed (its object is the failure itself).
const (
	carryOn = iota + 1
	carryIgnore
)

// carryOnOpeners open a clause that goes on past a failure; each kind
// with its own list. Checked at the line's start and after each clause
// break.
var carryOnOpeners = []struct {
	word string
	kind int
}{
	{"falling back", carryOn}, {"fall back", carryOn}, {"fell back", carryOn},
	{"fallback to ", carryOn}, {"fallback: ", carryOn}, {"fall-back to ", carryOn},
	{"retrying", carryOn}, {"retry in ", carryOn}, {"retry after ", carryOn}, {"retry (", carryOn},
	{"retry cnt", carryOn}, {"retry count", carryOn}, {"retry attempt", carryOn}, {"retry #", carryOn},
	{"trying again", carryOn}, {"will retry", carryOn}, {"will try ", carryOn}, {"will delay ", carryOn},
	{"proceeding", carryOn}, {"proceed without", carryOn}, {"proceed anyway", carryOn},
	{"continuing", carryOn}, {"continue without", carryOn}, {"continue anyway", carryOn}, {"continue.", carryOn},
	{"using default", carryOn}, {"using the default", carryOn}, {"using a default", carryOn},
	{"use default", carryOn}, {"use the default", carryOn}, {"using fallback", carryOn},
	{"defaulting to", carryOn}, {"defaulting ", carryOn}, {"assuming ", carryOn},
	{"using internal", carryOn}, {"using builtin", carryOn}, {"using built-in", carryOn},
	{"will use ", carryOn}, {"will assume ", carryOn}, {"will fall back", carryOn}, {"will continue", carryOn}, {"will proceed", carryOn},
	{"will default", carryOn},
	{"disabling ", carryOn}, {"will disable ", carryOn},
	{"ignore ", carryIgnore}, {"ignoring", carryIgnore}, {"ignored ", carryIgnore},
	{"skip ", carryIgnore}, {"skipping", carryIgnore}, {"skipped", carryIgnore},
	{"will skip", carryIgnore}, {"will ignore", carryIgnore},
}

// carryOnPassives say the same of the thing that failed, anywhere in a
// clause: "this frame will be skipped", "fusion will be disabled",
// "Ascend initialization skipped.", "can be ignored", and the writer's
// own word that the line is a warning it went on after ("To silence this
// warning, specify --disable-custom-all-reduce explicitly.").
var carryOnPassives = []string{
	" will be skipped", " will be ignored", " will be disabled", " will be retried",
	" are skipped", " is skipped", " skipped.", " skipped;", " skipped,",
	" is disabled", " are disabled", " disabled because", " disabled due to", " disabled:", " disabled (",
	" disabled.", " can be ignored", " can be safely ignored", " please ignore",
	" to silence this warning", " to suppress this warning",
	" and continue", " instead.", " instead;", " instead,",
}

// clauseBreaks separate the clauses of a line.
var clauseBreaks = []string{". ", "; ", ", ", ": ", " - ", " -- ", " — ", "... ", "! "}

// clauseLeads are words a carry-on clause may begin with before its verb.
var clauseLeads = []string{"and ", "so ", "now ", "then ", "we ", "we'll ", "i ", "instead ", "thus ", "therefore "}

// leadStart marks the first bytes of clauseLeads.
var leadStart = func() (first [256]bool) {
	for _, l := range clauseLeads {
		first[l[0]] = true
	}
	return first
}()

// givingUp are the words of a writer that stopped carrying on.
var givingUp = []string{
	"giving up", "give up", "gave up", "exiting", "will exit", "aborting", "will abort",
	"terminating", "will terminate", "shutting down", "exhausted", "exceeded", "no more retries",
	"cannot continue", "can't continue", "unable to continue", "could not continue",
}

// errorQuotes introduce the error a notice quotes after its carry-on
// clause ("falling back to vLLM RMSNorm. Error: ..."): the giving-up words
// of the quoted error (urllib3's "Max retries exceeded") are not the
// writer's.
var errorQuotes = []string{"error: ", "error=", "exception: ", "details: ", "reason: ", "(error", "err: "}

// reasonCuts end a carry-on clause's own words: what follows is the
// failure it carried on from.
var reasonCuts = []string{": ", " (", " because", " due to", " since", " as ", " after ", " from ", "=", " with "}

// failedWords in a carry-on clause's own words say the carrying on
// failed.
var failedWords = []string{"fail", "error", "unable", "cannot", "can't", "could not", "couldn't", "not possible", "impossible"}

// carryOnStems hold, between them, a piece of every carry-on opener and
// passive (and of "retry " before a count): a line without any of them
// has no carry-on clause, which mayCarryOn tells in one pass where
// carryOnAt tries every opener and passive at every clause. Each opens
// with two lower-case letters (stemPairs).
// TestCarryOnStemsCoverTheWords keeps the lists in step.
var carryOnStems = []string{
	"fall", "fell", "retr", "again", "will ", "proceed", "continu", "default", "assum",
	"using", "disabl", "ignor", "skip", "instead", "silence", "suppress",
}

// carryOnBare are the openers without their spaces, and passiveWords
// the passives without their closing marks: made once, for carryOnAt's
// comparisons at each clause.
var (
	carryOnBare  = mapWords(len(carryOnOpeners), func(i int) string { return strings.TrimSpace(carryOnOpeners[i].word) })
	passiveWords = mapWords(len(carryOnPassives), func(i int) string { return strings.TrimRight(carryOnPassives[i], ".;,") })
)

// openersBy lists, for each byte, the carry-on openers (their places in
// carryOnOpeners, in its order) that begin with it: a clause is compared
// only with those of its first byte.
var openersBy = func() (by [256][]uint8) {
	for i, o := range carryOnOpeners {
		by[o.word[0]] = append(by[o.word[0]], uint8(i))
	}
	return by
}()

// passiveStems hold a piece of every carry-on passive (and of each
// passive word), each opening with two lower-case letters: a clause
// without any of them ends in no passive word and holds no passive
// (passiveStemSet). TestCarryOnStemsCoverTheWords keeps the lists in
// step.
var passiveStems = []string{"skip", "ignor", "disabl", "retri", "silence", "suppress", "continue", "instead"}

func mapWords(n int, f func(int) string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

// mayCarryOn reports whether the line t holds a carry-on stem, in either
// case: false means carryOnAt finds no clause in it. Most failures hold
// none, and are turned away before their line is lower-cased.
func mayCarryOn(t string) bool { return carryOnStemSet.in(t) }

// A stemSet finds whether a text holds one of its words in one pass over
// the text, where a search a word would read it once a word: it compares
// words only where a word's first two letters stand, and only the words
// that open with them.
type stemSet struct {
	// pairs holds, for each byte that opens a word (either case), the
	// letters that follow it in one: bit c-'a' for letter c.
	pairs [256]uint32
	// by lists the words (lower-case, each opening with two letters) by
	// their first letter, less 'a'.
	by [26][]stemWord
}

// A stemWord is a word of a stemSet and its bit (1 << its place).
type stemWord struct {
	word string
	bit  uint32
}

func newStemSet(words []string) *stemSet {
	s := &stemSet{}
	for i, w := range words {
		bit := uint32(1) << (w[1] - 'a')
		s.pairs[w[0]] |= bit
		s.pairs[w[0]-'a'+'A'] |= bit
		s.by[w[0]-'a'] = append(s.by[w[0]-'a'], stemWord{w, 1 << i})
	}
	return s
}

var (
	carryOnStemSet = newStemSet(carryOnStems)
	passiveStemSet = newStemSet(passiveStems)
	// passiveStemOf holds, for each of carryOnPassives, the bit of a
	// stem of passiveStems it holds (as its word does).
	passiveStemOf = func() []uint32 {
		out := make([]uint32, len(carryOnPassives))
		for i, p := range carryOnPassives {
			out[i] = passiveStemSet.present(p)
		}
		return out
	}()
)

// in reports whether t holds one of the words, ignoring ASCII case as
// lowerASCII folds it.
func (s *stemSet) in(t string) bool {
	if len(t) < 2 {
		return false
	}
	// The letters that may follow the byte before: none after most.
	next := s.pairs[t[0]]
	for i := 1; i < len(t); i++ {
		c := t[i]
		// A byte that is no letter folds to 26 or more.
		if next != 0 && (c|0x20)-'a' < 26 && next>>((c|0x20)-'a')&1 != 0 && s.at(t[i-1:]) != 0 {
			return true
		}
		next = s.pairs[c]
	}
	return false
}

// present returns the bits of the words t holds, ignoring ASCII case as
// lowerASCII folds it.
func (s *stemSet) present(t string) (bits uint32) {
	if len(t) < 2 {
		return 0
	}
	next := s.pairs[t[0]]
	for i := 1; i < len(t); i++ {
		c := t[i]
		if next != 0 && (c|0x20)-'a' < 26 && next>>((c|0x20)-'a')&1 != 0 {
			bits |= s.at(t[i-1:])
		}
		next = s.pairs[c]
	}
	return bits
}

// at returns the bit of the word t, which opens with a letter, opens
// with; 0 when none. (No word of a set opens another.)
func (s *stemSet) at(t string) uint32 {
	for _, w := range s.by[(t[0]|0x20)-'a'] {
		if hasLowerPrefix(t, w.word) {
			return w.bit
		}
	}
	return 0
}

// hasLowerPrefix reports whether s, lower-cased as lowerASCII does,
// begins with the lower-case word w.
func hasLowerPrefix(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[i] {
			return false
		}
	}
	return true
}

// carryOnAt returns where the first carry-on clause of the lower-cased
// line t begins, where its carry-on words end, where it ends (the next
// clause break or the line's end) and its kind; at is -1 when there is
// none. A passive clause begins at its carry-on words.
func carryOnAt(t string) (at, wordEnd, end, kind int) {
	for start := 0; start < len(t); {
		s := skipHeads(t, start)
		if s < len(t) && leadStart[t[s]] {
			for _, l := range clauseLeads {
				if strings.HasPrefix(t[s:], l) {
					s += len(l)
					break
				}
			}
		}
		next, brk := nextBreak(t, s)
		clause := t[s:next]
		bare := strings.TrimRight(clause, ".!")
		if len(clause) > len("retry ") && strings.HasPrefix(clause, "retry ") && ascii.Digits(clause[len("retry "):len("retry ")+1]) {
			// "retry 3 times", "retry 2": a count, not advice to retry.
			return s, s + len("retry "), next, carryOn
		}
		if clause != "" {
			// Only the openers of the clause's first letter can
			// open it, or equal its bare form.
			for _, i := range openersBy[clause[0]] {
				if o := carryOnOpeners[i]; strings.HasPrefix(clause, o.word) || bare == carryOnBare[i] {
					return s, min(s+len(o.word), next), next, o.kind
				}
			}
		}
		if stems := passiveStemSet.present(clause); stems != 0 {
			// The space before the clause stands for the break before it.
			spaced := " " + clause + t[next:min(next+len(brk), len(t))]
			for i, p := range carryOnPassives {
				if stems&passiveStemOf[i] == 0 {
					// Neither the passive nor its word is in the clause.
					continue
				}
				if j := strings.Index(spaced, p); j >= 0 {
					j = max(j-1, 0)
					return s + j, min(s+j+len(p), len(t)), next, carryIgnore
				}
				if word := passiveWords[i]; strings.HasSuffix(clause, word) {
					return next - len(word), next, next, carryIgnore
				}
			}
		}
		if next >= len(t) {
			break
		}
		start = next + len(brk)
	}
	return -1, -1, -1, 0
}

// nextBreak returns where the clause of t that begins at from ends (the
// earliest clause break, or len(t)) and the break found there. Every
// break of clauseBreaks begins or ends with a space: it reads t from
// space to space (a vectorised search), and at each space looks for the
// breaks that end in it, the earliest first, then those that begin with
// it. No break tied to a later space begins before one tied to an
// earlier space.
func nextBreak(t string, from int) (int, string) {
	for k := from; k < len(t); k++ {
		j := strings.IndexByte(t[k:], ' ')
		if j < 0 {
			break
		}
		k += j
		if k-1 >= from {
			switch t[k-1] {
			case '.':
				if k-3 >= from && t[k-3] == '.' && t[k-2] == '.' {
					return k - 3, "... "
				}
				return k - 1, ". "
			case ';':
				return k - 1, "; "
			case ',':
				return k - 1, ", "
			case ':':
				return k - 1, ": "
			case '!':
				return k - 1, "! "
			}
		}
		if k+2 < len(t) {
			switch rest := t[k:]; rest[1] {
			case '-':
				if rest[2] == ' ' {
					return k, " - "
				}
				if strings.HasPrefix(rest, " -- ") {
					return k, " -- "
				}
			case 0xe2:
				if strings.HasPrefix(rest, " — ") {
					return k, " — "
				}
			}
		}
	}
	return len(t), ""
}

// markNotice marks d, the failure decide found in e, Tolerated when e's
// line is a notice that its writer carried on past it (noticeOf). Called
// on failures only (AnalyzeInto, streamDecided): the routine line never
// comes here.
func (a *Analyzer) markNotice(d *Diagnosis, e *entry.Entry) {
	if !d.Tolerated && (e.Traceback == nil || quotedException(e)) && noticeOf(e, a.hits) {
		d.Tolerated = true
	}
}

// maxHidingHits bounds the hits hitsHideNotice reads: an entry with more
// is read by noticeOf as any other.
const maxHidingHits = 16

// hitsHideNotice reports that noticeOf is false for the entry of text (its
// one line) and hits, because whatever words of a notice noticeOf could
// find lie on a hit of a record that is no info one: the text outside
// those hits (its first maxNoticeScan bytes) holds no carry-on stem
// (carryOnStems) and no "mport" in any case. noticeOf's words hold one or
// the other whole: a carry-on opener or passive holds a stem
// (TestCarryOnStemsCoverTheWords), a failed import's words
// (importFailures) "mport"; the words lie in the text, where noticeOf
// finds them, and when the stem they hold overlaps such a hit, so do
// they, and noticeOf says no. Most failures a record reads are its hit and
// little else, where noticeOf would lower-case the line and read it for
// stems; false says only that the rest of noticeOf has to be read.
func hitsHideNotice(text string, hits []matcher.Hit) bool {
	if len(hits) == 0 || len(hits) > maxHidingHits {
		return false
	}
	text = text[:min(len(text), maxNoticeScan)]
	// The hits of records that are no info ones, as [start, end) clipped
	// to text, in the order of their starts.
	var room [maxHidingHits][2]int
	spans := room[:0]
	for i := range hits {
		h := &hits[i]
		if h.Record.Severity == patterns.SeverityInfo {
			continue
		}
		s, e := max(h.Start, 0), min(h.End, len(text))
		if s >= e {
			continue
		}
		j := len(spans)
		spans = append(spans, [2]int{s, e})
		for ; j > 0 && spans[j-1][0] > s; j-- {
			spans[j], spans[j-1] = spans[j-1], spans[j]
		}
	}
	if len(spans) == 0 {
		return false
	}
	// The gaps between the spans: a stem or "mport" that overlaps no
	// span lies whole in one of them.
	at := 0
	for _, sp := range spans {
		if sp[0] > at && noticeWordsIn(text[at:sp[0]]) {
			return false
		}
		at = max(at, sp[1])
	}
	return at >= len(text) || !noticeWordsIn(text[at:])
}

// noticeWordsIn reports whether t holds a carry-on stem or "mport", in
// any case (as lowerASCII folds it).
func noticeWordsIn(t string) bool {
	if mayCarryOn(t) {
		return true
	}
	for i := 0; i+len("mport") <= len(t); i++ {
		if t[i]|0x20 == 'm' && hasLowerPrefix(t[i:], "mport") {
			return true
		}
	}
	return false
}

// unquoted returns s without what its parentheses and quotes enclose: the
// values and errors a notice quotes. Unbalanced marks end the text.
func unquoted(s string) string {
	var b strings.Builder
	depth, quote := 0, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '(' || c == '[':
			depth++
		case (c == ')' || c == ']') && depth > 0:
			depth--
		case c == '"' || c == '\'' && (i == 0 || s[i-1] == ' ' || s[i-1] == '='):
			quote = c
		case depth == 0:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// skipHeads returns where the words of the clause of t at i begin: past
// spaces, opening quotes and the bracketed tags a writer puts before its
// words ("[2026-05-28 00:11:09 TP0] ", "[Autotuner]: ", "<stderr>:").
func skipHeads(t string, i int) int {
	for i < len(t) {
		switch c := t[i]; {
		case c == ' ' || c == '"' || c == '\'' || c == '(':
			i++
		case c == '[' || c == '<':
			closing := byte(']')
			if c == '<' {
				closing = '>'
			}
			j := strings.IndexByte(t[i:min(len(t), i+maxTag)], closing)
			if j < 0 {
				return i + 1
			}
			i += j + 1
			if i < len(t) && t[i] == ':' {
				i++
			}
		default:
			return i
		}
	}
	return i
}

// maxTag bounds a bracketed tag skipHeads passes.
const maxTag = 64

// quotedException reports whether e's traceback is only an exception a
// notice quotes inside its own line ("cutlass.get_max_active_clusters
// failed (RuntimeError: ...); falling back to sm_count", "Task failed:
// IOError: ...; the task will be retried"): a bare exception whose type
// follows an opening parenthesis or the notice's own "failed: ", "due to
// " or "error: ", never where an exception line of its own begins.
func quotedException(e *entry.Entry) bool {
	tb := e.Traceback
	if !tb.Bare || len(tb.Links) != 1 || tb.Links[0].Type == "" {
		return false
	}
	line := FirstLine(e.Text)
	if len(line) > maxNoticeScan {
		line = line[:maxNoticeScan]
	}
	i := strings.Index(line, tb.Links[0].Type)
	if i <= 0 {
		return false
	}
	if after := line[i+len(tb.Links[0].Type):]; line[i-1] == ' ' && len(after) > 1 && after[0] == '(' && (after[1] == '\'' || after[1] == '"') {
		// Its repr, "with ModuleNotFoundError('...')": a value the
		// line quotes, never how a raised exception prints.
		return true
	}
	before := lowerASCII(line[:i])
	for _, q := range exceptionQuotes {
		if strings.HasSuffix(before, q) {
			return true
		}
	}
	return false
}

// An optional import that failed is reported, not raised, by the module
// that tried it, which then goes on without it: vLLM's "Failed to import
// from vllm._C with ModuleNotFoundError("No module named 'vllm._C'")"
// (and from vllm._rocm_C, amdsmi), sglang's "Failed to import from
// custom_ar with ModuleNotFoundError(...)" on a device its kernels do not
// build for. The writer formats the exception it caught with its repr
// ("%r", "{e!r}"): Type('message'), a form no raised exception prints
// (Python prints "Type: message"). importNotice reads a line that opens
// with the writer's own words of a failed import and quotes the
// exception so: a notice that the import failed and the writer carried
// on. An import that really failed is printed otherwise: a traceback
// ending in ModuleNotFoundError, an ERROR line (noticeOf), a crash after
// the notice (which the notice is then held for and leads).

// importFailures are a writer's own words that an import failed,
// lower-case.
var importFailures = [...]string{"failed to import", "could not import", "couldn't import", "unable to import", "cannot import", "can't import", "error importing", "failed importing"}

// importNotice returns where in line the words of a failed import that
// open it are ([at, end)), when line is such a notice (see above).
func importNotice(line string) (at, end int, ok bool) {
	if len(line) > maxNoticeScan {
		line = line[:maxNoticeScan]
	}
	if !strings.Contains(line, "mport") || strings.IndexByte(line, '(') < 0 {
		// Most lines: no import named, or no repr.
		return 0, 0, false
	}
	t := lowerASCII(line)
	for _, w := range importFailures {
		if i := strings.Index(t, w); i >= 0 && ownWordsAt(t, i) {
			at, end = i, i+len(w)
			break
		}
	}
	if end == 0 || !quotesRepr(line[end:]) {
		return 0, 0, false
	}
	rest := unquoted(t[end:])
	for _, w := range givingUp {
		if strings.Contains(rest, w) {
			return 0, 0, false
		}
	}
	return at, end, true
}

// ownWordsAt reports whether the writer's own words begin at i in the
// lower-cased line t: at its start past the tags skipHeads passes, or
// right after the end of a prefix a launcher or a logger put before
// them ("0: ", "[file.py:21] ", "<stderr>: "), not after an error word
// ("error: ", which makes the line the error itself).
func ownWordsAt(t string, i int) bool {
	if i == skipHeads(t, 0) {
		return true
	}
	before := strings.TrimRight(t[:i], " ")
	if len(before) == len(t[:i]) || before == "" {
		return false
	}
	switch before[len(before)-1] {
	case ']', '>', '|':
		return true
	case ':':
		for _, w := range [...]string{"error:", "fatal:", "critical:", "exception:", "err:"} {
			if strings.HasSuffix(before, w) {
				return false
			}
		}
		return true
	}
	return false
}

// quotesRepr reports whether s quotes an exception in its repr form:
// a space, a type name ending in Error or Exception, and an opening
// parenthesis with a quote ("with ImportError('...')").
func quotesRepr(s string) bool {
	for off := 0; off < len(s); {
		i := strings.Index(s[off:], "(")
		if i < 0 {
			return false
		}
		i += off
		off = i + 1
		if i+1 >= len(s) || s[i+1] != '\'' && s[i+1] != '"' {
			continue
		}
		j := i
		for j > 0 && (ascii.Letter(s[j-1]) || isDigitByte(s[j-1]) || s[j-1] == '_' || s[j-1] == '.') {
			j--
		}
		name := s[j:i]
		if j > 0 && s[j-1] == ' ' && (strings.HasSuffix(name, "Error") || strings.HasSuffix(name, "Exception")) && isUpperByte(lastDotted(name)[0]) {
			return true
		}
	}
	return false
}

// exceptionQuotes are what a notice writes right before an exception it
// quotes.
var exceptionQuotes = []string{"(", "failed: ", "failed with ", "due to ", "error: ", "exception: ", "because of "}

// lowerASCII is s with its ASCII letters lower-cased: byte offsets stay
// those of s. The copy is made once: its bytes, never written after, are
// the string returned (string(b) would copy them again).
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return unsafe.String(unsafe.SliceData(b), len(b))
		}
	}
	return s
}
