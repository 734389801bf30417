package patterns

import (
	"time"

	"github.com/dlclark/regexp2/v2"
)

// RegexOptions are the options every messagePattern is compiled with.
//
// ECMAScript: the dataset's patterns are written for JavaScript, so they get
// JavaScript semantics (\d and \w are ASCII, no .NET-only syntax).
// Multiline: an entry is matched as one multi-line text; ^ and $ anchor at
// each line, as they would if the pattern were tried line by line, while a
// pattern with \n can still span lines. "." never crosses a newline.
const RegexOptions = regexp2.ECMAScript | regexp2.Multiline

// MatchTimeout bounds one pattern's match against one entry. regexp2 treats a
// zero timeout as a zero budget, so it is always set explicitly; a timeout is
// a pattern-health event, never "no match".
const MatchTimeout = 50 * time.Millisecond

// Compile compiles a messagePattern with RegexOptions and MatchTimeout.
func Compile(expr string) (*regexp2.Regexp, error) {
	re, err := regexp2.Compile(expr, RegexOptions)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = MatchTimeout
	return re, nil
}
