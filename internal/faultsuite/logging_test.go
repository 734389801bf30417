package faultsuite

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A sink's log lines name it once, and the two retry levels (attempts of
// one delivery round, rounds of the durable queue) count under their own
// names, so no two lines disagree about "attempt".
func TestSinkFailureLogLines(t *testing.T) {
	var posts atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		posts.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	dir := t.TempDir()
	log := writeFile(t, dir, "sglang.log", oomLine)
	p := start(t, "run", "--path", log, "--state-dir", filepath.Join(dir, "state"), "--http-addr", "",
		"--sink", "webhook="+srv.URL+"/hook")
	if !waitFor(time.Minute, func() bool { return strings.Contains(p.stderr.String(), "round=2") }) {
		t.Fatalf("no second delivery round logged:\n%s", p.stderr.String())
	}
	p.signal(interrupt)
	p.wait(time.Minute)
	var attempts, rounds []string
	for _, line := range strings.Split(p.stderr.String(), "\n") {
		if strings.Count(line, "sink=webhook") > 1 {
			t.Errorf("sink named twice: %s", line)
		}
		if strings.Contains(line, "gave up after") && strings.Contains(line, " attempt=") {
			t.Errorf("a round's line counts attempts: %s", line)
		}
		if strings.Contains(line, " attempt=") {
			attempts = append(attempts, line)
		}
		if strings.Contains(line, " round=") {
			rounds = append(rounds, line)
		}
	}
	if len(attempts) == 0 || len(rounds) == 0 {
		t.Errorf("want attempt lines from the retry and round lines from the queue, got %d and %d:\n%s", len(attempts), len(rounds), p.stderr.String())
	}
}

// A catalog file that is not JSON (a YAML secret given by mistake) is
// refused line by line without echoing any of its content.
func TestCatalogErrorsDoNotEchoContent(t *testing.T) {
	dir := t.TempDir()
	cat := writeFile(t, dir, "secret.jsonl", "xoxb-123\nqwerty\nzebra: 1\n")
	res := run(t, nil, "patterns", "lint", cat)
	if res.code == 0 {
		t.Fatalf("lint accepted a file that is not JSON")
	}
	for _, c := range []string{"'x'", "'q'", "'z'"} {
		if strings.Contains(res.stdout+res.stderr, c) {
			t.Errorf("output quotes the file's content %s:\n%s%s", c, res.stdout, res.stderr)
		}
	}
	if !strings.Contains(res.stdout+res.stderr, "secret.jsonl:3:") {
		t.Errorf("output does not name secret.jsonl:3:\n%s%s", res.stdout, res.stderr)
	}
}
