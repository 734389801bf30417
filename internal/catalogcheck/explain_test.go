package catalogcheck

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

func TestExplain(t *testing.T) {
	recs := []patterns.Record{
		{ID: "load", Slug: "model-load", MessagePattern: `model (\w+) failed to load from \d+`},
		{ID: "alt", Slug: "alt", MessagePattern: `(?i)(disk|volume) is full`},
	}
	m, probs := matcher.Compile(recs, matcher.Options{})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	tests := []struct {
		name, text string
		rec        int
		want       string
	}{
		{"matches", "model qwen failed to load from 42", 0, "the pattern matches"},
		{"a missing literal", "model qwen failed to start", 0, `the prefilter skips it: the text lacks " failed to load from "`},
		{"where the regex fails", "model qwen failed to load from /m", 0, `"model (\\w+) failed to load from " matches, then "\\d+" fails at "/m"`},
		{"an alternation, folded", "the device is gone", 1, `lacks "disk | volume", " is full"`},
		{"folded literal present", "VOLUME IS FULL", 1, "the pattern matches"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ExplainRecord(m, tt.rec, tt.text).String()
			if !strings.Contains(got, tt.want) {
				t.Errorf("got %q, want it to contain %q", got, tt.want)
			}
		})
	}
	if x := ExplainPattern("(unclosed", "x"); x.Err == "" {
		t.Errorf("a pattern that does not compile is explained as %v", x)
	}
	if got := ExplainPattern(`abc\d`, "xyz").String(); !strings.Contains(got, "not even its first element") {
		t.Errorf("ExplainPattern = %q", got)
	}
}

// FuzzExplainPattern: any pattern and text are explained without a panic,
// and a pattern said to match does match.
func FuzzExplainPattern(f *testing.F) {
	for _, s := range [][2]string{
		{`model (\w+) failed to load from \d+`, "model qwen failed to load from /m"},
		{`\\d+\(`, `\d+(`},
		{`(?<name>a|b)+c`, "ababx"},
		{`[\]]x`, "]y"},
		{`é+ü`, "ééa"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, expr, text string) {
		x := ExplainPattern(expr, text)
		if x.Matched && x.Err == "" {
			re, err := patterns.Compile(expr)
			if err != nil {
				t.Fatalf("explained as matching, but does not compile: %v", err)
			}
			if ok, _ := re.MatchString(text); !ok {
				t.Fatalf("%q explained as matching %q, but does not", expr, text)
			}
		}
		_ = x.String()
	})
}
