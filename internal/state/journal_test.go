package state

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func journalSize(t *testing.T, dir string) int64 {
	t.Helper()
	info, err := os.Stat(filepath.Join(dir, JournalName))
	if err != nil {
		t.Fatal(err)
	}
	return info.Size()
}

func enqueue(t *testing.T, s *Store, sink string, payloads ...string) []uint64 {
	t.Helper()
	var b Batch
	for _, p := range payloads {
		b.Enqueue = append(b.Enqueue, Enqueue{Sink: sink, Payload: []byte(p)})
	}
	res, err := s.Commit(b)
	if err != nil {
		t.Fatal(err)
	}
	return res.Seqs
}

// TestJournalReplay journals acks, stops without settling them (as a
// killed process does; Close writes nothing more) and checks that the next
// Open removes exactly those items, once, and empties the journal.
func TestJournalReplay(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir, Options{})
	slack := enqueue(t, s, "slack", "1", "2", "3")
	hook := enqueue(t, s, "webhook", "1", "2")
	if err := s.JournalAck("slack", slack[0], slack[1]); err != nil {
		t.Fatal(err)
	}
	if err := s.JournalAck("webhook", hook[1]); err != nil {
		t.Fatal(err)
	}
	if err := s.JournalAck("gone", 12345); err != nil {
		t.Fatal(err)
	}
	// A write the crash cut short.
	f, err := os.OpenFile(filepath.Join(dir, JournalName), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("0123 slack 3"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = open(t, dir, Options{})
	for sink, want := range map[string][]string{"slack": {"3"}, "webhook": {"1"}} {
		items, _, err := s.Peek(sink, 10)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, payloads(items)); diff != "" {
			t.Errorf("%s after replay (-want +got):\n%s", sink, diff)
		}
		if n, err := s.Depth(sink); n != len(want) || err != nil {
			t.Errorf("Depth(%s) = %d, %v; want %d", sink, n, err, len(want))
		}
	}
	if n := journalSize(t, dir); n != 0 {
		t.Errorf("journal holds %d bytes after replay, want 0", n)
	}
	// A second replay of the same lines would do nothing; a reopen finds
	// the journal empty and the queues as they were.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, dir, Options{})
	if n, err := s.Depth("slack"); n != 1 || err != nil {
		t.Errorf("Depth(slack) after a second open = %d, %v; want 1", n, err)
	}
}

// TestJournalEmptiedWhenSettled checks that the journal is emptied once
// every journaled ack of every sink is settled, and not before.
func TestJournalEmptiedWhenSettled(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir, Options{JournalEmptyBytes: 1}) // empty at every chance
	slack := enqueue(t, s, "slack", "1", "2")
	hook := enqueue(t, s, "webhook", "1")
	if err := s.JournalAck("slack", slack...); err != nil {
		t.Fatal(err)
	}
	if err := s.JournalAck("webhook", hook...); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Settle("slack", Settlement{Acks: slack[:1]}); err != nil {
		t.Fatal(err)
	}
	if journalSize(t, dir) == 0 {
		t.Fatal("journal emptied with acks of slack and webhook still unsettled")
	}
	if _, err := s.Settle("slack", Settlement{Acks: slack[1:]}); err != nil {
		t.Fatal(err)
	}
	if journalSize(t, dir) == 0 {
		t.Fatal("journal emptied with webhook's ack still unsettled")
	}
	if _, err := s.DropQueue("webhook"); err != nil {
		t.Fatal(err)
	}
	if n := journalSize(t, dir); n != 0 {
		t.Errorf("journal holds %d bytes with nothing unsettled, want 0", n)
	}
}

// TestJournalBoundedWhileSettled settles round after round, as a delivery
// loop does while alerts flow: the journal keeps its settled lines up to
// its bound (JournalEmptyBytes, lowered here) instead of being truncated
// at every settle, is emptied from there, and a process that dies with
// settled lines in it replays them as no-ops. A clean Close leaves it
// empty.
func TestJournalBoundedWhileSettled(t *testing.T) {
	dir := t.TempDir()
	killed := filepath.Join(t.TempDir(), "killed")
	const rounds, bound = 600, 4 << 10
	s := open(t, dir, Options{JournalEmptyBytes: bound})
	var last int64
	emptied := 0
	var killedSeq uint64
	line := 0
	for i := range rounds {
		seqs := enqueue(t, s, "slack", "alert")
		if err := s.JournalAck("slack", seqs...); err != nil {
			t.Fatal(err)
		}
		if i == rounds-100 {
			// A copy of the state directory as a kill -9 would leave it:
			// settled lines in the journal, and one ack journaled but not
			// settled.
			copyState(t, dir, killed)
			killedSeq = seqs[0]
		}
		line = len(journalLine(nil, s.journal.gen, "slack", seqs[0]))
		if _, err := s.Settle("slack", Settlement{Acks: seqs}); err != nil {
			t.Fatal(err)
		}
		n := journalSize(t, dir)
		if n > bound+int64(line) {
			t.Fatalf("round %d: journal holds %d bytes, over its bound of %d and a line", i, n, bound)
		}
		if n < last {
			emptied++
		}
		last = n
	}
	// Lines grow with the sequence ids, so this bound is generous.
	if most := rounds*line/bound + 1; emptied == 0 || emptied > most {
		t.Errorf("the journal was emptied %d times in %d settled rounds, want 1 to %d", emptied, rounds, most)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if n := journalSize(t, dir); n != 0 {
		t.Errorf("journal holds %d bytes after Close with nothing unsettled, want 0", n)
	}

	k := open(t, killed, Options{})
	if n, err := k.Depth("slack"); n != 0 || err != nil {
		t.Errorf("Depth(slack) after the killed copy's replay = %d, %v; want 0", n, err)
	}
	if n := journalSize(t, killed); n != 0 {
		t.Errorf("the killed copy's journal holds %d bytes after replay, want 0", n)
	}
	if seqs := enqueue(t, k, "slack", "next"); seqs[0] <= killedSeq {
		t.Errorf("the killed copy reuses sequence id %d", seqs[0])
	}
}

// copyState copies the state files of the directory from into to, as a
// process killed at this point leaves them.
func copyState(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(to, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{FileName, JournalName} {
		b, err := os.ReadFile(filepath.Join(from, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// TestJournalOfAnotherDatabase checks that a journal is never replayed
// into a database other than the one it was written for: here the state
// file was moved aside, and the new one reuses the sequence ids.
func TestJournalOfAnotherDatabase(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir, Options{})
	seqs := enqueue(t, s, "slack", "old")
	if err := s.JournalAck("slack", seqs...); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, FileName), filepath.Join(dir, FileName+".aside")); err != nil {
		t.Fatal(err)
	}
	// The new database gets its generation at its first Open, so the old
	// journal is kept aside for the moment its items exist again.
	journal, err := os.ReadFile(filepath.Join(dir, JournalName))
	if err != nil {
		t.Fatal(err)
	}
	s = open(t, dir, Options{})
	if got := enqueue(t, s, "slack", "new"); got[0] != seqs[0] {
		t.Fatalf("new database gave seq %d, want %d (the test needs a reused id)", got[0], seqs[0])
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, JournalName), journal, 0o600); err != nil {
		t.Fatal(err)
	}
	s = open(t, dir, Options{})
	items, _, err := s.Peek("slack", 10)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"new"}, payloads(items)); diff != "" {
		t.Errorf("the old database's journal touched the new one (-want +got):\n%s", diff)
	}
}

// TestJournaledAcksAreHidden checks that items journaled as acknowledged
// are gone for Peek, NextAttempt and Depth before their Settle, and stay
// gone after it.
func TestJournaledAcksAreHidden(t *testing.T) {
	clk := newClock()
	s := open(t, t.TempDir(), Options{Now: clk.Now})
	seqs := enqueue(t, s, "slack", "1", "2", "3")
	if _, err := s.Settle("slack", Settlement{Defers: []Deferral{{Seq: seqs[2], Next: clk.Now().Add(time.Minute), Attempts: 1}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.JournalAck("slack", seqs[0]); err != nil {
		t.Fatal(err)
	}
	check := func(when string, wantReady []string, wantDepth int, wantNext time.Time) {
		t.Helper()
		items, _, err := s.Peek("slack", 10)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantReady, payloads(items)); diff != "" {
			t.Errorf("%s: Peek (-want +got):\n%s", when, diff)
		}
		if n, err := s.Depth("slack"); n != wantDepth || err != nil {
			t.Errorf("%s: Depth() = %d, %v; want %d", when, n, err, wantDepth)
		}
		if next, ok, err := s.NextAttempt("slack"); !ok || err != nil || !next.Equal(wantNext) {
			t.Errorf("%s: NextAttempt() = %v, %v, %v; want %v", when, next, ok, err, wantNext)
		}
	}
	check("journaled", []string{"2"}, 2, clk.Now())
	if err := s.JournalAck("slack", seqs[1]); err != nil {
		t.Fatal(err)
	}
	check("both journaled", nil, 1, clk.Now().Add(time.Minute))
	if _, err := s.Settle("slack", Settlement{Acks: seqs[:2]}); err != nil {
		t.Fatal(err)
	}
	check("settled", nil, 1, clk.Now().Add(time.Minute))
}

// TestCommitSettlesJournaledAcks checks that a commit settles every
// journaled ack in its own transaction: the items are gone from the
// queues for good (after a restart with the journal removed too), the
// journal is emptied (at every chance here), and Unsettled tells a delivery loop that nothing it
// holds is left to settle.
func TestCommitSettlesJournaledAcks(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir, Options{JournalEmptyBytes: 1}) // empty at every chance
	slack := enqueue(t, s, "slack", "1", "2", "3")
	hook := enqueue(t, s, "webhook", "1")
	if err := s.JournalAck("slack", slack[:2]...); err != nil {
		t.Fatal(err)
	}
	if err := s.JournalAck("webhook", hook...); err != nil {
		t.Fatal(err)
	}
	if got := s.Unsettled("slack", append([]uint64(nil), slack...)); len(got) != 2 {
		t.Fatalf("Unsettled before the commit = %v, want the two journaled", got)
	}
	if _, err := s.Commit(Batch{Enqueue: []Enqueue{{Sink: "slack", Payload: []byte("4")}}}); err != nil {
		t.Fatal(err)
	}
	if got := s.Unsettled("slack", append([]uint64(nil), slack...)); len(got) != 0 {
		t.Errorf("Unsettled after the commit = %v, want none", got)
	}
	if n := journalSize(t, dir); n != 0 {
		t.Errorf("journal holds %d bytes after the commit settled everything, want 0", n)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, JournalName)); err != nil {
		t.Fatal(err)
	}
	s = open(t, dir, Options{})
	for sink, want := range map[string][]string{"slack": {"3", "4"}, "webhook": nil} {
		items, _, err := s.Peek(sink, 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, it := range items {
			got = append(got, string(it.Payload))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s after restart: %q, want %q", sink, got, want)
		}
		if n, err := s.Depth(sink); err != nil || n != len(want) {
			t.Errorf("%s depth after restart: %d, %v; want %d", sink, n, err, len(want))
		}
	}
}

// A journal write that the disk cut short (ENOSPC midway) leaves a line
// with no newline; the next acknowledgement must not be glued to it, or
// both fail their checksum and the later one's alert is sent again after
// a kill -9.
func TestJournalAckAfterATornWrite(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir, Options{})
	seqs := enqueue(t, s, "slack", "1", "2")
	f, err := os.OpenFile(filepath.Join(dir, JournalName), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("0123 slack 1"); err != nil { // the torn write
		t.Fatal(err)
	}
	f.Close()
	if err := s.JournalAck("slack", seqs[1]); err != nil {
		t.Fatal(err)
	}
	// kill -9: the files as they are, without Close.
	crashed := filepath.Join(t.TempDir(), "crashed")
	copyState(t, dir, crashed)
	r := open(t, crashed, Options{})
	items, _, err := r.Peek("slack", 10)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"1"}, payloads(items)); diff != "" {
		t.Errorf("queue after replay (-want +got):\n%s", diff)
	}
}
