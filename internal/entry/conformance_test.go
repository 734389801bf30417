package entry

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// conformanceDir is shared/conformance as CI lays it out: the repository
// and shared/ side by side, the test running in internal/entry.
const conformanceDir = "../../../shared/conformance"

// knownDisagreements lists the samples where the assembler's principled
// rules and the corpus disagree, with the reason. The test fails if one of
// them starts to agree, so the list stays honest.
var knownDisagreements = map[string]string{
	"018-loguru-level-name-header.log": "custom loguru format \"DEBUG | 10\" is no known header and does not end in \":\", " +
		"so the traceback after it is a new entry, as after any plain line (sample 001)",
	"019-loguru-message-formatting-header.log": "custom loguru format \"__main__ file.py <module> 14\" is no known header and does not end in \":\"; " +
		"the traceback after it is a new entry, as after any plain line (sample 001)",
	"020-loguru-handler-formatting-header.log": "custom loguru format \"__main__ file.py a 16\" is no known header and does not end in \":\"; " +
		"the traceback after it is a new entry, as after any plain line (sample 001)",
}

// pythonOnlySamples are compared on their python-traceback entries only: the
// peer was configured for Python alone and kept Java and Go traces one entry
// per line, which logmatch does not promise.
var pythonOnlySamples = map[string]bool{
	"003-detect-exceptions-buffer-python-only.log": true,
}

type conformanceSample struct {
	File      string                `json:"file"`
	Tier      string                `json:"tier"`
	LineCount int                   `json:"line_count"`
	Entries   []conformanceExpEntry `json:"entries"`
}

type conformanceExpEntry struct {
	FirstLine        int     `json:"first_line"`
	LastLine         int     `json:"last_line"`
	Kind             string  `json:"kind"`
	ExceptionType    *string `json:"exception_type"`
	ExceptionMessage *string `json:"exception_message"`
	Blank            bool    `json:"blank"`
}

// TestConformance feeds every sample of shared/conformance/tracebacks to one
// Assembler, line by line (Offset = line number), flushes at EOF and compares
// with expected.jsonl under these relaxations (README "How a test should use
// it"):
//
//   - ignore blank entries: expected entries flagged blank are dropped, and
//     blank lines at either end of an assembled entry are not part of its
//     boundary; all-blank assembled entries are dropped;
//   - python-only for sample 003: only its python-traceback entries count;
//   - python-only for multi-line "other" blocks (Java and Go traces): their
//     lines may be grouped in any way, as long as no assembled entry crosses
//     the block's edges.
//
// python-traceback and single-line "other" entries must come out exactly, and
// each python-traceback entry's outermost exception type and message (nil
// message = "") must equal the expected ones.
func TestConformance(t *testing.T) {
	samples := readConformance(t)
	pass := 0
	for _, s := range samples {
		t.Run(s.File, func(t *testing.T) {
			lines := readConformanceLines(t, s.File)
			if len(lines) != s.LineCount {
				t.Fatalf("%s: %d lines, expected.jsonl says %d", s.File, len(lines), s.LineCount)
			}
			problems := compareSample(s, lines, assembleLines(lines))
			reason, known := knownDisagreements[s.File]
			switch {
			case known && len(problems) == 0:
				t.Errorf("%s is listed as a known disagreement (%s) but now agrees: remove it from the list", s.File, reason)
			case known:
				t.Logf("known disagreement: %s\n  %s", reason, strings.Join(problems, "\n  "))
			case len(problems) > 0:
				t.Errorf("%s:\n  %s", s.File, strings.Join(problems, "\n  "))
			default:
				pass++
			}
		})
	}
	t.Logf("conformance: %d of %d samples agree, %d known disagreements", pass, len(samples), len(knownDisagreements))
}

func readConformance(t *testing.T) []conformanceSample {
	t.Helper()
	path := filepath.Join(conformanceDir, "tracebacks", "expected.jsonl")
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("conformance corpus not found at %s (CI clones shared/ beside the repository)", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []conformanceSample
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var s conformanceSample
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// readConformanceLines splits a sample on "\n", dropping the empty string
// after the final newline.
func readConformanceLines(t testing.TB, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(conformanceDir, "tracebacks", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// assembleLines pushes lines as one stream (Offset = 1-based line number)
// and flushes at the end.
func assembleLines(lines []string) []Entry {
	a := NewAssembler(Options{})
	var out []Entry
	for i, l := range lines {
		out = append(out, a.Push(Line{Text: l, Source: "test", Offset: int64(i + 1)})...)
	}
	return append(out, a.Flush()...)
}

// span is an assembled entry's boundary with blank edge lines removed.
type span struct {
	first, last int
	e           *Entry
}

func compareSample(s conformanceSample, lines []string, got []Entry) []string {
	blank := func(n int) bool { return strings.TrimSpace(stripANSI(lines[n-1])) == "" }
	var spans []span
	for i := range got {
		f, l := int(got[i].FirstOffset), int(got[i].LastOffset)
		for f <= l && blank(f) {
			f++
		}
		for l >= f && blank(l) {
			l--
		}
		if f <= l {
			spans = append(spans, span{f, l, &got[i]})
		}
	}
	var problems []string
	for _, want := range s.Entries {
		if want.Blank || pythonOnlySamples[s.File] && want.Kind != "python-traceback" {
			continue
		}
		if want.Kind == "other" && want.LastLine > want.FirstLine {
			for _, sp := range spans {
				overlaps := sp.first <= want.LastLine && sp.last >= want.FirstLine
				inside := sp.first >= want.FirstLine && sp.last <= want.LastLine
				if overlaps && !inside {
					problems = append(problems, fmt.Sprintf("entry %d-%d crosses the other block %d-%d", sp.first, sp.last, want.FirstLine, want.LastLine))
				}
			}
			continue
		}
		var match *span
		for i := range spans {
			if spans[i].first == want.FirstLine && spans[i].last == want.LastLine {
				match = &spans[i]
			}
		}
		if match == nil {
			problems = append(problems, fmt.Sprintf("want %s entry %d-%d; got %s", want.Kind, want.FirstLine, want.LastLine, spanList(spans, want.FirstLine, want.LastLine)))
			continue
		}
		if want.Kind != "python-traceback" {
			continue
		}
		wantType, wantMsg := deref(want.ExceptionType), deref(want.ExceptionMessage)
		out := match.e.Traceback.Outermost()
		if out == nil {
			problems = append(problems, fmt.Sprintf("entry %d-%d: no traceback parsed, want %s: %s", want.FirstLine, want.LastLine, wantType, wantMsg))
			continue
		}
		if out.Type != wantType || out.Message != wantMsg {
			problems = append(problems, fmt.Sprintf("entry %d-%d: outermost %q: %q, want %q: %q", want.FirstLine, want.LastLine, out.Type, out.Message, wantType, wantMsg))
		}
	}
	return problems
}

// spanList shows the assembled entries that overlap lines first..last.
func spanList(spans []span, first, last int) string {
	var parts []string
	for _, sp := range spans {
		if sp.first <= last && sp.last >= first {
			parts = append(parts, fmt.Sprintf("%d-%d", sp.first, sp.last))
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
