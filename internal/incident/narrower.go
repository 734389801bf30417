package incident

import (
	"slices"
	"strings"

	"github.com/logmatch/logmatch/sinks"
)

// A library's own record over a general one. A library that fails often
// prints the failed system call first, in the operating system's words,
// and then what it was doing, in its own: NCCL's "Call to open failed: No
// such file or directory" and on the next WARN line "Error while attaching
// to shared memory segment /dev/shm/nccl-...". A general record (a path
// that does not exist, read from errno's wording whoever prints it) names
// the first line; the library's own record names the second, and says
// what to do about that library's failure. Both lines are of one event of
// one writer, and the library's record leads it, whichever line came first:
// the general line is listed as its context.
//
// Which record is the library's is read from what the lines and the
// records say, never from which record it is: a record is of the component
// its source repository is named after ("NVIDIA/nccl": nccl), and a line
// is that component's when it names it as a word ("NCCL WARN"). The
// library's record is the one of the component both lines name; a
// general record is one that reads the operating system's words for a
// failed call (tagged errno), which every program prints. Only lines printed within a few lines of
// each other (narrowGap) in one source and burst are read so: two failures
// further apart, or of writers that do not name one component, stay
// apart.

// narrowGap bounds the bytes between the general line and the library's
// own line of one event: a few lines of one writer, not another burst.
const narrowGap = quotedGap

// recordComponent is the component the record rec is of: the name of its
// source repository, lower-cased ("NVIDIA/nccl": "nccl"); "" when it has
// none.
func recordComponent(rec *sinks.Record) string {
	name := rec.Repo[strings.LastIndexByte(rec.Repo, '/')+1:]
	if len(name) < 3 {
		return ""
	}
	return strings.ToLower(name)
}

// namesComponent reports whether line names the component comp as a word
// of its own, in any case ("NCCL WARN", "/dev/shm/nccl-x" for nccl).
func namesComponent(line, comp string) bool {
	if comp == "" || len(line) < len(comp) {
		return false
	}
	for i := 0; i+len(comp) <= len(line); i++ {
		j := indexFold(line[i:], comp)
		if j < 0 {
			return false
		}
		i += j
		end := i + len(comp)
		if (i == 0 || !isWordByte(line[i-1])) && (end == len(line) || !isWordByte(line[end])) {
			return true
		}
	}
	return false
}

// indexFold is the index of the first occurrence of the lower-case ASCII
// word sub in s, in any case; -1 when there is none.
func indexFold(s, sub string) int {
	first := sub[0]
	for i := 0; i+len(sub) <= len(s); i++ {
		if c := s[i] | 0x20; c != first {
			continue
		}
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// isWordByte reports whether c is a letter or a digit: what continues a
// word.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// firstLine is line up to its first line break.
func firstLine(line string) string {
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		return line[:i]
	}
	return line
}

// narrows reports whether the classified line whose record is own and
// whose text is ownLine is the library's own record of the event whose
// other line, text generalLine, a general record names (see above).
func narrows(own *sinks.Record, ownLine string, general *sinks.Record, generalLine string) bool {
	comp := recordComponent(own)
	if comp == "" || own.ID == general.ID || recordComponent(general) == comp {
		return false
	}
	ownLine, generalLine = firstLine(ownLine), firstLine(generalLine)
	return slices.Contains(general.Tags, errnoTag) && namesComponent(ownLine, comp) && namesComponent(generalLine, comp)
}

// errnoTag tags the records that read the operating system's own words
// for a failed call (strerror's "No such file or directory", "Permission
// denied"): every program prints them, whatever it was doing.
const errnoTag = "errno"

// narrowsGroup reports whether the classified occurrence o, printed at most
// narrowGap after or before the classified incident c in its source, is
// the library's own record of the event c's general record names.
func narrowsGroup(o *Occurrence, c *group) bool {
	if c.Source == "" || c.Source != o.SourceKey || !namedCause(c) || gapBetween(c.Off, c.End, o.Offset, o.EndOffset) > narrowGap {
		return false
	}
	o.Complete()
	return narrows(&o.Alert.Record, lineOfAlert(&o.Alert), &c.Alert.Record, lineOf(c))
}

// claimNarrowed makes the settling classified incidents of gr's source
// that a general record names, printed just before the library's own
// record gr of their event, context of gr.
func (g *Grouper) claimNarrowed(gr *group) {
	if !g.genericFolds() || !classifiedCause(gr) || gr.Source == "" || recordComponent(&gr.Alert.Record) == "" {
		return
	}
	g.absorbJustBefore(gr, g.sourceCauses(causeKey(gr)), func(a *group) bool {
		return namedCause(a) && a.End <= gr.Off && gr.Off-a.End <= narrowGap &&
			narrows(&gr.Alert.Record, lineOf(gr), &a.Alert.Record, lineOf(a))
	})
}

// narrowerBefore returns the classified incident of the burst b printed
// just before the classified occurrence o that is the library's own record
// of the event o's general record names: o is its context. Nil when there
// is none.
func (g *Grouper) narrowerBefore(o *Occurrence, b burst) *group {
	if b.source == "" {
		return nil
	}
	o.Complete()
	line := lineOfAlert(&o.Alert)
	var best *group
	for _, m := range g.sourceCauses(sourceKey{b.scope, b.source}) {
		c := m.gr
		if !classifiedCause(c) || c.End > b.off || b.off-c.End > narrowGap || !g.inBurst(c, b) ||
			!narrows(&c.Alert.Record, lineOf(c), &o.Alert.Record, line) {
			continue
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	}
	return best
}
