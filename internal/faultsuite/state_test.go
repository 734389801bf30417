package faultsuite

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// damageState overwrites every page of dir/state.db after the two meta
// pages with garbage: the meta pages still validate, so bbolt opens the
// file and meets the garbage on its first interior read.
func damageState(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, "state.db")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 1))
	for i := 2 * 4096; i < len(b); i++ {
		b[i] = byte(r.Uint32())
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Issue 14 item 10: a damaged state.db is a clear error that says what to
// do, with a non-zero exit and no Go stack trace; --state-reset moves it
// aside and the run goes on.
func TestDamagedStateFile(t *testing.T) {
	state := t.TempDir()
	args := []string{"run", "--path", "-", "--state-dir", state, "--http-addr", ""}
	if res := run(t, []byte(oomLine), args...); res.code != 0 {
		t.Fatalf("first run: exit %d\n%s", res.code, res.stderr)
	}
	damageState(t, state)

	res := run(t, []byte(oomLine), args...)
	if res.code == 0 || res.code == 2 {
		t.Errorf("exit status %d, want non-zero and not the configuration's 2", res.code)
	}
	for _, bad := range []string{"panic:", "goroutine "} {
		if strings.Contains(res.stderr, bad) {
			t.Errorf("stderr holds a Go stack trace (%q):\n%s", bad, res.stderr)
		}
	}
	for _, want := range []string{filepath.Join(state, "state.db"), "damaged", "--state-reset", "Move it aside"} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, res.stderr)
		}
	}

	res = run(t, []byte(oomLine), append(args, "--state-reset")...)
	if res.code != 0 {
		t.Fatalf("--state-reset: exit %d\n%s", res.code, res.stderr)
	}
	if !strings.Contains(res.stdout, "cuda-out-of-memory") {
		t.Errorf("--state-reset run sent no alert:\n%s", res.stdout)
	}
	aside, _ := filepath.Glob(filepath.Join(state, "state.db.damaged-*"))
	if len(aside) != 1 || !strings.Contains(res.stderr, "moved aside") {
		t.Errorf("damaged file kept as %v; stderr:\n%s", aside, res.stderr)
	}
}
