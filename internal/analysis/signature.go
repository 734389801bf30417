package analysis

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"regexp"
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
)

// topFrames is how many of the innermost frames a signature includes:
// enough to tell two failures of one exception type apart, few enough that
// a refactor far up the stack does not split an incident.
const topFrames = 3

// Signature fingerprints an exception that no record names: its type, its
// message with volatile tokens normalised, and the innermost frames of its
// link (file base name and function, no line numbers), so the same failure
// from eight ranks, or from two runs, has one signature. exc is the link
// that is the cause (nil: the outermost); a group adds its first member's
// exception line; a link that printed no frames (a
// bare re-raise) is told apart by the frames of the nearest link that did.
func Signature(tb *entry.Traceback, exc *entry.Exception) string {
	if exc == nil {
		exc = tb.Outermost()
	}
	if exc == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(exc.Type)
	b.WriteByte('|')
	b.WriteString(NormalizeMessage(FirstLine(exc.Message)))
	if m := memberLine(exc); m != "" {
		// A group's frames are its runner's; its member tells failures apart.
		b.WriteString("|member|")
		b.WriteString(NormalizeMessage(m))
	}
	frames := exc.Frames
	if len(frames) == 0 && tb != nil {
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
	return hash(b.String())
}

// LineSignature fingerprints an error line that no record names: its kind
// and its text with volatile tokens normalised.
func LineSignature(kind, line string) string {
	return hash(kind + "|" + NormalizeMessage(line))
}

func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
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

// NormalizeMessage replaces the parts of a message that change from one
// occurrence to the next (numbers, hex addresses, ids, paths, IP
// addresses) with placeholders.
func NormalizeMessage(msg string) string {
	for _, v := range volatile {
		msg = v.re.ReplaceAllString(msg, v.repl)
	}
	return msg
}
