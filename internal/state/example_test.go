package state_test

import (
	"fmt"
	"log"
	"os"
	"time"

	"github.com/logmatch/logmatch/internal/state"

	"github.com/logmatch/logmatch/internal/source"
)

// Example shows run mode's use of the store: commit what a read batch
// produced in one transaction, then deliver from a sink's queue.
func Example() {
	dir, err := os.MkdirTemp("", "logmatch-state")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	s, err := state.Open(dir, state.Options{Queue: state.QueueBounds{MaxItems: 1000, MaxAge: 24 * time.Hour}})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	// The reader consumed server.log up to byte 8192; one entry matched and
	// its alert goes to both configured sinks.
	alert := []byte(`{"schema":"logmatch.alert/v1","kind":"new"}`)
	res, err := s.Commit(state.Batch{
		Files: []state.Checkpoint{{
			Checkpoint: source.Checkpoint{File: source.FileID{Dev: 64769, Ino: 131, Size: 1024, Sum: [16]byte{0x5e, 0x1f}}, Offset: 8192},
			Path:       "/var/log/sglang/server.log",
			Emitted:    map[string]int64{"": 8192},
		}},
		Grouping: &state.Grouping{Version: 1, Data: []byte(`{}`)},
		Enqueue:  []state.Enqueue{{Sink: "slack", Payload: alert}, {Sink: "stdout", Payload: alert}},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range res.Dropped {
		log.Printf("queue %s full: dropped %d alerts (%s)", d.Sink, d.Count, d.Reason)
	}

	// The slack delivery loop.
	items, _, err := s.Peek("slack", 10)
	if err != nil {
		log.Fatal(err)
	}
	for _, it := range items {
		delivered := it.Attempts > 0 // pretend the first attempt fails
		if delivered {
			_, err = s.Ack("slack", it.Seq)
		} else {
			_, err = s.Defer("slack", it.Seq, time.Now().Add(-time.Second), it.Attempts+1)
		}
		if err != nil {
			log.Fatal(err)
		}
	}
	depth, _ := s.Depth("slack")
	fmt.Println("slack queue after first attempt:", depth)
	items, _, _ = s.Peek("slack", 10)
	_, _ = s.Ack("slack", items[0].Seq)
	depth, _ = s.Depth("slack")
	fmt.Println("slack queue after retry:", depth)
	// Output:
	// slack queue after first attempt: 1
	// slack queue after retry: 0
}
