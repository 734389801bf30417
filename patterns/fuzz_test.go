package patterns

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzParse: Parse never panics; every problem names a line of the input;
// in JSONL form every non-blank line gives exactly a record or at least one
// error; every record it returns has an id and a pattern that compiles.
func FuzzParse(f *testing.F) {
	seed, err := os.ReadFile(seedFile)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add(append(append([]byte{0xEF, 0xBB, 0xBF}, seed...), "\r\n\r\n"...))
	f.Add([]byte("[" + string(seed) + ",\n" + string(seed) + "]"))
	f.Add([]byte("{\"id\":\"a\",\"messagePattern\":\"x\"}\n{\"id\":\"b\",\"messagePattern\":\"(\"}\n\n{\"record\":5}\n"))
	f.Add([]byte(`{"id":"a","messagePattern":"x","severity":"fatal","tags":[1]}`))
	f.Add([]byte("[\n{},\n5,\n{\"id\":\"b\" x}\n]"))
	f.Add([]byte("[{\"id\":\"a\",\"messagePattern\":\"x\"}] trailing"))
	f.Add([]byte("\n\n   \r\n"))
	f.Add([]byte("\xEF\xBB\xBF["))
	f.Add([]byte(`{"record":{"id":"a","messagePattern":"(a+)+"},"datasetVersion":null}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		recs, probs := Parse(bytes.NewReader(in), "fuzz")
		lastLine := bytes.Count(in, []byte{'\n'}) + 1
		recLines := map[int]bool{}
		errLines := map[int]bool{}
		for _, p := range probs {
			if p.Line < 1 || p.Line > lastLine {
				t.Fatalf("problem %v: line outside 1..%d", p, lastLine)
			}
			if p.File != "fuzz" || p.Message == "" {
				t.Fatalf("problem %+v: want file and message", p)
			}
			if p.Level == LevelError {
				errLines[p.Line] = true
			}
		}
		for _, r := range recs {
			if r.Origin.Line < 1 || r.Origin.Line > lastLine || r.Origin.File != "fuzz" {
				t.Fatalf("record %q: origin %v outside the input", r.ID, r.Origin)
			}
			if strings.TrimSpace(r.ID) == "" || r.Severity.Rank() == 0 {
				t.Fatalf("record %+v: want an id and a severity", r)
			}
			if _, err := Compile(r.MessagePattern); err != nil {
				t.Fatalf("record %q: pattern does not compile: %v", r.ID, err)
			}
			recLines[r.Origin.Line] = true
		}
		body := bytes.TrimPrefix(in, utf8BOM)
		if rest := bytes.TrimLeft(body, " \t\r\n"); len(rest) > 0 && rest[0] == '[' {
			return // array form: elements share lines, checked above
		}
		for i, line := range bytes.Split(body, []byte{'\n'}) {
			n := i + 1
			blank := len(bytes.TrimSpace(bytes.TrimRight(line, "\r"))) == 0
			switch {
			case blank && (recLines[n] || errLines[n]):
				t.Fatalf("blank line %d produced a record or an error", n)
			case !blank && recLines[n] == errLines[n]:
				t.Fatalf("line %d %q: record %v, error %v; want exactly one", n, line, recLines[n], errLines[n])
			}
		}
	})
}

// FuzzLintPattern: the backtracking checks never panic, report at most one
// problem, always about messagePattern, and report an error only with the
// probe that failed; the static check is deterministic.
func FuzzLintPattern(f *testing.F) {
	for _, s := range []string{
		`(a+)+`, `(a*)*`, `(a|a)*`, `(.*)*`, `(a+)+b`, `^(\d+)*$`, `(\w+\s?)+$`, `(a|aa)+b`,
		`(ab|a|b)+c`, `(.*a){12}`, `(?:a+)+b`, `x(.+?)y(.+?)z`, `([^"]*"[^"]*")*x`,
		`Ascend Transfer Engine initialization failed\.`, `(?<=a)(b|c)*\1`, `(?(1)a|b)+`,
		`((a{16}){4}){4}`, `[\u4e00-\u9fff]+(x|y?)*$`, `(?i)(A|a)+B`, `(\b|\s)*$`,
	} {
		f.Add(s)
	}
	// Short probes keep catastrophic mutants cheap: 20 runes are enough for
	// the exponential ones to blow a 1ms budget.
	opts := LintOptions{ProbeTimeout: time.Millisecond, ProbeRunes: 20}.withDefaults()
	f.Fuzz(func(t *testing.T, expr string) {
		if !utf8.ValidString(expr) || len(expr) > 512 {
			return
		}
		tree, err := parseTree(expr)
		if err != nil {
			return
		}
		a1, ok1 := findAmbiguity(tree.Root)
		a2, ok2 := findAmbiguity(tree.Root)
		if ok1 != ok2 || a1 != a2 {
			t.Fatalf("static check not deterministic: %v/%v vs %v/%v", a1, ok1, a2, ok2)
		}
		if ok1 && (a1.short < 1 || a1.long < a1.short || a1.long > maxRun) {
			t.Fatalf("ambiguity %+v: lengths out of range", a1)
		}
		for _, in := range probeInputs(tree.Root, nil, opts.ProbeRunes) {
			if len(in) > maxPrefixBytes+(opts.ProbeRunes+2)*maxSampleBytes+utf8.UTFMax {
				t.Fatalf("probe of %d bytes is past its bound", len(in))
			}
		}
		p, bad := lintPattern(expr, opts)
		if !bad {
			return
		}
		if p.Field != "messagePattern" || p.Message == "" {
			t.Fatalf("problem %+v: want a messagePattern message", p)
		}
		if p.Level == LevelError && !strings.Contains(p.Message, "probe") {
			t.Fatalf("error without a failed probe: %v", p)
		}
		if p.Level == LevelWarning && !ok1 {
			t.Fatalf("warning without a static finding: %v", p)
		}
	})
}
