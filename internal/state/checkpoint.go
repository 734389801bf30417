package state

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/logmatch/logmatch/internal/source"
)

// Checkpoint is how far one file has been read. Its identity and resume
// offset are the tailer's own source.Checkpoint, stored as the tailer
// reported them with the last line read (after a truncation or a rewrite,
// the new content's identity); the store only keeps what it is given and
// never judges identity. See the package doc for Offset and Emitted.
type Checkpoint struct {
	// Checkpoint holds File, the identity, and Offset, where reading
	// resumes: the first byte of the oldest line of a pending entry, or the
	// end of the data read.
	source.Checkpoint
	Path string // the path the file was last read under
	// Emitted maps a stream name to the position (the pipeline uses the
	// start offset) of the last line of that stream that went into an
	// emitted entry.
	Emitted map[string]int64
	// Gone marks the checkpoint of a file the tailer stopped following
	// (deleted, or rotated out of the globs and read to its end): it is
	// kept for a while, then Prune forgets it.
	Gone bool
	// Seen is when a Commit last stored this checkpoint; for a Gone one,
	// when the file went. Commit sets it; callers leave it zero.
	Seen time.Time
}

// AlreadyEmitted reports whether a line of stream at position pos (in the
// same terms as Emitted) was already part of an emitted entry, so a reader
// resuming at Offset must skip it.
func (c Checkpoint) AlreadyEmitted(stream string, pos int64) bool {
	e, ok := c.Emitted[stream]
	return ok && pos <= e
}

// fileKey is a checkpoint's key in the store: device and inode when known,
// else the fingerprint. The fingerprint is not part of the key because it
// grows while a young file is shorter than the fingerprint length, and a
// truncated file keeps its key with its new content's fingerprint.
func fileKey(id source.FileID) string {
	if id.Dev != 0 || id.Ino != 0 {
		return "di:" + strconv.FormatUint(id.Dev, 16) + ":" + strconv.FormatUint(id.Ino, 16)
	}
	if id.IsZero() {
		return ""
	}
	return "fp:" + hex.EncodeToString(id.Sum[:])
}

// storedCheckpoint is a checkpoint's JSON in the files bucket. The layout
// predates source.FileID as the one identity type and is kept as it was, so
// state files of earlier versions load unchanged and this version's load in
// them: the identity is {"fp": base64 of the 16-byte fingerprint, "size":
// the bytes it covers (absent for an empty file), "dev", "ino"}.
type storedCheckpoint struct {
	ID      storedID         `json:"id"`
	Path    string           `json:"path"`
	Offset  int64            `json:"offset"`
	Emitted map[string]int64 `json:"emitted,omitempty"`
	Gone    bool             `json:"gone,omitempty"`
	Seen    time.Time        `json:"seen"`
}

type storedID struct {
	Fingerprint []byte `json:"fp"`
	Size        int    `json:"size,omitempty"`
	Dev         uint64 `json:"dev"`
	Ino         uint64 `json:"ino"`
}

func encodeCheckpoint(c Checkpoint) ([]byte, error) {
	id := c.File
	return json.Marshal(storedCheckpoint{
		ID:   storedID{Fingerprint: id.Sum[:], Size: id.Size, Dev: id.Dev, Ino: id.Ino},
		Path: c.Path, Offset: c.Offset, Emitted: c.Emitted, Gone: c.Gone, Seen: c.Seen,
	})
}

func decodeCheckpoint(key, v []byte) (Checkpoint, error) {
	var sc storedCheckpoint
	if err := json.Unmarshal(v, &sc); err != nil {
		return Checkpoint{}, fmt.Errorf("checkpoint %s: %w", key, err)
	}
	id := source.FileID{Dev: sc.ID.Dev, Ino: sc.ID.Ino, Size: sc.ID.Size}
	if len(sc.ID.Fingerprint) != len(id.Sum) {
		return Checkpoint{}, fmt.Errorf("checkpoint %s: id.fp: %d bytes, want %d", key, len(sc.ID.Fingerprint), len(id.Sum))
	}
	if sc.ID.Size < 0 {
		return Checkpoint{}, fmt.Errorf("checkpoint %s: id.size: %d is negative", key, sc.ID.Size)
	}
	copy(id.Sum[:], sc.ID.Fingerprint)
	return Checkpoint{
		Checkpoint: source.Checkpoint{File: id, Offset: sc.Offset},
		Path:       sc.Path, Emitted: sc.Emitted, Gone: sc.Gone, Seen: sc.Seen,
	}, nil
}

// Files returns every stored checkpoint, ordered by key.
func (s *Store) Files() ([]Checkpoint, error) {
	var out []Checkpoint
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketFiles).ForEach(func(k, v []byte) error {
			c, err := decodeCheckpoint(k, v)
			if err != nil {
				return err
			}
			out = append(out, c)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("state: read files: %w", err)
	}
	return out, nil
}

// File returns the checkpoint stored under id's key when it holds the same
// identity. A stored checkpoint with another identity belongs to an earlier
// content of the file or to an earlier file that had the same inode: ok is
// false.
func (s *Store) File(id source.FileID) (c Checkpoint, ok bool, err error) {
	key := fileKey(id)
	if key == "" {
		return Checkpoint{}, false, nil
	}
	err = s.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketFiles).Get([]byte(key))
		if v == nil {
			return nil
		}
		got, err := decodeCheckpoint([]byte(key), v)
		if err != nil {
			return err
		}
		if got.File == id {
			c, ok = got, true
		}
		return nil
	})
	if err != nil {
		return Checkpoint{}, false, fmt.Errorf("state: read file %s: %w", key, err)
	}
	return c, ok, nil
}

// Positions are checkpoints by the path they were last read under; they
// are the tailer's source.Positions.
type Positions map[string]Checkpoint

var _ source.Positions = Positions(nil)

// Lookup returns the checkpoint last stored for path.
func (ps Positions) Lookup(path string) (source.Checkpoint, bool) {
	c, ok := ps[path]
	return c.Checkpoint, ok
}

// ByPath indexes checkpoints by their last path, keeping for each path the
// one stored most recently: the lookup a tailer does at start ("what was
// read under this path before?"), after which it checks the identity.
// Checkpoints of gone files are left out: their path now names another
// file, or none.
func ByPath(cps []Checkpoint) Positions {
	m := make(Positions, len(cps))
	for _, c := range cps {
		if c.Gone {
			continue
		}
		if old, ok := m[c.Path]; !ok || c.Seen.After(old.Seen) {
			m[c.Path] = c
		}
	}
	return m
}

// Defaults of PruneBounds.
const (
	DefaultPruneGoneFor   = time.Hour
	DefaultMaxCheckpoints = 10000
)

// PruneBounds say which checkpoints Prune forgets. A zero field takes its
// default.
type PruneBounds struct {
	// GoneFor forgets a Gone checkpoint stored longer ago than this
	// (default 1h): its file is no longer read.
	GoneFor time.Duration
	// MaxFiles bounds the checkpoints kept (default 10000). Past it the
	// least recently stored go first, Gone ones before the others: it
	// bounds the checkpoints of files that vanished while logmatch was not
	// running, which no Gone ever marks.
	MaxFiles int
}

// Prune forgets the checkpoints past the bounds and returns them, oldest
// first, for the caller to log and count. A checkpoint of a followed file
// is never forgotten by age: an idle file is not committed again, and its
// checkpoint must survive any stop.
func (s *Store) Prune(b PruneBounds) ([]Checkpoint, error) {
	if b.GoneFor <= 0 {
		b.GoneFor = DefaultPruneGoneFor
	}
	if b.MaxFiles <= 0 {
		b.MaxFiles = DefaultMaxCheckpoints
	}
	cutoff := s.opts.Now().Add(-b.GoneFor)
	type stored struct {
		key []byte
		cp  Checkpoint
	}
	var gone []Checkpoint
	err := s.db.Update(func(tx *bolt.Tx) error {
		gone = gone[:0]
		files := tx.Bucket(bucketFiles)
		var all []stored
		err := files.ForEach(func(k, v []byte) error {
			c, err := decodeCheckpoint(k, v)
			if err != nil {
				return err
			}
			all = append(all, stored{append([]byte(nil), k...), c})
			return nil
		})
		if err != nil {
			return err
		}
		// Gone ones first, then oldest first: the front is forgotten.
		sort.SliceStable(all, func(i, j int) bool {
			if all[i].cp.Gone != all[j].cp.Gone {
				return all[i].cp.Gone
			}
			return all[i].cp.Seen.Before(all[j].cp.Seen)
		})
		over := len(all) - b.MaxFiles
		for i, st := range all {
			if i >= over && !(st.cp.Gone && st.cp.Seen.Before(cutoff)) {
				continue
			}
			if err := files.Delete(st.key); err != nil {
				return err
			}
			gone = append(gone, st.cp)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("state: prune files: %w", err)
	}
	sort.SliceStable(gone, func(i, j int) bool { return gone[i].Seen.Before(gone[j].Seen) })
	return gone, nil
}
