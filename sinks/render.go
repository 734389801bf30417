package sinks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// AlertJSON renders a as its logmatch.alert/v1 JSON object, without a
// trailing newline. Nil lists and maps are written as [] and {} so that
// consumers always see the documented shape; HTML characters are not
// escaped, so log text stays readable. a itself is not modified.
func AlertJSON(a *Alert) ([]byte, error) {
	c := *a
	if c.Schema == "" {
		c.Schema = Schema
	}
	c.Record.Solutions = nonNil(c.Record.Solutions)
	c.Record.PreventionTips = nonNil(c.Record.PreventionTips)
	c.Record.Tags = nonNil(c.Record.Tags)
	if c.Match.Groups == nil {
		c.Match.Groups = map[string]string{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&c); err != nil {
		return nil, fmt.Errorf("alert %s: encode json: %w", a.Fingerprint, err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// TruncateMiddle returns s unchanged when it fits in max bytes; otherwise it
// keeps the head and the tail of s around a marker that says how many bytes
// were cut, in at most max bytes. Both ends matter in a traceback (the
// entry point and the exception line), so neither is dropped. Cuts fall on
// rune boundaries, so valid UTF-8 stays valid. When max is too small for
// the marker, TruncateEnd is used.
func TruncateMiddle(s string, max int) string {
	if len(s) <= max {
		return s
	}
	// The marker is sized for the largest possible count so that the
	// actual one, known only after the rune-boundary adjustments, fits.
	reserve := len(cutMarker(len(s)))
	if max < reserve+2 {
		return TruncateEnd(s, max)
	}
	keep := max - reserve
	head := runeStartAtOrBefore(s, keep/2)
	tail := runeStartAtOrAfter(s, len(s)-(keep-head))
	return s[:head] + cutMarker(tail-head) + s[tail:]
}

func cutMarker(n int) string {
	return "\n… [" + strconv.Itoa(n) + " bytes cut] …\n"
}

// TruncateEnd returns s unchanged when it fits in max bytes; otherwise its
// head followed by "…", in at most max bytes, cut at a rune boundary.
func TruncateEnd(s string, max int) string {
	if len(s) <= max {
		return s
	}
	const ellipsis = "…"
	if max < len(ellipsis) {
		return s[:runeStartAtOrBefore(s, max)]
	}
	return s[:runeStartAtOrBefore(s, max-len(ellipsis))] + ellipsis
}

// runeStartAtOrBefore returns the largest rune boundary <= i.
func runeStartAtOrBefore(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	for j := i; j > 0 && i-j < utf8.UTFMax; j-- {
		if utf8.RuneStart(s[j]) {
			return j
		}
	}
	if i < utf8.UTFMax {
		return 0
	}
	// Not UTF-8 around i: any byte boundary is as good as another.
	return i
}

// runeStartAtOrAfter returns the smallest rune boundary >= i.
func runeStartAtOrAfter(s string, i int) int {
	for j := i; j < len(s) && j-i < utf8.UTFMax; j++ {
		if utf8.RuneStart(s[j]) {
			return j
		}
	}
	return min(i+utf8.UTFMax, len(s))
}

// OneLine collapses runs of whitespace (newlines included) to single spaces
// and trims s: for titles, labels and notification text.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Title is a one-line summary of a, the same in every sink:
// "<severity> <slug>: <what happened> (<namespace>/<pod>)".
// What happened is the record's errorMessage, else the exception, else the
// matched text. An alert that tripped the liveness gate starts with the
// gate's reason, so the notification says first that the server restarts.
func Title(a *Alert) string {
	var b strings.Builder
	if a.Liveness != nil && a.Liveness.Reason != "" {
		b.WriteString(a.Liveness.Reason)
		b.WriteString(": ")
	}
	if a.Record.Severity != "" {
		b.WriteString(a.Record.Severity)
		b.WriteByte(' ')
	}
	slug := a.Record.Slug
	if slug == "" {
		slug = a.Record.ID
	}
	b.WriteString(slug)
	if what := What(a); what != "" {
		b.WriteString(": ")
		b.WriteString(what)
	}
	if where := Where(a); where != "" {
		b.WriteString(" (")
		b.WriteString(where)
		b.WriteByte(')')
	}
	return OneLine(b.String())
}

// What says in one line what happened: the record's errorMessage, else
// "Type: message" of the exception, else the matched text.
func What(a *Alert) string {
	switch {
	case a.Record.ErrorMessage != "":
		return OneLine(a.Record.ErrorMessage)
	case a.Match.Exception != nil && a.Match.Exception.Type != "":
		e := a.Match.Exception
		if e.Message == "" {
			return e.Type
		}
		return OneLine(e.Type + ": " + e.Message)
	}
	return OneLine(a.Match.Text)
}

// Where names the workload of a: "namespace/pod" or the pod alone, else
// the source path; "" when nothing is known.
func Where(a *Alert) string {
	s := a.Source
	switch {
	case s.Pod != "" && s.Namespace != "":
		return s.Namespace + "/" + s.Pod
	case s.Pod != "":
		return s.Pod
	}
	return s.Path
}

// NumberedList renders items as "1. first\n2. second", each item on one line.
func NumberedList(items []string) string {
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteString(". ")
		b.WriteString(OneLine(it))
	}
	return b.String()
}

// RunbookURL is where an operator should read about a's record: the
// record's githubUrl, else its documentation when that is an http(s) link,
// else "".
func RunbookURL(a *Alert) string {
	if IsHTTPURL(a.Record.GithubURL) {
		return a.Record.GithubURL
	}
	if IsHTTPURL(a.Record.Documentation) {
		return a.Record.Documentation
	}
	return ""
}

// IsHTTPURL reports whether s is one absolute http or https URL.
func IsHTTPURL(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t\n") {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
