package matcher

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/logmatch/logmatch/patterns"
)

// fuzzPatterns cover every shape the prefilter treats differently: long and
// short keys, alternations, folded literals, no literal at all (tried on
// every text), newlines, lookarounds and a leading lazy group.
var fuzzPatterns = []string{
	`CUDA out of memory\. Tried to allocate (.+?) GiB`,
	`(.+?) not found in params_dict\.`,
	`NCCL error in: (.+?):(\d+), unhandled (system|cuda) error`,
	`(?i)connection reset by peer`,
	`(?i:Watchdog) caught collective operation timeout`,
	`Prefill batch, #new-seq: (\d+), #new-token: 0`,
	`rank (\d+)`,
	`^Killed$`,
	`first line\n\s+second line`,
	`(timeout|deadline exceeded) after (\d+)s`,
	`abc(?=defg)`,
	`(?<!x)error: (?<msg>.+)`,
	`\d{4}-\d{2}`,
	`Größe (\w+) überschritten`,
	`(['"])quoted\1 value`,
}

func FuzzMatchDifferential(f *testing.F) {
	var recs []patterns.Record
	for i, p := range fuzzPatterns {
		recs = append(recs, patterns.Record{ID: string(rune('a' + i)), MessagePattern: p})
	}
	pre := compileOK(f, recs, Options{MatchTimeout: time.Second, EntryBudget: time.Hour})
	naive := compileOK(f, recs, Options{NoPrefilter: true, MatchTimeout: time.Second, EntryBudget: time.Hour})
	for _, s := range []string{
		"",
		"[2026-05-28 00:11:09 TP0] CUDA out of memory. Tried to allocate 2.00 GiB",
		"model.layers.0.mlp not found in params_dict.",
		"NCCL error in: ../csrc/x.cpp:42, unhandled cuda error",
		"CONNECTION RESET BY PEER",
		"wATCHDOG caught collective operation timeout",
		"Prefill batch, #new-seq: 3, #new-token: 0",
		"Killed\nrank 3",
		"first line\n   second line",
		"deadline exceeded after 30s",
		"abcdefg abc",
		"xerror: no\nerror: yes",
		"Größe x überschritten",
		"'quoted' value \"quoted' value",
		"\xff\xfe CUDA out of memory. Tried to allocate \xef\xbf\xbd GiB",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, gotErrs := pre.Match(Subject{Text: text})
		want, wantErrs := naive.Match(Subject{Text: text})
		if len(gotErrs)+len(wantErrs) > 0 {
			return // a timeout says nothing about the prefilter
		}
		if diff := cmp.Diff(view(want), view(got)); diff != "" {
			t.Errorf("%q: prefiltered hits differ from naive (-naive +prefiltered):\n%s", text, diff)
		}
	})
}

func FuzzExtractLiterals(f *testing.F) {
	for _, p := range fuzzPatterns {
		f.Add(p, "")
	}
	f.Add(`(?i:Out Of) Memory`, "OUT OF Memory")
	f.Add(`ab(cd)+ef|(?i)xyz{2}`, "xYZZ")
	f.Add(`a(?=bc)bcd`, "abcd")
	f.Add(`((aaaa|bbbb)c|dddd)`, "bbbbc")
	f.Add(`x\uFFFDy`, "x\xffy")
	f.Fuzz(func(t *testing.T, pattern, text string) {
		req, err := ExtractLiterals(pattern)
		if err != nil {
			return
		}
		re, err := patterns.Compile(pattern)
		if err != nil {
			t.Fatalf("ExtractLiterals parsed %q but Compile failed: %v", pattern, err)
		}
		re.MatchTimeout = 200 * time.Millisecond
		m, err := re.FindStringMatch(text)
		if err != nil || m == nil {
			return
		}
		start, length := m.ByteRange()
		span := text[start : start+length]
		for _, c := range req {
			found := false
			for _, l := range c {
				found = found || containsLiteral(span, l)
			}
			if !found {
				t.Errorf("pattern %q matched %q but the match holds none of %+v", pattern, span, c)
			}
		}
	})
}

// shortPatterns have literals of 2 to 6 bytes only: enough of them for the
// prefilter's tiny-window pass, with folded, alternated, multi-clause and
// one-byte cases, and three with no literal of two bytes that stay unkeyed.
var shortPatterns = []string{
	`OOM`, `NaN (\d+)`, `rank \d+`, `(?i)err=`, `x=\d+ y=\d+`, `(ab|cd)\d`,
	`^Killed$`, `Größe`, `[Ee]xit \d`, `ü`, `\d+-\d+`, `(?i)nccl`, `é!`,
	`a.b.c`, `\w+:\w+`,
}

func shortMatchers(tb testing.TB) (pre, naive *Matcher) {
	var recs []patterns.Record
	for i, p := range shortPatterns {
		recs = append(recs, patterns.Record{ID: string(rune('a' + i)), MessagePattern: p})
	}
	pre = compileOK(tb, recs, Options{MatchTimeout: time.Second, EntryBudget: time.Hour})
	naive = compileOK(tb, recs, Options{NoPrefilter: true, MatchTimeout: time.Second, EntryBudget: time.Hour})
	return pre, naive
}

// Enough short-literal patterns are keyed on tiny windows instead of being
// tried on every text; what has no literal of two bytes stays unkeyed.
func TestShortLiteralsAreKeyed(t *testing.T) {
	pre, _ := shortMatchers(t)
	var unkeyed []string
	for i, r := range pre.Records() {
		if !pre.Keyed(i) {
			unkeyed = append(unkeyed, r.MessagePattern)
		}
	}
	if diff := cmp.Diff([]string{`\d+-\d+`, `a.b.c`, `\w+:\w+`}, unkeyed); diff != "" {
		t.Errorf("unkeyed patterns (-want +got):\n%s", diff)
	}
}

func FuzzMatchDifferentialShort(f *testing.F) {
	pre, naive := shortMatchers(f)
	for _, s := range []string{
		"", "O", "OOM", "xOOMx", "NaN 3", "nan 3", "rank 7", "ERR=1", "Err=", "x=1 y=2", "y=2 x=1",
		"ab1 cd2", "Killed", "Killed\nrest", "GRÖSSE Größe", "Exit 1 exit 2", "ü", "1-2", "NCCL",
		"é!", "a1b2c", "k:v", "\xff\xfeOOM", "[2026-05-28 00:11:09 TP0] OOM x=1 y=2 rank 3",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, gotErrs := pre.Match(Subject{Text: text})
		want, wantErrs := naive.Match(Subject{Text: text})
		if len(gotErrs)+len(wantErrs) > 0 {
			return // a timeout says nothing about the prefilter
		}
		if diff := cmp.Diff(view(want), view(got)); diff != "" {
			t.Errorf("%q: prefiltered hits differ from naive (-naive +prefiltered):\n%s", text, diff)
		}
	})
}

// FuzzUnmarshalFacts feeds damaged and invented encodings to
// UnmarshalFacts: it must return an error or facts that encode back to
// themselves and that a Compile can use on any records without a panic.
func FuzzUnmarshalFacts(f *testing.F) {
	var recs []patterns.Record
	for i, p := range fuzzPatterns {
		recs = append(recs, patterns.Record{ID: string(rune('a' + i)), MessagePattern: p})
	}
	// Short literals only: enough of them to be keyed on tiny windows.
	var tiny []patterns.Record
	for i, p := range []string{`ab (\d+)`, `cd=(\w+)`, `ef!`, `(gh|ij) \d`, `kl:`, `mn (.+)`, `op\?`, `qr-\d`, `st`, `uv\.`} {
		tiny = append(tiny, patterns.Record{ID: string(rune('A' + i)), MessagePattern: p})
	}
	warned := append([]patterns.Record{{ID: "w", MessagePattern: `Error: (a+)+`}}, recs[:3]...)
	for _, c := range []struct {
		recs []patterns.Record
		opts Options
	}{{recs, Options{}}, {tiny, Options{}}, {warned, Options{Refuse: &patterns.LintOptions{NoProbe: true}}}, {recs, Options{NoPrefilter: true}}} {
		m, _ := Compile(c.recs, c.opts)
		f.Add(encode(f, m.Facts()))
	}
	all := append(append(recs, tiny...), warned[0])
	f.Fuzz(func(t *testing.T, data []byte) {
		facts, err := UnmarshalFacts(data)
		if err != nil {
			return
		}
		b := encode(t, facts)
		again, err := UnmarshalFacts(b)
		if err != nil {
			t.Fatalf("facts that decoded do not decode once encoded again: %v", err)
		}
		if !bytes.Equal(encode(t, again), b) {
			t.Fatal("encoding is not stable")
		}
		for _, o := range []Options{{}, {Refuse: &patterns.LintOptions{NoProbe: true}}} {
			o.Facts = facts
			m, _ := Compile(all, o)
			for _, r := range all {
				m.Match(Subject{Text: r.MessagePattern + " ab cd=x ef! kl: st"})
			}
		}
	})
}

// anchoredPatterns have literals of 2 to 6 bytes, too few of them for the
// tiny-window pass: each stays unkeyed and is searched for the rarest byte
// of one literal first (anchor), with folded, alternated and multi-clause
// cases, and anchor bytes that repeat inside the literal.
var anchoredPatterns = []string{
	`size \d+\.`, `(?i)batch \w+`, `video .*done`, `(?i)x-ray=\d`, `zz(z|q)!`, `(ab|cd)yy`, `a.b.c`,
	`[0-9]{4}`,
}

func anchoredMatchers(tb testing.TB) (pre, naive *Matcher) {
	var recs []patterns.Record
	for i, p := range anchoredPatterns {
		recs = append(recs, patterns.Record{ID: string(rune('a' + i)), MessagePattern: p})
	}
	pre = compileOK(tb, recs, Options{MatchTimeout: time.Second, EntryBudget: time.Hour})
	naive = compileOK(tb, recs, Options{NoPrefilter: true, MatchTimeout: time.Second, EntryBudget: time.Hour})
	return pre, naive
}

// The anchored patterns are unkeyed and, but for the one without a
// literal, anchored on a literal of their own.
func TestUnkeyedRecordsAreAnchored(t *testing.T) {
	pre, _ := anchoredMatchers(t)
	p := pre.pf
	if len(p.always) != len(anchoredPatterns) {
		t.Fatalf("%d unkeyed records, want all %d", len(p.always), len(anchoredPatterns))
	}
	var got []string
	for i, a := range p.anchors {
		if a.clause < 0 {
			got = append(got, anchoredPatterns[p.always[i]]+": none")
			continue
		}
		tri := "no triple"
		if a.tclause >= 0 {
			tri = fmt.Sprintf("triple %q", a.tlit.Text[a.tri:a.tri+3])
		}
		got = append(got, fmt.Sprintf("%s: %q at %d, %s", anchoredPatterns[p.always[i]], a.lit.Text, a.at, tri))
	}
	want := []string{
		`size \d+\.: "size " at 2, triple "ze "`, `(?i)batch \w+: "batch " at 5, no triple`, `video .*done: "video " at 0, triple "vid"`,
		`(?i)x-ray=\d: "x-ray=" at 5, no triple`, `zz(z|q)!: "!" at 0, no triple`, `(ab|cd)yy: "yy" at 0, no triple`, `a.b.c: "b" at 0, no triple`, `[0-9]{4}: none`,
	}
	var sets []string
	for _, set := range p.anchorSets {
		sets = append(sets, fmt.Sprintf("%d %s", set.n, set.tab.String()))
	}
	if diff := cmp.Diff([]string{`2 "ze  vid ze  ze  ze  "`}, sets); diff != "" {
		t.Errorf("anchor sets (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("anchors (-want +got):\n%s", diff)
	}
}

func FuzzMatchDifferentialAnchored(f *testing.F) {
	pre, naive := anchoredMatchers(f)
	for _, s := range []string{
		"", "z", "size 1.", "sizesize 12.", "ssize 3.", "size", "size 4", "x size 5. y", "BATCH x", "Batch",
		"batch\tx", "video is done", "videovideo done", "X-RAY=1", "x-ray=", "x-Ray=9 x-ray=",
		"zzz!", "zzq!", "zz!", "zzzz!", "abyy", "cdyy", "ayy", "a1b2c", "!!!zzq!", "12345", "abc 2026",
		"[2026-05-28 00:11:09 TP0] Prefill batch, #new-seq: 1, size 3.",
		// Long enough for the anchors' search by pairs: the pairs at both
		// ends, in the last chunk read, found and not.
		"[2026-05-28 00:11:09 TP0] Decode batch, #running-req: 12, size 3.",
		"size 4. [2026-05-28 00:11:09 TP0] Decode batch, #running-req: 12",
		"[2026-05-28 00:11:09 TP0] Decode batch, #running-req: 12,xxyy",
		"[2026-05-28 00:11:09 TP0] video is done, X-RAY=7, sizesiz size",
		"ze ze ze ze ze ze ze ze ze ze ze ze eo eo eo yy -r size 9.",
		"0123456789012345678901234567890abyy", "0123456789012345678901234567890a.b.c",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		want, wantErrs := naive.Match(Subject{Text: text})
		for _, pairs := range []bool{false, true} {
			var got []Hit
			var gotErrs []PatternError
			withTriples(pairs && haveIndexTriples, func() { got, gotErrs = pre.Match(Subject{Text: text}) })
			if len(gotErrs)+len(wantErrs) > 0 {
				return // a timeout says nothing about the prefilter
			}
			if diff := cmp.Diff(view(want), view(got)); diff != "" {
				t.Errorf("%q (pairs %v): prefiltered hits differ from naive (-naive +prefiltered):\n%s", text, pairs, diff)
			}
		}
	})
}
