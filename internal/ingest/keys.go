package ingest

import (
	"crypto/sha256"
	"encoding/binary"
	"sync"
)

// MaxPushKeys bounds the keys of committed pushes kept to recognise a
// retry. A shipper retries its oldest unanswered batches first and holds
// a few in flight, so a retry comes within its last few pushes; the bound
// covers a thousand.
const MaxPushKeys = 1024

// pushKeys are the keys of pushes committed lately (a bounded FIFO) and
// of those being committed now.
type pushKeys struct {
	mu       sync.Mutex
	order    []PushKey // committed, oldest first
	set      map[PushKey]bool
	inFlight map[PushKey]bool
}

type keyState int

const (
	keyNew keyState = iota
	keyCommitted
	keyInFlight
)

// begin reports what is known of k; a new key is in flight from then on,
// until end.
func (ks *pushKeys) begin(k PushKey) keyState {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	switch {
	case ks.set[k]:
		return keyCommitted
	case ks.inFlight[k]:
		return keyInFlight
	}
	if ks.inFlight == nil {
		ks.inFlight = map[PushKey]bool{}
	}
	ks.inFlight[k] = true
	return keyNew
}

func (ks *pushKeys) end(k PushKey) {
	ks.mu.Lock()
	delete(ks.inFlight, k)
	ks.mu.Unlock()
}

// committed records k as committed, forgetting the oldest past the bound.
func (ks *pushKeys) committed(k PushKey) {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	if ks.set[k] {
		return
	}
	if len(ks.order) >= MaxPushKeys {
		delete(ks.set, ks.order[0])
		ks.order = append(ks.order[:0], ks.order[1:]...)
	}
	ks.order = append(ks.order, k)
	ks.set[k] = true
}

func (ks *pushKeys) list() []PushKey {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	return append([]PushKey(nil), ks.order...)
}

// pushKeyOf is the key of a push of streams to input; keyed is false when
// an entry has no time (OTLP allows it): two pushes of the same lines
// could then be two events, and neither may be taken for a retry.
func pushKeyOf(input string, streams []PushStream) (key PushKey, keyed bool) {
	h := sha256.New()
	var n [8]byte
	word := func(s string) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	word(input)
	for _, s := range streams {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s.Labels)))
		h.Write(n[:])
		for _, l := range s.Labels {
			word(l.Name)
			word(l.Value)
		}
		binary.LittleEndian.PutUint64(n[:], uint64(len(s.Entries)))
		h.Write(n[:])
		for _, e := range s.Entries {
			if e.Time.IsZero() {
				return PushKey{}, false
			}
			binary.LittleEndian.PutUint64(n[:], uint64(e.Time.UnixNano()))
			h.Write(n[:])
			word(e.Line)
		}
	}
	copy(key[:], h.Sum(nil))
	return key, true
}
