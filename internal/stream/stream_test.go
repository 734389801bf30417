package stream

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

var (
	once sync.Once
	def  *matcher.Matcher
)

func defaultMatcher(t *testing.T) *matcher.Matcher {
	t.Helper()
	once.Do(func() {
		recs, _ := patterns.Default()
		def, _ = matcher.Compile(recs, matcher.Options{})
	})
	return def
}

// push feeds text to s line by line, offsets counting bytes as a file's
// would, and returns the entries' first lines with the line number each
// was reported at.
func push(s *Stream, text string) (got []string, lines []int64) {
	off := int64(0)
	take := func(es []entry.Entry) {
		for i := range es {
			got = append(got, strings.SplitN(es[i].Text, "\n", 2)[0])
			lines = append(lines, s.Line())
		}
	}
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		take(s.Push(&entry.Line{Text: strings.TrimSuffix(l, "\n"), Offset: off}))
		off += int64(len(l))
	}
	take(s.Flush())
	return got, lines
}

// The resume bookkeeping: PendingFirst is where the pending entry began,
// Line the line number of the entries just completed, and a Restart
// forgets the old content's offsets.
func TestStreamBookkeeping(t *testing.T) {
	s := New("stderr", entry.Options{})
	if s.PendingFirst() != -1 || s.LastOffset() != -1 || s.Name() != "stderr" {
		t.Fatalf("new stream: first %d last %d name %q", s.PendingFirst(), s.LastOffset(), s.Name())
	}
	lines := []string{
		"[2026-05-28 00:00:00] one",
		"Traceback (most recent call last):",
		"  File \"/app/x.py\", line 1, in <module>",
		"ValueError: bad",
		"[2026-05-28 00:00:01] two",
	}
	off := int64(0)
	var firsts []int64
	for _, l := range lines {
		s.Push(&entry.Line{Text: l, Offset: off})
		firsts = append(firsts, s.PendingFirst())
		off += int64(len(l)) + 1
	}
	if s.LastOffset() != off-int64(len(lines[4]))-1 {
		t.Errorf("LastOffset = %d", s.LastOffset())
	}
	if !s.Pending() || s.PendingFirst() != off-int64(len(lines[4]))-1 {
		t.Errorf("pending entry begins at %d, want the last line's offset; firsts %v", s.PendingFirst(), firsts)
	}
	es := s.Flush()
	if len(es) != 1 || s.PendingFirst() != -1 || s.Pending() {
		t.Fatalf("flush: %d entries, first %d", len(es), s.PendingFirst())
	}
	s.Restart()
	if s.LastOffset() != -1 {
		t.Errorf("LastOffset after Restart = %d", s.LastOffset())
	}
}

func TestStreamLineNumbers(t *testing.T) {
	s := New("", entry.Options{})
	got, lines := push(s, "[2026-05-28 00:00:00] a\n[2026-05-28 00:00:01] b\nTraceback (most recent call last):\n  File \"/x.py\", line 1, in f\nKeyError: 'k'\n[2026-05-28 00:00:02] c\n")
	want := []int64{1, 2, 6} // the traceback belongs to b's entry
	if len(lines) != len(want) {
		t.Fatalf("entries %q at %v, want lines %v", got, lines, want)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("entry %q at line %d, want %d", got[i], lines[i], want[i])
		}
	}
}

func TestSetKeepsNameOrder(t *testing.T) {
	set := NewSet(entry.Options{})
	for _, n := range []string{"stdout", "stderr", "", "stderr"} {
		set.Get(n)
	}
	var names []string
	for _, s := range set.All() {
		names = append(names, s.Name())
	}
	if strings.Join(names, ",") != ",stderr,stdout" {
		t.Errorf("streams %q, want \"\", stderr, stdout", names)
	}
}

// An entry stamped ahead of the shell's clock reaches the caller set back
// to the clock's second, marked Ahead; others are untouched.
func TestShellBoundsLogTime(t *testing.T) {
	now := time.Date(2026, 12, 4, 10, 0, 0, 500_000_000, time.UTC)
	sh := NewShell(defaultMatcher(t), func() time.Time { return now })
	s := New("", entry.Options{})
	var got []Entry
	take := func(de *Entry) {
		got = append(got, Entry{Ahead: de.Ahead, Failure: de.Failure, Entry: &entry.Entry{Time: de.Entry.Time}})
	}
	for _, l := range []string{
		"[2026-12-04 09:59:59 TP0] Decode batch, #running-req: 1",
		"[2026-12-04 11:00:00 TP0] RuntimeError: CUDA error: an illegal memory access was encountered",
	} {
		sh.Diagnose(s, s.Push(&entry.Line{Text: l}), take)
	}
	sh.Diagnose(s, s.Flush(), take)
	if len(got) != 2 {
		t.Fatalf("%d entries, want 2", len(got))
	}
	if got[0].Ahead || !got[0].Entry.Time.Equal(time.Date(2026, 12, 4, 9, 59, 59, 0, time.UTC)) {
		t.Errorf("entry in the past: %+v", got[0])
	}
	if !got[1].Ahead || !got[1].Failure || !got[1].Entry.Time.Equal(now.Truncate(time.Second)) {
		t.Errorf("entry an hour ahead: ahead %v failure %v time %s, want set back to %s", got[1].Ahead, got[1].Failure, got[1].Entry.Time, now.Truncate(time.Second))
	}
}

// Ranks interleaved line by line behind torchrun's prefix are read apart:
// each rank's traceback is one entry; a line of no rank that opens a
// record of its own ends every rank's pending entry; the rest of a
// wrapped line of no prefix goes on with the line before it; the earliest
// pending entry is where a restart resumes.
func TestStreamRanksInterleaved(t *testing.T) {
	var b strings.Builder
	for _, l := range []string{
		"Traceback (most recent call last):",
		`  File "/sgl/scheduler.py", line 1, in run`,
		"    run()",
		"RuntimeError: boom",
	} {
		for _, r := range []string{"0", "1"} {
			b.WriteString("[rank" + r + "]:" + l + "\n")
		}
	}
	b.WriteString("[2026-05-28 00:00:01] The server is fired up and ready to roll!\n")
	s := New("stderr", entry.Options{})
	got, _ := push(s, b.String())
	want := []string{"Traceback (most recent call last):", "Traceback (most recent call last):", "The server is fired up and ready to roll!"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("entries %q, want %q", got, want)
	}

	s = New("stderr", entry.Options{})
	var lines []string
	off := int64(0)
	for _, l := range []string{"[rank0]:Traceback (most recent call last):", "[rank1]:Traceback (most recent call last):", "[rank0]:  File \"/sgl/x.py\", line 1, in f"} {
		for _, e := range s.Push(&entry.Line{Text: l, Offset: off}) {
			lines = append(lines, e.Text)
		}
		off += int64(len(l) + 1)
	}
	if len(lines) != 0 || s.PendingFirst() != 0 || !s.Pending() {
		t.Errorf("two ranks pending: emitted %q, pending first %d, want none and 0", lines, s.PendingFirst())
	}
	es := s.Flush()
	if len(es) != 2 || es[0].FirstOffset != 0 || !strings.Contains(es[0].Text, "x.py") || s.PendingFirst() != -1 {
		t.Errorf("flush: %d entries, want rank 0's traceback with its frame first", len(es))
	}
}

// Two ranks' tracebacks interleaved line by line are read apart behind
// any wrapper in front of torchrun's prefix (a launcher's tag, a
// collector's bracketed time, a grep's line number, a colour code, a
// progress bar's carriage return) and behind a launcher's own rank prefix
// around the ranks' ("[rank3]: [rank0]: "), where a line behind the outer
// prefix alone (the rest of a wrapped line) goes on with the line before.
func TestStreamRanksBehindWrappers(t *testing.T) {
	for name, wrap := range map[string]func(n int, s string) string{
		"mpirun":   func(_ int, s string) string { return "[1,3]<stderr>:" + s },
		"stamp":    func(n int, s string) string { return fmt.Sprintf("[2026-05-28T00:11:%02d.000Z] %s", n, s) },
		"grep":     func(n int, s string) string { return fmt.Sprintf("%d:%s", 1812+n, s) },
		"colour":   func(_ int, s string) string { return "\x1b[0;33m" + s + "\x1b[0m" },
		"cr":       func(_ int, s string) string { return "\r" + s },
		"launcher": func(_ int, s string) string { return "[rank3]: " + s },
	} {
		var b strings.Builder
		n := 0
		line := func(s string) {
			b.WriteString(wrap(n, s) + "\n")
			n++
		}
		for _, l := range []string{
			"Traceback (most recent call last):",
			`  File "/sgl/scheduler.py", line 1, in run_@`,
			"    run()",
			"RuntimeError: boom in @",
		} {
			for _, r := range []string{"0", "1"} {
				line("[rank" + r + "]: " + strings.ReplaceAll(l, "@", "r"+r))
			}
		}
		if name == "launcher" {
			// A line behind the launcher's prefix alone (the rest of
			// a wrapped line) goes on with the line before: it opens
			// no rank of its own.
			line("and more of it")
		}
		s := New("stderr", entry.Options{})
		var tbs []string
		for _, e := range pushEntries(s, b.String()) {
			if strings.Contains(e, "Traceback") {
				tbs = append(tbs, e)
			}
		}
		if len(tbs) != 2 {
			t.Errorf("%s: %d tracebacks, want one per rank: %q", name, len(tbs), tbs)
			continue
		}
		for i, tb := range tbs {
			r, other := fmt.Sprintf("r%d", i), fmt.Sprintf("r%d", 1-i)
			if !strings.Contains(tb, "run_"+r) || !strings.Contains(tb, "boom in "+r) || strings.Contains(tb, other) {
				t.Errorf("%s: rank %d's traceback %q, want its own lines only", name, i, tb)
			}
		}
		if len(s.parts) != 2 {
			t.Errorf("%s: %d assemblers, want one per rank", name, len(s.parts))
		}
	}
}

// The engine is told by one rank's lines: ranks interleaving copies of
// the same lines decide what one copy decides (N copies of a weak sign
// are no stronger than one).
func TestStreamEngineFromOneRank(t *testing.T) {
	lines := []string{
		"INFO 11-26 14:23:34 weight_utils.py:243] Using model weights format ['*.safetensors']",
		"INFO 11-26 14:23:35 weight_utils.py:288] No model.safetensors.index.json found in remote.",
		"[2024-11-26 14:25:58] Initialization failed. warmup error: Traceback (most recent call last):",
	}
	one := New("", entry.Options{})
	pushEntries(one, strings.Join(lines, "\n")+"\n")
	for _, n := range []int{2, 4} {
		var b strings.Builder
		for _, l := range lines {
			for k := range n {
				fmt.Fprintf(&b, "[rank%d]:%s\n", k, l)
			}
		}
		s := New("", entry.Options{})
		pushEntries(s, b.String())
		if s.Engine() != one.Engine() {
			t.Errorf("%d ranks: engine %q, want one copy's %q", n, s.Engine(), one.Engine())
		}
	}
}

// pushEntries is push's entries' whole texts.
func pushEntries(s *Stream, text string) []string {
	var got []string
	off := int64(0)
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		for _, e := range s.Push(&entry.Line{Text: strings.TrimSuffix(l, "\n"), Offset: off}) {
			got = append(got, e.Text)
		}
		off += int64(len(l))
	}
	for _, e := range s.Flush() {
		got = append(got, e.Text)
	}
	return got
}

func TestRankOf(t *testing.T) {
	for in, want := range map[string]string{
		"[rank3]:x":                           "3",
		"2025-11-06T02:10:00Z [rank12]: x":    "12",
		"[rank]: x":                           "",
		"see [rank3]:x":                       "3",
		"the word[rank3]:x":                   "",
		"[2025-01-01 00:00:00] x [rank3]:y":   "3",
		"[1,3]<stderr>:[rank4]: x":            "4",
		"1812:[rank5]:x":                      "5",
		"\x1b[33m[rank6]: x":                  "6",
		"\x1bm[rank6]: x":                     "",
		"\r[rank7]:x":                         "7",
		"[rank3]: [rank10]: x":                "10",
		"[rank3]:[rank10]:[rank11]: x":        "11",
		"[rank3]: [rank]: x":                  "3",
		strings.Repeat("x ", 60) + "[rank3]:": "",
	} {
		if got, _ := rankOf(in); got != want {
			t.Errorf("rankOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzRankOf checks that a rank read is digits that follow "[rank" in the
// line's head.
func FuzzRankOf(f *testing.F) {
	f.Add("[rank3]:x")
	f.Add("2025-11-06T02:10:00Z [rank12]: x")
	f.Add("[rank3]: [rank10]: x")
	f.Add("\x1b[1;33m[rank2]:x")
	f.Fuzz(func(t *testing.T, s string) {
		r, outer := rankOf(s)
		if r == "" {
			if outer != "" {
				t.Fatalf("rankOf(%q) = %q, outer %q", s, r, outer)
			}
			return
		}
		for _, d := range []string{r, outer} {
			if strings.Trim(d, "0123456789") != "" || d != "" && !strings.Contains(s, "[rank"+d+"]:") {
				t.Fatalf("rankOf(%q) = %q, outer %q", s, r, outer)
			}
		}
	})
}

// PendingSince is when the line that began the pending entry was pushed:
// kept through the entry's continuation lines, moved by the line that
// begins the next entry, zero once nothing is pending; a Set reports its
// oldest.
func TestStreamPendingSince(t *testing.T) {
	t0 := time.Date(2026, 5, 28, 0, 0, 0, 0, time.UTC)
	set := NewSet(entry.Options{})
	s, other := set.Get("stderr"), set.Get("stdout")
	lines := []string{
		"Traceback (most recent call last):",
		"  File \"/app/x.py\", line 1, in <module>",
		"ValueError: bad",
		"[2026-05-28 00:00:01] two",
	}
	want := []time.Time{t0, t0, t0, t0.Add(3 * time.Second)}
	off := int64(0)
	for i, l := range lines {
		s.PushAt(&entry.Line{Text: l, Offset: off}, t0.Add(time.Duration(i)*time.Second))
		off += int64(len(l)) + 1
		if got := s.PendingSince(); !got.Equal(want[i]) {
			t.Errorf("after line %d: PendingSince %v, want %v", i, got, want[i])
		}
	}
	other.PushAt(&entry.Line{Text: "[2026-05-28 00:00:00] one"}, t0.Add(time.Second))
	if got := set.PendingSince(); !got.Equal(t0.Add(time.Second)) {
		t.Errorf("set: PendingSince %v, want the oldest pending entry's %v", got, t0.Add(time.Second))
	}
	s.Flush()
	other.Flush()
	if !s.PendingSince().IsZero() || !set.PendingSince().IsZero() {
		t.Errorf("after Flush: PendingSince %v, set %v, want zero", s.PendingSince(), set.PendingSince())
	}
}

// With ranks read apart, PendingSince is the earliest pending entry's.
func TestStreamPendingSinceRanks(t *testing.T) {
	t0 := time.Date(2026, 5, 28, 0, 0, 0, 0, time.UTC)
	s := New("stderr", entry.Options{})
	s.PushAt(&entry.Line{Text: "[rank0]:Traceback (most recent call last):", Offset: 0}, t0)
	s.PushAt(&entry.Line{Text: "[rank1]:Traceback (most recent call last):", Offset: 44}, t0.Add(time.Second))
	s.PushAt(&entry.Line{Text: "[rank1]:  File \"/x.py\", line 1, in f", Offset: 88}, t0.Add(2*time.Second))
	if got := s.PendingSince(); !got.Equal(t0) {
		t.Errorf("PendingSince %v, want rank 0's %v", got, t0)
	}
	s.Flush()
	if !s.PendingSince().IsZero() {
		t.Errorf("after Flush: PendingSince %v, want zero", s.PendingSince())
	}
}
