package state

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Item is one queued alert.
type Item struct {
	Seq         uint64    // increases across the whole store; never reused
	Enqueued    time.Time // when Commit queued it; MaxAge counts from here
	Attempts    int       // delivery attempts so far, as the caller Deferred them
	NextAttempt time.Time // not handed out by Peek before this time
	Payload     []byte    // the alert, as the JSON of sinks.Alert
}

// Reasons a bound drops items, as DropKey.Reason and metric labels.
const (
	ReasonMaxItems    = "max_items"    // the queue was full; the oldest made room
	ReasonMaxAge      = "max_age"      // the item waited longer than MaxAge
	ReasonSinkRemoved = "sink_removed" // DropQueue discarded the sink's queue
)

// DropKey names one counter of dropped items.
type DropKey struct {
	Sink   string
	Reason string
}

// Drop is a number of items one bound removed from one sink's queue.
type Drop struct {
	DropKey
	Count int
}

// item encoding: version byte, enqueue and next-attempt times in unix
// nanoseconds, attempts, then the payload. Fixed-width binary keeps a
// Commit of many alerts cheap and the payload uncopied until read.
const (
	itemVersion   = 1
	itemHeaderLen = 1 + 8 + 8 + 4
)

func encodeItem(it Item) []byte {
	b := make([]byte, itemHeaderLen, itemHeaderLen+len(it.Payload))
	b[0] = itemVersion
	binary.BigEndian.PutUint64(b[1:], uint64(it.Enqueued.UnixNano()))
	binary.BigEndian.PutUint64(b[9:], uint64(it.NextAttempt.UnixNano()))
	binary.BigEndian.PutUint32(b[17:], uint32(min(max(int64(it.Attempts), 0), math.MaxUint32)))
	return append(b, it.Payload...)
}

func decodeItem(k, v []byte, withPayload bool) (Item, error) {
	if len(k) != 8 || len(v) < itemHeaderLen || v[0] != itemVersion {
		return Item{}, fmt.Errorf("malformed queue item %x", k)
	}
	it := Item{
		Seq:         binary.BigEndian.Uint64(k),
		Enqueued:    time.Unix(0, int64(binary.BigEndian.Uint64(v[1:]))),
		NextAttempt: time.Unix(0, int64(binary.BigEndian.Uint64(v[9:]))),
		Attempts:    int(binary.BigEndian.Uint32(v[17:])),
	}
	if withPayload {
		it.Payload = append([]byte(nil), v[itemHeaderLen:]...)
	}
	return it, nil
}

// queue is one sink's buckets inside a transaction.
type queue struct {
	b     *bolt.Bucket // the sink's bucket: keyCount and the items bucket
	items *bolt.Bucket
}

// openQueue finds (or, with create, makes) a sink's queue. Without create a
// missing queue is (nil, nil).
func openQueue(tx *bolt.Tx, sink string, create bool) (*queue, error) {
	root := tx.Bucket(bucketQueues)
	b := root.Bucket([]byte(sink))
	if b == nil {
		if !create {
			return nil, nil
		}
		var err error
		if b, err = root.CreateBucket([]byte(sink)); err != nil {
			return nil, fmt.Errorf("queue %s: %w", sink, err)
		}
		if _, err := b.CreateBucket(keyItems); err != nil {
			return nil, fmt.Errorf("queue %s: %w", sink, err)
		}
		if err := b.Put(keyCount, u64(0)); err != nil {
			return nil, fmt.Errorf("queue %s: %w", sink, err)
		}
	}
	items := b.Bucket(keyItems)
	if items == nil {
		return nil, fmt.Errorf("queue %s: items bucket missing", sink)
	}
	return &queue{b: b, items: items}, nil
}

func (q *queue) count() int { return int(getU64(q.b.Get(keyCount))) }

func (q *queue) setCount(n int) error { return q.b.Put(keyCount, u64(uint64(n))) }

// bounds returns the configured bounds of a sink.
func (s *Store) bounds(sink string) QueueBounds {
	qs := s.opts.SinkQueues
	if p := s.sinkQueues.Load(); p != nil {
		qs = *p
	}
	if b, ok := qs[sink]; ok {
		return b.withDefaults()
	}
	return s.opts.Queue
}

// SetSinkQueues replaces Options.SinkQueues: the bounds of each sink's
// queue by sink name, for a configuration reload that adds a sink or
// changes one's queue. A queue already over its new bound is cut to it at
// its next enqueue or peek, and what is dropped is counted.
func (s *Store) SetSinkQueues(qs map[string]QueueBounds) {
	s.sinkQueues.Store(&qs)
}

// enforce drops the oldest items past MaxItems and, from the head, the
// items older than MaxAge. Sequence order is enqueue order, so expired
// items are always at the head. With dryRun it only reports whether
// anything would be dropped (a nil error and a non-empty result).
func (s *Store) enforce(q *queue, sink string, now time.Time, dryRun bool) ([]Drop, error) {
	b := s.bounds(sink)
	n := q.count()
	over := n - b.MaxItems
	cutoff := now.Add(-b.MaxAge)
	var byItems, byAge int
	c := q.items.Cursor()
	var doomed [][]byte
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if over > 0 {
			over--
			byItems++
		} else {
			it, err := decodeItem(k, v, false)
			if err != nil {
				return nil, fmt.Errorf("queue %s: %w", sink, err)
			}
			if !it.Enqueued.Before(cutoff) {
				break
			}
			byAge++
		}
		if dryRun {
			return []Drop{{DropKey: DropKey{sink, ReasonMaxAge}, Count: 1}}, nil
		}
		doomed = append(doomed, append([]byte(nil), k...))
	}
	for _, k := range doomed {
		if err := q.items.Delete(k); err != nil {
			return nil, fmt.Errorf("queue %s: %w", sink, err)
		}
	}
	if len(doomed) > 0 {
		if err := q.setCount(n - len(doomed)); err != nil {
			return nil, fmt.Errorf("queue %s: %w", sink, err)
		}
	}
	var out []Drop
	if byItems > 0 {
		out = append(out, Drop{DropKey: DropKey{sink, ReasonMaxItems}, Count: byItems})
	}
	if byAge > 0 {
		out = append(out, Drop{DropKey: DropKey{sink, ReasonMaxAge}, Count: byAge})
	}
	return out, nil
}

// count adds drops to the counters DropCounts reports.
func (s *Store) count(ds []Drop) {
	if len(ds) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range ds {
		s.drops[d.DropKey] += uint64(d.Count)
	}
}

// DropCounts returns how many items each bound dropped from each sink's
// queue since Open. The same drops were also returned by the call that made
// them; the counters are for metrics.
func (s *Store) DropCounts() map[DropKey]uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[DropKey]uint64, len(s.drops))
	for k, v := range s.drops {
		out[k] = v
	}
	return out
}

// Peek returns up to limit items of sink's queue that are ready now
// (NextAttempt not in the future, or so far ahead that the wall clock
// must have stepped back: see waiting), in sequence order; items waiting for a
// retry are skipped, so one failing alert does not hold back the rest, and
// so are items journaled as acknowledged (JournalAck) and not yet settled.
// Items past the queue's MaxAge are dropped first and reported. The items
// stay queued until Acked. A sink without a queue has no items.
func (s *Store) Peek(sink string, limit int) ([]Item, []Drop, error) {
	now := s.opts.Now()
	var drops []Drop
	// Expiry needs a write transaction (and its fsync); look first in a
	// read transaction so the usual Peek stays read-only.
	var expired bool
	err := s.db.View(func(tx *bolt.Tx) error {
		q, err := openQueue(tx, sink, false)
		if err != nil || q == nil {
			return err
		}
		d, err := s.enforce(q, sink, now, true)
		expired = len(d) > 0
		return err
	})
	if err == nil && expired {
		err = s.db.Update(func(tx *bolt.Tx) error {
			q, err := openQueue(tx, sink, false)
			if err != nil || q == nil {
				return err
			}
			drops, err = s.enforce(q, sink, now, false)
			return err
		})
	}
	if err != nil {
		return nil, nil, fmt.Errorf("state: peek %s: %w", sink, err)
	}
	s.count(drops)
	acked := s.journaled(sink)
	var items []Item
	err = s.db.View(func(tx *bolt.Tx) error {
		q, err := openQueue(tx, sink, false)
		if err != nil || q == nil {
			return err
		}
		c := q.items.Cursor()
		for k, v := c.First(); k != nil && len(items) < limit; k, v = c.Next() {
			it, err := decodeItem(k, v, false)
			if err != nil {
				return err
			}
			if _, ok := acked[it.Seq]; ok || s.waiting(sink, it, now) {
				continue
			}
			it.Payload = append([]byte(nil), v[itemHeaderLen:]...)
			items = append(items, it)
		}
		return nil
	})
	if err != nil {
		return nil, drops, fmt.Errorf("state: peek %s: %w", sink, err)
	}
	return items, drops, nil
}

// NextAttempt returns the earliest NextAttempt of sink's queued items (not
// counting those journaled as acknowledged), so a delivery loop knows how
// long to sleep; ok is false when there is none.
func (s *Store) NextAttempt(sink string) (t time.Time, ok bool, err error) {
	now := s.opts.Now()
	acked := s.journaled(sink)
	err = s.db.View(func(tx *bolt.Tx) error {
		q, err := openQueue(tx, sink, false)
		if err != nil || q == nil {
			return err
		}
		return q.items.ForEach(func(k, v []byte) error {
			it, err := decodeItem(k, v, false)
			if err != nil {
				return err
			}
			if _, done := acked[it.Seq]; done {
				return nil
			}
			next := it.NextAttempt
			if !s.waiting(sink, it, now) && next.After(now) {
				next = now
			}
			if !ok || next.Before(t) {
				t, ok = next, true
			}
			return nil
		})
	})
	if err != nil {
		return time.Time{}, false, fmt.Errorf("state: next attempt %s: %w", sink, err)
	}
	return t, ok, nil
}

// waiting reports whether it must not be handed out yet: its NextAttempt
// is after now. A NextAttempt further ahead than the queue's MaxAge, and
// than a day, was written by a wall clock that has since stepped back (no
// deferral is that long: the item would be dropped first, and backoffs
// are minutes), so it is ready now rather than stranded until the clock
// catches up. The day keeps a backoff longer than a short MaxAge intact.
// An item never deferred past the time Commit queued it is ready whatever
// the clock says: a step back of the wall clock between that Commit and a
// Peek (of milliseconds, at a shutdown's drain) must not hold it back.
func (s *Store) waiting(sink string, it Item, now time.Time) bool {
	if !it.NextAttempt.After(it.Enqueued) {
		return false
	}
	horizon := max(s.bounds(sink).MaxAge, DefaultQueueMaxAge)
	return it.NextAttempt.After(now) && !it.NextAttempt.After(now.Add(horizon))
}

// Deferral is one failed delivery attempt to record: the item gets
// Attempts as its attempt count and is not handed out by Peek before Next.
type Deferral struct {
	Seq      uint64
	Next     time.Time
	Attempts int
}

// Settlement is the outcome of one delivery round of a sink: the items to
// remove (delivered, or given up on) and the items to retry later.
type Settlement struct {
	Acks   []uint64
	Defers []Deferral
}

// Settled reports how many items of a Settlement were still queued (a
// bound may have dropped some meanwhile, or an earlier Settle acked them).
type Settled struct {
	Acked, Deferred int
}

// Settle writes a delivery round's outcome in one transaction, synced to
// disk before it returns: either all of it is stored or, when an error is
// returned, none of it. A delivery loop settles the acks of a whole batch
// at once, so a batch costs one disk sync, not one per alert; an ack is
// durable only once Settle has returned without error. A sequence id both
// acked and deferred is acked. An empty Settlement writes nothing.
func (s *Store) Settle(sink string, st Settlement) (Settled, error) {
	if len(st.Acks) == 0 && len(st.Defers) == 0 {
		return Settled{}, nil
	}
	var res Settled
	err := s.db.Update(func(tx *bolt.Tx) (err error) {
		res, err = s.applyTo(tx, sink, st)
		return err
	})
	if err != nil {
		return Settled{}, fmt.Errorf("state: settle %s: %w", sink, err)
	}
	s.settled(sink, st.Acks)
	return res, nil
}

// applyTo is apply on sink's queue, which may be gone (nothing to settle).
func (s *Store) applyTo(tx *bolt.Tx, sink string, st Settlement) (Settled, error) {
	q, err := openQueue(tx, sink, false)
	if err != nil || q == nil {
		return Settled{}, err
	}
	return s.apply(q, st)
}

// apply removes st's acks from q and records its deferrals, inside the
// caller's transaction.
func (s *Store) apply(q *queue, st Settlement) (Settled, error) {
	var res Settled
	var k [8]byte
	for _, seq := range st.Acks {
		binary.BigEndian.PutUint64(k[:], seq)
		if q.items.Get(k[:]) == nil {
			continue
		}
		if err := q.items.Delete(k[:]); err != nil {
			return Settled{}, err
		}
		res.Acked++
		if err := s.step("ack"); err != nil {
			return Settled{}, err
		}
	}
	for _, d := range st.Defers {
		binary.BigEndian.PutUint64(k[:], d.Seq)
		v := q.items.Get(k[:])
		if v == nil {
			continue
		}
		it, err := decodeItem(k[:], v, true)
		if err != nil {
			return Settled{}, err
		}
		it.NextAttempt, it.Attempts = d.Next, d.Attempts
		if err := q.items.Put(u64(d.Seq), encodeItem(it)); err != nil {
			return Settled{}, err
		}
		res.Deferred++
		if err := s.step("defer"); err != nil {
			return Settled{}, err
		}
	}
	if res.Acked == 0 {
		return res, nil
	}
	return res, q.setCount(q.count() - res.Acked)
}

// Ack removes delivered items from sink's queue and returns how many were
// still there (a bound may have dropped some meanwhile). It is Settle with
// acks alone.
func (s *Store) Ack(sink string, seqs ...uint64) (int, error) {
	res, err := s.Settle(sink, Settlement{Acks: seqs})
	if err != nil {
		return 0, fmt.Errorf("state: ack %s: %w", sink, errors.Unwrap(err))
	}
	return res.Acked, nil
}

// Defer records a failed attempt: the item gets attempts as its attempt
// count and is not handed out by Peek before next. found is false when the
// item is no longer queued (acked, or dropped by a bound). It is Settle with
// one deferral.
func (s *Store) Defer(sink string, seq uint64, next time.Time, attempts int) (found bool, err error) {
	res, err := s.Settle(sink, Settlement{Defers: []Deferral{{Seq: seq, Next: next, Attempts: attempts}}})
	if err != nil {
		return false, fmt.Errorf("state: defer %s item %d: %w", sink, seq, errors.Unwrap(err))
	}
	return res.Deferred == 1, nil
}

// Depth returns the number of items in sink's queue (0 when it has none),
// less those journaled as acknowledged (JournalAck) and not yet settled.
func (s *Store) Depth(sink string) (int, error) {
	acked := s.journaled(sink)
	var n int
	err := s.db.View(func(tx *bolt.Tx) error {
		q, err := openQueue(tx, sink, false)
		if err != nil || q == nil {
			return err
		}
		n = q.count()
		var k [8]byte
		for seq := range acked {
			binary.BigEndian.PutUint64(k[:], seq)
			if q.items.Get(k[:]) != nil {
				n--
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("state: depth %s: %w", sink, err)
	}
	return n, nil
}

// Sinks returns the names of the sinks that have a queue, sorted, including
// queues left by sinks no longer configured.
func (s *Store) Sinks() ([]string, error) {
	var names []string
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketQueues).ForEachBucket(func(k []byte) error {
			names = append(names, string(k))
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("state: list queues: %w", err)
	}
	sort.Strings(names)
	return names, nil
}

// DropQueue discards sink's whole queue and returns how many items it held,
// also counted under ReasonSinkRemoved. Queues outlive their sink's removal
// from the configuration, because a sink renamed or commented out by
// mistake should not lose its alerts on the first restart. Run mode
// therefore compares Sinks with the configured sinks at start, logs each
// orphan queue with its Depth, and calls DropQueue for it: an alert nobody
// will deliver only fills the disk.
func (s *Store) DropQueue(sink string) (int, error) {
	var n int
	err := s.db.Update(func(tx *bolt.Tx) error {
		q, err := openQueue(tx, sink, false)
		if err != nil {
			return err
		}
		if q == nil {
			return fmt.Errorf("no queue: %w", ErrNotFound)
		}
		n = q.count()
		return tx.Bucket(bucketQueues).DeleteBucket([]byte(sink))
	})
	if err != nil {
		return 0, fmt.Errorf("state: drop queue %s: %w", sink, err)
	}
	s.forget(sink)
	if n > 0 {
		s.count([]Drop{{DropKey: DropKey{sink, ReasonSinkRemoved}, Count: n}})
	}
	return n, nil
}
