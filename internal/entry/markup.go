package entry

import "strings"

// Markup a page or a chat puts around a whole pasted log line: Markdown
// emphasis ("_ModuleNotFoundError: No module named 'x'_", "**RuntimeError:
// ...**", "~~...~~"), behind a blockquote's markers or a list item's, and
// the HTML a page's source keeps ("<pre><code>Traceback ...", "...</code>",
// "...<br>"). The line inside reads as the log wrote it: records name the
// log's text, not the page's. Each test opens with a byte test, so a
// routine line pays one comparison.

// maxEmphasisNesting bounds the emphasis runs taken off one line, nested
// as a writer stacks them ("**_x_**", "***x***" is one run).
const maxEmphasisNesting = 3

// emphasisSpan returns where the text inside Markdown emphasis around the
// whole of s starts and ends, nested runs taken off together; 0, len(s)
// when s is not emphasised as a whole.
func emphasisSpan(s string) (open, close int) {
	open, close = 0, len(s)
	for pass := 0; pass < maxEmphasisNesting; pass++ {
		n := emphasisRunLen(s[open:close])
		if n == 0 {
			break
		}
		open, close = open+n, close-n
	}
	return open, close
}

// emphasisBounds returns the bounds of the text of s[start:end], a line's
// text behind its prefixes, with Markdown emphasis around all of it taken
// off; start, end when there is none. A byte test first: most lines open
// with no mark of emphasis.
func emphasisBounds(s string, start, end int) (int, int) {
	if end-start < 5 {
		return start, end
	}
	if c := s[start]; c != '_' && c != '*' && c != '~' {
		return start, end
	}
	open, close := emphasisSpan(s[start:end])
	return start + open, start + close
}

// emphasisRunLen returns the length of the delimiter run of Markdown
// emphasis that opens s and closes it at its end ("_", "**", "~~", up to
// three of one mark), or 0. It is strict, so that what a log writes with
// the same marks stays whole:
//   - the closing run is the opening one, exactly (no longer run of the
//     mark ends the line);
//   - the text inside neither opens nor ends with a space (CommonMark's
//     flanking rule: "* item" is a list, "*** Error in ... ***" glibc's);
//   - the text inside holds a space: a log line is a message, while a
//     Python name ("__init__", "_C_"), a glob or a pointer holds none;
//   - the text inside holds no run of the mark next to a space, which would
//     open or close another emphasis ("_a_ and _b_").
func emphasisRunLen(s string) int {
	if len(s) < 5 {
		return 0
	}
	c := s[0]
	if c != '_' && c != '*' && c != '~' {
		return 0
	}
	n := 1
	for n < len(s) && n < 4 && s[n] == c {
		n++
	}
	if n > 3 || c == '~' && n != 2 {
		return 0
	}
	end := len(s) - n
	if end <= n+1 || strings.Count(s[end:], string(c)) != n || s[end-1] == c {
		return 0
	}
	inner := s[n:end]
	if inner[0] == ' ' || inner[len(inner)-1] == ' ' || strings.IndexByte(inner, ' ') < 0 {
		return 0
	}
	for i := strings.IndexByte(inner, c); i >= 0; {
		if i > 0 && inner[i-1] == ' ' || i+1 < len(inner) && inner[i+1] == ' ' {
			return 0
		}
		j := strings.IndexByte(inner[i+1:], c)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return n
}

// maxQuoteNesting bounds the blockquote markers markupLeadLen takes.
const maxQuoteNesting = 4

// markupLeadLen returns the length of what a Markdown page puts in front
// of a pasted line before an emphasis or a tag opens it: blockquote
// markers, nested ("> ", ">> ", "> > "), then one list item's marker ("- ",
// "* ", "+ "). 0 when s opens with none.
func markupLeadLen(s string) int {
	n := 0
	for q := 0; q < maxQuoteNesting && n < len(s) && s[n] == '>'; q++ {
		m := quoteMarkerLen(s[n:])
		if m == 0 || m == len(s)-n {
			return 0
		}
		n += m
	}
	if k := len(s) - n; k > 2 && (s[n] == '-' || s[n] == '*' || s[n] == '+') && s[n+1] == ' ' {
		n += 2
	}
	return n
}

// htmlCodeTags are the elements a page's source wraps a pasted log in,
// lower case; their opening tags may carry attributes ("<pre
// lang=\"text\">", "<code class=\"...\">").
var htmlCodeTags = [...]string{"pre", "code", "samp", "kbd", "tt", "p"}

// maxHTMLTag bounds an opening tag htmlOpenTagsLen reads, attributes and
// all.
const maxHTMLTag = 64

// htmlOpenTagsLen returns the length of the opening tags of htmlCodeTags
// in front of s ("<pre><code>", "<code class=\"x\">"), with text after
// them, or 0.
func htmlOpenTagsLen(s string) int {
	n := 0
	for n < len(s) && s[n] == '<' {
		m := htmlOpenTagLen(s[n:])
		if m == 0 {
			break
		}
		n += m
	}
	if n == len(s) {
		return 0
	}
	return n
}

// htmlOpenTagLen returns the length of one opening tag of htmlCodeTags at
// the start of s, or 0.
func htmlOpenTagLen(s string) int {
	for _, name := range htmlCodeTags {
		if len(s) < len(name)+2 || !strings.EqualFold(s[1:1+len(name)], name) {
			continue
		}
		switch s[1+len(name)] {
		case '>':
			return len(name) + 2
		case ' ':
			lim := min(len(s), maxHTMLTag)
			if k := strings.IndexByte(s[:lim], '>'); k > 0 && strings.IndexByte(s[1:k], '<') < 0 {
				return k + 1
			}
		}
	}
	return 0
}

// htmlEndTags are what a page's source ends a pasted line with: a line
// break, or the closing tag of an element of htmlCodeTags.
var htmlEndTags = [...]string{"<br>", "<br/>", "<br />", "</pre>", "</code>", "</samp>", "</kbd>", "</tt>", "</p>"}

// maxHTMLEndTags bounds the end tags trimHTMLEndTags takes off one line
// ("</code></pre>", "<br></p>").
const maxHTMLEndTags = 3

// trimHTMLEndTags removes the end tags of htmlEndTags at the end of t,
// any case: a log line never ends in one, its page does.
func trimHTMLEndTags(t string) string {
	for pass := 0; pass < maxHTMLEndTags && t != "" && t[len(t)-1] == '>'; pass++ {
		cut := false
		for _, tag := range htmlEndTags {
			if len(t) >= len(tag) && strings.EqualFold(t[len(t)-len(tag):], tag) {
				t, cut = t[:len(t)-len(tag)], true
				break
			}
		}
		if !cut {
			break
		}
	}
	return t
}
