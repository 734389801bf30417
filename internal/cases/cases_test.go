package cases

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

func TestParseErrorsNameTheirPlace(t *testing.T) {
	for _, tt := range []struct {
		name, text, want string
	}{
		{"unknown key", "cases:\n  - name: a\n    lines: x\n    expect: {incidents: 1}\n    expct: {}\n", "c.yaml:2: case 1: "},
		{"unknown expectation", "cases:\n  - name: a\n    lines: x\n    expect: {recrod: y}\n", "c.yaml:2: case 1: "},
		{"both inputs", "cases:\n  - name: a\n    lines: x\n    file: y.log\n    expect: {incidents: 1}\n", `c.yaml:2: case "a": give lines or file, not both`},
		{"no input", "cases:\n  - name: a\n    expect: {incidents: 1}\n", `c.yaml:2: case "a": give lines or file`},
		{"nothing expected", "cases:\n  - name: a\n    lines: x\n", `c.yaml:2: case "a": expect: nothing to check`},
		{"bad severity", "cases:\n  - name: a\n    lines: x\n    expect: {severity: loud}\n", `c.yaml:2: case "a": expect.severity:`},
		{"negative count", "cases:\n  - name: a\n    lines: x\n    expect: {incidents: -1}\n", `expect.incidents: -1 is negative`},
		{"duplicate name", "cases:\n  - name: a\n    lines: x\n    expect: {incidents: 0}\n  - name: a\n    lines: y\n    expect: {incidents: 0}\n", `c.yaml:5: case "a": the name is used at line 2 too`},
		{"empty", "", "c.yaml: no cases"},
		{"no list", "cases: []\n", "c.yaml: no cases"},
		{"not yaml", "cases: [\n", "c.yaml: yaml:"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(tt.text))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

// One bad case is reported with every other problem, and the good ones
// still parse.
func TestParseReportsEveryProblem(t *testing.T) {
	f, err := Parse("c.yaml", []byte("cases:\n  - name: ok\n    lines: x\n    expect: {incidents: 0}\n  - name: bad\n    lines: x\n  - lines: y\n    expect: {incidents: 0}\n"))
	if err == nil || !strings.Contains(err.Error(), "c.yaml:5:") || !strings.Contains(err.Error(), "c.yaml:7:") {
		t.Fatalf("error %v, want both bad cases named", err)
	}
	if len(f.Cases) != 1 || f.Cases[0].Name != "ok" {
		t.Errorf("cases %+v, want the good one", f.Cases)
	}
}

func scanner(t *testing.T) *scan.Scanner {
	t.Helper()
	recs, _ := patterns.Default()
	m, _ := matcher.Compile(recs, matcher.Options{})
	return scan.New(m, scan.Options{})
}

// A case that passes, one whose every expectation is wrong, and one whose
// file is missing: the outcome says which expectations differ, with want
// and got, and the tally counts them.
func TestRunComparesAndTallies(t *testing.T) {
	dir := t.TempDir()
	log := "[2026-05-28 00:11:09 TP0] RuntimeError: CUDA error: an illegal memory access was encountered\n"
	if err := os.WriteFile(filepath.Join(dir, "crash.log"), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	text := `cases:
  - name: right
    file: crash.log
    expect: {record: cuda-illegal-memory-access, severity: critical, incidents: 1}
  - name: wrong
    lines: "` + strings.TrimSuffix(log, "\n") + `"
    expect: {record: cuda-out-of-memory, severity: warning, exception: KeyError, headline: OOM, incidents: 2}
  - name: missing
    file: absent.log
    expect: {incidents: 0}
`
	path := filepath.Join(dir, "cases.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	outs := Run(context.Background(), f, scanner(t))
	if !outs[0].Passed() {
		t.Errorf("right: %v %v", outs[0].Diffs, outs[0].Err)
	}
	got := strings.Join(outs[1].Diffs, "\n")
	for _, want := range []string{
		"incidents: want 2, got 1",
		"record:    want cuda-out-of-memory, got cuda-illegal-memory-access",
		"severity:  want warning, got critical",
		"exception: want KeyError, got RuntimeError",
		`headline:  want text containing "OOM"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("wrong's differences lack %q:\n%s", want, got)
		}
	}
	if outs[2].Err == nil {
		t.Error("missing: no error for the missing file")
	}
	var b strings.Builder
	failed, err := Write(&b, f, outs, false)
	if err != nil || failed != 2 {
		t.Fatalf("Write: %d failed, %v", failed, err)
	}
	if !strings.HasSuffix(b.String(), "3 cases, 1 passed, 2 failed\n") || strings.Contains(b.String(), "PASS") {
		t.Errorf("output:\n%s", b.String())
	}
}

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"cases:\n  - name: a\n    lines: x\n    expect: {incidents: 1}\n",
		"cases:\n  - name: a\n    file: y.log\n    expect: {record: none, severity: critical, exception: E, headline: h}\n",
		"cases: [\n",
		"cases:\n  - [1, 2]\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse("fuzz.yaml", data)
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.yaml") {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		for i := range file.Cases {
			if c := &file.Cases[i]; c.check() != nil {
				t.Errorf("case %q parsed but does not check", c.Name)
			}
		}
	})
}
