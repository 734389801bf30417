package gen_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/logmatch/logmatch/internal/gen"
	"github.com/logmatch/logmatch/patterns"
)

// tok renders a token as "kind:text@line" for compact comparisons.
func tok(t gen.Token) string {
	kind := map[gen.Kind]string{gen.Name: "N", gen.String: "S", gen.Number: "#", gen.Op: "O", gen.Newline: "NL"}[t.Kind]
	if t.Kind == gen.Newline {
		return kind + "@" + strconv.Itoa(t.Line)
	}
	return kind + ":" + t.Text + "@" + strconv.Itoa(t.Line)
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"raise call", `raise ValueError("x")`, []string{"N:raise@1", "N:ValueError@1", "O:(@1", `S:"x"@1`, "O:)@1", "NL@1"}},
		{"comment dropped", "x = 1  # raise E('no')\ny", []string{"N:x@1", "O:=@1", "#:1@1", "NL@1", "N:y@2", "NL@2"}},
		{"newline inside brackets joins lines", "f(\n 'a',\n 'b')\n", []string{"N:f@1", "O:(@1", "S:'a'@2", "O:,@2", "S:'b'@3", "O:)@3", "NL@3"}},
		{"backslash continuation", "a = 'x' \\\n  'y'", []string{"N:a@1", "O:=@1", "S:'x'@1", "S:'y'@2", "NL@2"}},
		{"triple quoted spans lines", "s = '''a\nb'''\nt", []string{"N:s@1", "O:=@1", "S:'''a\nb'''@1", "NL@2", "N:t@3", "NL@3"}},
		{"escaped quote", `"a\"b" 'c'`, []string{`S:"a\"b"@1`, "S:'c'@1", "NL@1"}},
		{"prefixes", `rb'\d' F"{x}" Rf'{y}' u'z' br"w"`, []string{`S:rb'\d'@1`, `S:F"{x}"@1`, `S:Rf'{y}'@1`, "S:u'z'@1", `S:br"w"@1`, "NL@1"}},
		{"name that looks like a prefix", `rf_value = bar`, []string{"N:rf_value@1", "O:=@1", "N:bar@1", "NL@1"}},
		{"f-string with nested same quotes", `f"{d["k"]}!"`, []string{`S:f"{d["k"]}!"@1`, "NL@1"}},
		{"f-string with format spec and braces", `f"{{{x!r:>{w}}}}"`, []string{`S:f"{{{x!r:>{w}}}}"@1`, "NL@1"}},
		{"unterminated single quote stops at newline", "'abc\nx", []string{"S:'abc@1", "NL@1", "N:x@2", "NL@2"}},
		{"unterminated triple quote runs to the end", `"""abc`, []string{`S:"""abc@1`, "NL@1"}},
		{"numbers", "1e-3 + 0x1f", []string{"#:1e-3@1", "O:+@1", "#:0x1f@1", "NL@1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, tk := range gen.Tokenize(tt.src) {
				got = append(got, tok(tk))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Tokenize(%q) (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

func TestDecodeLiteral(t *testing.T) {
	lit := func(s string) gen.Part { return gen.Part{Text: s} }
	hole := func(s string) gen.Part { return gen.Part{Text: s, Hole: true} }
	tests := []struct {
		name string
		src  string
		want gen.Message
	}{
		{"plain", `"abc"`, gen.Message{lit("abc")}},
		{"escapes", `"a\tb\n\x41\u00e9\101\\\q"`, gen.Message{lit("a\tb\nAéA\\\\q")}},
		{"raw keeps backslashes", `r"\d+\""`, gen.Message{lit(`\d+\"`)}},
		{"f-string hole", `f"rank {rank} died"`, gen.Message{lit("rank "), hole("rank"), lit(" died")}},
		{"conversion and spec", `f"{x!r:>10} {y:.2f}"`, gen.Message{hole("x"), lit(" "), hole("y")}},
		{"self-documenting", `f"({self.timeout=}, {soft = })"`, gen.Message{lit("(self.timeout="), hole("self.timeout"), lit(", soft = "), hole("soft"), lit(")")}},
		{"comparison is not self-documenting", `f"{a == b}"`, gen.Message{hole("a == b")}},
		{"nested quotes and spec", `f"{d['k']:{w}} x"`, gen.Message{hole("d['k']"), lit(" x")}},
		{"doubled braces", `f"{{{k}}}"`, gen.Message{lit("{"), hole("k"), lit("}")}},
		{"not-equal in field", `f"{a != b!s}"`, gen.Message{hole("a != b")}},
		{"triple quoted", "f'''a\n{b}'''", gen.Message{lit("a\n"), hole("b")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := gen.DecodeLiteral(gen.SplitLiteral(tt.src))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("DecodeLiteral(%s) (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

func TestFormats(t *testing.T) {
	tests := []struct {
		name string
		got  gen.Message
		want string
	}{
		{"percent positional", gen.PercentFormat(gen.Message{{Text: "rank %d of %5.2f%%"}}, []string{"r", "n"}), "rank {r} of {n}%"},
		{"percent mapping", gen.PercentFormat(gen.Message{{Text: "%(a)s and %(b)r"}}, nil), "{a} and {b}"},
		{"percent missing operand names", gen.PercentFormat(gen.Message{{Text: "%s %s"}}, []string{"x"}), "{x} {1}"},
		{"percent invalid stays", gen.PercentFormat(gen.Message{{Text: "at 100%, sure %z"}}, nil), "at 100%, sure %z"},
		{"format auto", gen.BraceFormat(gen.Message{{Text: "{} and {:>4}"}}, []string{"a", "b"}), "{a} and {b}"},
		{"format index and attr", gen.BraceFormat(gen.Message{{Text: "{1.x} {0[2]!r}"}}, []string{"a", "b"}), "{b.x} {a[2]}"},
		{"format keyword", gen.BraceFormat(gen.Message{{Text: "{name:{w}} {{lit}}"}}, nil), "{name} {lit}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.got.Template(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPatternAndSlug(t *testing.T) {
	m := gen.Message{{Text: "x", Hole: true}, {Text: " failed (code "}, {Text: "c", Hole: true}, {Text: "d", Hole: true}, {Text: ") at a.b/c [1]\n\tnext"}}
	wantPat := ` failed \(code (?<c>.+?)\) at a\.b\/c \[1\]\n\tnext`
	if got := gen.Pattern(m); got != wantPat {
		t.Errorf("Pattern: got %q, want %q", got, wantPat)
	}
	re, err := patterns.Compile(wantPat)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := re.MatchString("RuntimeError: step failed (code 42) at a.b/c [1]\n\tnext"); !ok {
		t.Errorf("pattern does not match its own message")
	}
	if got, want := gen.Slug(m), "failed-code-at-a-b-c-1-next"; got != want {
		t.Errorf("Slug: got %q, want %q", got, want)
	}
	long := gen.Message{{Text: strings.Repeat("word ", 30)}}
	if got := gen.Slug(long); len(got) > 60 || strings.HasSuffix(got, "-") {
		t.Errorf("Slug of a long message: %q", got)
	}
}

// The defect: a trailing placeholder caught one character, and groups were
// numbered. Now the last group reaches the end of the line and every group
// is named after the f-string's variable.
func TestPatternGroupsAreNamedAndTheLastIsGreedy(t *testing.T) {
	tests := []struct {
		name string
		m    gen.Message
		line string
		want map[string]string
	}{
		{
			"trailing path",
			gen.Message{{Text: "Failed to load model from "}, {Text: "model_path", Hole: true}},
			"[2026-05-28 00:11:09 TP0] Failed to load model from /models/qwen\nnext line",
			map[string]string{"model_path": "/models/qwen"},
		},
		{
			"attribute, call and a repeated name",
			gen.Message{{Text: "Input length ("}, {Text: "len(input_ids)", Hole: true}, {Text: ") exceeds ("}, {Text: "self.max_len", Hole: true}, {Text: ") and ("}, {Text: "len(input_ids)", Hole: true}, {Text: ")"}},
			"Input length (4097) exceeds (4096) and (4097)",
			map[string]string{"input_ids": "4097", "max_len": "4096", "input_ids_2": "4097"},
		},
		{
			"no name in the expression",
			gen.Message{{Text: "bad value "}, {Text: "0", Hole: true}, {Text: " here"}},
			"bad value -3 here",
			map[string]string{"value": "-3"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pat := gen.Pattern(tt.m)
			re, err := patterns.Compile(pat)
			if err != nil {
				t.Fatalf("%s: %v", pat, err)
			}
			m, err := re.FindStringMatch(tt.line)
			if err != nil || m == nil {
				t.Fatalf("%s does not match %q: %v", pat, tt.line, err)
			}
			got := map[string]string{}
			for _, g := range m.Groups()[1:] {
				got[g.Name] = g.String()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s: groups (-want +got):\n%s", pat, diff)
			}
		})
	}
}
