package state

import (
	"encoding/binary"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The liveness gate's blob lives in its own bucket, created by the first
// Commit that carries one, so a state file written before logmatch had a
// gate opens unchanged (no schema bump) and reads as "no gate stored".
var (
	bucketGate = []byte("gate")
	keyGate    = []byte("blob")
)

// Gate is the liveness gate's state (internal/health), serialised by the
// gate. Version is the gate's own format version, so a newer logmatch can
// tell a blob it cannot read and start with every target healthy.
type Gate struct {
	Version uint32
	Data    []byte
}

// Gate returns the stored gate blob; ok is false when none was committed
// yet.
func (s *Store) Gate() (g Gate, ok bool, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketGate)
		if b == nil {
			return nil
		}
		v := b.Get(keyGate)
		if v == nil {
			return nil
		}
		if len(v) < 4 {
			return errors.New("malformed gate blob")
		}
		g = Gate{Version: binary.BigEndian.Uint32(v), Data: append([]byte(nil), v[4:]...)}
		ok = true
		return nil
	})
	if err != nil {
		return Gate{}, false, fmt.Errorf("state: read gate: %w", err)
	}
	return g, ok, nil
}

// putGate stores g inside Commit's transaction.
func putGate(tx *bolt.Tx, g *Gate) error {
	b, err := tx.CreateBucketIfNotExists(bucketGate)
	if err != nil {
		return fmt.Errorf("gate: %w", err)
	}
	v := make([]byte, 4, 4+len(g.Data))
	binary.BigEndian.PutUint32(v, g.Version)
	v = append(v, g.Data...)
	if err := b.Put(keyGate, v); err != nil {
		return fmt.Errorf("gate: %w", err)
	}
	return nil
}
