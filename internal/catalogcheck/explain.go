package catalogcheck

import (
	"fmt"
	"strings"

	"github.com/dlclark/regexp2/v2"

	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// Explanation says why a pattern did or did not match a text.
type Explanation struct {
	// Matched is true when the pattern matches the text.
	Matched bool `json:"matched"`
	// MissingLiterals are the literals the prefilter demands that the
	// text lacks: each alone keeps the record from being tried. For an
	// alternation, its choices are joined with " | ".
	MissingLiterals []string `json:"missingLiterals,omitempty"`
	// Prefix is the longest leading part of the pattern that matches the
	// text, and Rest the part where matching failed; both empty when the
	// pattern matched or no prefix matches.
	Prefix string `json:"prefix,omitempty"`
	Rest   string `json:"rest,omitempty"`
	// Near is the text where the prefix's match ended: what the rest of
	// the pattern was tried against.
	Near string `json:"near,omitempty"`
	// Err is a pattern error (timeout, stack limit, compile error).
	Err string `json:"error,omitempty"`
}

// String renders the explanation as one or two sentences.
func (x Explanation) String() string {
	switch {
	case x.Err != "":
		return "the pattern failed: " + x.Err
	case x.Matched:
		return "the pattern matches"
	case len(x.MissingLiterals) > 0:
		quoted := make([]string, len(x.MissingLiterals))
		for i, l := range x.MissingLiterals {
			quoted[i] = fmt.Sprintf("%q", l)
		}
		return "the prefilter skips it: the text lacks " + strings.Join(quoted, ", ")
	case x.Prefix == "":
		return "the regex does not match: not even its first element matches anywhere"
	}
	return fmt.Sprintf("the regex does not match: %q matches, then %q fails at %q", x.Prefix, x.Rest, x.Near)
}

// ExplainRecord says why record i of m (an index into m.Records()) does
// or does not match text: the prefilter's literals first, then the regex.
func ExplainRecord(m *matcher.Matcher, i int, text string) Explanation {
	var x Explanation
	for _, clause := range m.Required(i) {
		if !clausePresent(clause, text) {
			alts := make([]string, len(clause))
			for j, l := range clause {
				alts[j] = l.Text
			}
			x.MissingLiterals = append(x.MissingLiterals, strings.Join(alts, " | "))
		}
	}
	re, err := m.Regexp(i)
	if err != nil {
		x.Err = err.Error()
		return x
	}
	ok, err := re.MatchString(text)
	if err != nil {
		x.Err = err.Error()
		return x
	}
	x.Matched = ok
	if ok {
		x.MissingLiterals = nil
		return x
	}
	if len(x.MissingLiterals) == 0 {
		x.Prefix, x.Rest, x.Near = failurePoint(m.Records()[i].MessagePattern, text)
	}
	return x
}

// ExplainPattern is ExplainRecord for an ad-hoc pattern.
func ExplainPattern(expr, text string) Explanation {
	var x Explanation
	re, err := patterns.Compile(expr)
	if err != nil {
		x.Err = err.Error()
		return x
	}
	ok, err := re.MatchString(text)
	if err != nil {
		x.Err = err.Error()
		return x
	}
	x.Matched = ok
	if !ok {
		x.Prefix, x.Rest, x.Near = failurePoint(expr, text)
	}
	return x
}

func clausePresent(clause []matcher.Literal, text string) bool {
	lower := ""
	for _, l := range clause {
		if l.Fold {
			if lower == "" {
				lower = strings.ToLower(text)
			}
			if strings.Contains(lower, l.Text) {
				return true
			}
		} else if strings.Contains(text, l.Text) {
			return true
		}
	}
	return false
}

// maxPrefixTries bounds the prefixes failurePoint compiles: patterns are
// short, but a catalog may hold a long one.
const maxPrefixTries = 512

// failurePoint finds the longest prefix of expr that compiles and matches
// text, trying cut points from the end: the place the regex fails is just
// after it.
func failurePoint(expr, text string) (prefix, rest, near string) {
	tries := 0
	for cut := len(expr) - 1; cut > 0 && tries < maxPrefixTries; cut-- {
		if expr[cut-1] == '\\' {
			continue // never cut an escape in two
		}
		tries++
		re, err := regexp2.Compile(expr[:cut], patterns.RegexOptions)
		if err != nil {
			continue
		}
		re.MatchTimeout = patterns.MatchTimeout
		m, err := re.FindStringMatch(text)
		if err != nil || m == nil || m.RuneLength == 0 {
			continue
		}
		idx, n := m.ByteRange()
		rest := []rune(text[idx+n:])
		near := string(rest[:min(len(rest), 40)])
		if near == "" {
			near = "the end of the text"
		}
		return expr[:cut], expr[cut:], near
	}
	return "", expr, ""
}
