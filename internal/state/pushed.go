package state

import (
	"encoding/binary"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The network inputs' blob lives in its own bucket, created by the first
// Commit that carries one, so a state file written before logmatch
// accepted pushes opens unchanged and reads as "nothing stored".
var (
	bucketPushed = []byte("pushed")
	keyPushed    = []byte("blob")
)

// Pushed is what the network inputs need after a restart to lose and
// repeat nothing of pushes already acknowledged (the lines of entries
// still open, the identities of committed pushes), serialised by them.
// It is committed with the alerts of the same lines. Version is their own
// format version.
type Pushed struct {
	Version uint32
	Data    []byte
}

// Pushed returns the stored blob of the network inputs; ok is false when
// none was committed yet.
func (s *Store) Pushed() (p Pushed, ok bool, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketPushed)
		if b == nil {
			return nil
		}
		v := b.Get(keyPushed)
		if v == nil {
			return nil
		}
		if len(v) < 4 {
			return errors.New("malformed pushed blob")
		}
		p = Pushed{Version: binary.BigEndian.Uint32(v), Data: append([]byte(nil), v[4:]...)}
		ok = true
		return nil
	})
	if err != nil {
		return Pushed{}, false, fmt.Errorf("state: read pushed: %w", err)
	}
	return p, ok, nil
}

// putPushed stores p inside Commit's transaction.
func putPushed(tx *bolt.Tx, p *Pushed) error {
	b, err := tx.CreateBucketIfNotExists(bucketPushed)
	if err != nil {
		return fmt.Errorf("pushed: %w", err)
	}
	v := make([]byte, 4, 4+len(p.Data))
	binary.BigEndian.PutUint32(v, p.Version)
	v = append(v, p.Data...)
	if err := b.Put(keyPushed, v); err != nil {
		return fmt.Errorf("pushed: %w", err)
	}
	return nil
}
