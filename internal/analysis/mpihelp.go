package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/patterns"
)

// Open MPI, PRRTE and PMIx explain a failure in a help box: a rule of
// dashes, a few paragraphs of prose hard-wrapped at 72 columns, the
// details indented, and a closing rule.
//
//	--------------------------------------------------------------------------
//	It looks like orte_init failed for some reason; your parallel process is
//	likely to abort.  [...] here's some additional information (which may
//	only be relevant to an Open MPI developer):
//
//	  getting local rank failed
//	  --> Returned value No permission (-17) instead of ORTE_SUCCESS
//	--------------------------------------------------------------------------
//
// No line of it carries a level, and each is a plain line of prose: read
// alone, none is a failure. Read as one, the box is: its first sentence
// says what failed ("orte_init failed", "MPI_INIT failed", "mpirun noticed
// that process rank 0 ... exited on signal 9", "MPI_ABORT was invoked on
// rank 1"), its indented lines say why. A box that calls itself a warning
// ("WARNING: There was an error initializing an OpenFabrics device", "You
// can disable this warning ...") is advice the job lives with, and one
// whose words say nothing failed (a notice of defaults) is none either.
// A paste that starts below the opening rule starts the box at its
// sentence "It looks like ... failed for some reason". The box is
// diagnosed at its closing rule, headed by its sentence and its reasons.

// minRule is the fewest dashes that make a help box's rule (Open MPI's
// are 74).
const minRule = 40

// maxBoxEntries bounds the entries a help box spans before it is given up;
// maxBoxReasons the indented lines its headline names.
const (
	maxBoxEntries = 40
	maxBoxReasons = 3
	maxBoxText    = 200
)

// helpBox is what a Stream keeps of an open help box (see above). Its
// strings are its own: the entries it read may be lent.
type helpBox struct {
	open    bool
	entries int
	// indent is the rule's indentation: a line indented deeper is a
	// detail (a paste may indent the whole box).
	indent  int
	head    string
	reasons []string
	// last is the box's last line read, trimmed (reused memory, bounded
	// by maxBoxText bytes): the same line again is another rank's copy
	// of it, interleaved on one stream, which says nothing new.
	last    []byte
	failed  bool
	warning bool
	// died says the box reports a process of the job that exited
	// non-zero or died of a signal.
	died bool
}

// ruleRest reports whether t, a trimmed line, opens with a help box's
// rule, and returns what follows the dashes on it (text a wrap-joining
// paste glued to it).
func ruleRest(t string) (string, bool) {
	n := 0
	for n < len(t) && t[n] == '-' {
		n++
	}
	if n < minRule {
		return "", false
	}
	rest := strings.TrimSpace(t[n:])
	if rest != "" && !ascii.Letter(rest[0]) {
		// A table's border folded by a terminal ("-------+"), not
		// a rule: a rule stands alone, or prose a paste glued to it.
		return "", false
	}
	return rest, true
}

// boxRule is a rule's first minRule dashes, which a help box's rule holds
// wherever an entry's lines put it.
var boxRule = strings.Repeat("-", minRule)

// boxOpens reports whether t is the sentence Open MPI's init-failure help
// opens with, its rule cut from a paste.
func boxOpens(t string) bool {
	return strings.HasPrefix(t, "It looks like ") && strings.Contains(t, " failed for some reason")
}

// helpBoxAt reads the lines of entry e, a quiet one of stream st, as lines
// of a help box (see above), and fills d and reports true when one of
// them closes a box that reports a failure.
func (st *Stream) helpBoxAt(d *Diagnosis, e *entry.Entry) bool {
	b := &st.box
	if b.open {
		if b.entries++; b.entries > maxBoxEntries || e.Level != "" && !strings.Contains(e.Raw, boxRule) {
			// A box is one write: a logger's record is past it.
			b.reset()
		}
	}
	text := e.Raw
	for n := 0; text != "" && n < maxBoxLines; n++ {
		var l string
		l, text, _ = strings.Cut(text, "\n")
		t := strings.TrimSpace(l)
		ind := strings.Index(l, t)
		if t == "" || b.open && len(t) <= maxBoxText && string(b.last) == t {
			continue
		}
		if len(t) <= maxBoxText {
			b.last = append(b.last[:0], t...)
		}
		if rest, ok := ruleRest(t); ok {
			if !b.open || b.head == "" {
				// A rule opens a box; a second rule before any text
				// (the next box's, or another rank's copy) opens the
				// same.
				b.start(ind)
				if rest != "" {
					b.line(rest, ind)
				}
				continue
			}
			if b.failed && !b.warning && b.head != "" {
				b.diagnose(d, e)
				b.reset()
				return true
			}
			b.reset()
			if rest != "" {
				b.start(ind)
				b.line(rest, ind)
			}
			continue
		}
		if !b.open {
			if boxOpens(t) {
				b.start(ind)
				b.line(t, ind)
			}
			continue
		}
		b.line(t, ind)
	}
	return false
}

// maxBoxLines bounds the lines of one entry a help box reads.
const maxBoxLines = 64

// reset closes the box.
func (b *helpBox) reset() { *b = helpBox{reasons: b.reasons[:0], last: b.last[:0]} }

// start opens the box, its rule indented by ind.
func (b *helpBox) start(ind int) {
	b.open, b.entries, b.indent = true, 0, ind
}

// line takes t, a trimmed line of the box indented by ind, into it: its
// first words as its head, a line indented deeper than its rule as a
// reason, and what its words say.
func (b *helpBox) line(t string, ind int) {
	low := lowerASCII(t)
	if strings.Contains(low, "warning") {
		b.warning = true
	}
	if strings.Contains(low, "non-zero") || strings.Contains(low, "exited on signal") {
		b.died, b.failed = true, true
	}
	switch {
	case b.head == "":
		h := t
		if i := strings.IndexAny(h, ";."); i > 0 {
			h = h[:i]
		}
		b.head = strings.Clone(cutRunes(h, maxBoxText))
	case ind > b.indent && len(b.reasons) < maxBoxReasons:
		b.reasons = append(b.reasons, strings.Clone(cutRunes(strings.TrimSpace(strings.TrimPrefix(t, "-->")), maxBoxText)))
	default:
		// Prose between the head and the reasons, or a table's
		// rows ("Failed requests:  0" between a benchmark's rules):
		// only the head and the reasons say whether it failed.
		return
	}
	if !b.failed {
		for _, w := range [...]string{"failed", "abort", "error", "unable to", "not enough", "killed"} {
			if strings.Contains(low, w) {
				b.failed = true
				break
			}
		}
	}
}

// diagnose fills d for the box closed by entry e.
func (b *helpBox) diagnose(d *Diagnosis, e *entry.Entry) {
	*d = Diagnosis{PatternErrors: d.PatternErrors}
	d.Role = patterns.RoleCause
	d.Signal = SignalNative
	d.Severity = patterns.SeverityError
	if strings.Contains(lowerASCII(b.head), "abort") || strings.Contains(b.head, " failed for some reason") {
		// "your parallel process is likely to abort"; MPI_ABORT.
		d.Severity = patterns.SeverityCritical
	}
	d.Headline = b.head
	if len(b.reasons) > 0 {
		d.Headline += ": " + strings.Join(b.reasons, "; ")
	}
	d.Key = "unclassified:" + LineSignature(string(SignalNative)+":help-box", d.Headline)
	d.Triage = TriageOf(e, nil)
	// The runtime's own report of its failure, in words no more than
	// the box's: its lines before the box, and its issues, say more.
	d.Triage.Family = FamilyLibrary
	if h := lowerASCII(b.head); strings.Contains(h, "init") && strings.Contains(h, "failed") {
		// orte_init, MPI_INIT, PMIx_Init: the ranks never met.
		d.Triage.Phase = phaseDistributedInit
	}
	if b.died {
		// mpirun's report that a process of the job exited non-zero or
		// died of a signal ("Primary job terminated normally, but 1
		// process returned a non-zero exit code", "mpirun noticed that
		// process rank 0 ... exited on signal 9"): the process's own
		// lines say why. Around them it is their consequence; alone it
		// is still alerted.
		d.Role = patterns.RoleConsequence
		d.Triage.Family = FamilyDied
	}
}

// phaseDistributedInit is the phase of a failure while the ranks of a job
// meet (triage.go's markers name it so).
const phaseDistributedInit = "initialising the distributed backend"
