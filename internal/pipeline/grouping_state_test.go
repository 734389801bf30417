package pipeline

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/internal/state"
	"github.com/logmatch/logmatch/sinks"
)

func groupingProcessor(store *state.Store) *processor {
	return newProcessor(&processor{
		log:     slog.New(slog.DiscardHandler),
		store:   store,
		grouper: incident.New(incident.Options{Window: time.Minute, MaxGroups: 100}),
		now:     func() time.Time { return time.Date(2026, 5, 28, 0, 0, 0, 0, time.UTC) },
	})
}

func distinct(i int, at time.Time) incident.Occurrence {
	return incident.Occurrence{Time: at, Timed: true, Scope: "node:", Alert: sinks.Alert{
		Fingerprint: fmt.Sprintf("fp%03d", i), Count: 1, Time: at, LastTime: at,
		Record: sinks.Record{Slug: "unclassified", Severity: "error", Role: "cause"},
	}}
}

func storedIncidents(t *testing.T, store *state.Store) int {
	t.Helper()
	n := 0
	if err := store.Incidents(func(string, []byte) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	return n
}

func restoreFrom(t *testing.T, p *processor, store *state.Store) {
	t.Helper()
	blob, ok, err := store.Grouping()
	if err != nil || !ok {
		t.Fatalf("grouping blob: ok %v, %v", ok, err)
	}
	if err := p.restore(blob.Version, blob.Data, store.Incidents); err != nil {
		t.Fatal(err)
	}
}

// The grouping state is stored one incident per key: a commit after a
// repeat of one incident among many writes that incident alone, and a
// restart restores every open incident with its count.
func TestGroupingCommitsOnlyChangedIncidents(t *testing.T) {
	const open = 50
	t0 := time.Date(2026, 5, 28, 0, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	store, err := state.Open(dir, state.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := groupingProcessor(store)
	for i := range open {
		p.grouper.Observe(distinct(i, t0), t0)
	}
	p.grouped = true
	if _, err := p.commit(); err != nil {
		t.Fatal(err)
	}
	if n := storedIncidents(t, store); n != open {
		t.Fatalf("%d incidents stored, want %d", n, open)
	}
	p.grouper.Observe(distinct(7, t0.Add(time.Second)), t0.Add(time.Second))
	p.grouped = true
	_, changes, err := p.snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if changes.Reset || len(changes.Put) != 1 || changes.Put[0].Key != "fp007" || len(changes.Delete) != 0 {
		t.Errorf("after one repeat the commit writes reset %v, %d incidents, deletes %v; want fp007 alone",
			changes.Reset, len(changes.Put), changes.Delete)
	}
	if _, err := p.commit(); err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}

	store, err = state.Open(dir, state.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	q := groupingProcessor(store)
	restoreFrom(t, q, store)
	if st := q.grouper.Stats(); st.Open != open {
		t.Fatalf("%d incidents restored, want %d", st.Open, open)
	}
	got := q.grouper.Flush(t0.Add(2 * time.Second))
	if len(got) != 1 || got[0].Fingerprint != "fp007" || got[0].Count != 2 {
		t.Errorf("after the restart Flush announces %d alerts, want the repeat of fp007 alone with count 2: %+v", len(got), got)
	}
}

// A state written before the incidents were stored one by one (a blob of
// version 2 holding them all) is read, and the next commit stores them one
// by one with a blob of the current version.
func TestGroupingReadsWholeBlob(t *testing.T) {
	const open = 20
	t0 := time.Date(2026, 5, 28, 0, 0, 0, 0, time.UTC)
	old := incident.New(incident.Options{Window: time.Minute})
	for i := range open {
		old.Observe(distinct(i, t0), t0)
	}
	snap, err := old.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	blob, err := json.Marshal(groupingBlob{Grouper: snap})
	if err != nil {
		t.Fatal(err)
	}
	store, err := state.Open(t.TempDir(), state.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if _, err := store.Commit(state.Batch{Grouping: &state.Grouping{Version: 2, Data: blob}}); err != nil {
		t.Fatal(err)
	}
	p := groupingProcessor(store)
	restoreFrom(t, p, store)
	if st := p.grouper.Stats(); st.Open != open {
		t.Fatalf("%d incidents restored from the whole blob, want %d", st.Open, open)
	}
	p.grouper.Observe(distinct(3, t0.Add(time.Second)), t0.Add(time.Second))
	p.grouped = true
	if _, err := p.commit(); err != nil {
		t.Fatal(err)
	}
	if n := storedIncidents(t, store); n != open {
		t.Errorf("%d incidents stored after the first commit, want all %d", n, open)
	}
	if g, _, _ := store.Grouping(); g.Version != groupingVersion {
		t.Errorf("blob version %d after the commit, want %d", g.Version, groupingVersion)
	}
	q := groupingProcessor(store)
	restoreFrom(t, q, store)
	if st := q.grouper.Stats(); st.Open != open {
		t.Errorf("%d incidents restored after the commit, want %d", st.Open, open)
	}
}
