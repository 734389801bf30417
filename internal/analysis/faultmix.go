package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/patterns"
)

// faulthandler writes each frame line in pieces, one write each: `  File
// "`, the path, `", line `, the number, ` in `, the function's name and
// the line's end. When several processes crash at once (every rank of a
// tensor-parallel group hitting the same fault) and share one stderr,
// their pieces interleave, and the lines come out garbled, pieces of
// several frames run together with no header:
//
//	/sgl/srt/managers/scheduler.py/sgl/srt/managers/scheduler.py  File ", line  in , line   File run_event_loop"""/sgl/srt/utils/nvtx_utils.py17631812"
//	, line 3933/sgl/srt/managers/scheduler.py, line "1763 in  in  in /sgl/srt/managers/scheduler.py  File  in "", line pop_and_process"/sgl/srt/managers/scheduler.pyprocess_batch_result", line
//
// Two such lines in a row (more of faulthandler's pieces than one frame
// holds, and no frame that parses whole) are a native crash of several
// processes: critical, a fragment of the crash's report (a "Fatal Python
// error" line in sight leads it), headed by the source files and the
// function names the pieces show. A frame line whole, frames a reader
// rejoined on one line, and a traceback's frames are not garbled.

// faultMix is what a Stream keeps of a run of garbled frame lines: how many
// in a row, the previous one (its own copy, bounded by maxMixLine), and
// done once the run alerted.
type faultMix struct {
	lines int
	prev  []byte
	done  bool
}

// maxMixLine bounds a garbled line read.
const maxMixLine = 4096

// maxMixNames bounds the names and files a garbled run's headline lists.
const maxMixNames = 8

// faultPieces counts faulthandler's frame pieces in l: "File " and ",
// line ".
func faultPieces(l string) int {
	return strings.Count(l, "File ") + strings.Count(l, ", line ")
}

// garbledFrames reports whether l holds more of faulthandler's frame
// pieces than one frame line, a path to a Python file among them, and
// does not read as frame lines whole (faultFrame, or a traceback's
// frame).
func garbledFrames(l string) bool {
	if len(l) > maxMixLine || !strings.Contains(l, ".py") || faultPieces(l) < 3 {
		return false
	}
	t := strings.TrimSpace(l)
	for t != "" {
		one, rest, _ := strings.Cut(t, ` File "`)
		one = strings.TrimSpace(one)
		if _, ok := faultFrame(one); !ok && !entry.IsTracebackFrame(one) {
			return true
		}
		if rest == "" {
			return false
		}
		t = `File "` + rest
	}
	return false
}

// faultMixAt reads entry e, a quiet one of stream st, as a line of
// several processes' interleaved frame pieces (see above). It fills d and
// reports true at the run's second garbled line; d's strings are then its
// own.
func (a *Analyzer) faultMixAt(d *Diagnosis, st *Stream, e *entry.Entry) bool {
	r := &st.mix
	l := FirstLine(e.Message)
	if !garbledFrames(l) {
		if r.lines > 0 && faultPieces(l) == 0 && !strings.Contains(l, ".py") {
			r.lines, r.done, r.prev = 0, false, r.prev[:0]
		}
		return false
	}
	r.lines++
	if r.done || r.lines < 2 {
		r.prev = append(r.prev[:0], l...)
		return false
	}
	r.done = true
	*d = Diagnosis{PatternErrors: d.PatternErrors}
	d.Role = patterns.RoleCause
	d.Signal = SignalNative
	d.Severity = patterns.SeverityCritical
	d.Fragment = true
	files, names := mixNames(string(r.prev), l)
	r.prev = r.prev[:0]
	d.Headline = faultMixLabel
	if len(files) > 0 {
		d.Headline += ": in " + strings.Join(files, ", ")
	}
	if len(names) > 0 {
		d.Headline += "; names " + strings.Join(names, ", ")
	}
	d.Key = "unclassified:" + LineSignature(string(SignalNative), "faultmix;"+strings.Join(files, ";"))
	d.Triage = TriageOf(e, nil)
	d.Triage.Family = FamilyNative
	return true
}

// faultMixLabel opens the headline of several processes' interleaved
// faulthandler frames.
const faultMixLabel = "native crash, several processes' faulthandler frames interleaved without their header"

// mixNames returns the Python files (their base names) and the function
// names the garbled lines prev and l show, each once, in the order they
// appear, at most maxMixNames of each: a path ends at ".py", and a name
// is a word that follows a path's end, a quote or " in " and is no
// piece's own word.
func mixNames(prev, l string) (files, names []string) {
	for _, s := range [...]string{prev, l} {
		for i := 0; i < len(s); {
			j := strings.Index(s[i:], ".py")
			if j < 0 {
				break
			}
			end := i + j + len(".py")
			start := strings.LastIndexAny(s[i:i+j], "/\" ")
			if start >= 0 && start+1 < j {
				files = addName(files, s[i+start+1:end])
			}
			i = end
		}
		for i := 0; i < len(s); i++ {
			c := s[i]
			if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				continue
			}
			k := i
			for k < len(s) && (s[k] == '_' || isAlnum(s[k])) {
				k++
			}
			w := s[i:k]
			before := s[:i]
			if len(w) > 2 && w[:2] == "py" && strings.HasSuffix(before, ".") {
				// A path's ".py" with a name glued to it.
				w, before = w[2:], s[:i+2]
				if isDigitByte(w[0]) {
					// A line number glued to the path.
					i = k
					continue
				}
			}
			switch {
			case strings.HasSuffix(before, ".py") && len(w) >= 3,
				strings.HasSuffix(before, "\"") && len(w) >= 3 && (k == len(s) || s[k] != '/' && s[k] != '.'),
				strings.HasSuffix(before, " in ") && (k == len(s) || s[k] != '/' && s[k] != '.'),
				strings.HasSuffix(before, "File ") && (k == len(s) || s[k] != '/' && s[k] != '.'):
				if w != "File" && w != "line" && w != "in" {
					names = addName(names, w)
				}
			}
			i = k
		}
	}
	return files, names
}

// addName appends w to list unless it holds it or holds maxMixNames.
func addName(list []string, w string) []string {
	if len(list) >= maxMixNames || len(w) > maxFaultFunc {
		return list
	}
	for _, x := range list {
		if x == w {
			return list
		}
	}
	return append(list, w)
}
