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

// BenchmarkPeekAck measures a delivery round of 64 alerts: Peek them,
// then acknowledge them one transaction per alert ("each", what a loop
// sending one alert at a time did) or journal each and Settle them all at
// once ("grouped", what it does now).
func BenchmarkPeekAck(b *testing.B) {
	const n = 64
	for _, grouped := range []bool{false, true} {
		name := "each"
		if grouped {
			name = "grouped"
		}
		b.Run(name, func(b *testing.B) {
			s := open(b, b.TempDir(), Options{})
			alert := bytes.Repeat([]byte("x"), 2048)
			var batch Batch
			for range n {
				batch.Enqueue = append(batch.Enqueue, Enqueue{Sink: "slack", Payload: alert})
			}
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				if _, err := s.Commit(batch); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				items, _, err := s.Peek("slack", n)
				if err != nil {
					b.Fatal(err)
				}
				if !grouped {
					for _, it := range items {
						if _, err := s.Ack("slack", it.Seq); err != nil {
							b.Fatal(err)
						}
					}
					continue
				}
				var st Settlement
				for _, it := range items {
					if err := s.JournalAck("slack", it.Seq); err != nil {
						b.Fatal(err)
					}
					st.Acks = append(st.Acks, it.Seq)
				}
				if _, err := s.Settle("slack", st); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
