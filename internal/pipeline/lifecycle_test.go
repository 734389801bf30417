package pipeline

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"

	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/state"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// brokenListener accepts nothing: its Accept fails for good, as when the
// listening socket is torn down under the server.
type brokenListener struct{ net.Listener }

func (l brokenListener) Accept() (net.Conn, error) {
	return nil, errors.New("accept: socket gone")
}

func newTestPipeline(t *testing.T, args ...string) *Pipeline {
	t.Helper()
	dir := t.TempDir()
	logPath := filepath.Join(dir, "app.log")
	if err := os.WriteFile(logPath, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := runConfig(append([]string{"--path", logPath, "--state-dir", filepath.Join(dir, "state")}, args...),
		func(string) string { return "" }, os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(context.Background(), Options{Config: cfg, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Stdout: io.Discard, Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runConfig builds the configuration from the arguments of `logmatch run`
// the way the binary does: the run flags registered on a flag set, the
// arguments parsed, then config.Flags.Load.
func runConfig(args []string, getenv func(string) string, readFile func(string) ([]byte, error)) (*config.Config, error) {
	set := pflag.NewFlagSet("logmatch run", pflag.ContinueOnError)
	set.SetOutput(io.Discard)
	flags := config.RegisterFlags(set)
	if err := set.Parse(args); err != nil {
		return nil, err
	}
	return flags.Load(getenv, readFile)
}

// runWithin runs p until it returns or limit passes (a hang): the limit is
// generous, it tells a hang from a slow machine.
func runWithin(t *testing.T, p *Pipeline, ctx context.Context, limit time.Duration) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		t.Fatalf("Run did not return within %s", limit)
		return nil
	}
}

// Issue 14 item 5: an HTTP server that dies is noticed: the pipeline stops
// in order and Run returns its error, rather than running on blind.
func TestDeadHTTPServerStopsThePipeline(t *testing.T) {
	p := newTestPipeline(t, "--http-addr", "127.0.0.1:0")
	p.listen = func(network, addr string) (net.Listener, error) {
		ln, err := net.Listen(network, addr)
		return brokenListener{ln}, err
	}
	err := runWithin(t, p, context.Background(), time.Minute)
	if err == nil || !strings.Contains(err.Error(), "socket gone") {
		t.Errorf("Run = %v, want the HTTP server's error", err)
	}
}

// Issue 14 item 11: shutdown finishes within shutdown_grace even when
// matching is slow (here a catastrophic pattern loaded past the load-time
// check, with no entry budget to speak of): buffered file lines are left
// for the next start, and if matching still holds the processor, Run
// returns ErrGraceExceeded at the deadline.
func TestShutdownWithinGraceWhileMatchingIsSlow(t *testing.T) {
	p := newTestPipeline(t, "--http-addr", "", "--no-default-catalog", "--catalog", writeCatalog(t, recordA))
	m, probs := matcher.Compile([]patterns.Record{{ID: "slow", MessagePattern: `(a+)+$`, Severity: "error"}},
		matcher.Options{MatchTimeout: 300 * time.Millisecond, EntryBudget: time.Hour})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	p.matcher.Store(m)
	p.cfg.ShutdownGrace = config.Duration(time.Second)
	logPath := p.cfg.Paths[0]
	if err := os.WriteFile(logPath, []byte(strings.Repeat(strings.Repeat("a", 60)+"!\n", 200)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(500 * time.Millisecond) // let matching begin
		cancel()
	}()
	err := runWithin(t, p, ctx, time.Minute)
	if err != nil && !errors.Is(err, ErrGraceExceeded) {
		t.Errorf("Run = %v, want nil or ErrGraceExceeded", err)
	}
	// Run left the processor to finish its entry on its own; wait for
	// it, for the goroutine leak check.
	select {
	case <-p.processed:
	case <-time.After(time.Minute):
		t.Fatal("the processor did not finish its entry")
	}
}

func writeCatalog(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "catalog.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCatalogSavedDuringStartIsLoaded saves a new catalog right after New
// read the files: the next poll must load it. New used to take the
// files' stamp after reading them, so such a save matched the stamp and
// went unseen until the catalog changed again.
func TestCatalogSavedDuringStartIsLoaded(t *testing.T) {
	cat := writeCatalog(t, recordA)
	testHookCatalogRead = func() {
		if err := os.WriteFile(cat, []byte(recordA+"\n"+recordB+"\n"), 0o644); err != nil {
			t.Error(err)
		}
	}
	p := newTestPipeline(t, "--http-addr", "", "--no-default-catalog", "--catalog", cat)
	testHookCatalogRead = nil
	if n := p.matcher.Load().Len(); n != 1 {
		t.Fatalf("New loaded %d records, want the 1 it read", n)
	}
	p.reloadCatalog(false)
	if n := p.matcher.Load().Len(); n != 2 {
		t.Errorf("after a poll %d records are loaded, want the 2 saved during the start", n)
	}
}

// A sink that fails to close (an exporter that cannot flush) is named in
// Run's error, and the sinks after it are closed all the same, and so is
// the state store.
func TestSinkCloseErrorsAreJoined(t *testing.T) {
	p := newTestPipeline(t, "--http-addr", "", "--sink", "first:stdout", "--sink", "second:stdout", "--sink", "third:stdout")
	var closed []string
	for _, b := range p.sinks {
		b.closer = func(context.Context) error {
			closed = append(closed, b.name)
			if b.name == "second" {
				return nil
			}
			return errors.New("flush failed")
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := runWithin(t, p, ctx, time.Minute)
	for _, want := range []string{"sink first: close: flush failed", "sink third: close: flush failed"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Run = %v, want it to say %q", err, want)
		}
	}
	if diff := cmp.Diff([]string{"first", "second", "third"}, closed); diff != "" {
		t.Errorf("sinks closed (-want +got):\n%s", diff)
	}
	if _, err := state.Open(p.cfg.StateDir, state.Options{}); err != nil {
		t.Errorf("the state store was left open: %v", err)
	}
}
