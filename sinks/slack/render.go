package slack

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/logmatch/logmatch/sinks"
)

// Slack's documented Block Kit limits. Slack counts characters; logmatch
// bounds bytes, which is never more.
const (
	maxBlocks        = 50
	maxHeaderText    = 150
	maxSectionText   = 3000
	maxFields        = 10
	maxFieldText     = 2000
	maxContextItems  = 10
	maxMessageText   = 40000
	maxFallbackBytes = 300 // notification text: short by choice, far below maxMessageText
	maxDigestRecords = 10
	// maxFollowUpSolutions is how many solutions a summary or reminder
	// repeats: the top ones, so a follow-up read alone still says what
	// to do.
	maxFollowUpSolutions = 2
)

// message is a Slack incoming-webhook payload.
type message struct {
	Text        string  `json:"text"`
	Blocks      []block `json:"blocks"`
	Channel     string  `json:"channel,omitempty"`
	Username    string  `json:"username,omitempty"`
	IconEmoji   string  `json:"icon_emoji,omitempty"`
	IconURL     string  `json:"icon_url,omitempty"`
	UnfurlLinks bool    `json:"unfurl_links"`
	UnfurlMedia bool    `json:"unfurl_media"`
}

type block struct {
	Type     string    `json:"type"`
	Text     *textObj  `json:"text,omitempty"`
	Fields   []textObj `json:"fields,omitempty"`
	Elements []textObj `json:"elements,omitempty"`
}

type textObj struct {
	Type  string `json:"type"`
	Text  string `json:"text"`
	Emoji bool   `json:"emoji,omitempty"`
}

func header(s string) block {
	return block{Type: "header", Text: &textObj{Type: "plain_text", Text: sinks.TruncateEnd(sinks.OneLine(sinks.Printable(s)), maxHeaderText), Emoji: true}}
}

func section(mrkdwn string) block {
	return block{Type: "section", Text: &textObj{Type: "mrkdwn", Text: mrkdwn}}
}

func mrkdwn(s string) textObj { return textObj{Type: "mrkdwn", Text: s} }

// escape makes text literal in mrkdwn: Slack requires &, < and > escaped,
// and every run of three backticks is broken with zero-width spaces so
// that log text can neither open nor close a code fence. Control and
// bidirectional characters are made visible first (sinks.Printable).
func escape(s string) string {
	s = sinks.Printable(s)
	if !strings.ContainsAny(s, "&<>`") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	ticks := 0 // backticks written in a row
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '`' {
			if ticks == 2 {
				b.WriteString("\u200b")
				ticks = 0
			}
			ticks++
			b.WriteByte(c)
			continue
		}
		ticks = 0
		switch c {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// plain is escape for mrkdwn text outside code: mrkdwn has no escape for
// its emphasis markers, so a '*' or '~' of log text, which would close the
// bold headline around it or open emphasis of its own, is written as its
// look-alike (U+2217, U+223C), and so is a '_' at the edge of a word
// (U+FF3F); one inside a word (max_new_tokens) never marks emphasis and
// stays.
func plain(s string) string {
	s = escape(s)
	if !strings.ContainsAny(s, "*~_") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '*':
			b.WriteString("\u2217")
		case c == '~':
			b.WriteString("\u223c")
		case c == '_' && (i == 0 || i == len(s)-1 || !isWordByte(s[i-1]) || !isWordByte(s[i+1])):
			b.WriteString("\uff3f")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// isWordByte reports whether c is an ASCII letter or digit.
func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// inlineCode renders s between single backticks, which it cannot contain.
func inlineCode(s string) string {
	return "`" + strings.ReplaceAll(escape(sinks.OneLine(s)), "`", "'") + "`"
}

// fit shrinks raw, keeping its head and tail, until render(raw) fits in
// budget bytes. Escaping can lengthen text several times over, so each
// round scales raw by the ratio of budget to rendered length; every round
// cuts at least one byte, so it ends.
func fit(raw string, budget int, render func(string) string) string {
	return fitWith(raw, budget, render, sinks.TruncateMiddle)
}

// fitEnd is fit keeping only the head, for one-line text.
func fitEnd(raw string, budget int, render func(string) string) string {
	return fitWith(raw, budget, render, sinks.TruncateEnd)
}

func fitWith(raw string, budget int, render func(string) string, cut func(string, int) string) string {
	out := render(raw)
	for len(out) > budget && raw != "" {
		target := min(len(raw)*budget/len(out), len(raw)-1)
		raw = cut(raw, max(target, 0))
		out = render(raw)
	}
	return out
}

// titled renders "*title*\n" followed by body rendered to fit one section.
func titled(title, raw string, render func(string) string) string {
	head := "*" + title + "*\n"
	return head + fit(raw, maxSectionText-len(head), render)
}

func codeBlock(s string) string { return "```\n" + escape(s) + "\n```" }

func bulletList(items []string) string {
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("• ")
		b.WriteString(sinks.OneLine(it))
	}
	return b.String()
}

// link renders a mrkdwn link to an http(s) URL, or "" for anything else.
func link(url, label string) string {
	// A link is cut nowhere: one too long for a block is left out.
	if !sinks.IsHTTPURL(url) || len(url) > 2000 {
		return ""
	}
	url = strings.NewReplacer("|", "%7C", "<", "%3C", ">", "%3E").Replace(url)
	return "<" + url + "|" + escape(label) + ">"
}

// date renders t so that each reader sees it in their own time zone, with
// the UTC time as the fallback.
func date(t time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	return fmt.Sprintf("<!date^%d^{date_short_pretty} {time_secs}|%s>", t.Unix(), t.UTC().Format(time.RFC3339))
}

func emoji(severity string) string {
	switch strings.ToLower(severity) {
	case "critical":
		return ":red_circle:"
	case "error":
		return ":large_orange_circle:"
	case "warning":
		return ":large_yellow_circle:"
	case "info":
		return ":large_blue_circle:"
	}
	return ":white_circle:"
}

func slug(a *sinks.Alert) string {
	return cmp.Or(a.Record.Slug, a.Record.ID, "unclassified")
}

func severityWord(a *sinks.Alert) string {
	return strings.ToUpper(cmp.Or(a.Record.Severity, "unknown"))
}

// headline is the header text of a's message; each kind reads differently
// so that a channel skimmer tells a new failure from a follow-up.
func headline(a *sinks.Alert) string {
	h := kindHeadline(a)
	if a.Kind != "resolved" && a.FirstRank != "" {
		// Where it began: the rank a person looks at first.
		h += " · " + a.FirstRank
	}
	return h
}

func kindHeadline(a *sinks.Alert) string {
	switch a.Kind {
	case "summary":
		return fmt.Sprintf(":repeat: %s ×%d %s", severityWord(a), a.Count, slug(a))
	case "reminder":
		return fmt.Sprintf(":alarm_clock: Still happening: %s %s", severityWord(a), slug(a))
	case "resolved":
		return fmt.Sprintf(":white_check_mark: Resolved: %s", slug(a))
	}
	return fmt.Sprintf("%s %s %s", emoji(a.Record.Severity), severityWord(a), slug(a))
}

// fallback is the notification text: short, one line, kind first.
func fallback(a *sinks.Alert) string {
	prefix := ""
	switch a.Kind {
	case "summary":
		prefix = fmt.Sprintf("[×%d] ", a.Count)
	case "reminder":
		prefix = "[still happening] "
	case "resolved":
		prefix = "[resolved] "
	}
	return fitEnd(prefix+sinks.Title(a), maxFallbackBytes, plain)
}

// render builds the message for one alert.
func render(a *sinks.Alert) message {
	blocks := []block{header(headline(a))}
	blocks = append(blocks, block{Type: "context", Elements: []textObj{mrkdwn(timeline(a))}})
	switch a.Kind {
	case "resolved":
		blocks = append(blocks, fieldsBlock(a))
	case "summary":
		blocks = append(blocks, whatBlock(a))
		blocks = appendConsequences(blocks, a)
		blocks = appendMatch(blocks, a)
		blocks = append(blocks, fieldsBlock(a))
		blocks = appendSolutions(blocks, a, maxFollowUpSolutions)
	case "reminder":
		blocks = append(blocks, whatBlock(a))
		blocks = appendConsequences(blocks, a)
		blocks = append(blocks, fieldsBlock(a))
		blocks = appendSolutions(blocks, a, maxFollowUpSolutions)
	default:
		blocks = append(blocks, whatBlock(a))
		blocks = appendConsequences(blocks, a)
		blocks = appendMatch(blocks, a)
		blocks = appendException(blocks, a)
		blocks = append(blocks, fieldsBlock(a))
		blocks = appendAdvice(blocks, a)
	}
	if c := linksBlock(a); c != nil {
		blocks = append(blocks, *c)
	}
	return message{Text: fallback(a), Blocks: blocks}
}

func timeline(a *sinks.Alert) string {
	switch a.Kind {
	case "resolved":
		return fmt.Sprintf("Quiet since %s · %d occurrences from %s", date(a.LastTime), a.Count, date(a.Time))
	case "summary":
		return fmt.Sprintf("%d occurrences from %s to %s", a.Count, date(a.Time), date(a.LastTime))
	case "reminder":
		return fmt.Sprintf("Still failing: %d occurrences since %s, last %s", a.Count, date(a.Time), date(a.LastTime))
	}
	return fmt.Sprintf("First seen %s", date(a.Time))
}

// whatBlock says what happened and, when the record has one, why.
func whatBlock(a *sinks.Alert) block {
	what := sinks.What(a)
	if a.Record.Documentation == "" || sinks.IsHTTPURL(a.Record.Documentation) {
		return section(fit(what, maxSectionText, func(s string) string { return "*" + plain(s) + "*" }))
	}
	head := "*" + plain(sinks.TruncateEnd(what, 500)) + "*\n"
	return section(head + fit(a.Record.Documentation, maxSectionText-len(head), escape))
}

func appendMatch(blocks []block, a *sinks.Alert) []block {
	if a.Match.Text == "" {
		return blocks
	}
	return append(blocks, section(titled("Matched line", a.Match.Text, codeBlock)))
}

func appendException(blocks []block, a *sinks.Alert) []block {
	e := a.Match.Exception
	if e == nil || (e.Stacktrace == "" && e.Message == "") {
		return blocks
	}
	title := "Exception"
	if e.Type != "" {
		title += " " + inlineCode(sinks.TruncateEnd(e.Type, 200))
	}
	if e.RootCause != "" {
		title += " · root cause " + inlineCode(sinks.TruncateEnd(e.RootCause, 200))
	}
	body := cmp.Or(e.Stacktrace, e.Message)
	return append(blocks, section(titled(title, body, codeBlock)))
}

// fieldsBlock lists where and how often: at most maxFields short fields.
func fieldsBlock(a *sinks.Alert) block {
	var fields []textObj
	add := func(name, value string) {
		if value == "" || len(fields) == maxFields {
			return
		}
		head := "*" + name + "*\n"
		fields = append(fields, mrkdwn(head+fit(value, maxFieldText-len(head), escape)))
	}
	addRaw := func(name, rendered string) {
		if rendered != "" && len(fields) < maxFields {
			fields = append(fields, mrkdwn("*"+name+"*\n"+rendered))
		}
	}
	add("Severity", strings.ToLower(severityWord(a)))
	add("Count", strconv.Itoa(a.Count))
	add("Ranks", sinks.RanksText(a))
	add("Pod", a.Source.Pod)
	add("Namespace", a.Source.Namespace)
	add("Container", a.Source.Container)
	if a.Source.Path != "" {
		addRaw("Source", inlineCode(sinks.TruncateMiddle(fmt.Sprintf("%s:%d", a.Source.Path, a.Source.Offset), 300)))
	}
	add("Handling", a.Record.HandlingStrategy)
	if a.Record.FilePath != "" {
		loc := a.Record.FilePath
		if a.Record.LineNumber > 0 {
			loc += ":" + strconv.Itoa(a.Record.LineNumber)
		}
		addRaw("Raised at", inlineCode(sinks.TruncateMiddle(loc, 300)))
	}
	if a.Record.ID != "" {
		addRaw("Record", inlineCode(sinks.TruncateEnd(a.Record.ID, 200)))
	}
	return block{Type: "section", Fields: fields}
}

func appendAdvice(blocks []block, a *sinks.Alert) []block {
	blocks = appendSolutions(blocks, a, len(a.Record.Solutions))
	if len(a.Record.PreventionTips) > 0 {
		blocks = append(blocks, section(titled("Prevention", bulletList(a.Record.PreventionTips), escape)))
	}
	return blocks
}

// appendSolutions lists the first n solutions.
func appendSolutions(blocks []block, a *sinks.Alert, n int) []block {
	sol := a.Record.Solutions[:min(n, len(a.Record.Solutions))]
	if len(sol) == 0 {
		return blocks
	}
	title := "Solutions"
	if len(sol) < len(a.Record.Solutions) {
		title = fmt.Sprintf("Top solutions (%d of %d)", len(sol), len(a.Record.Solutions))
	}
	return append(blocks, section(titled(title, sinks.NumberedList(sol), escape)))
}

// appendConsequences lists what followed the root cause: one line per
// consequence, its slug, count and ranks, then its real line. Lines that
// do not fit the section are counted instead.
func appendConsequences(blocks []block, a *sinks.Alert) []block {
	if len(a.Consequences) == 0 {
		return blocks
	}
	const head = "*Then, as a consequence*"
	budget := maxSectionText - len(head) - len("\n… and 999 more")
	var b strings.Builder
	b.WriteString(head)
	for i := range a.Consequences {
		c := &a.Consequences[i]
		line := "\n• " + plain(sinks.TruncateEnd(sinks.ConsequenceLine(c), 300))
		if c.Headline != "" {
			line += ": " + inlineCode(sinks.TruncateEnd(c.Headline, 300))
		}
		if b.Len()+len(line) > budget {
			fmt.Fprintf(&b, "\n… and %d more", len(a.Consequences)-i)
			break
		}
		b.WriteString(line)
	}
	return append(blocks, section(b.String()))
}

// linksBlock holds the links and the other records that matched.
func linksBlock(a *sinks.Alert) *block {
	var items []textObj
	if l := link(a.Record.GithubURL, "Source on GitHub"); l != "" {
		items = append(items, mrkdwn(":link: "+l))
	}
	if l := link(a.Record.Documentation, "Documentation"); l != "" {
		items = append(items, mrkdwn(":book: "+l))
	}
	if len(items) == 0 {
		if u, label := sinks.Runbook(a); u != "" {
			if l := link(u, label); l != "" {
				items = append(items, mrkdwn(":mag: "+l))
			}
		}
	}
	if len(a.Secondary) > 0 {
		var names []string
		for _, s := range a.Secondary {
			names = append(names, inlineCode(cmp.Or(s.Slug, s.ID)))
		}
		items = append(items, mrkdwn(fit(strings.Join(names, ", "), maxSectionText-20, func(s string) string { return "Also matched: " + s })))
	}
	if len(items) == 0 {
		return nil
	}
	return &block{Type: "context", Elements: items[:min(len(items), maxContextItems)]}
}

// renderDigest folds a storm of alerts into one message: counts by
// severity and kind, then each incident (the most severe and frequent
// first) with its real line, its first solution and its link, so that a
// digest read alone still says what to do.
func renderDigest(alerts []*sinks.Alert) message {
	bySeverity := map[string]int{}
	byKind := map[string]int{}
	var first, last time.Time
	for _, a := range alerts {
		bySeverity[strings.ToLower(cmp.Or(a.Record.Severity, "unknown"))]++
		byKind[cmp.Or(a.Kind, "new")]++
		if first.IsZero() || (!a.Time.IsZero() && a.Time.Before(first)) {
			first = a.Time
		}
		if a.LastTime.After(last) {
			last = a.LastTime
		}
	}
	ranked := slices.Clone(alerts)
	slices.SortStableFunc(ranked, func(x, y *sinks.Alert) int {
		return cmp.Or(
			cmp.Compare(sinks.SeverityRank(y.Record.Severity), sinks.SeverityRank(x.Record.Severity)),
			cmp.Compare(y.Count, x.Count),
			x.Time.Compare(y.Time),
		)
	})

	order := []string{"critical", "error", "warning", "info", "unknown"}
	var sevParts, sevText []string
	for _, s := range order {
		if n := bySeverity[s]; n > 0 {
			sevParts = append(sevParts, fmt.Sprintf("%s %s %d", emoji(s), s, n))
			sevText = append(sevText, fmt.Sprintf("%d %s", n, s))
		}
	}
	var kindParts []string
	for _, k := range []string{"new", "summary", "reminder", "resolved"} {
		if n := byKind[k]; n > 0 {
			kindParts = append(kindParts, fmt.Sprintf("%s %d", k, n))
		}
	}

	blocks := []block{
		header(fmt.Sprintf(":rotating_light: logmatch: %d incidents", len(alerts))),
		{Type: "context", Elements: []textObj{mrkdwn(fmt.Sprintf("From %s to %s", date(first), date(last)))}},
		section("*By severity:* " + strings.Join(sevParts, " · ") + "\n*By kind:* " + strings.Join(kindParts, " · ")),
	}
	for _, a := range ranked[:min(len(ranked), maxDigestRecords)] {
		blocks = append(blocks, section(digestItem(a)))
	}
	if more := len(ranked) - maxDigestRecords; more > 0 {
		blocks = append(blocks, block{Type: "context", Elements: []textObj{mrkdwn(fmt.Sprintf("and %d more incidents", more))}})
	}
	text := fmt.Sprintf("logmatch: %d incidents (%s)", len(alerts), strings.Join(sevText, ", "))
	return message{Text: sinks.TruncateEnd(text, maxFallbackBytes), Blocks: blocks}
}

// digestItem is one incident of a digest in one section: what, where,
// how often, the real line, the first solution and the link. The link is
// never cut; the other parts share what is left of the section, each cut
// after escaping so the whole always fits.
func digestItem(a *sinks.Alert) string {
	var linkLine string
	if u, label := sinks.Runbook(a); u != "" {
		if l := link(u, label); l != "" {
			linkLine = "\n:link: " + l
		}
	}
	budget := maxSectionText - len(linkLine) - 64 // emoji, separators, newlines
	share := func(percent int) int { return max(budget*percent/100, 16) }

	head := fitEnd(sinks.TruncateEnd(slug(a), 80), share(10), inlineCode)
	if k := a.Kind; k == "summary" || k == "reminder" || k == "resolved" {
		head += " (" + k + ")"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s *%s ×%d*", emoji(a.Record.Severity), head, max(a.Count, 1))
	var where []string
	if r := sinks.RanksText(a); r != "" {
		where = append(where, r)
	}
	if w := sinks.Where(a); w != "" {
		where = append(where, w)
	}
	if len(where) > 0 {
		b.WriteString(" — ")
		b.WriteString(fitEnd(strings.Join(where, " · "), share(15), escape))
	}
	if what := sinks.What(a); what != "" {
		b.WriteString("\n")
		b.WriteString(fitEnd(what, share(25), inlineCode))
	}
	if then := sinks.Then(a); then != "" {
		b.WriteString("\n")
		b.WriteString(fitEnd(then, share(20), escape))
	}
	if len(a.Record.Solutions) > 0 {
		b.WriteString("\n:bulb: ")
		b.WriteString(fitEnd(sinks.OneLine(a.Record.Solutions[0]), share(25), escape))
	}
	b.WriteString(linkLine)
	return b.String()
}
