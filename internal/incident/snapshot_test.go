package incident

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// FuzzSnapshotCache drives a grouper through observations, ticks, flushes
// and restores chosen by the input, and checks after every step that
// Snapshot, which re-encodes only the groups that changed since the last
// one, writes exactly what encoding the whole state afresh writes: a
// change to a group that does not drop its cached JSON shows here.
func FuzzSnapshotCache(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 40, 41, 200, 5, 6, 7, 250, 9})
	f.Add([]byte{1, 0, 0, 10, 10, 200, 201, 202, 20, 30, 255, 4})
	f.Add([]byte{2, 3, 13, 23, 33, 43, 53, 210, 220, 230, 240, 63, 73})
	f.Add([]byte{3, 0, 1, 100, 101, 102, 250, 103, 104, 255, 0, 1})
	f.Add([]byte{4, 5, 15, 25, 35, 45, 55, 65, 75, 85, 95, 205, 245, 250})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) == 0 {
			return
		}
		opts := []Options{
			foldOpts,
			{Window: time.Minute},
			{Window: time.Minute, Correlation: 15 * time.Minute},
			{Window: -1, Correlation: time.Minute, Settle: time.Second},
			{Window: 5 * time.Minute, RepeatInterval: 2 * time.Minute, Settle: time.Second, Correlation: time.Minute, MaxGroups: 4},
		}[int(ops[0])%5]
		g := New(opts)
		now := t0
		for i, op := range ops[1:] {
			switch {
			case op < 200:
				// An occurrence: one of 5 keys, a cause or a
				// consequence, in one of 3 scopes, on one of 4 ranks.
				key := fmt.Sprintf("k%d", op%5)
				scope := fmt.Sprintf("pod:%d", op/5%3)
				rank := fmt.Sprintf("TP%d", op/15%4)
				at := now.Add(-time.Duration(op%7) * time.Second)
				o := cause(key, scope, rank, at)
				if op/60%2 == 1 {
					o = cons("c"+key, scope, rank, at)
				}
				g.Observe(o, now)
			case op < 250:
				now = now.Add(time.Duration(op-199) * 7 * time.Second)
				g.Tick(now)
			case op < 253:
				g.Flush(now)
			default:
				b, err := g.Snapshot()
				if err != nil {
					t.Fatal(err)
				}
				g = New(opts)
				if err := g.Restore(b); err != nil {
					t.Fatalf("step %d: restore: %v", i, err)
				}
			}
			got, err := g.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			want, err := json.Marshal(snapshot{Version: snapshotVersion, Seq: g.seq, Groups: g.groups, Clocks: g.clocks})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Fatalf("step %d (op %d): Snapshot differs from the whole state encoded afresh:\n got %s\nwant %s", i, op, got, want)
			}
		}
	})
}
