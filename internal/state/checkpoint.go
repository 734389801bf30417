package state

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
)

// FileID identifies a file by what survives a rename: device, inode and a
// fingerprint of its first bytes. The fingerprint is either those bytes
// themselves (Size 0) or a hash of the first Size bytes, as the tailer
// (internal/source) computes it; the tailer owns the identity check and
// the store only keeps what it is given.
type FileID struct {
	Fingerprint []byte `json:"fp"`
	Size        int    `json:"size,omitempty"` // bytes a hashed Fingerprint covers; 0 for raw bytes
	Dev         uint64 `json:"dev"`
	Ino         uint64 `json:"ino"`
}

// Key is the checkpoint's key in the store: device and inode when known,
// else the fingerprint. The fingerprint is not part of the key because it
// grows while a young file is shorter than the fingerprint length.
func (id FileID) Key() string {
	if id.Dev != 0 || id.Ino != 0 {
		return "di:" + strconv.FormatUint(id.Dev, 16) + ":" + strconv.FormatUint(id.Ino, 16)
	}
	if len(id.Fingerprint) == 0 {
		return ""
	}
	return "fp:" + hex.EncodeToString(id.Fingerprint)
}

// FingerprintHex is the fingerprint in hex, for logs.
func (id FileID) FingerprintHex() string { return hex.EncodeToString(id.Fingerprint) }

// SameContent reports whether two fingerprints can be of the same file.
// Raw fingerprints match when one is a prefix of the other, since a file
// shorter than the fingerprint length has a shorter fingerprint that grows
// with it; an empty one (an empty file) matches anything. Hashed
// fingerprints match only when they cover the same number of bytes and are
// equal: a hash of a shorter prefix says nothing about a longer one.
func (id FileID) SameContent(other FileID) bool {
	if id.Size != 0 || other.Size != 0 {
		return id.Size == other.Size && bytes.Equal(id.Fingerprint, other.Fingerprint)
	}
	a, b := id.Fingerprint, other.Fingerprint
	if len(a) > len(b) {
		a, b = b, a
	}
	return bytes.Equal(a, b[:len(a)])
}

// Checkpoint is how far one file has been read; see the package doc for the
// meaning of Offset and Emitted.
type Checkpoint struct {
	ID   FileID `json:"id"`
	Path string `json:"path"` // the path the file was last read under
	// Offset is where reading resumes: the first byte of the oldest line of
	// a pending entry, or the end of the data read.
	Offset int64 `json:"offset"`
	// Emitted maps a stream name to the position (the pipeline uses the
	// start offset) of the last line of that stream that went into an
	// emitted entry.
	Emitted map[string]int64 `json:"emitted,omitempty"`
	// Seen is when a Commit last stored this checkpoint; Prune forgets
	// checkpoints by it. Commit sets it; callers leave it zero.
	Seen time.Time `json:"seen"`
}

// AlreadyEmitted reports whether a line of stream at position pos (in the
// same terms as Emitted) was already part of an emitted entry, so a reader
// resuming at Offset must skip it.
func (c Checkpoint) AlreadyEmitted(stream string, pos int64) bool {
	e, ok := c.Emitted[stream]
	return ok && pos <= e
}

func encodeCheckpoint(c Checkpoint) ([]byte, error) { return json.Marshal(c) }

func decodeCheckpoint(key, v []byte) (Checkpoint, error) {
	var c Checkpoint
	if err := json.Unmarshal(v, &c); err != nil {
		return Checkpoint{}, fmt.Errorf("checkpoint %s: %w", key, err)
	}
	return c, nil
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

// File returns the checkpoint stored under id's key when its fingerprint
// agrees with id's (FileID.SameContent). A stored checkpoint whose
// fingerprint differs belongs to an earlier file that had the same inode:
// ok is false and the caller reads the file as new.
func (s *Store) File(id FileID) (c Checkpoint, ok bool, err error) {
	key := id.Key()
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
		if got.ID.SameContent(id) {
			c, ok = got, true
		}
		return nil
	})
	if err != nil {
		return Checkpoint{}, false, fmt.Errorf("state: read file %s: %w", key, err)
	}
	return c, ok, nil
}

// ByPath indexes checkpoints by their last path, keeping for each path the
// one stored most recently: the lookup a tailer does at start ("what was
// read under this path before?"), after which it checks the identity.
func ByPath(cps []Checkpoint) map[string]Checkpoint {
	m := make(map[string]Checkpoint, len(cps))
	for _, c := range cps {
		if old, ok := m[c.Path]; !ok || c.Seen.After(old.Seen) {
			m[c.Path] = c
		}
	}
	return m
}

// Prune forgets the checkpoints no Commit has stored for longer than
// notSeenFor and returns them, oldest first, for the caller to log. Run
// mode includes the checkpoint of every file it still has open in its
// periodic commits, so only files gone from disk (or from the globs) age
// out, and the database does not grow with every rotated file forever.
func (s *Store) Prune(notSeenFor time.Duration) ([]Checkpoint, error) {
	cutoff := s.opts.Now().Add(-notSeenFor)
	var gone []Checkpoint
	err := s.db.Update(func(tx *bolt.Tx) error {
		gone = gone[:0]
		files := tx.Bucket(bucketFiles)
		var keys [][]byte
		err := files.ForEach(func(k, v []byte) error {
			c, err := decodeCheckpoint(k, v)
			if err != nil {
				return err
			}
			if c.Seen.Before(cutoff) {
				keys = append(keys, append([]byte(nil), k...))
				gone = append(gone, c)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range keys {
			if err := files.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("state: prune files: %w", err)
	}
	sort.SliceStable(gone, func(i, j int) bool { return gone[i].Seen.Before(gone[j].Seen) })
	return gone, nil
}
