package state

import (
	"bytes"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/source"
)

// FuzzDecodeItem feeds arbitrary stored bytes to the queue item decoder:
// it must reject what it cannot read without panicking, and whatever it
// accepts must encode back to the same bytes.
func FuzzDecodeItem(f *testing.F) {
	f.Add(u64(1), encodeItem(Item{Enqueued: time.Unix(1, 2), NextAttempt: time.Unix(3, 4), Attempts: 2, Payload: []byte(`{"schema":"logmatch.alert/v1"}`)}))
	f.Add(u64(0), []byte{})
	f.Add([]byte{1}, []byte{itemVersion, 0, 0})
	f.Fuzz(func(t *testing.T, k, v []byte) {
		it, err := decodeItem(k, v, true)
		if err != nil {
			return
		}
		if got := encodeItem(it); !bytes.Equal(got, v) {
			t.Errorf("re-encoded %x, stored %x", got, v)
		}
	})
}

// FuzzDecodeCheckpoint feeds arbitrary stored bytes to the checkpoint
// decoder, which must fail cleanly, never panic.
func FuzzDecodeCheckpoint(f *testing.F) {
	v, err := encodeCheckpoint(Checkpoint{Checkpoint: source.Checkpoint{File: fid(1, 2, "fp"), Offset: 9}, Path: "a.log", Emitted: map[string]int64{"stderr": 12}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(v)
	f.Add([]byte(`{"offset":-1}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, v []byte) {
		c, err := decodeCheckpoint([]byte("k"), v)
		if err != nil {
			return
		}
		if _, err := encodeCheckpoint(c); err != nil {
			t.Errorf("decoded checkpoint does not encode: %v", err)
		}
	})
}
