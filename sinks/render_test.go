package sinks

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestAlertJSONShape(t *testing.T) {
	a := &Alert{
		Fingerprint: "fp1",
		Time:        time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC),
		Count:       1,
		Kind:        "new",
		Record:      Record{ID: "r1", Slug: "s1", Severity: "error"},
		Match:       Match{Text: "a <b> & c"},
		Source:      Source{Path: "/var/log/x.log", Offset: 42},
		Entry:       "a <b> & c",
	}
	b, err := AlertJSON(a)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(string(b), "\n") {
		t.Errorf("AlertJSON ends with a newline")
	}
	if !strings.Contains(string(b), `"a <b> & c"`) {
		t.Errorf("AlertJSON escaped HTML characters: %s", b)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got["schema"] != Schema {
		t.Errorf("schema = %v, want %q", got["schema"], Schema)
	}
	rec := got["record"].(map[string]any)
	for _, k := range []string{"solutions", "preventionTips", "tags"} {
		if diff := cmp.Diff([]any{}, rec[k]); diff != "" {
			t.Errorf("record.%s (-want +got):\n%s", k, diff)
		}
	}
	if diff := cmp.Diff(map[string]any{}, got["match"].(map[string]any)["groups"]); diff != "" {
		t.Errorf("match.groups (-want +got):\n%s", diff)
	}
	if a.Schema != "" || a.Record.Solutions != nil || a.Match.Groups != nil {
		t.Errorf("AlertJSON modified its argument: %+v", a)
	}
	var back Alert
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	want := *a
	want.Schema = Schema
	want.Record.Solutions, want.Record.PreventionTips, want.Record.Tags = []string{}, []string{}, []string{}
	want.Match.Groups = map[string]string{}
	if diff := cmp.Diff(want, back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

// One AlertEncoder renders alert after alert as AlertJSON renders each,
// nothing of one left in the next.
func TestAlertEncoderReused(t *testing.T) {
	full := Alert{
		Fingerprint: "fp1", Time: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), Count: 3, Kind: "new",
		Ranks: []string{"TP0", "TP1"}, Headline: "RuntimeError: x",
		Record: Record{ID: "r1", Slug: "s1", Severity: "error", Solutions: []string{"do y"}, Tags: []string{"cuda"}},
		Match:  Match{Text: "x", Groups: map[string]string{"1": "x"}, Exception: &Exception{Type: "RuntimeError", Message: "x"}},
		Source: Source{Path: "/var/log/x.log", Offset: 42}, Entry: "RuntimeError: x",
	}
	bare := Alert{Fingerprint: "fp2", Kind: "summary", Record: Record{ID: "r2"}}
	var enc AlertEncoder
	for i, a := range []Alert{full, bare, full, bare} {
		want, err := AlertJSON(&a)
		if err != nil {
			t.Fatal(err)
		}
		got, err := enc.Encode(&a)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("alert %d: encoder wrote\n%s\nwant\n%s", i, got, want)
		}
	}
}

func TestTruncateMiddle(t *testing.T) {
	tests := []struct {
		name string
		in   string
		max  int
		want string
	}{
		{"fits", "hello", 5, "hello"},
		{"keeps head and tail", strings.Repeat("a", 50) + strings.Repeat("b", 50), 40, "aaaaaaa\n… [85 bytes cut] …\nbbbbbbbb"},
		{"tiny bound falls back to end cut", "abcdefghijklmnopqrstuvwxyz", 6, "abc…"},
		{"never splits a rune", strings.Repeat("é", 40), 40, "éééé\n… [64 bytes cut] …\néééé"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := TruncateMiddle(tc.in, tc.max)
			if got != tc.want {
				t.Errorf("TruncateMiddle(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
			}
			if len(got) > tc.max {
				t.Errorf("len = %d > max %d", len(got), tc.max)
			}
		})
	}
}

func TestTruncateEnd(t *testing.T) {
	tests := []struct {
		name string
		in   string
		max  int
		want string
	}{
		{"fits", "hello", 5, "hello"},
		{"cut", "hello world", 8, "hello…"},
		{"rune boundary", "日本語テキスト", 10, "日本…"},
		{"smaller than ellipsis", "hello", 2, "he"},
		{"zero", "hello", 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := TruncateEnd(tc.in, tc.max); got != tc.want {
				t.Errorf("TruncateEnd(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
			}
		})
	}
}

func FuzzTruncateMiddle(f *testing.F) {
	f.Add("hello world", 5)
	f.Add(strings.Repeat("é", 100), 37)
	f.Add("Traceback (most recent call last):\n  File \"x.py\", line 1\nRuntimeError: boom", 40)
	f.Add("\xff\xfe\xfd abc \xc3", 4)
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max < 0 || max > 1<<20 {
			return
		}
		got := TruncateMiddle(s, max)
		if len(got) > max && len(s) > max {
			t.Fatalf("len(TruncateMiddle) = %d > max %d", len(got), max)
		}
		if len(s) <= max && got != s {
			t.Fatalf("fitting input changed: %q -> %q", s, got)
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("valid UTF-8 %q became invalid %q", s, got)
		}
		end := TruncateEnd(s, max)
		if len(end) > max || !strings.HasPrefix(s, strings.TrimSuffix(end, "…")) {
			t.Fatalf("TruncateEnd(%q, %d) = %q", s, max, end)
		}
		if utf8.ValidString(s) && !utf8.ValidString(end) {
			t.Fatalf("TruncateEnd made invalid UTF-8: %q", end)
		}
	})
}

func TestTitle(t *testing.T) {
	tests := []struct {
		name string
		a    Alert
		want string
	}{
		{
			name: "record with pod",
			a: Alert{Record: Record{Severity: "critical", Slug: "oom", ErrorMessage: "CUDA out of\nmemory"},
				Source: Source{Pod: "sglang-0", Namespace: "llm"}},
			want: "critical oom: CUDA out of memory (llm/sglang-0)",
		},
		{
			name: "unclassified exception from a file",
			a: Alert{Record: Record{Severity: "error", Slug: "unclassified"},
				Match:  Match{Text: "x", Exception: &Exception{Type: "ValueError", Message: "bad"}},
				Source: Source{Path: "/var/log/sglang.log"}},
			want: "error unclassified: ValueError: bad (/var/log/sglang.log)",
		},
		{
			name: "only matched text",
			a:    Alert{Record: Record{ID: "r9"}, Match: Match{Text: "  boom  "}},
			want: "r9: boom",
		},
		{
			name: "tripped the liveness gate",
			a: Alert{Record: Record{Severity: "critical", Slug: "cuda-illegal-memory-access", ErrorMessage: "CUDA error: an illegal memory access was encountered"},
				Source:   Source{Pod: "sglang-0", Namespace: "llm"},
				Liveness: &Liveness{Reason: LivenessRestart, State: "failing", Action: "probe", MaxRestarts: 3, Window: "1h0m0s"}},
			want: "liveness failed: the server will be restarted: critical cuda-illegal-memory-access: CUDA error: an illegal memory access was encountered (llm/sglang-0)",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Title(&tc.a); got != tc.want {
				t.Errorf("Title = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestNumberedList(t *testing.T) {
	got := NumberedList([]string{"Check the store\nURL", "Restart"})
	want := "1. Check the store URL\n2. Restart"
	if got != want {
		t.Errorf("NumberedList = %q, want %q", got, want)
	}
}

func TestRunbookURL(t *testing.T) {
	tests := []struct {
		name string
		rec  Record
		want string
	}{
		{"github wins", Record{GithubURL: "https://github.com/a/b#L1", Documentation: "https://docs.example/x"}, "https://github.com/a/b#L1"},
		{"documentation link", Record{Documentation: "https://docs.example/x"}, "https://docs.example/x"},
		{"documentation prose is no link", Record{Documentation: "The engine failed to start."}, ""},
		{"not http", Record{GithubURL: "javascript:alert(1)"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := RunbookURL(&Alert{Record: tc.rec}); got != tc.want {
				t.Errorf("RunbookURL = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCompactRanks(t *testing.T) {
	tp := func(ns ...int) []string {
		var out []string
		for _, n := range ns {
			out = append(out, "DP0 TP"+strconv.Itoa(n))
		}
		return out
	}
	tests := []struct {
		name  string
		ranks []string
		want  string
	}{
		{"none", nil, ""},
		{"one", []string{"TP3"}, "TP3"},
		{"a run", tp(0, 1, 2, 3, 4, 5, 6, 7), "DP0 TP0-7"},
		{"a gap", tp(0, 1, 2, 4, 5, 6, 7), "DP0 TP0-2,4-7"},
		{"torch ranks", []string{"rank0", "rank1", "rank3"}, "rank0-1,3"},
		{"different heads apart", []string{"DP0 TP0", "DP1 TP1", "DP0 TP1"}, "DP0 TP0-1, DP1 TP1"},
		{"unparsed kept", []string{"worker", "TP1"}, "TP1, worker"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CompactRanks(tt.ranks); got != tt.want {
				t.Fatalf("CompactRanks(%q) = %q, want %q", tt.ranks, got, tt.want)
			}
		})
	}
}

func TestRunbookFallsBackToKnownIssues(t *testing.T) {
	a := &Alert{Record: Record{Repo: "pytorch/pytorch", ErrorMessage: "CUDA out of memory. Tried to allocate {size} GiB."}}
	u, label := Runbook(a)
	if u != `https://github.com/pytorch/pytorch/issues?q=%22CUDA+out+of+memory.+Tried+to+allocate%22` || label != "Known issues in pytorch/pytorch" {
		t.Fatalf("runbook = %q %q", u, label)
	}
	a.Record.GithubURL = "https://github.com/x/y/blob/main/a.py#L1"
	if u := RunbookURL(a); u != a.Record.GithubURL {
		t.Fatalf("runbook = %q, want the record's githubUrl", u)
	}
	if u := RunbookURL(&Alert{Record: Record{Repo: "not a repo", ErrorMessage: "x"}}); u != "" {
		t.Fatalf("runbook of a bad repo = %q", u)
	}
}

func TestWhatIsTheRealLine(t *testing.T) {
	a := &Alert{Headline: "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3", Record: Record{ErrorMessage: "CUDA out of memory. Tried to allocate {size} GiB."}}
	if got := What(a); got != a.Headline {
		t.Fatalf("What = %q, want the headline", got)
	}
}

func TestAlertJSONCarriesConsequences(t *testing.T) {
	a := &Alert{Kind: "new", FirstRank: "DP0 TP3", Headline: "torch.OutOfMemoryError: CUDA out of memory.",
		Consequences: []Consequence{{ID: "n", Slug: "nccl-watchdog-collective-timeout", Count: 7, Ranks: []string{"rank0"}, Headline: "[Rank 0] Watchdog caught"}}}
	b, err := AlertJSON(a)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	cs, ok := got["consequences"].([]any)
	if !ok || len(cs) != 1 || cs[0].(map[string]any)["slug"] != "nccl-watchdog-collective-timeout" || cs[0].(map[string]any)["count"] != float64(7) {
		t.Fatalf("consequences = %v", got["consequences"])
	}
	if got["firstRank"] != "DP0 TP3" || got["headline"] != a.Headline {
		t.Fatalf("firstRank %v, headline %v", got["firstRank"], got["headline"])
	}
	if then := Then(a); then != "then: nccl-watchdog-collective-timeout ×7 on rank0" {
		t.Fatalf("Then = %q", then)
	}
}
