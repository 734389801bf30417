package state

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	bolt "go.etcd.io/bbolt"
	"go.uber.org/goleak"

	"github.com/logmatch/logmatch/internal/source"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(crashHelperEnv); dir != "" {
		os.Exit(crashHelper(dir))
	}
	goleak.VerifyTestMain(m)
}

// clock is a settable fake clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func open(t testing.TB, dir string, opts Options) *Store {
	t.Helper()
	s, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil && !strings.Contains(err.Error(), "database not open") {
			t.Error(err)
		}
	})
	return s
}

// dump returns every key of the database, bucket paths joined by "/", with
// its value: the whole stored state, for before/after comparisons.
func dump(t *testing.T, s *Store) map[string]string {
	t.Helper()
	out := map[string]string{}
	var walk func(prefix string, b *bolt.Bucket) error
	walk = func(prefix string, b *bolt.Bucket) error {
		return b.ForEach(func(k, v []byte) error {
			name := prefix + "/" + fmt.Sprintf("%q", k)
			if v == nil {
				out[name] = "<bucket>"
				return walk(name, b.Bucket(k))
			}
			out[name] = fmt.Sprintf("%q", v)
			return nil
		})
	}
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			return walk(string(name), b)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func payloads(items []Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, string(it.Payload))
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	clk := newClock()
	s := open(t, dir, Options{Now: clk.Now})

	cp := Checkpoint{
		Checkpoint: source.Checkpoint{File: fid(64769, 1234, "[2026-03-01 12:00:00] Load weight"), Offset: 4096},
		Path:       "/var/log/sglang/server.log",
		Emitted:    map[string]int64{"stdout": 5000, "stderr": 4096},
	}
	res, err := s.Commit(Batch{
		Files:    []Checkpoint{cp},
		Grouping: &Grouping{Version: 3, Data: []byte(`{"groups":[]}`)},
		Enqueue: []Enqueue{
			{Sink: "slack", Payload: []byte(`{"n":1}`)},
			{Sink: "stdout", Payload: []byte(`{"n":1}`)},
			{Sink: "slack", Payload: []byte(`{"n":2}`)},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]uint64{1, 2, 3}, res.Seqs); diff != "" {
		t.Errorf("seqs (-want +got):\n%s", diff)
	}
	if len(res.Dropped) != 0 {
		t.Errorf("dropped %v, want none", res.Dropped)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = open(t, dir, Options{Now: clk.Now})
	files, err := s.Files()
	if err != nil {
		t.Fatal(err)
	}
	want := cp
	want.Seen = clk.Now()
	if diff := cmp.Diff([]Checkpoint{want}, files, cmpopts.EquateApproxTime(0)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	g, ok, err := s.Grouping()
	if err != nil || !ok {
		t.Fatalf("grouping: ok %v, err %v", ok, err)
	}
	if diff := cmp.Diff(Grouping{Version: 3, Data: []byte(`{"groups":[]}`)}, g); diff != "" {
		t.Errorf("grouping (-want +got):\n%s", diff)
	}
	items, drops, err := s.Peek("slack", 10)
	if err != nil {
		t.Fatal(err)
	}
	wantItems := []Item{
		{Seq: 1, Enqueued: clk.Now(), NextAttempt: clk.Now(), Payload: []byte(`{"n":1}`)},
		{Seq: 3, Enqueued: clk.Now(), NextAttempt: clk.Now(), Payload: []byte(`{"n":2}`)},
	}
	if diff := cmp.Diff(wantItems, items, cmpopts.EquateApproxTime(0)); diff != "" {
		t.Errorf("peek slack (-want +got):\n%s", diff)
	}
	if len(drops) != 0 {
		t.Errorf("peek dropped %v", drops)
	}
	sinks, err := s.Sinks()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"slack", "stdout"}, sinks); diff != "" {
		t.Errorf("sinks (-want +got):\n%s", diff)
	}
	for sink, want := range map[string]int{"slack": 2, "stdout": 1, "webhook": 0} {
		if got, err := s.Depth(sink); err != nil || got != want {
			t.Errorf("Depth(%s) = %d, %v; want %d", sink, got, err, want)
		}
	}

	// The sequence continues after a reopen rather than restarting.
	res, err = s.Commit(Batch{Enqueue: []Enqueue{{Sink: "stdout", Payload: []byte("x")}}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]uint64{4}, res.Seqs); diff != "" {
		t.Errorf("seqs after reopen (-want +got):\n%s", diff)
	}

	st, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode().Perm(); got != 0o700 {
		t.Errorf("state dir mode %v, want 0700", got)
	}
	st, err = os.Stat(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode().Perm(); got != 0o600 {
		t.Errorf("state file mode %v, want 0600", got)
	}
}

func TestEmptyStore(t *testing.T) {
	s := open(t, t.TempDir(), Options{})
	files, err := s.Files()
	if err != nil || len(files) != 0 {
		t.Errorf("Files() = %v, %v; want none", files, err)
	}
	if _, ok, err := s.Grouping(); ok || err != nil {
		t.Errorf("Grouping() ok %v, err %v; want nothing", ok, err)
	}
	items, drops, err := s.Peek("slack", 10)
	if len(items) != 0 || len(drops) != 0 || err != nil {
		t.Errorf("Peek() = %v, %v, %v; want nothing", items, drops, err)
	}
	if n, err := s.Ack("slack", 1); n != 0 || err != nil {
		t.Errorf("Ack() = %d, %v; want 0", n, err)
	}
	if found, err := s.Defer("slack", 1, time.Now(), 1); found || err != nil {
		t.Errorf("Defer() = %v, %v; want not found", found, err)
	}
	if _, ok, err := s.NextAttempt("slack"); ok || err != nil {
		t.Errorf("NextAttempt() ok %v, err %v; want nothing", ok, err)
	}
	if _, err := s.DropQueue("slack"); !errors.Is(err, ErrNotFound) {
		t.Errorf("DropQueue() err %v, want ErrNotFound", err)
	}
}

func TestCommitAtomic(t *testing.T) {
	cp := func(off int64) Checkpoint {
		return Checkpoint{Checkpoint: source.Checkpoint{File: source.FileID{Dev: 1, Ino: 2}, Offset: off}, Path: "a.log"}
	}
	good := Batch{
		Files:     []Checkpoint{cp(10)},
		Grouping:  &Grouping{Version: 1, Data: []byte("g1")},
		Incidents: &IncidentChanges{Put: []KeyValue{{Key: "a", Value: []byte("a1")}, {Key: "b", Value: []byte("b1")}}},
		Enqueue:   []Enqueue{{Sink: "slack", Payload: []byte("1")}, {Sink: "webhook", Payload: []byte("1")}},
	}
	next := Batch{
		Files:     []Checkpoint{cp(20), {Checkpoint: source.Checkpoint{File: source.FileID{Dev: 1, Ino: 3}, Offset: 5}, Path: "b.log"}},
		Grouping:  &Grouping{Version: 1, Data: []byte("g2")},
		Incidents: &IncidentChanges{Reset: true, Put: []KeyValue{{Key: "c", Value: []byte("c2")}}, Delete: []string{"a"}},
		Enqueue: []Enqueue{
			{Sink: "slack", Payload: []byte("2")}, {Sink: "webhook", Payload: []byte("2")},
			{Sink: "otel", Payload: []byte("2")},
		},
	}
	tests := []struct {
		name    string
		failAt  string // Commit step whose hook fails
		batch   Batch
		wantErr string
	}{
		{name: "after files", failAt: "files", batch: next, wantErr: "injected at files"},
		{name: "after grouping", failAt: "grouping", batch: next, wantErr: "injected at grouping"},
		{name: "after first enqueue", failAt: "enqueue", batch: next, wantErr: "injected at enqueue"},
		{name: "after bounds", failAt: "bounds", batch: next, wantErr: "injected at bounds"},
		{
			name: "invalid sink name",
			batch: Batch{Files: next.Files, Enqueue: []Enqueue{
				{Sink: "slack", Payload: []byte("2")}, {Sink: "bad name", Payload: []byte("2")},
			}},
			wantErr: `state: commit: enqueue[1]: sink name "bad name": control or space character`,
		},
		{
			name:    "empty file identity",
			batch:   Batch{Files: []Checkpoint{cp(30), {Path: "c.log"}}},
			wantErr: "state: commit: files[1] (c.log): empty file identity",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t, t.TempDir(), Options{Queue: QueueBounds{MaxItems: 1}})
			if _, err := s.Commit(good); err != nil {
				t.Fatal(err)
			}
			before := dump(t, s)
			s.hook = func(step string) error {
				if step == tc.failAt {
					return fmt.Errorf("injected at %s", step)
				}
				return nil
			}
			_, err := s.Commit(tc.batch)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Commit() error %v, want one containing %q", err, tc.wantErr)
			}
			if diff := cmp.Diff(before, dump(t, s)); diff != "" {
				t.Errorf("a failed Commit changed the store (-before +after):\n%s", diff)
			}
			if got := s.DropCounts(); len(got) != 0 {
				t.Errorf("a failed Commit counted drops %v", got)
			}
			s.hook = nil
			if _, err := s.Commit(next); err != nil {
				t.Fatalf("Commit after failure: %v", err)
			}
		})
	}
}

func TestQueueBounds(t *testing.T) {
	clk := newClock()
	s := open(t, t.TempDir(), Options{
		Now:        clk.Now,
		Queue:      QueueBounds{MaxItems: 3, MaxAge: time.Hour},
		SinkQueues: map[string]QueueBounds{"big": {MaxItems: 100}},
	})
	enqueue := func(sink string, names ...string) CommitResult {
		t.Helper()
		var b Batch
		for _, n := range names {
			b.Enqueue = append(b.Enqueue, Enqueue{Sink: sink, Payload: []byte(n)})
		}
		res, err := s.Commit(b)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	peek := func(sink string) ([]string, []Drop) {
		t.Helper()
		items, drops, err := s.Peek(sink, 100)
		if err != nil {
			t.Fatal(err)
		}
		return payloads(items), drops
	}

	res := enqueue("slack", "a", "b")
	if len(res.Dropped) != 0 {
		t.Fatalf("dropped %v below the bound", res.Dropped)
	}
	res = enqueue("slack", "c", "d", "e")
	if diff := cmp.Diff([]Drop{{DropKey{"slack", ReasonMaxItems}, 2}}, res.Dropped); diff != "" {
		t.Errorf("max_items drops (-want +got):\n%s", diff)
	}
	got, drops := peek("slack")
	if diff := cmp.Diff([]string{"c", "d", "e"}, got); diff != "" {
		t.Errorf("queue after max_items (-want +got):\n%s", diff)
	}
	if len(drops) != 0 {
		t.Errorf("peek dropped %v", drops)
	}

	// The "big" override keeps the default age and its own item bound.
	enqueue("big", "1", "2", "3", "4")
	clk.Advance(40 * time.Minute)
	res = enqueue("slack", "f")
	if diff := cmp.Diff([]Drop{{DropKey{"slack", ReasonMaxItems}, 1}}, res.Dropped); diff != "" {
		t.Errorf("max_items drops (-want +got):\n%s", diff)
	}
	clk.Advance(30 * time.Minute)
	got, drops = peek("slack")
	if diff := cmp.Diff([]string{"f"}, got); diff != "" {
		t.Errorf("queue after max_age (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Drop{{DropKey{"slack", ReasonMaxAge}, 2}}, drops); diff != "" {
		t.Errorf("max_age drops (-want +got):\n%s", diff)
	}
	got, _ = peek("big")
	if diff := cmp.Diff([]string{"1", "2", "3", "4"}, got); diff != "" {
		t.Errorf("big queue (-want +got):\n%s", diff)
	}
	if n, err := s.Depth("slack"); n != 1 || err != nil {
		t.Errorf("Depth(slack) = %d, %v; want 1", n, err)
	}
	n, err := s.DropQueue("big")
	if n != 4 || err != nil {
		t.Errorf("DropQueue(big) = %d, %v; want 4", n, err)
	}
	wantCounts := map[DropKey]uint64{
		{"slack", ReasonMaxItems}:  3,
		{"slack", ReasonMaxAge}:    2,
		{"big", ReasonSinkRemoved}: 4,
	}
	if diff := cmp.Diff(wantCounts, s.DropCounts()); diff != "" {
		t.Errorf("drop counts (-want +got):\n%s", diff)
	}
	sinks, err := s.Sinks()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"slack"}, sinks); diff != "" {
		t.Errorf("sinks after DropQueue (-want +got):\n%s", diff)
	}
}

func TestLoweredBoundAppliesOnPeek(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir, Options{})
	for i := range 5 {
		if _, err := s.Commit(Batch{Enqueue: []Enqueue{{Sink: "slack", Payload: fmt.Appendf(nil, "%d", i)}}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, dir, Options{Queue: QueueBounds{MaxItems: 2}})
	items, drops, err := s.Peek("slack", 10)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"3", "4"}, payloads(items)); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Drop{{DropKey{"slack", ReasonMaxItems}, 3}}, drops); diff != "" {
		t.Errorf("drops (-want +got):\n%s", diff)
	}
}

func TestAckDefer(t *testing.T) {
	clk := newClock()
	s := open(t, t.TempDir(), Options{Now: clk.Now})
	res, err := s.Commit(Batch{Enqueue: []Enqueue{
		{Sink: "slack", Payload: []byte("a")},
		{Sink: "slack", Payload: []byte("b")},
		{Sink: "slack", Payload: []byte("c")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := res.Seqs[0], res.Seqs[1], res.Seqs[2]
	retryAt := clk.Now().Add(time.Minute)
	if found, err := s.Defer("slack", a, retryAt, 1); !found || err != nil {
		t.Fatalf("Defer(a) = %v, %v", found, err)
	}
	items, _, err := s.Peek("slack", 1)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"b"}, payloads(items)); diff != "" {
		t.Errorf("peek skips the deferred item (-want +got):\n%s", diff)
	}
	next, ok, err := s.NextAttempt("slack")
	if err != nil || !ok || !next.Equal(clk.Now()) {
		t.Errorf("NextAttempt() = %v, %v, %v; want now", next, ok, err)
	}
	if n, err := s.Ack("slack", b, c, 999); n != 2 || err != nil {
		t.Errorf("Ack(b, c, 999) = %d, %v; want 2", n, err)
	}
	next, ok, err = s.NextAttempt("slack")
	if err != nil || !ok || !next.Equal(retryAt) {
		t.Errorf("NextAttempt() = %v, %v, %v; want %v", next, ok, err, retryAt)
	}
	if items, _, _ := s.Peek("slack", 10); len(items) != 0 {
		t.Errorf("peek before retry time returned %v", payloads(items))
	}
	clk.Advance(time.Minute)
	items, _, err = s.Peek("slack", 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []Item{{Seq: a, Enqueued: clk.Now().Add(-time.Minute), Attempts: 1, NextAttempt: retryAt, Payload: []byte("a")}}
	if diff := cmp.Diff(want, items, cmpopts.EquateApproxTime(0)); diff != "" {
		t.Errorf("deferred item (-want +got):\n%s", diff)
	}
	if n, err := s.Ack("slack", a); n != 1 || err != nil {
		t.Errorf("Ack(a) = %d, %v", n, err)
	}
	if found, err := s.Defer("slack", a, retryAt, 2); found || err != nil {
		t.Errorf("Defer(acked) = %v, %v; want not found", found, err)
	}
	if n, err := s.Depth("slack"); n != 0 || err != nil {
		t.Errorf("Depth() = %d, %v; want 0", n, err)
	}
}

func TestFiles(t *testing.T) {
	s := open(t, t.TempDir(), Options{})
	young := Checkpoint{Checkpoint: source.Checkpoint{File: fid(1, 10, "[2026"), Offset: 5}, Path: "a.log"}
	if _, err := s.Commit(Batch{Files: []Checkpoint{young}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		id     source.FileID
		wantOK bool
	}{
		{name: "same identity", id: young.File, wantOK: true},
		{name: "fingerprint grew: the tailer judges, not the store", id: fid(1, 10, "[2026-03-01")},
		{name: "inode reused by other content", id: fid(1, 10, "other")},
		{name: "unknown inode", id: fid(1, 12, "[2026")},
		{name: "no identity", id: source.FileID{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, ok, err := s.File(tc.id)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tc.wantOK {
				t.Fatalf("File() ok = %v, want %v", ok, tc.wantOK)
			}
			if ok && c.Path != young.Path {
				t.Errorf("File() path %q, want %q", c.Path, young.Path)
			}
		})
	}
}

// Prune forgets gone checkpoints after GoneFor, keeps followed ones however
// old (an idle file is not committed again), and bounds the count, gone and
// oldest first.
func TestPrune(t *testing.T) {
	clk := newClock()
	s := open(t, t.TempDir(), Options{Now: clk.Now})
	cp := func(ino uint64, gone bool) Checkpoint {
		return Checkpoint{Checkpoint: source.Checkpoint{File: fid(1, ino, "x"), Offset: 5}, Path: fmt.Sprintf("%d.log", ino), Gone: gone}
	}
	commit := func(cps ...Checkpoint) {
		t.Helper()
		if _, err := s.Commit(Batch{Files: cps}); err != nil {
			t.Fatal(err)
		}
	}
	paths := func(cps []Checkpoint) []string {
		var out []string
		for _, c := range cps {
			out = append(out, c.Path)
		}
		return out
	}
	commit(cp(1, false), cp(2, true)) // 1 idle for days, 2 gone long ago
	clk.Advance(48 * time.Hour)
	commit(cp(3, true)) // gone just now
	gone, err := s.Prune(PruneBounds{GoneFor: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"2.log"}, paths(gone)); diff != "" {
		t.Errorf("Prune(GoneFor) forgot (-want +got):\n%s", diff)
	}
	clk.Advance(time.Minute)
	commit(cp(4, false), cp(5, false))
	gone, err = s.Prune(PruneBounds{GoneFor: time.Hour, MaxFiles: 2})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"1.log", "3.log"}, paths(gone)); diff != "" {
		t.Errorf("Prune(MaxFiles) forgot (-want +got):\n%s", diff)
	}
	files, err := s.Files()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"4.log", "5.log"}, paths(files)); diff != "" {
		t.Errorf("Files() after prune (-want +got):\n%s", diff)
	}
}

func TestByPath(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	cps := []Checkpoint{
		{Checkpoint: source.Checkpoint{File: source.FileID{Ino: 1}}, Path: "a.log", Seen: t0},
		{Checkpoint: source.Checkpoint{File: source.FileID{Ino: 2}}, Path: "a.log", Seen: t0.Add(time.Minute)}, // rotated in: newer
		{Checkpoint: source.Checkpoint{File: source.FileID{Ino: 3}}, Path: "b.log", Seen: t0},
		{Checkpoint: source.Checkpoint{File: source.FileID{Ino: 4}}, Path: "b.log", Seen: t0.Add(time.Minute), Gone: true},
	}
	got := ByPath(cps)
	want := Positions{"a.log": cps[1], "b.log": cps[2]}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ByPath() (-want +got):\n%s", diff)
	}
}

func TestAlreadyEmitted(t *testing.T) {
	c := Checkpoint{Checkpoint: source.Checkpoint{Offset: 100}, Emitted: map[string]int64{"stderr": 300}}
	tests := []struct {
		name   string
		stream string
		end    int64
		want   bool
	}{
		{name: "stderr line inside emitted entry", stream: "stderr", end: 250, want: true},
		{name: "stderr line ending at the mark", stream: "stderr", end: 300, want: true},
		{name: "stderr line past the mark", stream: "stderr", end: 301},
		{name: "stdout pending entry is re-read", stream: "stdout", end: 150},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := c.AlreadyEmitted(tc.stream, tc.end); got != tc.want {
				t.Errorf("AlreadyEmitted(%q, %d) = %v, want %v", tc.stream, tc.end, got, tc.want)
			}
		})
	}
}

func TestFileKey(t *testing.T) {
	tests := []struct {
		name string
		id   source.FileID
		want string
	}{
		{name: "device and inode", id: source.FileID{Dev: 0xfd01, Ino: 77, Size: 1, Sum: [16]byte{1}}, want: "di:fd01:4d"},
		{name: "fingerprint only", id: source.FileID{Size: 2, Sum: [16]byte{0xab}}, want: "fp:ab000000000000000000000000000000"},
		{name: "nothing", id: source.FileID{}, want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := fileKey(tc.id); got != tc.want {
				t.Errorf("fileKey() = %q, want %q", got, tc.want)
			}
		})
	}
}

// fid is the identity the tailer gives a file at dev:ino starting with head.
func fid(dev, ino uint64, head string) source.FileID {
	sum := sha256.Sum256([]byte(head))
	id := source.FileID{Dev: dev, Ino: ino, Size: len(head)}
	copy(id.Sum[:], sum[:])
	return id
}

func TestOpenErrors(t *testing.T) {
	t.Run("locked by another opener", func(t *testing.T) {
		dir := t.TempDir()
		open(t, dir, Options{})
		_, err := Open(dir, Options{LockTimeout: 50 * time.Millisecond})
		if err == nil {
			t.Fatal("second Open succeeded")
		}
		for _, want := range []string{"locked by another process", "state directory " + dir} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not contain %q", err, want)
			}
		}
	})
	t.Run("garbage file", func(t *testing.T) {
		dir := t.TempDir()
		junk := bytes.Repeat([]byte("not a database "), 2000)
		if err := os.WriteFile(filepath.Join(dir, FileName), junk, 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Open(dir, Options{})
		if err == nil || !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "--state-reset") {
			t.Errorf("Open(garbage) error %v, want a damaged-file error", err)
		}
	})
	t.Run("schema version", func(t *testing.T) {
		dir := t.TempDir()
		db, err := bolt.Open(filepath.Join(dir, FileName), 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = db.Update(func(tx *bolt.Tx) error {
			b, err := tx.CreateBucket(bucketMeta)
			if err != nil {
				return err
			}
			return b.Put(keySchema, u64(99))
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		_, err = Open(dir, Options{})
		want := "schema version 99, this logmatch reads version 1"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Open() error %v, want one containing %q", err, want)
		}
	})
	t.Run("empty dir name", func(t *testing.T) {
		if _, err := Open("", Options{}); err == nil {
			t.Error("Open(\"\") succeeded")
		}
	})
}

// TestConcurrent runs one committer with several peek/ack/defer loops, as
// run mode does with one delivery loop per sink, for the race detector and
// for the invariant that every item is acked exactly once.
func TestConcurrent(t *testing.T) {
	s := open(t, t.TempDir(), Options{})
	sinks := []string{"a", "b", "c"}
	const batches = 60
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(done)
		for i := range batches {
			var b Batch
			b.Files = []Checkpoint{{Checkpoint: source.Checkpoint{File: source.FileID{Dev: 1, Ino: 1}, Offset: int64(i)}}}
			for _, sink := range sinks {
				b.Enqueue = append(b.Enqueue, Enqueue{Sink: sink, Payload: fmt.Appendf(nil, "%d", i)})
			}
			if _, err := s.Commit(b); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	acked := make([][]string, len(sinks))
	for i, sink := range sinks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					if n, err := s.Depth(sink); err != nil || n == 0 {
						return
					}
				default:
				}
				items, _, err := s.Peek(sink, 7)
				if err != nil {
					t.Error(err)
					return
				}
				for _, it := range items {
					if it.Seq%5 == 0 && it.Attempts == 0 {
						// One failed attempt, retried at once.
						if _, err := s.Defer(sink, it.Seq, time.Time{}, 1); err != nil {
							t.Error(err)
							return
						}
						continue
					}
					n, err := s.Ack(sink, it.Seq)
					if err != nil {
						t.Error(err)
						return
					}
					if n == 1 {
						acked[i] = append(acked[i], string(it.Payload))
					}
				}
				if _, err := s.Files(); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for i, sink := range sinks {
		got := map[string]int{}
		for _, p := range acked[i] {
			got[p]++
		}
		want := map[string]int{}
		for j := range batches {
			want[fmt.Sprint(j)] = 1
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("sink %s acked (-want +got):\n%s", sink, diff)
		}
	}
}

// State files written before source.FileID became the one identity type
// load unchanged: the checkpoint JSON below is what that version stored
// (its state.FileID held the tailer's 16-byte fingerprint in "fp"), for a
// file of 1 KiB or more and for an empty file, and this version writes the
// same bytes back.
func TestCheckpointOfEarlierVersionLoads(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir, Options{})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	stored := map[string]string{
		"di:fd01:4d2": `{"id":{"fp":"AQIDBAUGBwgJCgsMDQ4PEA==","size":1024,"dev":64769,"ino":1234},"path":"/var/log/sglang/server.log","offset":4096,"emitted":{"stderr":4096,"stdout":5000},"seen":"2026-03-01T12:00:00Z"}`,
		"di:fd01:4d3": `{"id":{"fp":"47DEQpj8HBSa+/TImW+5JA==","dev":64769,"ino":1235},"path":"/var/log/sglang/empty.log","offset":0,"seen":"2026-03-01T12:00:00Z"}`,
	}
	db, err := bolt.Open(filepath.Join(dir, FileName), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for k, v := range stored {
			if err := tx.Bucket(bucketFiles).Put([]byte(k), []byte(v)); err != nil {
				return err
			}
		}
		return nil
	})
	if err := errors.Join(err, db.Close()); err != nil {
		t.Fatal(err)
	}

	s = open(t, dir, Options{})
	files, err := s.Files()
	if err != nil {
		t.Fatal(err)
	}
	seen := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	want := []Checkpoint{
		{
			Checkpoint: source.Checkpoint{File: source.FileID{Dev: 64769, Ino: 1234, Size: 1024, Sum: [16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}}, Offset: 4096},
			Path:       "/var/log/sglang/server.log",
			Emitted:    map[string]int64{"stderr": 4096, "stdout": 5000},
			Seen:       seen,
		},
		{
			Checkpoint: source.Checkpoint{File: fid(64769, 1235, "")},
			Path:       "/var/log/sglang/empty.log",
			Seen:       seen,
		},
	}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Fatalf("Files() (-want +got):\n%s", diff)
	}
	for _, c := range files {
		got, err := encodeCheckpoint(c)
		if err != nil {
			t.Fatal(err)
		}
		if k := fileKey(c.File); string(got) != stored[k] {
			t.Errorf("checkpoint %s re-encodes as\n%s\nwant the stored\n%s", k, got, stored[k])
		}
	}
	if cp, ok := ByPath(files).Lookup("/var/log/sglang/server.log"); !ok || cp != want[0].Checkpoint {
		t.Errorf("Lookup(server.log) = %+v, %v; want %+v", cp, ok, want[0].Checkpoint)
	}
}

// A stored identity that is not the tailer's 16-byte fingerprint is an
// error naming the checkpoint, not a silent misread.
func TestCheckpointBadFingerprint(t *testing.T) {
	_, err := decodeCheckpoint([]byte("di:1:2"), []byte(`{"id":{"fp":"AQI=","size":2,"dev":1,"ino":2},"path":"a.log","offset":1}`))
	if err == nil || !strings.Contains(err.Error(), "checkpoint di:1:2: id.fp: 2 bytes, want 16") {
		t.Fatalf("decode = %v, want an error naming the checkpoint and id.fp", err)
	}
}

// The incidents are stored one key each: Put replaces, Delete removes,
// Reset starts from none, and what a commit wrote is read back after a
// reopen, in key order.
func TestIncidents(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir, Options{})
	read := func(s *Store) map[string]string {
		t.Helper()
		got := map[string]string{}
		var last string
		if err := s.Incidents(func(k string, v []byte) error {
			if k <= last {
				t.Errorf("key %q after %q: not in order", k, last)
			}
			last = k
			got[k] = string(v)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return got
	}
	steps := []struct {
		name string
		c    IncidentChanges
		want map[string]string
	}{
		{"put", IncidentChanges{Put: []KeyValue{{"b", []byte("1")}, {"a", []byte("1")}, {"c", []byte("1")}}},
			map[string]string{"a": "1", "b": "1", "c": "1"}},
		{"replace and delete", IncidentChanges{Put: []KeyValue{{"b", []byte("2")}}, Delete: []string{"a", "absent"}},
			map[string]string{"b": "2", "c": "1"}},
		{"reset", IncidentChanges{Reset: true, Put: []KeyValue{{"d", []byte("3")}}}, map[string]string{"d": "3"}},
	}
	for _, st := range steps {
		c := st.c
		if _, err := s.Commit(Batch{Incidents: &c}); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if diff := cmp.Diff(st.want, read(s)); diff != "" {
			t.Errorf("%s: incidents (-want +got):\n%s", st.name, diff)
		}
	}
	if _, err := s.Commit(Batch{Incidents: &IncidentChanges{Put: []KeyValue{{"", []byte("x")}}}}); err == nil || !strings.Contains(err.Error(), "empty incident key") {
		t.Errorf("empty key: err = %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r := open(t, dir, Options{})
	if diff := cmp.Diff(map[string]string{"d": "3"}, read(r)); diff != "" {
		t.Errorf("after reopen (-want +got):\n%s", diff)
	}
	stop := errors.New("stop")
	if err := r.Incidents(func(string, []byte) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("an error from fn: got %v", err)
	}
}

// A reload that adds a sink or changes its queue sets the new bounds at
// once (SetSinkQueues): the next enqueue enforces them.
func TestSetSinkQueues(t *testing.T) {
	s := open(t, t.TempDir(), Options{Queue: QueueBounds{MaxItems: 100, MaxAge: time.Hour}})
	s.SetSinkQueues(map[string]QueueBounds{"added": {MaxItems: 2}})
	var b Batch
	for _, n := range []string{"a", "b", "c", "d"} {
		b.Enqueue = append(b.Enqueue, Enqueue{Sink: "added", Payload: []byte(n)}, Enqueue{Sink: "other", Payload: []byte(n)})
	}
	res, err := s.Commit(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Drop{{DropKey{"added", ReasonMaxItems}, 2}}, res.Dropped); diff != "" {
		t.Errorf("drops (-want +got):\n%s", diff)
	}
}
