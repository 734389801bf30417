package pipeline

import (
	"encoding/json"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/internal/state"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
	"github.com/logmatch/logmatch/sinks/stdout"
	"github.com/logmatch/logmatch/sinks/webhook"
)

// criLine is one line of a CRI file as the tailer delivers it.
type criLine struct {
	stream string
	text   string
}

func newTestProcessor(t testing.TB, store *state.Store) *processor {
	t.Helper()
	recs := []patterns.Record{
		{ID: "tb", Slug: "runtime", MessagePattern: `RuntimeError: boom`, ErrorClass: "RuntimeError", Severity: patterns.SeverityError},
		{ID: "out", Slug: "stdout-failure", MessagePattern: `stdout failure #\d+`, Severity: patterns.SeverityError},
	}
	m, probs := matcher.Compile(recs, matcher.Options{})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	var mp atomic.Pointer[matcher.Matcher]
	mp.Store(m)
	cps, err := store.Files()
	if err != nil {
		t.Fatal(err)
	}
	restored := restoredByKey(cps)
	return newProcessor(&processor{
		log:      slog.New(slog.DiscardHandler),
		store:    store,
		matcher:  &mp,
		grouper:  incident.New(incident.Options{Window: 0}),
		sinks:    []*builtSink{{name: "stdout", kind: "stdout", sink: stdout.New(nil)}},
		idle:     time.Hour,
		now:      func() time.Time { return time.Date(2026, 5, 28, 0, 0, 0, 0, time.UTC) },
		restored: restored,
	})
}

// feed delivers lines with offsets as a tailer would: each line's Offset
// is its start, Next the end of everything delivered.
func feed(p *processor, id source.FileID, lines []criLine, from int) {
	off := int64(0)
	for i, l := range lines {
		n := int64(len(l.text) + 1)
		if i >= from {
			sl := source.Line{Path: "/var/log/pods/ns_pod_uid/c/0.log", File: id, Next: off + n}
			sl.Text, sl.Stream, sl.Offset, sl.Source = l.text, l.stream, off, "/var/log/pods/ns_pod_uid/c/0.log"
			p.line(sl)
		}
		off += n
	}
}

func queued(t *testing.T, store *state.Store) []string {
	t.Helper()
	items, _, err := store.Peek("stdout", 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, it := range items {
		var a struct {
			Record struct{ ID string }
			Match  struct{ Text string }
		}
		if err := json.Unmarshal(it.Payload, &a); err != nil {
			t.Fatal(err)
		}
		out = append(out, a.Record.ID+": "+a.Match.Text)
	}
	return out
}

// A crash while a stderr traceback is still being assembled: the
// checkpoint resumes at the traceback's first line, and after the restart
// the traceback is alerted once while the stdout entries read again are
// not alerted twice.
func TestCheckpointResumesPendingEntryWithoutRepeats(t *testing.T) {
	dir := t.TempDir()
	lines := []criLine{
		{"stderr", "[2026-05-28 00:11:09 TP0] Scheduler hit an exception: Traceback (most recent call last):"},
		{"stdout", "stdout failure #1"},
		{"stderr", `  File "/sgl/scheduler.py", line 10, in run`},
		{"stdout", "stdout failure #2"},
		{"stderr", "RuntimeError: boom"},
		{"stdout", "stdout failure #3"},
	}
	id := source.FileID{Dev: 1, Ino: 42, Size: 10, Sum: [16]byte{1, 2, 3}}

	store, err := state.Open(dir, state.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := newTestProcessor(t, store)
	// The first run reads up to the frame line and the second stdout line,
	// then "crashes" after a commit.
	feed(p, id, lines[:4], 0)
	if _, err := p.commit(); err != nil {
		t.Fatal(err)
	}
	before := queued(t, store)
	cps, err := store.Files()
	if err != nil || len(cps) != 1 {
		t.Fatalf("checkpoints = %v, %v", cps, err)
	}
	if cps[0].Offset != 0 {
		t.Fatalf("resume offset = %d, want 0: the pending traceback's first line", cps[0].Offset)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}

	store, err = state.Open(dir, state.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	p = newTestProcessor(t, store)
	feed(p, id, lines, int(cps[0].Offset))
	p.flushAll()
	if _, err := p.commit(); err != nil {
		t.Fatal(err)
	}
	got := queued(t, store)
	want := []string{
		"out: stdout failure #1",
		"out: stdout failure #2",
		"out: stdout failure #3",
		"tb: RuntimeError: boom",
	}
	if len(before) != 1 || before[0] != want[0] {
		t.Fatalf("first run queued %v, want only %q (#2 still pending in its stream)", before, want[0])
	}
	if !sameSet(got, want) {
		t.Fatalf("queued after restart = %v, want each of %v once", got, want)
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[string]int{}
	for _, s := range a {
		count[s]++
	}
	for _, s := range b {
		count[s]--
	}
	for _, c := range count {
		if c != 0 {
			return false
		}
	}
	return true
}

// The tailer marks the first line after a truncation (copytruncate: the
// first bytes, and so the identity, stay): the old content's emitted marks
// must not hide the new content.
func TestTruncationForgetsEmittedMarks(t *testing.T) {
	store, err := state.Open(t.TempDir(), state.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	p := newTestProcessor(t, store)
	id := source.FileID{Dev: 1, Ino: 7, Size: 10, Sum: [16]byte{9}}
	first := []criLine{{"", "stdout failure #1"}, {"", "stdout failure #2"}, {"", "stdout failure #3"}}
	feed(p, id, first, 0)
	p.files[id.Key()].restored = &state.Checkpoint{Emitted: map[string]int64{"": 1000}}
	feedLines(p, "/var/log/pods/ns_pod_uid/c/0.log", id, []string{"stdout failure #4", "stdout failure #5"}, 0, true)
	p.flushAll()
	if _, err := p.commit(); err != nil {
		t.Fatal(err)
	}
	got := queued(t, store)
	if len(got) != 5 {
		t.Fatalf("queued %v, want all five failures", got)
	}
}

// fakeTailer resumes a file as the tailer does: from a checkpoint's offset
// when the file has the checkpoint's identity, else from its start.
func fakeTailerStart(t *testing.T, store *state.Store, path string, id source.FileID) int64 {
	t.Helper()
	cps, err := store.Files()
	if err != nil {
		t.Fatal(err)
	}
	cp, ok := state.ByPath(cps).Lookup(path)
	if ok && cp.File == id {
		return cp.Offset
	}
	return 0
}

// feedFrom delivers the lines of one content of a plain file from offset
// from, as the tailer reports them: with the content's identity.
func feedFrom(p *processor, path string, id source.FileID, texts []string, from int64) {
	feedLines(p, path, id, texts, from, false)
}

// feedNewContent delivers the lines of new content at a followed file (a
// truncation, a rewrite in place) as the tailer reports them: its first
// line marked NewContent.
func feedNewContent(p *processor, path string, id source.FileID, texts []string) {
	feedLines(p, path, id, texts, 0, true)
}

func feedLines(p *processor, path string, id source.FileID, texts []string, from int64, newContent bool) {
	off := int64(0)
	for _, text := range texts {
		n := int64(len(text) + 1)
		if off >= from {
			sl := source.Line{Path: path, File: id, Next: off + n, End: off + n, NewContent: newContent}
			sl.Text, sl.Offset, sl.Source = text, off, path
			p.line(sl)
			newContent = false
		}
		off += n
	}
}

// Truncation and rewrite, then a restart: the checkpoint follows the
// identity the tailer reports for the new content, so the restart resumes
// it instead of reading it again from 0 and repeating its alerts.
func TestTruncationThenRestartRepeatsNothing(t *testing.T) {
	dir := t.TempDir()
	const path = "/var/log/sglang/server.log"
	old := source.FileID{Dev: 1, Ino: 9, Size: 1024, Sum: [16]byte{0xa}}
	rewritten := source.FileID{Dev: 1, Ino: 9, Size: 54, Sum: [16]byte{0xb}}
	before := []string{"stdout failure #1", "stdout failure #2", "stdout failure #3"}
	after := []string{"stdout failure #4", "stdout failure #5", "serving"}

	store, err := state.Open(dir, state.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := newTestProcessor(t, store)
	feedFrom(p, path, old, before, 0)
	feedNewContent(p, path, rewritten, after)
	if _, err := p.commit(); err != nil {
		t.Fatal(err)
	}
	cps, err := store.Files()
	if err != nil || len(cps) != 1 {
		t.Fatalf("checkpoints = %v, %v", cps, err)
	}
	if cps[0].File != rewritten {
		t.Fatalf("checkpoint identity = %v, want the rewritten content's %v", cps[0].File, rewritten)
	}
	first := queued(t, store)
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}

	store, err = state.Open(dir, state.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	p = newTestProcessor(t, store)
	from := fakeTailerStart(t, store, path, rewritten)
	if from == 0 {
		t.Fatalf("the restart would read the rewritten file again from 0")
	}
	feedFrom(p, path, rewritten, after, from)
	p.flushAll()
	if _, err := p.commit(); err != nil {
		t.Fatal(err)
	}
	got := queued(t, store)
	want := []string{"out: stdout failure #1", "out: stdout failure #2", "out: stdout failure #3", "out: stdout failure #4", "out: stdout failure #5"}
	if !sameSet(got, want) {
		t.Fatalf("queued over both runs = %v (first run %v), want each of %v once", got, first, want)
	}
}

// One path, one entry at offset 0, three contents: the first, the same
// inode truncated and rewritten, and a new inode after a delete and a
// recreate. The three alerts share fingerprint and offset; the file
// identity in their source keeps their Idempotency-Keys apart.
func TestIdempotencyKeysDifferAcrossFileContents(t *testing.T) {
	store, err := state.Open(t.TempDir(), state.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	p := newTestProcessor(t, store)
	const path = "/var/log/sglang/server.log"
	contents := []source.FileID{
		{Dev: 1, Ino: 9, Size: 1024, Sum: [16]byte{0xa}},
		{Dev: 1, Ino: 9, Size: 18, Sum: [16]byte{0xb}},  // truncated and rewritten
		{Dev: 1, Ino: 10, Size: 18, Sum: [16]byte{0xb}}, // deleted and recreated
	}
	for i, id := range contents {
		feedLines(p, path, id, []string{"stdout failure #1"}, 0, i == 1) // the truncation
	}
	p.flushAll()
	if _, err := p.commit(); err != nil {
		t.Fatal(err)
	}
	items, _, err := store.Peek("stdout", 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != len(contents) {
		t.Fatalf("queued %d alerts, want %d", len(items), len(contents))
	}
	keys := map[string]bool{}
	for i, it := range items {
		var a sinks.Alert
		if err := json.Unmarshal(it.Payload, &a); err != nil {
			t.Fatal(err)
		}
		if a.Source.File != contents[i].String() || a.Source.Offset != 0 {
			t.Errorf("alert %d: source file %q offset %d, want %q offset 0", i, a.Source.File, a.Source.Offset, contents[i])
		}
		k := webhook.IdempotencyKey(&a)
		if keys[k] {
			t.Errorf("alert %d repeats the key %q of an earlier content's alert", i, k)
		}
		keys[k] = true
		var again sinks.Alert
		if err := json.Unmarshal(it.Payload, &again); err != nil || webhook.IdempotencyKey(&again) != k {
			t.Errorf("alert %d sent again is keyed %q, want %q", i, webhook.IdempotencyKey(&again), k)
		}
	}
}
