package state

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// FileName is the name of the database file inside the state directory.
const FileName = "state.db"

// SchemaVersion is the layout version this package writes. Open refuses a
// database written with another version rather than guessing at its layout.
const SchemaVersion = 1

// Default bounds and timeouts; see Options.
const (
	DefaultLockTimeout   = 2 * time.Second
	DefaultQueueMaxItems = 10000
	DefaultQueueMaxAge   = 24 * time.Hour
)

// Bucket and key names of the layout. Queues live in one sub-bucket per
// sink under bucketQueues, each with the items (keyed by big-endian
// sequence id) in a sub-bucket and the item count beside it, so bounds are
// enforced without walking the queue.
var (
	bucketMeta     = []byte("meta")
	bucketFiles    = []byte("files")
	bucketGrouping = []byte("grouping")
	// bucketIncidents holds the grouper's open incidents, one key each,
	// beside the rest of its state in bucketGrouping.
	bucketIncidents = []byte("incidents")
	bucketQueues    = []byte("queues")

	keySchema   = []byte("schema")
	keySeq      = []byte("seq")
	keyGrouping = []byte("blob")
	keyItems    = []byte("items")
	keyCount    = []byte("count")
)

// ErrNotFound is wrapped by errors about a sink queue that does not exist.
var ErrNotFound = errors.New("not found")

// QueueBounds limits one sink's queue. A zero field takes the default.
type QueueBounds struct {
	MaxItems int           // most items kept; the oldest go first (default 10000)
	MaxAge   time.Duration // items older than this are dropped (default 24h)
}

func (b QueueBounds) withDefaults() QueueBounds {
	if b.MaxItems <= 0 {
		b.MaxItems = DefaultQueueMaxItems
	}
	if b.MaxAge <= 0 {
		b.MaxAge = DefaultQueueMaxAge
	}
	return b
}

// Options configure Open. The zero value is usable.
type Options struct {
	// LockTimeout is how long Open waits for another process holding the
	// same state directory (default 2s).
	LockTimeout time.Duration
	// Queue is the bound of every sink queue without an entry in SinkQueues.
	Queue QueueBounds
	// SinkQueues overrides Queue per sink name.
	SinkQueues map[string]QueueBounds
	// Now is the clock (default time.Now); tests pass a fake one.
	Now func() time.Time
	// ResetDamaged moves a state file that fails the consistency check
	// aside (renamed state.db.damaged-<time>) and starts with empty state,
	// instead of failing with ErrDamaged. Store.MovedAside names the file.
	ResetDamaged bool
	// JournalEmptyBytes is the size from which the ack journal is emptied
	// once nothing in it awaits a settle (default 64 KiB; 1 empties it at
	// every chance, which tests use to count what it holds).
	JournalEmptyBytes int64
}

// Store is an open state database. Its methods are safe for concurrent use:
// bbolt serialises writers and lets readers run beside them.
type Store struct {
	db   *bolt.DB
	path string
	opts Options

	mu    sync.Mutex
	drops map[DropKey]uint64

	// sinkQueues is Options.SinkQueues as last set (SetSinkQueues): a
	// reload that adds or changes a sink changes its queue's bounds.
	sinkQueues atomic.Pointer[map[string]QueueBounds]

	movedAside string // the damaged file ResetDamaged moved aside
	damage     error  // what the check found in it

	// hook, when set by a test, runs after each step of Commit's and
	// Settle's transactions; an error from it aborts the transaction there.
	hook func(step string) error

	jmu     sync.Mutex // guards journal
	journal *journal   // the ack journal (journal.go)
}

// Open opens (creating when needed) dir/state.db. The directory is created
// with mode 0700 and the file with 0600: checkpoints name log files and the
// queued alerts hold log text. A second process on the same directory gets
// an error naming it after Options.LockTimeout.
func Open(dir string, opts Options) (*Store, error) {
	if dir == "" {
		return nil, errors.New("state: open: empty state directory")
	}
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = DefaultLockTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	opts.Queue = opts.Queue.withDefaults()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("state: create directory %s: %w", dir, err)
	}
	path := filepath.Join(dir, FileName)
	var movedAside string
	damage := checkIntact(path, opts.LockTimeout)
	switch {
	case damage == nil:
	case errors.Is(damage, ErrDamaged) && opts.ResetDamaged:
		aside, err := moveAside(path, opts.Now())
		if err != nil {
			return nil, err
		}
		movedAside = aside
	case errors.Is(damage, ErrDamaged):
		return nil, fmt.Errorf("state: %s is damaged and cannot be read; its read positions and queued alerts are lost. "+
			"Move it aside (mv %s %s.damaged) or start once with --state-reset, which does that, to begin with empty state "+
			"(log files are then read from --start-at): %w", path, path, path, damage)
	default:
		err := damage
		if errors.Is(err, bolterrors.ErrTimeout) {
			return nil, fmt.Errorf("state: open %s: locked by another process for %s (is another logmatch using state directory %s?): %w",
				path, opts.LockTimeout, dir, err)
		}
		return nil, fmt.Errorf("state: check %s: %w", path, err)
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: opts.LockTimeout})
	if err != nil {
		switch {
		case errors.Is(err, bolterrors.ErrTimeout):
			return nil, fmt.Errorf("state: open %s: locked by another process for %s (is another logmatch using state directory %s?): %w",
				path, opts.LockTimeout, dir, err)
		case errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrChecksum),
			errors.Is(err, bolterrors.ErrVersionMismatch), errors.Is(err, bolterrors.ErrInvalidMapping):
			return nil, fmt.Errorf("state: open %s: damaged or not a logmatch state file (move it aside to start afresh): %w", path, err)
		}
		return nil, fmt.Errorf("state: open %s: %w", path, err)
	}
	s := &Store{db: db, path: path, opts: opts, drops: make(map[DropKey]uint64), movedAside: movedAside}
	if movedAside != "" {
		s.damage = damage
	}
	if err := s.init(); err != nil {
		_ = db.Close()
		return nil, err
	}
	if err := s.openJournal(dir); err != nil {
		_ = db.Close()
		return nil, err
	}
	return s, nil
}

// init creates the buckets of a new database and checks the schema version
// of an existing one.
func (s *Store) init() error {
	err := s.db.Update(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			if tx.Bucket(bucketFiles) != nil || tx.Bucket(bucketQueues) != nil {
				return errors.New("schema: data without a meta bucket")
			}
			var err error
			if meta, err = tx.CreateBucket(bucketMeta); err != nil {
				return err
			}
			if err := meta.Put(keySchema, u64(SchemaVersion)); err != nil {
				return err
			}
		}
		v := meta.Get(keySchema)
		if len(v) != 8 {
			return errors.New("schema: missing or malformed version")
		}
		if got := binary.BigEndian.Uint64(v); got != SchemaVersion {
			return fmt.Errorf("schema version %d, this logmatch reads version %d", got, SchemaVersion)
		}
		for _, name := range [][]byte{bucketFiles, bucketGrouping, bucketIncidents, bucketQueues} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("state: open %s: %w", s.path, err)
	}
	return nil
}

// MovedAside returns where Options.ResetDamaged moved a damaged state file
// and what was wrong with it; "" and nil when nothing was moved.
func (s *Store) MovedAside() (string, error) { return s.movedAside, s.damage }

// Path is the database file's path.
func (s *Store) Path() string { return s.path }

// Close releases the database and its lock. Every Commit and Settle has
// already been synced to disk when it returned, so Close has nothing left
// to flush. It empties a journal whose every line is settled;
// acknowledgements journaled and not settled stay in the journal for the
// next Open.
func (s *Store) Close() error {
	var errs []error
	if err := s.db.Close(); err != nil {
		errs = append(errs, fmt.Errorf("state: close %s: %w", s.path, err))
	}
	s.jmu.Lock()
	// A journal whose every line is settled is left empty: the next Open
	// has nothing to replay.
	s.journal.empty(1)
	if err := s.journal.f.Close(); err != nil && !errors.Is(err, os.ErrClosed) {
		errs = append(errs, fmt.Errorf("state: close ack journal: %w", err))
	}
	s.jmu.Unlock()
	return errors.Join(errs...)
}

// Grouping is the incident grouper's state, serialised by the grouper.
// Version is the grouper's own format version, so a newer logmatch can tell
// a blob it cannot read and start grouping afresh.
type Grouping struct {
	Version uint32
	Data    []byte
}

// Grouping returns the stored grouping blob; ok is false when none was
// committed yet.
func (s *Store) Grouping() (g Grouping, ok bool, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketGrouping).Get(keyGrouping)
		if v == nil {
			return nil
		}
		if len(v) < 4 {
			return errors.New("malformed grouping blob")
		}
		g = Grouping{Version: binary.BigEndian.Uint32(v), Data: append([]byte(nil), v[4:]...)}
		ok = true
		return nil
	})
	if err != nil {
		return Grouping{}, false, fmt.Errorf("state: read grouping: %w", err)
	}
	return g, ok, nil
}

// Incidents returns the stored incidents, calling fn with each key and
// value in key order; an error from fn ends the walk and is returned. The
// slices are valid only during the call.
func (s *Store) Incidents(fn func(key string, value []byte) error) error {
	var fnErr error
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketIncidents).ForEach(func(k, v []byte) error {
			fnErr = fn(string(k), v)
			return fnErr
		})
	})
	switch {
	case fnErr != nil:
		return fnErr
	case err != nil:
		return fmt.Errorf("state: read incidents: %w", err)
	}
	return nil
}

// IncidentChanges change the stored incidents: one value per incident, so
// a commit writes only those that changed, never all that are open.
type IncidentChanges struct {
	// Reset deletes every stored incident before Put.
	Reset bool
	// Put stores each value under its key, replacing what was there.
	Put []KeyValue
	// Delete removes these keys; a key not stored is no error.
	Delete []string
}

// KeyValue is one stored incident.
type KeyValue struct {
	Key   string
	Value []byte
}

// Enqueue is one alert for one sink inside a Batch.
type Enqueue struct {
	Sink    string // sink name, as configured
	Payload []byte // the alert, as the JSON of sinks.Alert
}

// Batch is everything one Commit writes.
type Batch struct {
	// Files are the checkpoints to store (replacing those with the same
	// FileID key); Commit stamps their Seen time.
	Files []Checkpoint
	// Grouping, when not nil, replaces the stored grouping blob.
	Grouping *Grouping
	// Incidents, when not nil, changes the stored incidents.
	Incidents *IncidentChanges
	// Gate, when not nil, replaces the stored liveness gate blob.
	Gate *Gate
	// Pushed, when not nil, replaces the network inputs' blob.
	Pushed *Pushed
	// Enqueue are the alerts to add, in order, to their sinks' queues.
	Enqueue []Enqueue
}

// CommitResult reports what a Commit did besides storing the batch.
type CommitResult struct {
	// Seqs are the sequence ids given to Batch.Enqueue, index for index.
	Seqs []uint64
	// Dropped are the items the queue bounds removed to make room.
	Dropped []Drop
}

// Commit writes the batch in one transaction and syncs it to disk: either
// all of it is stored or, when an error is returned, none of it. Enqueuing
// past a queue's MaxItems drops that queue's oldest items, reported in the
// result. The same transaction settles every acknowledgement journaled so
// far (JournalAck), so while alerts flow a delivery loop's acks ride on the
// commits that queue the next alerts instead of costing a sync of their
// own (Unsettled tells the loop which are left).
func (s *Store) Commit(b Batch) (CommitResult, error) {
	for i, e := range b.Enqueue {
		if err := checkSinkName(e.Sink); err != nil {
			return CommitResult{}, fmt.Errorf("state: commit: enqueue[%d]: %w", i, err)
		}
	}
	for i, c := range b.Files {
		if fileKey(c.File) == "" {
			return CommitResult{}, fmt.Errorf("state: commit: files[%d] (%s): empty file identity", i, c.Path)
		}
	}
	now := s.opts.Now()
	acks := s.journalPending()
	var res CommitResult
	err := s.db.Update(func(tx *bolt.Tx) error {
		res = CommitResult{}
		for _, a := range acks {
			if _, err := s.applyTo(tx, a.sink, Settlement{Acks: a.seqs}); err != nil {
				return fmt.Errorf("settle %s: %w", a.sink, err)
			}
		}
		files := tx.Bucket(bucketFiles)
		for _, c := range b.Files {
			c.Seen = now
			v, err := encodeCheckpoint(c)
			if err != nil {
				return fmt.Errorf("file %s: %w", c.Path, err)
			}
			if err := files.Put([]byte(fileKey(c.File)), v); err != nil {
				return fmt.Errorf("file %s: %w", c.Path, err)
			}
		}
		if err := s.step("files"); err != nil {
			return err
		}
		if b.Grouping != nil {
			v := make([]byte, 4, 4+len(b.Grouping.Data))
			binary.BigEndian.PutUint32(v, b.Grouping.Version)
			v = append(v, b.Grouping.Data...)
			if err := tx.Bucket(bucketGrouping).Put(keyGrouping, v); err != nil {
				return fmt.Errorf("grouping: %w", err)
			}
		}
		if b.Incidents != nil {
			if err := putIncidents(tx, b.Incidents); err != nil {
				return fmt.Errorf("incidents: %w", err)
			}
		}
		if err := s.step("grouping"); err != nil {
			return err
		}
		if b.Gate != nil {
			if err := putGate(tx, b.Gate); err != nil {
				return err
			}
		}
		if err := s.step("gate"); err != nil {
			return err
		}
		if b.Pushed != nil {
			if err := putPushed(tx, b.Pushed); err != nil {
				return err
			}
		}
		if len(b.Enqueue) == 0 {
			return nil
		}
		meta := tx.Bucket(bucketMeta)
		seq := getU64(meta.Get(keySeq))
		// Each sink's queue is opened once and its count written once,
		// however many alerts the batch holds for it.
		type added struct {
			q *queue
			n int
		}
		bySink := make(map[string]*added)
		res.Seqs = make([]uint64, 0, len(b.Enqueue))
		var order []string
		for _, e := range b.Enqueue {
			a := bySink[e.Sink]
			if a == nil {
				q, err := openQueue(tx, e.Sink, true)
				if err != nil {
					return err
				}
				a = &added{q: q}
				bySink[e.Sink] = a
				order = append(order, e.Sink)
			}
			seq++
			it := Item{Seq: seq, Enqueued: now, NextAttempt: now, Payload: e.Payload}
			if err := a.q.items.Put(u64(seq), encodeItem(it)); err != nil {
				return fmt.Errorf("queue %s: %w", e.Sink, err)
			}
			a.n++
			res.Seqs = append(res.Seqs, seq)
			if err := s.step("enqueue"); err != nil {
				return err
			}
		}
		if err := meta.Put(keySeq, u64(seq)); err != nil {
			return err
		}
		for _, sink := range order {
			a := bySink[sink]
			if err := a.q.setCount(a.q.count() + a.n); err != nil {
				return err
			}
			d, err := s.enforce(a.q, sink, now, false)
			if err != nil {
				return err
			}
			res.Dropped = append(res.Dropped, d...)
		}
		return s.step("bounds")
	})
	if err != nil {
		return CommitResult{}, fmt.Errorf("state: commit: %w", err)
	}
	for _, a := range acks {
		s.settled(a.sink, a.seqs)
	}
	s.count(res.Dropped)
	return res, nil
}

// putIncidents applies c to the incidents bucket.
func putIncidents(tx *bolt.Tx, c *IncidentChanges) error {
	if c.Reset {
		if err := tx.DeleteBucket(bucketIncidents); err != nil {
			return err
		}
		if _, err := tx.CreateBucket(bucketIncidents); err != nil {
			return err
		}
	}
	b := tx.Bucket(bucketIncidents)
	for _, kv := range c.Put {
		if kv.Key == "" {
			return errors.New("empty incident key")
		}
		if err := b.Put([]byte(kv.Key), kv.Value); err != nil {
			return fmt.Errorf("%s: %w", kv.Key, err)
		}
	}
	for _, k := range c.Delete {
		if k == "" {
			continue
		}
		if err := b.Delete([]byte(k)); err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
	}
	return nil
}

func (s *Store) step(name string) error {
	if s.hook == nil {
		return nil
	}
	return s.hook(name)
}

// checkSinkName keeps queue names printable and bounded: they become bucket
// names and metric labels.
func checkSinkName(name string) error {
	if name == "" {
		return errors.New("empty sink name")
	}
	if len(name) > 128 {
		return fmt.Errorf("sink name longer than 128 bytes")
	}
	for _, r := range name {
		if r < 0x21 || r == 0x7f {
			return fmt.Errorf("sink name %q: control or space character", name)
		}
	}
	return nil
}

func u64(v uint64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, v)
	return b
}

func getU64(b []byte) uint64 {
	if len(b) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(b)
}
