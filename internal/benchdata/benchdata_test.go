package benchdata

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFill(t *testing.T) {
	tests := []struct {
		name, template, want string
	}{
		{"no placeholder", "Interrupted by signal", "Interrupted by signal"},
		{"one", "Interrupted by signal {signum}", "Interrupted by signal 42"},
		{"expressions", "tp_size={self.tp_size}, got {len(x)!r:>4}", "tp_size=42, got 42"},
		{"adjacent", "{a}{b}", "4242"},
		{"unclosed brace kept", "dict {a: 1", "dict {a: 1"},
		{"doubled brace keeps the outer", "literal {{x}} here", "literal {42} here"},
		{"empty field", "value {}", "value 42"},
		{"a set printed as text", "page_size in {32, 64}, got {page_size}.", "page_size in {32, 64}, got 42."},
		{"a dict printed as text", `e.g. {"1": {"steps": [1,3]}}. Got {keys}`, `e.g. {"1": {"steps": [1,3]}}. Got 42`},
		{"format spec", "took {elapsed:.2f}s", "took 42s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Fill(tc.template, "42"); got != tc.want {
				t.Errorf("Fill(%q) = %q, want %q", tc.template, got, tc.want)
			}
		})
	}
}

func FuzzFill(f *testing.F) {
	for _, s := range []string{"", "a {b} c", "{", "}", "{{}}", "{a{b}c}", "x {y} {z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, template string) {
		got := Fill(template, "VALUE")
		if !strings.Contains(template, "{") && got != template {
			t.Errorf("Fill(%q) = %q, want it unchanged: no field", template, got)
		}
		// Each replaced field is at least "{}" and becomes "VALUE".
		if max := len(template) + 3*strings.Count(template, "{"); len(got) > max {
			t.Errorf("Fill(%q) = %q: %d bytes, more than the %d fields allow", template, got, len(got), max)
		}
		if strings.Count(got, "}") > strings.Count(template, "}") {
			t.Errorf("Fill(%q) = %q added a closing brace", template, got)
		}
	})
}

func TestDeterministic(t *testing.T) {
	cfg := Config{Seed: 3, ErrorRate: 0.1, ErrorMessages: []string{"boom {x}"}}
	a, b := New(cfg).Lines(500), New(cfg).Lines(500)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two generators with one seed differ (-first +second):\n%s", diff)
	}
	if c := New(Config{Seed: 4, ErrorRate: 0.1, ErrorMessages: cfg.ErrorMessages}).Lines(500); cmp.Equal(a, c) {
		t.Error("seeds 3 and 4 gave the same lines")
	}
}

func TestLineShapes(t *testing.T) {
	header := regexp.MustCompile(`^\[2026-05-\d\d \d\d:\d\d:\d\d(\.\d{3})?( (DP|TP|EP)\d+)*\] `)
	lines := New(Config{Seed: 1, ErrorRate: 0.01, ErrorMessages: []string{"Tried to allocate {n} bytes"}}).Lines(20000)
	counts := map[string]int{}
	for _, l := range lines {
		switch {
		case strings.Contains(l, "Tried to allocate 42 bytes"):
			counts["error"]++
			continue
		case strings.Contains(l, "Prefill batch, #new-seq: "):
			counts["prefill"]++
		case strings.Contains(l, "Decode batch, #running-req: "):
			counts["decode"]++
		case strings.Contains(l, "INFO:     "):
			counts["access"]++
		default:
			counts["misc"]++
		}
		if !header.MatchString(l) {
			t.Fatalf("line without an sglang header: %q", l)
		}
		if strings.ContainsAny(l, "\n{}") && !strings.Contains(l, "obj=") {
			t.Fatalf("line with a newline or an unfilled field: %q", l)
		}
	}
	// 1% of 20,000 is 200 expected error lines; the bounds are wide
	// enough for any seed and narrow enough to catch a wrong rate.
	if counts["error"] < 120 || counts["error"] > 300 {
		t.Errorf("%d error lines in 20000 at rate 0.01", counts["error"])
	}
	if counts["prefill"] < 5000 || counts["decode"] < 8000 || counts["access"] < 2000 || counts["misc"] < 500 {
		t.Errorf("line mix %v, want about 30%% prefill, 50%% decode, 15%% access, 5%% misc", counts)
	}
}

func TestNoErrorsWithoutMessages(t *testing.T) {
	for _, l := range New(Config{Seed: 1, ErrorRate: 1}).Lines(100) {
		if strings.HasPrefix(l, "RuntimeError") {
			t.Fatalf("error line %q without error messages", l)
		}
	}
}
