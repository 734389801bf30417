package matcher

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func lit(s string) []Literal    { return []Literal{{Text: s}} }
func folded(s string) []Literal { return []Literal{{Text: s, Fold: true}} }
func anyOf(ls ...string) []Literal {
	out := make([]Literal, len(ls))
	for i, s := range ls {
		out[i] = Literal{Text: s}
	}
	return out
}

func TestExtractLiterals(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		want    Required
		wantLen int
	}{
		{"plain text", `Interrupted by signal`, Required{lit("Interrupted by signal")}, 21},
		{"escapes join the run", `search\.max_candidates must be >= 1 or null\.`, Required{lit("search.max_candidates must be >= 1 or null.")}, 43},
		{"lazy group splits", `Interrupted by signal (.+?)`, Required{lit("Interrupted by signal ")}, 22},
		{"two groups", `budget of (.+?)h reached \(deadline (.+?)\)`, Required{lit("budget of "), lit("h reached (deadline "), lit(")")}, 31},
		{"group content joins", `foo(bar)baz`, Required{lit("foobarbaz")}, 9},
		{"non-capturing group joins", `foo(?:bar)baz`, Required{lit("foobarbaz")}, 9},
		{"optional part contributes nothing", `abc(def)?ghi`, Required{lit("abc"), lit("ghi")}, 6},
		{"star contributes nothing", `abcx*yz`, Required{lit("abc"), lit("yz")}, 5},
		{"bounded zero minimum", `ab(cd){0,3}ef`, Required{lit("ab"), lit("ef")}, 4},
		{"plus keeps one copy", `ab(cd)+ef`, Required{lit("ab"), lit("cd"), lit("ef")}, 6},
		{"char plus keeps one copy", `abx+yz`, Required{lit("abx"), lit("yz")}, 5},
		{"exact repeat", `ab{3}c`, Required{lit("abbbc")}, 5},
		{"range repeat keeps the minimum", `ab{2,4}c`, Required{lit("abb"), lit("c")}, 4},
		{"alternation of literals", `error: (timeout|refused) on`, Required{lit("error: "), anyOf("refused", "timeout"), lit(" on")}, 17},
		{"top-level alternation", `CUDA out of memory|OutOfMemoryError`, Required{anyOf("CUDA out of memory", "OutOfMemoryError")}, 16},
		{"alternation branch without literal", `x(foo|\d+)y`, Required{lit("x"), lit("y")}, 2},
		{"alternation picks each branch's longest", `(ab.*cdefg|hij)`, Required{anyOf("cdefg", "hij")}, 3},
		{"common prefix factored by the parser", `abc|abd`, Required{lit("ab")}, 2},
		{"class breaks the run", `ab[0-9]cd`, Required{lit("ab"), lit("cd")}, 4},
		{"digit class", `rank (\d+) failed`, Required{lit("rank "), lit(" failed")}, 12},
		{"dot breaks the run", `a.b`, Required{lit("a"), lit("b")}, 2},
		{"anchors keep the run", `^abc$`, Required{lit("abc")}, 3},
		{"word boundary keeps the run", `\bNCCL\b error`, Required{lit("NCCL error")}, 10},
		{"newline is literal", `first\n  second`, Required{lit("first\n  second")}, 14},
		{"lookahead contributes nothing", `abc(?=def)`, Required{lit("abc")}, 3},
		{"negative lookahead", `abc(?!def)gh`, Required{lit("abcgh")}, 5},
		{"lookbehind contributes nothing", `(?<=xyz)abc`, Required{lit("abc")}, 3},
		{"back-reference breaks the run", `(ab)c\1d`, Required{lit("abc"), lit("d")}, 4},
		{"named back-reference", `(?<q>['"])x\k<q>`, Required{lit("x")}, 1},
		{"case-insensitive whole", `(?i)cuda error`, Required{folded("cuda error")}, 10},
		{"case-insensitive part folds the literal", `(?i:Out Of) Memory`, Required{folded("out of memory")}, 13},
		{"case-insensitive punctuation", `(?i)x-y`, Required{folded("x-y")}, 3},
		{"case class is not a fold", `[Aa]bc`, Required{folded("abc")}, 3},
		{"two-letter class breaks", `a[bc]d`, Required{lit("a"), lit("d")}, 2},
		{"non-ascii literal", `Größe falsch`, Required{lit("Größe falsch")}, 14},
		{"non-ascii case-insensitive breaks", `(?i)abä`, Required{folded("ab")}, 2},
		{"replacement char breaks", `ab\uFFFDcd`, Required{lit("ab"), lit("cd")}, 4},
		{"nothing required", `.*`, nil, 0},
		{"only classes", `\d+\s\w+`, nil, 0},
		{"repeated clause deduplicated", `ab.*ab`, Required{lit("ab")}, 2},
		{"atomic group joins", `a(?>bc)d`, Required{lit("abcd")}, 4},
		{"empty alternative", `x(|abc)y`, Required{lit("x"), lit("y")}, 2},
		{"nested alternation flattens", `((aaaa|bbbb)c|dddd)`, Required{anyOf("aaaa", "bbbb", "dddd")}, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ExtractLiterals(tc.pattern)
			if err != nil {
				t.Fatalf("ExtractLiterals(%q): %v", tc.pattern, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ExtractLiterals(%q) mismatch (-want +got):\n%s", tc.pattern, diff)
			}
			if gotLen := got.LiteralLen(); gotLen != tc.wantLen {
				t.Errorf("LiteralLen(%q) = %d, want %d", tc.pattern, gotLen, tc.wantLen)
			}
		})
	}
}

func TestExtractLiteralsError(t *testing.T) {
	if _, err := ExtractLiterals(`(unclosed`); err == nil {
		t.Fatal("ExtractLiterals(`(unclosed`) = nil error, want a parse error")
	}
}

// A window's key is the same whether its letters are upper- or lower-case:
// keyFold merges every byte with what foldTable makes of it, so a text
// holds the key of every case-insensitive literal it holds.
func TestKeyFoldMergesFoldTable(t *testing.T) {
	for c := 0; c < 256; c++ {
		if got, want := byte(c)|keyFold&0xff, foldTable[c]|keyFold&0xff; got != want {
			t.Fatalf("byte %#02x keys as %#02x, its folded form %#02x as %#02x", c, got, foldTable[c], want)
		}
	}
	if windowKey("Out Of M") != windowKey("out of m") || windowKey("Out Of M") != windowKey("OUT OF M") {
		t.Fatal("windowKey depends on case")
	}
	for _, s := range []string{"Out Of Memory", "\x00\xff[{]}\r-abcdef", "12345678"} {
		for i := 0; i+longStride <= len(s); i++ {
			if blockKey(s, i) != windowKey(s[i:i+longStride]) {
				t.Fatalf("blockKey(%q, %d) = %#x, windowKey %#x", s, i, blockKey(s, i), windowKey(s[i:i+longStride]))
			}
		}
	}
}
