package state

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// damage overwrites every page of dir's state file after the two meta
// pages with seeded garbage: the meta pages still validate, so bbolt
// opens the file and panics on the first interior page it reads.
func damage(t *testing.T, dir string, seed uint64) {
	t.Helper()
	path := filepath.Join(dir, FileName)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const pageSize = 4096
	r := rand.New(rand.NewPCG(seed, seed))
	for i := 2 * pageSize; i < len(b); i++ {
		b[i] = byte(r.Uint32())
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// filled commits a few checkpoints and alerts, so the file has interior
// pages, and closes it.
func filled(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	s := open(t, dir, Options{})
	for i := range 50 {
		b := Batch{Enqueue: []Enqueue{{Sink: "stdout", Payload: []byte(strings.Repeat("alert ", 100+i))}}}
		if _, err := s.Commit(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Issue 14 item 10: a state file with garbage interior pages is an error
// that says what to do, not a bbolt panic; with ResetDamaged it is moved
// aside and the store starts empty.
func TestOpenDamaged(t *testing.T) {
	for seed := range uint64(8) {
		dir := filled(t)
		damage(t, dir, seed)
		_, err := Open(dir, Options{})
		if !errors.Is(err, ErrDamaged) {
			t.Fatalf("seed %d: Open(damaged) = %v, want ErrDamaged", seed, err)
		}
		for _, want := range []string{filepath.Join(dir, FileName), "Move it aside", "--state-reset"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("seed %d: error %q does not say %q", seed, err, want)
			}
		}

		s, err := Open(dir, Options{ResetDamaged: true})
		if err != nil {
			t.Fatalf("seed %d: Open(damaged, ResetDamaged) = %v", seed, err)
		}
		aside, why := s.MovedAside()
		if aside == "" || !errors.Is(why, ErrDamaged) {
			t.Errorf("seed %d: MovedAside() = %q, %v", seed, aside, why)
		}
		if _, err := os.Stat(aside); err != nil {
			t.Errorf("seed %d: damaged file not kept: %v", seed, err)
		}
		if n, err := s.Depth("stdout"); err != nil || n != 0 {
			t.Errorf("seed %d: fresh store depth %d, %v", seed, n, err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// A healthy file passes the check, and ResetDamaged leaves it alone.
func TestOpenIntactKeepsState(t *testing.T) {
	dir := filled(t)
	s, err := Open(dir, Options{ResetDamaged: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if aside, _ := s.MovedAside(); aside != "" {
		t.Errorf("intact file moved aside to %s", aside)
	}
	if n, err := s.Depth("stdout"); err != nil || n != 50 {
		t.Errorf("depth %d, %v; want 50", n, err)
	}
}

// A state file cut to nothing (a copy or restore that failed, a
// truncation by hand) lost every read position and queued alert: with its
// ack journal beside it, proof that it had been written, it is damaged,
// not a new database that would silently read every log again from
// --start-at. An empty file with no journal is what a kill during the very
// first start leaves; it is initialised as before.
func TestOpenEmptiedStateFile(t *testing.T) {
	dir := filled(t)
	if err := os.Truncate(filepath.Join(dir, FileName), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, Options{}); !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("Open(emptied state file) = %v, want ErrDamaged saying it is empty", err)
	}
	s := open(t, dir, Options{ResetDamaged: true})
	if aside, _ := s.MovedAside(); aside == "" {
		t.Errorf("ResetDamaged did not move the emptied file aside")
	}

	fresh := t.TempDir()
	if err := os.WriteFile(filepath.Join(fresh, FileName), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s = open(t, fresh, Options{})
	if _, err := s.Commit(Batch{Enqueue: []Enqueue{{Sink: "stdout", Payload: []byte("a")}}}); err != nil {
		t.Errorf("an empty state file of a first start did not initialise: %v", err)
	}
}
