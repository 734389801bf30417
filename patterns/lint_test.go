package patterns

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/google/go-cmp/cmp"
)

func TestLintDuplicateIDs(t *testing.T) {
	recs := []Record{
		{ID: "a", MessagePattern: "x", Origin: Origin{File: "one.jsonl", Line: 3}},
		{ID: "b", MessagePattern: "y", Origin: Origin{File: "one.jsonl", Line: 4}},
		{ID: "a", MessagePattern: "z", Origin: Origin{File: "two.jsonl", Line: 7}},
		{ID: "a", MessagePattern: "w", Origin: Origin{File: "two.jsonl", Line: 9}},
	}
	var gotProbs []string
	for _, p := range Lint(recs, testLintOptions()) {
		gotProbs = append(gotProbs, p.Level.String()+" "+p.Error())
	}
	want := []string{
		`error two.jsonl:7: id: duplicate id "a", first defined at one.jsonl:3`,
		`error two.jsonl:9: id: duplicate id "a", first defined at one.jsonl:3`,
	}
	if diff := cmp.Diff(want, gotProbs); diff != "" {
		t.Errorf("Lint (-want +got):\n%s", diff)
	}
}

func TestLintBacktracking(t *testing.T) {
	const (
		none    = ""
		warning = "warning"
		errorL  = "error"
	)
	tests := []struct {
		name    string
		pattern string
		level   string // "" when nothing is reported
		msg     string // substring of the message
	}{
		{"nested plus", `(a+)+`, warning, `repeated group matches both "a" and "aa"`},
		{"nested star", `(a*)*`, warning, `repeated group matches both "a" and "aa"`},
		{"nested dot star", `(.*)*`, warning, `repeated group matches both "a" and "aa"`},
		{"nested plus then literal", `(a+)+b`, errorL, `match timed out after ${T} on a 49-character probe "aaaaaaaaaaaaaaaaaa"…"aaa!"`},
		{"anchored digits", `^(\d+)*$`, errorL, `"000!"; repeated group matches both "0" and "00"`},
		{"word then optional space", `(\w+\s?)+$`, errorL, `repeated group matches both "a" and "aa"`},
		{"overlapping alternation by length", `(a|aa)+b`, errorL, `repeated group matches both "a" and "aa"`},
		{"dot star then literal", `(.*)*x`, errorL, `"aaa\n"`},
		{"two-character ambiguity only the probe sees", `(ab|a|b)+c`, errorL, `probe "ababababababababab"…"bab!"`},
		{"bounded repetition of an ambiguous body", `(.*a){12}`, warning, `repeated group matches both "a" and "aa"`},
		{"identical branches merged by regexp2", `(a|a)*b`, none, ""},
		{"non-capturing nested loop made atomic by regexp2", `(?:a+)+b`, none, ""},
		{"lazy groups of the generated catalog", `Failed to (.+?): (.+?) in (.+?)`, none, ""},
		{"delimited repetition", `(\w+,)+x`, none, ""},
		{"quoted strings", `([^"]*"[^"]*")*x`, none, ""},
		{"escapes", `"(?:[^\\"]|\\.)*"`, none, ""},
		{"few repetitions", `(a+){2}b`, none, ""},
		{"plain literal", `Ascend Transfer Engine initialization failed\.`, none, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := testLintOptions()
			wantMsg := strings.ReplaceAll(tt.msg, "${T}",
				fmt.Sprintf("%v, and after %v on a rerun", opts.ProbeTimeout, opts.ProbeTimeout*probeConfirmFactor))
			probs := Lint([]Record{{ID: "r", MessagePattern: tt.pattern, Origin: Origin{File: "f", Line: 2}}}, opts)
			var gotLevel, gotMsg string
			switch len(probs) {
			case 0:
			case 1:
				gotLevel, gotMsg = probs[0].Level.String(), probs[0].Error()
				if !strings.HasPrefix(gotMsg, "f:2: messagePattern: ") {
					t.Errorf("place: got %q", gotMsg)
				}
			default:
				t.Fatalf("want at most one problem, got %v", probs)
			}
			if gotLevel != tt.level || !strings.Contains(gotMsg, wantMsg) {
				t.Errorf("Lint(%q) = %s %q, want %s containing %q", tt.pattern, gotLevel, gotMsg, tt.level, wantMsg)
			}
		})
	}
}

func TestLintStaticOnly(t *testing.T) {
	probs := Lint([]Record{{ID: "r", MessagePattern: `(a+)+b`, Origin: Origin{File: "f", Line: 1}}}, LintOptions{NoProbe: true})
	if len(probs) != 1 || probs[0].Level != LevelWarning {
		t.Fatalf("NoProbe: want one warning, got %v", probs)
	}
}

func TestLintProbeErrorUnwraps(t *testing.T) {
	probs := Lint([]Record{{ID: "r", MessagePattern: `(a|aa)+b`}}, LintOptions{ProbeTimeout: time.Millisecond})
	if len(probs) != 1 {
		t.Fatalf("want one problem, got %v", probs)
	}
	if probs[0].Err == nil || errors.Is(probs[0].Err, regexp2.ErrBacktrackingStackLimit) {
		t.Errorf("Err = %v, want the timeout error", probs[0].Err)
	}
	if !strings.Contains(probs[0].Message, "after 1ms, and after 5ms") {
		t.Errorf("message %q does not give both budgets", probs[0].Message)
	}
}

func TestLintUncompiledRecord(t *testing.T) {
	probs := Lint([]Record{{ID: "r", MessagePattern: `(x`, Origin: Origin{File: "f", Line: 5}}}, testLintOptions())
	want := []string{"f:5: messagePattern: does not compile: error parsing regexp: missing closing ) in `(x`"}
	var gotProbs []string
	for _, p := range probs {
		gotProbs = append(gotProbs, p.Error())
	}
	if diff := cmp.Diff(want, gotProbs); diff != "" {
		t.Errorf("Lint (-want +got):\n%s", diff)
	}
}

func TestLintSeedClean(t *testing.T) {
	recs, probs := LoadForLint([]string{seedFile}, testLintOptions())
	if len(probs) != 0 || len(recs) != 1 {
		t.Fatalf("seed: %d records, problems %v", len(recs), probs)
	}
}

// TestGeneratedCatalog loads and lints the 5,695-record scale catalog: no
// problems, every record with its line, dataset version and severity.
func TestGeneratedCatalog(t *testing.T) {
	recs, probs := LoadForLint([]string{generatedCatalog}, testLintOptions())
	for _, p := range probs {
		t.Errorf("%s %v", p.Level, p)
	}
	if got := Summarize(recs, probs); got != (Summary{Records: 5695}) {
		t.Fatalf("summary = %v", got)
	}
	for i, r := range recs {
		if r.Origin != (Origin{File: generatedCatalog, Line: i + 1}) || r.DatasetVersion == "" || r.Severity.Rank() == 0 {
			t.Fatalf("record %d: origin %v, datasetVersion %q, severity %q", i, r.Origin, r.DatasetVersion, r.Severity)
		}
	}
}

func TestLoadForLintDefault(t *testing.T) {
	recs, probs := LoadForLint(nil, testLintOptions())
	for _, p := range probs {
		t.Errorf("embedded catalog: %s %v", p.Level, p)
	}
	if len(recs) == 0 {
		t.Fatal("embedded catalog is empty")
	}
}

// TestAmbiguityWitness checks the static check's counting directly, so a
// change in regexp2's reductions shows up as a clear diff.
func TestAmbiguityWitness(t *testing.T) {
	tests := []struct {
		pattern string
		want    string // ambiguity.String(), or "" for none
	}{
		{`(a+)+`, `repeated group matches both "a" and "aa", so a run of "a" splits in exponentially many ways when the rest of the pattern fails`},
		{`(x|x?y?)+z`, `repeated group matches "x" in more than one way, so a run of "x" backtracks exponentially when the rest of the pattern fails`},
		{`(aaa|aaaaa)+`, `repeated group matches both "aaa" and "aaaaa", so a run of "a" splits in exponentially many ways when the rest of the pattern fails`},
		{`(a{2})+`, ""},
		{`(ab+)+`, ""},
		{`(a|b)+`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			tree, err := parseTree(tt.pattern)
			if err != nil {
				t.Fatal(err)
			}
			var gotS string
			if a, ok := findAmbiguity(tree.Root); ok {
				gotS = a.String()
			}
			if gotS != tt.want {
				t.Errorf("got  %q\nwant %q", gotS, tt.want)
			}
		})
	}
}

func BenchmarkLintGenerated(b *testing.B) {
	recs, probs := LoadFile(generatedCatalog)
	if len(probs) != 0 {
		b.Fatal(probs)
	}
	b.ResetTimer()
	for b.Loop() {
		if p := Lint(recs, testLintOptions()); len(p) != 0 {
			b.Fatal(p)
		}
	}
	b.ReportMetric(float64(len(recs)), "records/op")
}

func BenchmarkLoadForLintGenerated(b *testing.B) {
	for b.Loop() {
		if _, p := LoadForLint([]string{generatedCatalog}, testLintOptions()); len(p) != 0 {
			b.Fatal(p)
		}
	}
}

// testLintOptions are the lint options of tests: 48-rune probes (enough for
// exponential patterns to blow any budget, short enough for polynomial ones
// to finish) and a budget scaled for the race detector. The production
// defaults are measured by the benchmarks.
func testLintOptions() LintOptions {
	opts := LintOptions{ProbeTimeout: 20 * time.Millisecond, ProbeRunes: 48}
	if raceEnabled {
		opts.ProbeTimeout *= 10
	}
	return opts
}

// Issue 14 item 12: the load path refuses exactly what lint calls a
// backtracking error, naming file:line, and keeps what lint only warns
// about.
func TestRefuseCatastrophicAgreesWithLint(t *testing.T) {
	recs := []Record{
		{ID: "bad", MessagePattern: `(a+)+$`, Origin: Origin{File: "c.jsonl", Line: 1}},
		{ID: "good", MessagePattern: `Synthetic failure #(\d+)`, Origin: Origin{File: "c.jsonl", Line: 2}},
		{ID: "suspect", MessagePattern: `(.*a){12}`, Origin: Origin{File: "c.jsonl", Line: 3}},
	}
	kept, probs := RefuseCatastrophic(recs, testLintOptions())
	var keptIDs []string
	for _, r := range kept {
		keptIDs = append(keptIDs, r.ID)
	}
	lint := Lint(recs, testLintOptions())
	var lintErrs, refused []string
	for _, p := range lint {
		if p.Level == LevelError {
			lintErrs = append(lintErrs, fmt.Sprintf("%s:%d", p.File, p.Line))
		}
	}
	for _, p := range probs {
		if p.Level == LevelError {
			refused = append(refused, fmt.Sprintf("%s:%d", p.File, p.Line))
			if !strings.Contains(p.Error(), "c.jsonl:1: messagePattern: record bad refused: catastrophic backtracking") {
				t.Errorf("refusal %q does not name the place and the reason", p.Error())
			}
		}
	}
	if diff := cmp.Diff(lintErrs, refused); diff != "" {
		t.Errorf("refused at load vs lint errors (-lint +load):\n%s", diff)
	}
	for _, id := range []string{"good", "suspect"} {
		if !strings.Contains(strings.Join(keptIDs, " "), id) {
			t.Errorf("%s not kept: %v", id, keptIDs)
		}
	}
	if strings.Contains(strings.Join(keptIDs, " "), "bad") {
		t.Errorf("bad kept: %v", keptIDs)
	}
}

func TestProbeCanFail(t *testing.T) {
	tests := []struct {
		pattern string
		runes   int
		want    bool
	}{
		{`(a+)+b`, DefaultProbeRunes, true},
		{`(ab|a|b)+c`, DefaultProbeRunes, true},
		{`(.*a){12}`, DefaultProbeRunes, true},
		{`Failed to (.+?): (.+?) in (.+?) at`, DefaultProbeRunes, true}, // three loops: 65^4 steps
		{`Failed to (.+?): (.+?) in (.+?)`, DefaultProbeRunes, false},   // regexp2 makes the last loop atomic
		{`Tried to allocate (\d+) bytes (.*)`, DefaultProbeRunes, false},
		{`worker (\d+) died`, DefaultProbeRunes, false},
		{`a?b?c?d?e?f?g?`, DefaultProbeRunes, false}, // optional characters are not loops
		{`Ascend Transfer Engine initialization failed\.`, DefaultProbeRunes, false},
		{`worker (\d+) died`, 1 << 20, true},                // a long run makes even one loop costly
		{`Tried to allocate (\d+) bytes (.*)`, 2048, false}, // both loops atomic once parsed
		{`(.*) died`, 2048, true},
	}
	for _, tt := range tests {
		tree, err := parseTree(tt.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := probeCanFail(tree.Root, tt.runes); got != tt.want {
			t.Errorf("probeCanFail(%q, %d) = %v, want %v", tt.pattern, tt.runes, got, tt.want)
		}
	}
}

// TestSkippedProbesCannotFail runs the probe that load and lint skip on every
// pattern of the embedded and the generated catalog they skip it for: none
// may fail, or skipping would change what is refused.
func TestSkippedProbesCannotFail(t *testing.T) {
	def, _ := Default()
	gen, probs := LoadFile(generatedCatalog)
	if len(probs) > 0 {
		t.Fatalf("generated catalog: %v", probs)
	}
	opts := LintOptions{}.withDefaults()
	if raceEnabled {
		opts.ProbeTimeout *= 10
	}
	skipped, probed := 0, 0
	for _, r := range append(def, gen...) {
		tree, err := r.PatternTree()
		if err != nil {
			t.Fatalf("%v: %v", r.Origin, err)
		}
		inputs := probeInputs(tree.Root, nil, opts.ProbeRunes)
		if len(inputs) == 0 {
			continue
		}
		if probeCanFail(tree.Root, opts.ProbeRunes) {
			probed++
			continue
		}
		skipped++
		re, err := Compile(r.MessagePattern)
		if err != nil {
			t.Fatalf("%v: %v", r.Origin, err)
		}
		if res, bad := probe(re, inputs, opts.ProbeTimeout); bad {
			t.Errorf("%v: %q: a skipped probe fails: %s", r.Origin, r.MessagePattern, res.String(opts.ProbeTimeout))
		}
	}
	if skipped == 0 || probed == 0 {
		t.Fatalf("%d probes skipped, %d run: the catalogs no longer exercise the rule", skipped, probed)
	}
	t.Logf("%d probes skipped, %d still run", skipped, probed)
}
