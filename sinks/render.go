package sinks

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// AlertJSON renders a as its logmatch.alert/v1 JSON object, without a
// trailing newline. Nil lists and maps are written as [] and {} so that
// consumers always see the documented shape; HTML characters are not
// escaped, so log text stays readable. a itself is not modified.
func AlertJSON(a *Alert) ([]byte, error) { return AppendAlertJSON(nil, a) }

// AppendAlertJSON appends a's JSON, as AlertJSON renders it, to dst. It
// renders with an AlertEncoder from a pool: a caller that keeps no encoder
// of its own (a sink's Send, a commit's payloads) still reuses one.
func AppendAlertJSON(dst []byte, a *Alert) ([]byte, error) {
	e := encoders.Get().(*AlertEncoder)
	b, err := e.Encode(a)
	if err == nil {
		dst = append(dst, b...)
	}
	if cap(e.out) <= maxPooledBuffer {
		encoders.Put(e)
	}
	return dst, err
}

// encoders are the AlertEncoders of AppendAlertJSON.
var encoders = sync.Pool{New: func() any { return new(AlertEncoder) }}

// maxPooledBuffer bounds the buffer of an encoder put back in the pool:
// one very large alert does not keep its memory.
const maxPooledBuffer = 256 << 10

// AlertEncoder renders alerts as AlertJSON does, reusing its buffer from
// one alert to the next: a caller that renders alert after alert keeps
// one. It is not safe for concurrent use.
type AlertEncoder struct {
	out  []byte
	keys []string // the groups' names, sorted (appendAlert)
}

// Encode renders a as AlertJSON does. The bytes are the encoder's, valid
// until its next call: copy them to keep them.
//
// The JSON is what encoding/json writes for a with HTML escaping off, the
// schema filled in when a has none, the record's nil lists as [] and nil
// groups as {}; appendAlert writes it field by field, with no reflection
// and no copy of a (alertjson.go; TestAlertJSONEqualsEncodingJSON and
// FuzzAlertJSON hold it to encoding/json's).
func (e *AlertEncoder) Encode(a *Alert) ([]byte, error) {
	out, keys, err := appendAlert(e.out[:0], a, e.keys)
	e.out, e.keys = out, keys
	if err != nil {
		return nil, fmt.Errorf("alert %s: encode json: %w", a.Fingerprint, err)
	}
	return out, nil
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

// What says in one line what happened: the headline (the real line, with
// its values), else the record's errorMessage, else "Type: message" of the
// exception, else the matched text. The errorMessage is a template with
// placeholders, so it comes after the real line.
func What(a *Alert) string {
	switch {
	case a.Headline != "":
		return OneLine(a.Headline)
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
// else a search of the known issues of the record's repository for what
// happened, else "".
func RunbookURL(a *Alert) string {
	u, _ := Runbook(a)
	return u
}

// Runbook is RunbookURL with a label that says what the link is.
func Runbook(a *Alert) (url, label string) {
	if IsHTTPURL(a.Record.GithubURL) {
		return a.Record.GithubURL, "Source on GitHub"
	}
	if IsHTTPURL(a.Record.Documentation) {
		return a.Record.Documentation, "Documentation"
	}
	if u := IssueSearchURL(a); u != "" {
		return u, "Known issues in " + a.Record.Repo
	}
	return "", ""
}

// IssueSearchURL is a search of the GitHub issues of a's repository for
// the failure: the record's errorClass and the literal head of its
// errorMessage (up to its first placeholder), else the exception type.
// "" when the repository is not an "owner/name".
func IssueSearchURL(a *Alert) string {
	repo := a.Record.Repo
	if !validRepo(repo) {
		return ""
	}
	q := a.Record.ErrorMessage
	if i := strings.IndexByte(q, '{'); i >= 0 {
		q = q[:i]
	}
	q = strings.TrimRight(strings.TrimSpace(q), ".:,")
	if q == "" && a.Match.Exception != nil {
		q = a.Match.Exception.Type
	}
	if q == "" {
		q = a.Record.ErrorClass
	}
	if q == "" {
		return ""
	}
	q = TruncateEnd(q, 120)
	q = strings.TrimSuffix(q, "…")
	return "https://github.com/" + repo + "/issues?q=" + url.QueryEscape(`"`+q+`"`)
}

func validRepo(s string) bool {
	owner, name, ok := strings.Cut(s, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return false
	}
	for _, c := range s {
		if !(c == '/' || c == '-' || c == '_' || c == '.' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// RanksText renders a's ranks compactly ("DP0 TP0-7") and, when more than
// one rank reported the failure, marks the first: "DP0 TP0-7 (first DP0
// TP3)". "" when the alert has no ranks.
func RanksText(a *Alert) string {
	s := CompactRanks(a.Ranks)
	if len(a.Ranks) > 1 && a.FirstRank != "" {
		s += " (first " + a.FirstRank + ")"
	}
	return s
}

// CompactRanks renders rank strings with runs folded: "DP0 TP0", ...,
// "DP0 TP7" becomes "DP0 TP0-7"; "rank0", "rank1", "rank2", "rank4"
// becomes "rank0-2,4". Ranks that differ before their last token are
// listed apart, comma-separated, in the order given.
func CompactRanks(ranks []string) string {
	type run struct {
		head string // everything up to the last token's number
		nums []int
	}
	var runs []*run
	byHead := map[string]*run{}
	var plain []string
	for _, r := range ranks {
		head, n, ok := splitRank(r)
		if !ok {
			plain = append(plain, r)
			continue
		}
		ru := byHead[head]
		if ru == nil {
			ru = &run{head: head}
			byHead[head] = ru
			runs = append(runs, ru)
		}
		ru.nums = append(ru.nums, n)
	}
	var parts []string
	for _, ru := range runs {
		slices.Sort(ru.nums)
		ru.nums = slices.Compact(ru.nums)
		var b strings.Builder
		b.WriteString(ru.head)
		for i := 0; i < len(ru.nums); {
			j := i
			for j+1 < len(ru.nums) && ru.nums[j+1] == ru.nums[j]+1 {
				j++
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(ru.nums[i]))
			if j > i {
				b.WriteByte('-')
				b.WriteString(strconv.Itoa(ru.nums[j]))
			}
			i = j + 1
		}
		parts = append(parts, b.String())
	}
	return strings.Join(append(parts, plain...), ", ")
}

// splitRank splits "DP0 TP3" into "DP0 TP" and 3.
func splitRank(r string) (head string, n int, ok bool) {
	i := len(r)
	for i > 0 && '0' <= r[i-1] && r[i-1] <= '9' {
		i--
	}
	if i == len(r) || i == 0 || len(r)-i > 6 {
		return "", 0, false
	}
	c := r[i-1]
	if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_') {
		return "", 0, false
	}
	n, err := strconv.Atoi(r[i:])
	return r[:i], n, err == nil
}

// ConsequenceLine says in one line what one consequence was: its slug,
// how often and on which ranks ("nccl-watchdog-collective-timeout ×7 on
// rank0-2,4-7").
func ConsequenceLine(c *Consequence) string {
	var b strings.Builder
	b.WriteString(OneLine(c.Slug))
	if b.Len() == 0 {
		b.WriteString(OneLine(c.Headline))
	}
	if c.Count > 1 {
		b.WriteString(" ×")
		b.WriteString(strconv.Itoa(c.Count))
	}
	if r := CompactRanks(c.Ranks); r != "" {
		b.WriteString(" on ")
		b.WriteString(r)
	}
	return b.String()
}

// Then lists a's consequences in one line: "then: received-sigquit-from-child;
// nccl-watchdog-collective-timeout ×7 on rank0-2,4-7". "" when there are none.
func Then(a *Alert) string {
	if len(a.Consequences) == 0 {
		return ""
	}
	parts := make([]string, len(a.Consequences))
	for i := range a.Consequences {
		parts[i] = ConsequenceLine(&a.Consequences[i])
	}
	return "then: " + strings.Join(parts, "; ")
}

// IsHTTPURL reports whether s is one absolute http or https URL.
func IsHTTPURL(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t\n") {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
