package state

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/logmatch/logmatch/internal/source"
)

// BenchmarkCommit measures one synced Commit carrying one file checkpoint,
// the grouping blob and n alerts of a typical size, the unit run mode
// commits after a read batch.
func BenchmarkCommit(b *testing.B) {
	alert := bytes.Repeat([]byte("x"), 2048)
	grouping := &Grouping{Version: 1, Data: bytes.Repeat([]byte("g"), 4096)}
	for _, n := range []int{1, 100} {
		b.Run(fmt.Sprintf("alerts=%d", n), func(b *testing.B) {
			s := open(b, b.TempDir(), Options{Queue: QueueBounds{MaxItems: 1 << 30}})
			batch := Batch{Grouping: grouping}
			for range n {
				batch.Enqueue = append(batch.Enqueue, Enqueue{Sink: "slack", Payload: alert})
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				batch.Files = []Checkpoint{{Checkpoint: source.Checkpoint{File: source.FileID{Dev: 1, Ino: 2}, Offset: int64(i)}, Path: "server.log"}}
				if _, err := s.Commit(batch); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPeekAck measures a delivery round: Peek 10 items and Ack them.
func BenchmarkPeekAck(b *testing.B) {
	s := open(b, b.TempDir(), Options{})
	alert := bytes.Repeat([]byte("x"), 2048)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		var batch Batch
		for range 10 {
			batch.Enqueue = append(batch.Enqueue, Enqueue{Sink: "slack", Payload: alert})
		}
		if _, err := s.Commit(batch); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		items, _, err := s.Peek("slack", 10)
		if err != nil {
			b.Fatal(err)
		}
		seqs := make([]uint64, len(items))
		for i, it := range items {
			seqs[i] = it.Seq
		}
		if _, err := s.Ack("slack", seqs...); err != nil {
			b.Fatal(err)
		}
	}
}
