package report

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/sinks"
)

// TestMarkdownGolden keeps the Markdown of the 8-rank crash as a golden
// file (go test ./internal/report -update rewrites it).
func TestMarkdownGolden(t *testing.T) {
	f := scanFiles(t, "../../testdata/logs/ranks8.log")
	var b bytes.Buffer
	if err := WriteMarkdown(&b, f); err != nil {
		t.Fatal(err)
	}
	const golden = "testdata/ranks8.md"
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("markdown (-want +got):\n%s", diff)
	}
}

// TestMarkdownKeepsLogTextInert checks that log text cannot end its code
// block or span, start a link, an image or HTML, or break a table row.
func TestMarkdownKeepsLogTextInert(t *testing.T) {
	hostile := "```\n# heading\n<img src=x onerror=alert(1)>\n````\n[link](http://x) | cell\n\x1b[31mred"
	when := time.Date(2026, 5, 28, 0, 15, 0, 0, time.UTC)
	f := Findings{Inputs: []string{"a|b.log"}, Lines: 1, Entries: 1, Alerts: []sinks.Alert{{
		Time: when, LastTime: when, Count: 1, Ranks: []string{"TP`0"},
		Headline: "a | b `c` <script>",
		Record: sinks.Record{ID: "r", Slug: "s", Severity: "error",
			Solutions: []string{"run `x` | [y](javascript:z) <b>bold</b>"}},
		Match: sinks.Match{Text: hostile},
	}}}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, f); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	// The matched text sits whole inside a fence of five backticks: one
	// more than its longest run.
	if !strings.Contains(out, "`````text\n"+strings.Replace(hostile, "\x1b", `\x1b`, 1)+"\n`````\n") {
		t.Errorf("matched text not fenced whole:\n%s", out)
	}
	for _, bad := range []string{"<img", "<script>", "<b>", "](javascript"} {
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, bad) && !strings.HasPrefix(l, "<img") && !inFence(out, l) && !strings.Contains(l, "`") {
				t.Errorf("%q is live in line %q", bad, l)
			}
		}
	}
	if !strings.Contains(out, `1. run \`+"`x\\` \\| \\[y\\](javascript:z) \\<b\\>bold\\</b\\>") {
		t.Errorf("solution not escaped:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "| 1 |") {
			// 7 unescaped pipes: the row's six cells.
			if n := strings.Count(l, "|") - strings.Count(l, `\|`); n != 7 {
				t.Errorf("table row has %d cell borders: %q", n, l)
			}
		}
	}
}

// inFence reports whether line l of out lies inside a fenced block.
func inFence(out, l string) bool {
	open := ""
	for _, x := range strings.Split(out, "\n") {
		switch {
		case open == "" && strings.HasPrefix(x, "```"):
			open = strings.TrimRight(x, "text")
		case open != "" && x == open:
			open = ""
		case x == l:
			return open != ""
		}
	}
	return false
}

func TestMdCode(t *testing.T) {
	for in, want := range map[string]string{
		"plain":   "`plain`",
		"a`b":     "``a`b``",
		"`x":      "`` `x ``",
		"a\nb  c": "`a b c`",
		"":        "",
	} {
		if got := mdCode(in); got != want {
			t.Errorf("mdCode(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOffsetAndLaneOrder(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for d, want := range map[time.Duration]string{
		0: "+0s", 850 * time.Millisecond: "+850ms", 4200 * time.Millisecond: "+4.2s",
		125 * time.Second: "+2m05s", 3*time.Hour + 12*time.Minute: "+3h12m", 124 * time.Hour: "+5d4h",
	} {
		if got := offset(t0, t0.Add(d)); got != want {
			t.Errorf("offset(%v) = %q, want %q", d, got, want)
		}
	}
	lanes := []string{noRank, "TP10", "TP2", "DP1 TP0", "DP0 TP1", "rank3", "TP1"}
	want := []string{"DP0 TP1", "DP1 TP0", "TP1", "TP2", "TP10", "rank3", noRank}
	got := append([]string(nil), lanes...)
	slicesSort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lane order (-want +got):\n%s", diff)
	}
}

// FuzzMarkdownFence puts arbitrary log text in an incident: the Markdown
// holds it whole in one fenced block that no line of it closes.
func FuzzMarkdownFence(f *testing.F) {
	for _, s := range []string{"plain", "```\nx\n```", "````", "~~~\n<b>", "a\x1b[31mb\n\n`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		shown := block(text)
		fenced := fence(shown)
		open, _, _ := strings.Cut(fenced, "text\n")
		body := strings.TrimSuffix(strings.TrimPrefix(fenced, open+"text\n"), "\n"+open+"\n")
		if body != shown {
			t.Fatalf("fence changed the text: %q to %q", shown, body)
		}
		for _, l := range strings.Split(body, "\n") {
			if strings.HasPrefix(strings.TrimLeft(l, " "), open) {
				t.Fatalf("line %q closes the fence %q", l, open)
			}
		}
		when := time.Date(2026, 5, 28, 0, 0, 0, 0, time.UTC)
		var b bytes.Buffer
		err := WriteMarkdown(&b, Findings{Alerts: []sinks.Alert{{Time: when, Count: 1, Match: sinks.Match{Text: text}}}})
		if err != nil || !strings.Contains(b.String(), fenced) {
			t.Fatalf("the Markdown lacks the fenced text (%v)", err)
		}
	})
}
