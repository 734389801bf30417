package entry

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// flushSourceUnder reports whether text holds a traceback's frame line,
// then (blank lines aside) a line at the first column that is no frame,
// then a caret line: a source line a paste left flush left, which a
// reader could tell from a line of its own only by the carets under it.
func flushSourceUnder(text string) bool {
	const (
		none = iota
		afterFrame
		afterFlush
	)
	st := none
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\n")
		t := strings.TrimSpace(line)
		switch {
		case t == "":
		case strings.HasPrefix(t, `File "`):
			st = afterFrame
		case st == afterFrame:
			st = none
			if line[0] != ' ' && line[0] != '\t' {
				st = afterFlush
			}
		case st == afterFlush:
			if IsCaretLine(t) {
				return true
			}
			st = none
		}
	}
	return false
}

// TestFlushLeftSourcesIndented: over the corpus's logs as posted and as a
// terminal's cut (80, 100, 120 columns), a word wrap (fold -s at 100), a
// doubled spacing and a launcher's, a quote's, a list's and a code span's
// lead put them, no entry keeps a flush-left source line under a frame:
// every flush-left traceback is indented where CPython indents it
// (flushtb.go), so its readers need no flush-left shape of their own.
func TestFlushLeftSourcesIndented(t *testing.T) {
	if testing.Short() {
		t.Skip("assembles the corpus in several layouts")
	}
	dir := filepath.Join("..", "..", "testdata", "corpus")
	files, err := filepath.Glob(filepath.Join(dir, "*.log"))
	if err != nil || len(files) == 0 {
		t.Skipf("no corpus: %v", err)
	}
	each := func(text string, f func(string) string) string {
		ls := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		for i := range ls {
			ls[i] = f(ls[i])
		}
		return strings.Join(ls, "\n")
	}
	fold := func(text string, width int) string {
		var out []string
		for _, l := range strings.Split(text, "\n") {
			for len(l) > width {
				cut := strings.LastIndexByte(l[:width], ' ')
				if cut <= 0 || strings.TrimSpace(l[:cut]) == "" {
					break
				}
				out = append(out, l[:cut+1])
				l = l[cut+1:]
			}
			out = append(out, l)
		}
		return strings.Join(out, "\n")
	}
	bad, entries := 0, 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.ReplaceAll(string(b), "\r\n", "\n")
		for name, v := range map[string]string{
			"posted":        text,
			"cut-80":        termCut(text, 80),
			"cut-100":       termCut(text, 100),
			"cut-120":       termCut(text, 120),
			"fold-100":      fold(text, 100),
			"double-spaced": each(text, func(l string) string { return l + "\n" }),
			"rank":          each(text, func(l string) string { return "[rank3]: " + l }),
			"compose":       each(text, func(l string) string { return "sglang-1  | " + l }),
			"quote":         each(text, func(l string) string { return "> " + l }),
			"list":          each(text, func(l string) string { return "- " + l }),
			"code-span": each(text, func(l string) string {
				if strings.TrimSpace(l) == "" || strings.Contains(l, "`") {
					return l
				}
				return "`" + l + "`"
			}),
		} {
			for _, e := range assemble(t, Options{}, v) {
				entries++
				if e.Traceback != nil && flushSourceUnder(e.Text) {
					bad++
					t.Errorf("%s, %s: a flush-left source line under a frame, then carets", filepath.Base(f), name)
				}
			}
		}
	}
	t.Logf("%d entries of %d logs in 11 layouts", entries, len(files))
}
