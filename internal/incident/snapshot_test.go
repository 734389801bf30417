package incident

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"
)

// storedParts is a checkpoint that applies Changes as the state store
// does: the incidents one by one, the meta whole.
type storedParts struct {
	meta  []byte
	parts map[string][]byte
}

func (s *storedParts) apply(c Changes) {
	if c.Reset {
		clear(s.parts)
	}
	for _, p := range c.Put {
		s.parts[p.ID] = p.Data
	}
	for _, id := range c.Delete {
		delete(s.parts, id)
	}
	s.meta = c.Meta
}

func (s *storedParts) each(yield func(id string, data []byte) error) error {
	for _, id := range slices.Sorted(maps.Keys(s.parts)) {
		if err := yield(id, s.parts[id]); err != nil {
			return err
		}
	}
	return nil
}

// FuzzChanges drives a grouper through observations, ticks, flushes,
// restores and commits that succeed or fail, chosen by the input, and
// checks after every successful commit that the stored parts hold exactly
// the open incidents, each as encoding it afresh writes it, and that a
// grouper restored from them snapshots as the original: a change to a
// group that is not marked for the next Changes shows here, and so does
// a failed commit whose changes are not written by the next one.
func FuzzChanges(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 40, 41, 200, 5, 6, 7, 250, 9})
	f.Add([]byte{1, 0, 0, 10, 10, 200, 201, 202, 20, 30, 255, 4})
	f.Add([]byte{2, 3, 13, 23, 33, 43, 53, 210, 220, 230, 240, 63, 73})
	f.Add([]byte{3, 0, 1, 100, 101, 102, 250, 103, 104, 255, 0, 1})
	f.Add([]byte{4, 5, 15, 25, 35, 45, 55, 65, 75, 85, 95, 205, 245, 250})
	f.Add([]byte{4, 5, 254, 15, 254, 25, 254, 35, 254, 45, 254, 55, 254, 65, 254, 75, 254, 85, 254, 95, 205, 245})
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
		store := &storedParts{parts: map[string][]byte{}}
		now := t0
		for i, op := range ops[1:] {
			commit := true
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
			case op == 253:
				// A whole snapshot carried over, as a reload does.
				b, err := g.Snapshot()
				if err != nil {
					t.Fatal(err)
				}
				g = New(opts)
				if err := g.Restore(b); err != nil {
					t.Fatalf("step %d: restore: %v", i, err)
				}
			case op == 254:
				// The commit fails: its changes must be in the next.
				if _, err := g.Changes(); err != nil {
					t.Fatal(err)
				}
				commit = false
			default:
				// A restart from the last commit.
				g = New(opts)
				if err := g.RestoreParts(store.meta, store.each); err != nil {
					t.Fatalf("step %d: restore parts: %v", i, err)
				}
			}
			if !commit {
				continue
			}
			c, err := g.Changes()
			if err != nil {
				t.Fatal(err)
			}
			store.apply(c)
			g.Committed()
			want := map[string][]byte{}
			for id, gr := range g.groups {
				b, err := json.Marshal(gr)
				if err != nil {
					t.Fatal(err)
				}
				want[id] = b
			}
			if !maps.EqualFunc(store.parts, want, func(a, b []byte) bool { return string(a) == string(b) }) {
				t.Fatalf("step %d (op %d): stored incidents differ from the open ones encoded afresh:\n got %q\nwant %q", i, op, store.parts, want)
			}
			r := New(opts)
			if err := r.RestoreParts(store.meta, store.each); err != nil {
				t.Fatalf("step %d: restore parts: %v", i, err)
			}
			got, _ := r.Snapshot()
			orig, _ := g.Snapshot()
			if string(got) != string(orig) {
				t.Fatalf("step %d (op %d): restored from parts:\n got %s\nwant %s", i, op, got, orig)
			}
		}
	})
}
