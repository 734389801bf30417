package gen_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/logmatch/logmatch/internal/gen"
	"github.com/logmatch/logmatch/patterns"
)

// FuzzTokenize feeds arbitrary source to the tokenizer and the extractor.
// Neither may panic or loop; tokens must tile the input in order, with
// their text taken from it; every generated pattern must compile.
func FuzzTokenize(f *testing.F) {
	seeds := []string{
		`raise ValueError(f"{x!r:>{w}} and {d["k"]}")`,
		"logger.error('a %s b %(k)d', x, exc_info=True)\n",
		`raise E("""multi` + "\n" + `line""" "more" % (a, b))`,
		`raise E("{} {name}".format(1, name=2))`,
		`f"{f"{f"{x}"}"}"`,
		"'unterminated\n\"\"\"also",
		"x = (1,\n 2 \\\n)\n# comment",
		`raise E(rb'\x00' + b"y")`,
		"\xff\xfe raise \u00e9(\"\u2192\")",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	if files, _ := filepath.Glob(filepath.Join("testdata", "src", "*.py")); len(files) > 0 {
		for _, name := range files {
			if b, err := os.ReadFile(name); err == nil {
				f.Add(string(b))
			}
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		toks := gen.Tokenize(src)
		pos, line := 0, 1
		for _, tk := range toks {
			if tk.Pos < pos || tk.Pos > len(src) || tk.Line < line {
				t.Fatalf("token %+v out of order (pos %d, line %d)", tk, pos, line)
			}
			if tk.Kind != gen.Newline && src[tk.Pos:tk.Pos+len(tk.Text)] != tk.Text {
				t.Fatalf("token %+v is not the source text at its position", tk)
			}
			if tk.Kind != gen.Newline && tk.Text == "" {
				t.Fatalf("empty token %+v", tk)
			}
			pos, line = tk.Pos+len(tk.Text), tk.Line
		}
		if len(toks) > len(src)+1 {
			t.Fatalf("%d tokens from %d bytes", len(toks), len(src))
		}
		for _, s := range gen.Extract(src) {
			if s.Skip != "" {
				continue
			}
			if _, err := patterns.Compile(gen.Pattern(s.Message)); err != nil {
				t.Fatalf("pattern %q of %q does not compile: %v", gen.Pattern(s.Message), s.Source, err)
			}
		}
	})
}
