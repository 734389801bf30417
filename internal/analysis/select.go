package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// span is a byte range [from, to) of whole lines of an entry's text.
type span struct{ from, to int }

func (a span) overlaps(b span) bool { return a.from < b.to && b.from < a.to }

// lineSpan returns the whole lines of text that [start, end) touches; an
// empty match still covers one byte, so it overlaps the line it is on.
func lineSpan(text string, start, end int) span {
	from := strings.LastIndexByte(text[:start], '\n') + 1
	to := len(text)
	if end > start && text[end-1] == '\n' {
		to = end - 1
	} else if i := strings.IndexByte(text[end:], '\n'); i >= 0 {
		to = end + i
	}
	if to <= from {
		to = from + 1
	}
	return span{from, to}
}

// selection sorts one entry's ranked hits into the cause, its alternatives,
// the wrappers around it and the rest. It is the Analyzer's scratch space:
// its slices are reused by the next choose.
type selection struct {
	cause        *matcher.Hit
	causeAt      int // the index of cause in hits
	context      []matcher.Hit
	alternatives []matcher.Hit
	others       []matcher.Hit
	wrapperLines []span

	hits   []matcher.Hit
	text   string // the entry's text the hits are of
	spans  []span
	group  []int  // group of each hit
	winner []int  // per group: the hit that speaks for it
	role   []int  // per group: rolePriority of its winner
	isWin  []bool // per hit: it is its group's winner
}

// RolePriority orders roles for choosing a cause: cause 0, consequence
// 1, wrapper 2.
func RolePriority(r patterns.Role) int {
	switch {
	case r.Is(patterns.RoleConsequence):
		return 1
	case r.Is(patterns.RoleWrapper):
		return 2
	}
	return 0
}

func informed(h *matcher.Hit) bool { return len(h.Record.Solutions) > 0 }

// choose groups hits (ranked best first by the matcher) by the lines they
// cover: hits on overlapping lines are readings of the same text. Each
// group speaks through its best informed hit (its best hit when none has
// solutions) and takes that record's role. The cause is the winner of the
// best group: causes before consequences before wrappers, informed before
// uninformed, then the matcher's rank.
func (s *selection) choose(text string, hits []matcher.Hit) {
	s.hits, s.text = hits, text
	s.spans = s.spans[:0]
	s.group = s.group[:0]
	s.winner = s.winner[:0]
	s.role = s.role[:0]
	s.isWin = s.isWin[:0]
	for i := range hits {
		sp := lineSpan(text, hits[i].Start, hits[i].End)
		s.spans = append(s.spans, sp)
		g := -1
		for j := 0; j < i && g < 0; j++ {
			if s.spans[j].overlaps(sp) {
				g = s.group[j]
			}
		}
		if g < 0 {
			g = len(s.winner)
			s.winner = append(s.winner, i)
			s.role = append(s.role, 0)
		} else if readsBetter(&hits[i], &hits[s.winner[g]]) || relaysLastError(text, &hits[s.winner[g]], &hits[i]) {
			s.winner[g] = i
		}
		s.group = append(s.group, g)
		s.isWin = append(s.isWin, false)
	}
	best := -1
	for g, w := range s.winner {
		s.isWin[w] = true
		s.role[g] = RolePriority(hits[w].Record.Role)
		if best < 0 || s.groupBefore(g, best) {
			best = g
		}
	}
	s.cause = &hits[s.winner[best]]
	s.causeAt = s.winner[best]
	s.context, s.alternatives, s.others = s.context[:0], s.alternatives[:0], s.others[:0]
	s.wrapperLines = s.wrapperLines[:0]
	for i := range hits {
		g := s.group[i]
		if s.role[g] == 2 {
			s.wrapperLines = append(s.wrapperLines, s.spans[i])
		}
		switch {
		case i == s.winner[best]:
		case s.isContext(i):
			s.context = append(s.context, hits[i])
		case g == best:
			s.alternatives = append(s.alternatives, hits[i])
		default:
			s.others = append(s.others, hits[i])
		}
	}
}

// readsBetter reports whether hit a reads a text better than hit b, which
// ranks above it: an informed record over an uninformed one (a generated
// record never displaces a curated one), a failure over an info note, then
// a cause over a consequence
// over a wrapper (a wrapper's line that quotes the failure, as c10d's
// "watchdog thread terminated with exception: CUDA error: ..." does, is
// read as that failure).
func readsBetter(a, b *matcher.Hit) bool {
	if ia, ib := informed(a), informed(b); ia != ib {
		return ia
	}
	// An info record annotates the line; any real failure reading of it
	// says more.
	if na, nb := a.Record.Severity == patterns.SeverityInfo, b.Record.Severity == patterns.SeverityInfo; na != nb {
		return nb
	}
	return RolePriority(a.Record.Role) < RolePriority(b.Record.Role)
}

// relaysLastError reports whether the hit inner is the lower layer's
// failure that the hit outer, of the same role, relays: NCCL appends the
// last warning it printed to the error it returns, after "Last error:" on
// the same line or the next ("remote process exited or there was a
// network error ... Last error: NET/IB : Got completion from peer ... with
// error 12"), and c10d quotes that error when it takes the process down,
// so the message after the marker is the one nearest the cause: of two
// consequences, or of two causes (torch's "NCCL error in: ..., unhandled
// cuda error" and the "Cuda failure 2 'out of memory'" after its "Last
// error:", under a header that made them one entry). Only that
// marker: a "Caused by" names a mechanism whose caller's record (the host
// it failed to reach) says more, and the exceptions of a chained
// traceback are printed the other way round, the first one the cause.
func relaysLastError(text string, outer, inner *matcher.Hit) bool {
	if RolePriority(outer.Record.Role) != RolePriority(inner.Record.Role) || outer.Record.Role.Is(patterns.RoleWrapper) ||
		informed(outer) != informed(inner) || outer.Start < 0 || inner.Start < outer.End || inner.End > len(text) {
		return false
	}
	return strings.Contains(text[outer.End:inner.Start], lastErrorMarker)
}

// lastErrorMarker is how NCCL introduces the last warning it printed in
// the error it returns.
const lastErrorMarker = "Last error:"

// groupBefore reports whether group a makes a better cause than group b:
// by role, then an event table's Warning row before its Normal row, then a failure before an info note, then informed first, then
// the lower layer's failure a consequence quotes after NCCL's "Last
// error:" (relaysLastError), then the matcher's rank.
func (s *selection) groupBefore(a, b int) bool {
	if s.role[a] != s.role[b] {
		return s.role[a] < s.role[b]
	}
	if ta, tb := EventRowType(s.lineOf(s.winner[a])), EventRowType(s.lineOf(s.winner[b])); ta != tb && ta != "" && tb != "" {
		// An event table's Warning row reports the failure; a Normal
		// row, what was done about it (see EventRowType).
		return ta == warningEvent
	}
	wa, wb := &s.hits[s.winner[a]], &s.hits[s.winner[b]]
	if na, nb := wa.Record.Severity == patterns.SeverityInfo, wb.Record.Severity == patterns.SeverityInfo; na != nb {
		return nb
	}
	if ia, ib := informed(wa), informed(wb); ia != ib {
		return ia
	}
	if relaysLastError(s.text, wb, wa) {
		return true
	}
	if relaysLastError(s.text, wa, wb) {
		return false
	}
	if s.role[a] == 0 {
		la, lb := s.lineOf(s.winner[a]), s.lineOf(s.winner[b])
		if UnloadedLibrary(la, lb) {
			return true
		}
		if UnloadedLibrary(lb, la) {
			return false
		}
	}
	// Groups are numbered in the order of their best-ranked hit.
	return a < b
}

// isContext reports whether hit i is context: a wrapper record's hit that
// speaks for its text, or that shares its text with a cause (the cause
// read the line; the wrapper still says where it happened).
func (s *selection) isContext(i int) bool {
	h := &s.hits[i]
	if !h.Record.Role.Is(patterns.RoleWrapper) {
		return false
	}
	return s.isWin[i] || s.role[s.group[i]] != 2
}

// wrappers returns the context of an entry whose cause is its own
// exception: every wrapper hit that speaks for its text, the chosen one
// included, best first.
func (s *selection) wrappers() []matcher.Hit {
	out := s.context[:0]
	for i := range s.hits {
		if s.isWin[i] && s.role[s.group[i]] == 2 {
			out = append(out, s.hits[i])
		}
	}
	return out
}

// nonWrappers returns every hit that wrappers leaves out.
func (s *selection) nonWrappers() []matcher.Hit {
	out := s.others[:0]
	for i := range s.hits {
		if !(s.isWin[i] && s.role[s.group[i]] == 2) {
			out = append(out, s.hits[i])
		}
	}
	return out
}

// framing returns the context of an entry whose cause is the exception it
// carries under consequence or wrapper headers (carriedLink): every hit
// that speaks for its text, best first.
func (s *selection) framing() []matcher.Hit {
	out := s.context[:0]
	for i := range s.hits {
		if s.isWin[i] {
			out = append(out, s.hits[i])
		}
	}
	return out
}

// unframed returns every hit that framing leaves out.
func (s *selection) unframed() []matcher.Hit {
	out := s.others[:0]
	for i := range s.hits {
		if !s.isWin[i] {
			out = append(out, s.hits[i])
		}
	}
	return out
}

// lineOf is the text of the lines hit i covers.
func (s *selection) lineOf(i int) string {
	sp := s.spans[i]
	return s.text[sp.from:min(sp.to, len(s.text))]
}

// One library that does not load, several imports that fail. A native
// extension whose shared library the dynamic loader cannot load
// ("libnvrtc.so.12: cannot open shared object file", "undefined symbol:
// _ZN3c10...") makes every import of it fail, and a package that tries
// several ways to load it prints each ("No module named 'common_ops'",
// "cannot import name 'flash_attn_varlen_func'"): the library is the
// cause, whichever line was printed first.

// maxLibraryScan bounds the text UnloadedLibrary reads of each line.
const maxLibraryScan = 4096

// UnloadedLibrary reports whether the line lib says a shared library did
// not load and the line use is an import failure (an ImportError or
// ModuleNotFoundError, or a message of FamilyImport) that names no such
// library of its own: the failure lib explains.
func UnloadedLibrary(lib, use string) bool {
	if !SharedLibraryUnloaded(lib) || SharedLibraryUnloaded(use) {
		return false
	}
	if len(use) > maxLibraryScan {
		use = use[:maxLibraryScan]
	}
	if strings.Contains(use, "ImportError: ") || strings.Contains(use, "ModuleNotFoundError: ") ||
		MessageFamily(use) == FamilyImport {
		return true
	}
	// A package's loader that gave up on its native library is explained
	// by a library the system lacks ("libnuma.so.1: cannot open shared
	// object file"); a symbol its build does not find is the package's own
	// build against another torch, which the loader's record names.
	if len(lib) > maxLibraryScan {
		lib = lib[:maxLibraryScan]
	}
	return loaderGaveUp(use) && strings.Contains(strings.ToLower(lib), "cannot open shared object file")
}

// LoaderGaveUpOnBuild reports whether the line use is a package's loader
// that gave up on its native library (loaderGaveUp) and the line lib says
// a build of it misses a symbol ("common_ops.abi3.so: undefined symbol:
// _ZNK3c10..."): one event, the build made against another torch, which
// the loader's record names as the same entry's lines read it. Only the
// first maxLibraryScan bytes of each are read.
func LoaderGaveUpOnBuild(lib, use string) bool {
	if len(lib) > maxLibraryScan {
		lib = lib[:maxLibraryScan]
	}
	if len(use) > maxLibraryScan {
		use = use[:maxLibraryScan]
	}
	return strings.Contains(strings.ToLower(lib), "undefined symbol: ") && loaderGaveUp(use)
}

// loaderGaveUp reports whether use is a package's summary that it could
// load none of the builds of its native library it tried ("[sgl_kernel]
// CRITICAL: Could not load any common_ops library!", "Failed to load the
// native library"): the loader's error before it says why.
func loaderGaveUp(use string) bool {
	u := strings.ToLower(use)
	return (strings.Contains(u, "could not load") || strings.Contains(u, "failed to load") || strings.Contains(u, "unable to load")) &&
		strings.Contains(u, "librar")
}

// SharedLibraryUnloaded reports whether text says the dynamic loader did
// not load a shared library: not found ("cannot open shared object
// file"), or found without a symbol its users need ("undefined symbol:").
// Only its first maxLibraryScan bytes are read.
func SharedLibraryUnloaded(text string) bool {
	if len(text) > maxLibraryScan {
		text = text[:maxLibraryScan]
	}
	t := strings.ToLower(text)
	return strings.Contains(t, "cannot open shared object file") || strings.Contains(t, "undefined symbol: ")
}

// A tolerated error. A program that meets an error it can go on without
// says so in the line that quotes it: sglang's model registry "Ignore
// import error when loading sglang.srt.models.mindspore: name 'Tensor' is
// not defined". A record of severity info reads the notice, and the
// failure record that reads the quoted error takes the line (readsBetter);
// alone, the line is no crash, but it names the cause of a failure that
// follows it (the model it skipped, the scheduler that then dies), so it
// is diagnosed and marked Tolerated: the incident grouper holds it for a
// failure of its source that follows, and drops it unless one joins it.

// tolerated reports whether the cause chosen shares its line with the
// hit of an info record of role cause (see above).
func (s *selection) tolerated() bool {
	if s.cause == nil || s.cause.Record.Severity == patterns.SeverityInfo {
		return false
	}
	g := s.group[s.causeAt]
	for i := range s.hits {
		if i != s.causeAt && s.group[i] == g && s.hits[i].Record.Severity == patterns.SeverityInfo &&
			s.hits[i].Record.Role.Is(patterns.RoleCause) {
			return true
		}
	}
	return false
}

// Kubernetes records what happens to an object as events of two types,
// and every table of them (kubectl describe's "Events:", kubectl get
// events, kubectl events) prints the type in a column of its own before
// the reason: "Warning  Unhealthy  kubelet  Liveness probe failed: HTTP
// probe failed with statuscode: 404" reports a failure, and "Normal
// Killing  kubelet  Container x failed liveness probe, will be restarted"
// the kubelet's action on it. Two rows of one table that records read are
// the failure and its consequence: the Warning row says why.
const (
	warningEvent = "Warning"
	normalEvent  = "Normal"
)

// EventRowType returns the type column of line when it is a row of a table
// of Kubernetes events ("Warning" or "Normal", within the first columns,
// padded by at least two spaces, and followed by a reason word that
// opens with a capital letter); "" otherwise.
func EventRowType(line string) string {
	t := strings.TrimSpace(line)
	for n := 0; n < maxKubeColumns && t != ""; n++ {
		col, rest, ok := strings.Cut(t, "  ")
		if !ok {
			return ""
		}
		rest = strings.TrimLeft(rest, " ")
		if (col == warningEvent || col == normalEvent) && rest != "" && isUpperByte(rest[0]) {
			reason, _, _ := strings.Cut(rest, " ")
			if asciiLetters(reason) {
				return col
			}
		}
		t = rest
	}
	return ""
}

// asciiLetters reports whether w is one or more ASCII letters.
func asciiLetters(w string) bool {
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if c := w[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}
