package entry

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenRef is the reference time of the golden runs: legacy, diffusion,
// glog and c10d headers take their year (and day) from it.
var goldenRef = time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)

// goldenEntry is the reviewable form of an Entry.
type goldenEntry struct {
	Lines     string   `json:"lines"`
	Format    Format   `json:"format,omitempty"`
	Native    string   `json:"native,omitempty"`
	Level     string   `json:"level,omitempty"`
	Time      string   `json:"time,omitempty"`
	Inherited bool     `json:"timeInherited,omitempty"`
	Ranks     string   `json:"ranks,omitempty"`
	Prefix    string   `json:"prefix,omitempty"`
	Message   string   `json:"message,omitempty"`
	Text      string   `json:"text,omitempty"`
	Chain     []string `json:"chain,omitempty"`
	Frames    int      `json:"frames,omitempty"`
	CutLines  int      `json:"cutLines,omitempty"`
	CutBytes  int      `json:"cutBytes,omitempty"`
	NumLines  int      `json:"numLines"`
	Traceback bool     `json:"traceback,omitempty"`
	Bare      bool     `json:"bare,omitempty"`
}

func toGolden(e Entry) goldenEntry {
	g := goldenEntry{
		Lines:  fmt.Sprintf("%d-%d", e.FirstOffset, e.LastOffset),
		Format: e.Format, Native: e.Native, Level: e.Level,
		Ranks: e.Ranks.String(), Prefix: e.Prefix, Message: e.Message,
		CutLines: e.Cut.Lines, CutBytes: e.Cut.Bytes, NumLines: e.Lines,
	}
	if e.Text != e.Message {
		g.Text = e.Text
	}
	if !e.Time.IsZero() {
		g.Time = e.Time.Format(time.RFC3339Nano)
		g.Inherited = e.TimeInherited
	}
	if e.Traceback != nil {
		g.Traceback, g.Bare = true, e.Traceback.Bare
		for _, l := range e.Traceback.Links {
			s := l.Type
			if l.Message != "" {
				s += ": " + l.Message
			}
			if l.Separator != "" {
				s = "(" + l.Separator + ") " + s
			}
			if l.Group {
				s = "[group] " + s
			}
			g.Chain = append(g.Chain, s)
			g.Frames += len(l.Frames)
		}
	}
	return g
}

// TestGolden assembles each testdata/golden/*.log (hand-written from the
// shapes in SGLANG-LOGS.md) and compares with its .json. Run with -update to
// rewrite the .json files, then review the diff.
func TestGolden(t *testing.T) {
	logs, err := filepath.Glob(filepath.Join("testdata", "golden", "*.log"))
	if err != nil {
		t.Fatal(err)
	}
	if len(logs) == 0 {
		t.Fatal("no golden inputs")
	}
	for _, path := range logs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			a := NewAssembler(Options{Reference: goldenRef})
			var got []goldenEntry
			lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			for i, l := range lines {
				for _, e := range a.Push(Line{Text: l, Source: path, Offset: int64(i + 1)}) {
					got = append(got, toGolden(e))
				}
			}
			for _, e := range a.Flush() {
				got = append(got, toGolden(e))
			}
			checkAllLines(t, got, len(lines))
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(got); err != nil {
				t.Fatal(err)
			}
			goldenPath := strings.TrimSuffix(path, ".log") + ".json"
			if *update {
				if err := os.WriteFile(goldenPath, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(goldenPath)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGolden -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), buf.String()); diff != "" {
				t.Errorf("%s mismatch (-want +got):\n%s", goldenPath, diff)
			}
		})
	}
}

// checkAllLines asserts that the entries cover 1..n in order without gaps.
func checkAllLines(t *testing.T, got []goldenEntry, n int) {
	t.Helper()
	next, sum := 1, 0
	for _, g := range got {
		var first, last int
		if _, err := fmt.Sscanf(g.Lines, "%d-%d", &first, &last); err != nil {
			t.Fatal(err)
		}
		if first != next || last < first || g.NumLines != last-first+1 {
			t.Errorf("entry %s (numLines %d) does not follow line %d", g.Lines, g.NumLines, next-1)
		}
		next = last + 1
		sum += g.NumLines
	}
	if sum != n {
		t.Errorf("entries hold %d lines, pushed %d", sum, n)
	}
}
