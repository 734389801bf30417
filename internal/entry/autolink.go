package entry

import "strings"

// A log copied from a page that rendered it (an issue, a chat) into an
// editor that writes Markdown back (a chat client, a notes tool, a
// converter) carries the links the page made of tokens that look like
// web addresses: a source file whose extension is a country's domain
// ("net_ib.cc:101", "scheduler.py", "main.rs", "run.sh"), an IP address,
// a mail address. Each comes back as "[text](http://text/)", the link's
// target the text itself behind a scheme; unlinkAutolinks reads the text
// alone, as the log printed it. A link whose target differs from its
// text is the page's own and stays.

// maxAutolinkText bounds the text of one link read.
const maxAutolinkText = 256

// unlinkAutolinks returns s with its auto-links read as their text, or s
// itself, not copied, when it holds none.
func unlinkAutolinks(s string) string {
	var b strings.Builder
	last := 0 // s[last:] is not yet written
	for i := 0; i < len(s); {
		k := strings.Index(s[i:], "](")
		if k < 0 {
			break
		}
		k += i
		open := strings.LastIndexByte(s[max(i, k-maxAutolinkText):k], '[')
		if open < 0 {
			i = k + 2
			continue
		}
		open += max(i, k-maxAutolinkText)
		text := s[open+1 : k]
		end := autolinkEnd(s[k+2:], text)
		if end < 0 || text == "" || strings.ContainsAny(text, "[] ") {
			i = k + 2
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:open])
		b.WriteString(text)
		last = k + 2 + end
		i = last
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// autolinkEnd returns the length of a link's target and its closing
// parenthesis at the start of s when the target is text itself behind a
// web or mail scheme, a slash after it allowed; -1 otherwise.
func autolinkEnd(s, text string) int {
	var rest string
	switch {
	case strings.HasPrefix(s, "http://"):
		rest = s[len("http://"):]
	case strings.HasPrefix(s, "https://"):
		rest = s[len("https://"):]
	case strings.HasPrefix(s, "mailto:"):
		rest = s[len("mailto:"):]
	default:
		return -1
	}
	if !strings.HasPrefix(rest, text) {
		return -1
	}
	n := len(s) - len(rest) + len(text)
	if n < len(s) && s[n] == '/' {
		n++
	}
	if n >= len(s) || s[n] != ')' {
		return -1
	}
	return n + 1
}
