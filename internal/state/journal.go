package state

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// JournalName is the ack journal's file name inside the state directory.
const JournalName = "acks.journal"

// keyGeneration names the meta key holding the database's generation: a
// random id written when the database is created (or first opened by a
// logmatch with a journal), so a journal is only ever replayed into the
// database it was written for, never into one that replaced it (a state
// file moved aside, a new state directory at the same path).
var keyGeneration = []byte("generation")

// The ack journal makes an acknowledgement survive the end of the process
// as soon as the delivery loop has it, without a disk sync per alert.
// JournalAck appends one line per item ("<generation> <sink> <seq>
// <crc32>") with a plain write: the kernel keeps it when the process is
// killed, so a kill -9 between the members of a delivery round repeats
// none of the members already journaled. Settle, or the next Commit,
// then removes the items from the queue in one synced transaction, and the
// journal is emptied once nothing in it is waiting for a settle and it has
// reached Options.JournalEmptyBytes (or at Close). Open replays what a dead
// process left. A crash of the whole machine can lose the writes
// since the last Settle, which then repeats at most that round.
//
// Replaying is idempotent: sequence ids are never reused, an ack of an item
// no longer queued does nothing, and the queue count only falls for items
// removed. A line that fails its checksum is a write the crash cut short;
// it is skipped (its alert may be delivered once more).

// journal is the open ack journal and what in it awaits a Settle.
type journal struct {
	f       *os.File
	gen     string                         // the database's generation, in hex
	pending map[string]map[uint64]struct{} // by sink: journaled, not yet settled
	buf     []byte
	// size is what was written since the journal was last emptied, and
	// emptyAt the size from which a journal with nothing unsettled is
	// emptied (Options.JournalEmptyBytes).
	size    int64
	emptyAt int64
}

// journalEmptyBytes is the size from which the journal is emptied once
// nothing in it awaits a Settle. Emptying it at every settle cost one
// ftruncate per delivery round (about 5% of run mode's CPU at 100 alerts
// a second); below this size the settled lines stay, and replay as no-ops,
// so a replay reads at most this much more than it must.
const journalEmptyBytes = 64 << 10

// generation returns the database's generation, creating it when the
// database has none yet.
func generation(tx *bolt.Tx) (string, error) {
	meta := tx.Bucket(bucketMeta)
	if v := meta.Get(keyGeneration); len(v) == 8 {
		return strconv.FormatUint(binary.BigEndian.Uint64(v), 16), nil
	}
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	if err := meta.Put(keyGeneration, b[:]); err != nil {
		return "", err
	}
	return strconv.FormatUint(binary.BigEndian.Uint64(b[:]), 16), nil
}

func journalLine(buf []byte, gen, sink string, seq uint64) []byte {
	start := len(buf)
	buf = append(buf, gen...)
	buf = append(buf, ' ')
	buf = append(buf, sink...)
	buf = append(buf, ' ')
	buf = strconv.AppendUint(buf, seq, 10)
	sum := crc32.ChecksumIEEE(buf[start:])
	buf = append(buf, ' ')
	buf = fmt.Appendf(buf, "%08x", sum)
	return append(buf, '\n')
}

// parseJournalLine returns a line's sink and sequence id; ok is false for
// a line that is cut short or damaged.
func parseJournalLine(line []byte) (gen, sink string, seq uint64, ok bool) {
	i := bytes.LastIndexByte(line, ' ')
	if i < 0 {
		return "", "", 0, false
	}
	sum, err := strconv.ParseUint(string(line[i+1:]), 16, 32)
	if err != nil || uint32(sum) != crc32.ChecksumIEEE(line[:i]) {
		return "", "", 0, false
	}
	f := bytes.Fields(line[:i])
	if len(f) != 3 {
		return "", "", 0, false
	}
	seq, err = strconv.ParseUint(string(f[2]), 10, 64)
	if err != nil {
		return "", "", 0, false
	}
	return string(f[0]), string(f[1]), seq, true
}

// openJournal replays the journal in dir into the database and leaves it
// open and empty for this process's acknowledgements.
func (s *Store) openJournal(dir string) error {
	path := filepath.Join(dir, JournalName)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("state: open ack journal %s: %w", path, err)
	}
	acks := map[string][]uint64{}
	var gen string
	err = s.db.Update(func(tx *bolt.Tx) error {
		var err error
		if gen, err = generation(tx); err != nil {
			return err
		}
		clear(acks)
		r := bufio.NewReader(f)
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 && line[len(line)-1] == '\n' {
				if g, sink, seq, ok := parseJournalLine(line[:len(line)-1]); ok && g == gen {
					acks[sink] = append(acks[sink], seq)
				}
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return err
			}
		}
		for sink, seqs := range acks {
			q, err := openQueue(tx, sink, false)
			if err != nil {
				return err
			}
			if q == nil {
				continue
			}
			if _, err := s.apply(q, Settlement{Acks: seqs}); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		// Replayed and synced: the journal's lines are applied.
		err = f.Truncate(0)
	}
	if err != nil {
		_ = f.Close()
		return fmt.Errorf("state: replay ack journal %s: %w", path, err)
	}
	emptyAt := s.opts.JournalEmptyBytes
	if emptyAt <= 0 {
		emptyAt = journalEmptyBytes
	}
	s.journal = &journal{f: f, gen: gen, pending: map[string]map[uint64]struct{}{}, emptyAt: emptyAt}
	return nil
}

// JournalAck records that sink accepted (or gave up on) the items seqs,
// ahead of the Settle that removes them: a write to the ack journal
// without a disk sync. From its return the acknowledgement survives the
// end of the process (it is replayed by the next Open), though not a crash
// of the machine; only Settle makes it durable. Until the Settle, Peek,
// NextAttempt and Depth treat the items as gone, so a delivery loop can
// go on delivering and settle many acknowledgements at once. It journals
// each alert as it is delivered, so a kill -9 repeats at most the one
// alert in flight between its delivery and its JournalAck.
func (s *Store) JournalAck(sink string, seqs ...uint64) error {
	if len(seqs) == 0 {
		return nil
	}
	if err := checkSinkName(sink); err != nil {
		return fmt.Errorf("state: journal ack: %w", err)
	}
	s.jmu.Lock()
	defer s.jmu.Unlock()
	j := s.journal
	// A newline first ends whatever a write the disk cut short (ENOSPC
	// midway) left without one, so this write's lines are never glued to
	// it and lost with it; the empty line it may make replays as nothing.
	j.buf = append(j.buf[:0], '\n')
	for _, seq := range seqs {
		j.buf = journalLine(j.buf, j.gen, sink, seq)
	}
	// One write: O_APPEND keeps it whole beside other sinks' writes.
	n, err := j.f.Write(j.buf)
	j.size += int64(n)
	if err != nil {
		return fmt.Errorf("state: journal ack %s: %w", sink, err)
	}
	p := j.pending[sink]
	if p == nil {
		p = map[uint64]struct{}{}
		j.pending[sink] = p
	}
	for _, seq := range seqs {
		p[seq] = struct{}{}
	}
	return nil
}

// settled forgets the journaled acks of sink that a committed transaction
// applied, and empties the journal once nothing in it awaits a Settle.
func (s *Store) settled(sink string, seqs []uint64) {
	s.jmu.Lock()
	defer s.jmu.Unlock()
	p := s.journal.pending[sink]
	if len(p) == 0 {
		return
	}
	for _, seq := range seqs {
		delete(p, seq)
	}
	if len(p) == 0 {
		delete(s.journal.pending, sink)
		s.journal.empty(s.journal.emptyAt)
	}
}

// sinkAcks are one sink's journaled, unsettled acks.
type sinkAcks struct {
	sink string
	seqs []uint64
}

// journalPending returns every journaled, unsettled ack, by sink in name
// order and in sequence order within a sink.
func (s *Store) journalPending() []sinkAcks {
	s.jmu.Lock()
	defer s.jmu.Unlock()
	if len(s.journal.pending) == 0 {
		return nil
	}
	out := make([]sinkAcks, 0, len(s.journal.pending))
	for sink, p := range s.journal.pending {
		seqs := make([]uint64, 0, len(p))
		for seq := range p {
			seqs = append(seqs, seq)
		}
		slices.Sort(seqs)
		out = append(out, sinkAcks{sink, seqs})
	}
	slices.SortFunc(out, func(a, b sinkAcks) int { return strings.Compare(a.sink, b.sink) })
	return out
}

// Unsettled keeps, in place, the seqs of sink that are journaled and still
// wait for a Settle: a Commit since their JournalAck has settled the
// others. A delivery loop calls it before settling what it holds, and
// skips the Settle when nothing is left.
func (s *Store) Unsettled(sink string, seqs []uint64) []uint64 {
	s.jmu.Lock()
	defer s.jmu.Unlock()
	p := s.journal.pending[sink]
	out := seqs[:0]
	for _, seq := range seqs {
		if _, ok := p[seq]; ok {
			out = append(out, seq)
		}
	}
	return out
}

// journaled returns a copy of sink's journaled, unsettled acks: items Peek,
// NextAttempt and Depth treat as gone.
func (s *Store) journaled(sink string) map[uint64]struct{} {
	s.jmu.Lock()
	defer s.jmu.Unlock()
	p := s.journal.pending[sink]
	if len(p) == 0 {
		return nil
	}
	out := make(map[uint64]struct{}, len(p))
	for seq := range p {
		out[seq] = struct{}{}
	}
	return out
}

// forget drops what the journal holds for sink, whose queue is gone.
func (s *Store) forget(sink string) {
	s.jmu.Lock()
	defer s.jmu.Unlock()
	if _, ok := s.journal.pending[sink]; ok {
		delete(s.journal.pending, sink)
		s.journal.empty(s.journal.emptyAt)
	}
}

// empty truncates the journal when nothing in it awaits a Settle and it
// has grown to from bytes (emptyAt while running, 1 at Close). A
// truncation that fails leaves lines that replay as no-ops (their items
// are gone), so it is retried at the next chance rather than reported.
func (j *journal) empty(from int64) {
	if len(j.pending) == 0 && j.size >= from && j.f.Truncate(0) == nil {
		j.size = 0
	}
}
