package incident

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// UnclassifiedSlug is the slug of incidents made from tracebacks that match
// no record.
const UnclassifiedSlug = "unclassified"

// MaxAlertText bounds the entry and the stack trace an alert carries (head
// and tail kept): an incident's alert is kept in the grouping state and in
// every sink's queue, so its size multiplies.
const MaxAlertText = 16 << 10

// topFrames is how many of the innermost frames an unclassified signature
// includes: enough to tell two failures of one exception type apart, few
// enough that a refactor far up the stack does not split an incident.
const topFrames = 3

// Occurrence is one entry that became (part of) an incident: its best hit,
// or, for a traceback that matched nothing, its unclassified signature.
type Occurrence struct {
	// Key groups occurrences: the record id or "unclassified:<signature>".
	Key string
	// SourceKey is the identity of the source the entry came from (a path,
	// a pod/container, "stdin"); ranks and streams of one server share it.
	SourceKey string
	// Time is when it happened: the entry's header time, else read time.
	Time time.Time
	// Rank is the entry's rank prefix ("DP1 TP3"), "" when it has none.
	Rank string
	// Alert is the alert this occurrence would produce on its own (count 1).
	Alert sinks.Alert
}

// Source describes where an entry was read, for the alert's source block.
type Source struct {
	Key       string // grouping identity; Path when empty
	Path      string
	Pod       string
	Namespace string
	Container string
	Node      string
}

// FromEntry builds the occurrence for one entry and its ranked hits. It
// returns false when the entry is not an incident: it matched nothing and
// holds no traceback. readTime stands in for the entry's time when its
// header had none.
func FromEntry(e *entry.Entry, hits []matcher.Hit, src Source, readTime time.Time) (Occurrence, bool) {
	if len(hits) == 0 && e.Traceback == nil {
		return Occurrence{}, false
	}
	when := e.Time
	if when.IsZero() {
		when = readTime
	}
	o := Occurrence{
		SourceKey: src.Key,
		Time:      when,
		Rank:      e.Ranks.String(),
	}
	if o.SourceKey == "" {
		o.SourceKey = src.Path
	}
	a := sinks.Alert{
		Schema: sinks.Schema,
		Time:   when,
		Count:  1,
		Kind:   KindNew,
		Source: sinks.Source{
			Path:      src.Path,
			Offset:    e.FirstOffset,
			Stream:    e.Stream,
			Pod:       src.Pod,
			Namespace: src.Namespace,
			Container: src.Container,
			Node:      src.Node,
		},
		Entry: sinks.TruncateMiddle(e.Raw, MaxAlertText),
	}
	a.LastTime = when
	if o.Rank != "" {
		a.Ranks = []string{o.Rank}
	}
	if exc := exceptionOf(e); exc != nil {
		a.Match.Exception = exc
	}
	if len(hits) > 0 {
		best := hits[0]
		o.Key = best.Record.ID
		a.Record = recordOf(best.Record)
		a.Match.Text = best.Line
		a.Match.Groups = best.Groups
		for _, h := range hits[1:] {
			a.Secondary = append(a.Secondary, sinks.SecondaryHit{ID: h.Record.ID, Slug: h.Record.Slug})
		}
	} else {
		sig := Signature(e.Traceback)
		o.Key = "unclassified:" + sig
		a.Record = sinks.Record{
			Slug:       UnclassifiedSlug,
			Severity:   string(patterns.SeverityError),
			ErrorClass: e.Traceback.Outermost().Type,
		}
		a.Match.Text = exceptionLine(e.Traceback.Outermost())
	}
	a.Fingerprint = Fingerprint(o.Key, o.SourceKey)
	o.Alert = a
	return o, true
}

// Fingerprint is the stable identity of an incident: a hash of its key and
// its source identity, so the same failure from the same server always maps
// to the same fingerprint, across restarts too.
func Fingerprint(key, sourceKey string) string {
	h := sha256.New()
	h.Write([]byte(key))
	h.Write([]byte{0})
	h.Write([]byte(sourceKey))
	return hex.EncodeToString(h.Sum(nil)[:8])
}

func recordOf(r *patterns.Record) sinks.Record {
	return sinks.Record{
		ID:               r.ID,
		Slug:             r.Slug,
		Repo:             r.Repo,
		Severity:         string(r.Severity),
		ErrorClass:       r.ErrorClass,
		ErrorMessage:     r.ErrorMessage,
		Solutions:        r.Solutions,
		PreventionTips:   r.PreventionTips,
		Documentation:    r.Documentation,
		HandlingStrategy: r.HandlingStrategy,
		GithubURL:        r.GithubURL,
		FilePath:         r.FilePath,
		LineNumber:       r.LineNumber,
		Tags:             r.Tags,
	}
}

func exceptionOf(e *entry.Entry) *sinks.Exception {
	out := e.Traceback.Outermost()
	if out == nil {
		return nil
	}
	exc := &sinks.Exception{
		Type:       out.Type,
		Message:    out.Message,
		Stacktrace: sinks.TruncateMiddle(stacktrace(e), MaxAlertText),
	}
	if len(e.Traceback.Links) > 1 {
		exc.RootCause = exceptionLine(e.Traceback.RootCause())
	}
	return exc
}

// stacktrace is the traceback part of the entry's text: from the first
// "Traceback (most recent call last):" on, or the whole text when the
// header is not found (header-less blocks).
func stacktrace(e *entry.Entry) string {
	const marker = "Traceback (most recent call last):"
	if i := strings.Index(e.Text, marker); i >= 0 {
		return e.Text[i:]
	}
	return e.Text
}

func exceptionLine(x *entry.Exception) string {
	if x == nil {
		return ""
	}
	if x.Message == "" {
		return x.Type
	}
	return x.Type + ": " + x.Message
}

// Signature fingerprints a traceback that matched no record: its outermost
// exception type, its message with volatile tokens normalised, and its
// innermost frames (file base name and function, no line numbers), so the
// same failure from eight ranks, or from two runs, has one signature.
func Signature(tb *entry.Traceback) string {
	out := tb.Outermost()
	if out == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(out.Type)
	b.WriteByte('|')
	b.WriteString(NormalizeMessage(out.Message))
	frames := out.Frames
	if len(frames) == 0 {
		// A chain whose outermost link printed no frames (a bare re-raise)
		// is still told apart by the frames of the link it came from.
		for i := len(tb.Links) - 1; i >= 0 && len(frames) == 0; i-- {
			frames = tb.Links[i].Frames
		}
	}
	if len(frames) > topFrames {
		frames = frames[len(frames)-topFrames:]
	}
	for _, f := range frames {
		b.WriteByte('|')
		b.WriteString(path.Base(strings.ReplaceAll(f.File, `\`, "/")))
		b.WriteByte(':')
		b.WriteString(f.Func)
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:8])
}

// volatile are the tokens NormalizeMessage replaces, most specific first.
var volatile = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`), "<uuid>"},
	{regexp.MustCompile(`0x[0-9a-fA-F]+`), "<hex>"},
	{regexp.MustCompile(`\b[0-9a-f]{16,}\b`), "<id>"},
	{regexp.MustCompile(`(?:[A-Za-z]:)?(?:/[\w.@+-]+){2,}/?`), "<path>"},
	{regexp.MustCompile(`\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b`), "<addr>"},
	{regexp.MustCompile(`\d+(?:\.\d+)?`), "<n>"},
}

// NormalizeMessage replaces the parts of an exception message that change
// from one occurrence to the next (numbers, hex addresses, ids, paths, IP
// addresses) with placeholders.
func NormalizeMessage(msg string) string {
	for _, v := range volatile {
		msg = v.re.ReplaceAllString(msg, v.repl)
	}
	return msg
}
