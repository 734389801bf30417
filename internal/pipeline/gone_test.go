package pipeline

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/internal/state"
	"github.com/logmatch/logmatch/internal/telemetry"
)

// pendingTraceback is a traceback whose last line leaves the entry open:
// only a following line, a flush or a Gone notice completes it.
var pendingTraceback = []string{
	"[2026-05-28 00:11:09 TP0] Scheduler hit an exception: Traceback (most recent call last):",
	`  File "/sgl/scheduler.py", line 10, in run`,
	"RuntimeError: boom",
}

func goneNotice(path string, id source.FileID) source.Line {
	l := source.Line{Path: path, File: id, Gone: true}
	l.Source = path
	return l
}

// openTestStore opens a state store in a temporary directory, closed when
// the test ends.
func openTestStore(t *testing.T, opts state.Options) *state.Store {
	t.Helper()
	store, err := state.Open(t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	return store
}

// meter gives p real telemetry and returns it for scraping.
func meter(t *testing.T, p *processor) *telemetry.Telemetry {
	t.Helper()
	tel := newTelemetryFor(t)
	p.metrics = tel.Metrics()
	return tel
}

func newTelemetryFor(t *testing.T) *telemetry.Telemetry {
	t.Helper()
	tel, err := telemetry.New(context.Background(), telemetry.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tel.Shutdown(context.Background()) })
	return tel
}

// scrapeSeries returns the lines of the Prometheus exposition that are
// samples of name.
func scrapeSeries(t *testing.T, tel *telemetry.Telemetry, name string) []string {
	t.Helper()
	rec := httptest.NewRecorder()
	tel.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	var out []string
	for _, line := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(line, name+"{") || strings.HasPrefix(line, name+" ") {
			out = append(out, line)
		}
	}
	return out
}

// Issue 14 item 15: a Gone notice completes what the file's assembler
// holds (the traceback's last line is not lost), drops every state kept for
// the file, and commits its checkpoint marked Gone, which the store prunes
// once gone for long.
func TestGoneFlushesAndForgetsTheFile(t *testing.T) {
	clk := time.Date(2026, 5, 28, 0, 0, 0, 0, time.UTC)
	store := openTestStore(t, state.Options{Now: func() time.Time { return clk }})
	p := newTestProcessor(t, store)
	tel := meter(t, p)
	const path = "/var/log/sglang/server.log.1"
	id := source.FileID{Dev: 1, Ino: 5, Size: 1024, Sum: [16]byte{5}}
	feedFrom(p, path, id, pendingTraceback, 0)
	if n := len(scrapeSeries(t, tel, "logmatch_entries_total")); n != 1 {
		t.Fatalf("%d entries series while the file is followed, want 1", n)
	}
	p.line(goneNotice(path, id))
	if len(p.files) != 0 || p.last != nil {
		t.Errorf("after Gone the processor keeps %d files (last %v), want none", len(p.files), p.last)
	}
	if _, err := p.commit(); err != nil {
		t.Fatal(err)
	}
	if got := queued(t, store); len(got) != 1 || got[0] != "tb: RuntimeError: boom" {
		t.Errorf("queued %v, want the traceback completed by the Gone notice", got)
	}
	if got := scrapeSeries(t, tel, "logmatch_entries_total"); len(got) != 0 {
		t.Errorf("series of the gone file still scraped: %v", got)
	}
	cps, err := store.Files()
	if err != nil {
		t.Fatal(err)
	}
	end := int64(0)
	for _, l := range pendingTraceback {
		end += int64(len(l) + 1)
	}
	if len(cps) != 1 || !cps[0].Gone || cps[0].File != id || cps[0].Offset != end {
		t.Fatalf("checkpoints %+v, want one marked Gone at offset %d", cps, end)
	}
	if _, ok := state.ByPath(cps).Lookup(path); ok {
		t.Errorf("a gone file's checkpoint is offered to the tailer by path")
	}
	clk = clk.Add(state.DefaultPruneGoneFor + time.Minute)
	p.prune()
	if cps, err := store.Files(); err != nil || len(cps) != 0 {
		t.Errorf("checkpoints after the prune: %+v, %v; want none", cps, err)
	}
}

// A Gone notice about an earlier content of an inode that is followed with
// new content (rewritten in place) leaves the new content's state alone.
func TestGoneOfAnEarlierContentKeepsTheFile(t *testing.T) {
	store := openTestStore(t, state.Options{})
	p := newTestProcessor(t, store)
	const path = "/var/log/a.log"
	old := source.FileID{Dev: 1, Ino: 5, Size: 1024, Sum: [16]byte{5}}
	cur := source.FileID{Dev: 1, Ino: 5, Size: 30, Sum: [16]byte{6}}
	feedFrom(p, path, cur, pendingTraceback, 0)
	p.line(goneNotice(path, old))
	if len(p.files) != 1 {
		t.Fatalf("the followed content's state was dropped by a notice for its predecessor")
	}
}

// Without Gone notices the files kept are bounded: past maxFiles the least
// recently read is dropped after its entries are completed (no alert is
// lost) and counted; its final checkpoint is committed.
func TestFilesBoundEvictsLeastRecentlyRead(t *testing.T) {
	store := openTestStore(t, state.Options{})
	p := newTestProcessor(t, store)
	p.maxFiles = 3
	tel := meter(t, p)
	const files = 10
	for i := range files {
		path := fmt.Sprintf("/var/log/pods/llm_sglang-%d_u/sglang/0.log", i)
		feedFrom(p, path, source.FileID{Dev: 1, Ino: uint64(100 + i), Size: 1024, Sum: [16]byte{byte(i)}}, pendingTraceback, 0)
		if len(p.files) > p.maxFiles {
			t.Fatalf("%d files kept, bound %d", len(p.files), p.maxFiles)
		}
	}
	p.flushAll()
	if _, err := p.commit(); err != nil {
		t.Fatal(err)
	}
	if got := queued(t, store); len(got) != files {
		t.Errorf("queued %d alerts, want one per file (%d): %v", len(got), files, got)
	}
	if got := scrapeSeries(t, tel, "logmatch_source_evicted_total"); len(got) != 1 || !strings.HasSuffix(got[0], fmt.Sprintf(" %d", files-p.maxFiles)) {
		t.Errorf("evictions scraped as %v, want %d", got, files-p.maxFiles)
	}
	if got := scrapeSeries(t, tel, "logmatch_entries_total"); len(got) != p.maxFiles {
		t.Errorf("%d entries series, want %d (the files kept)", len(got), p.maxFiles)
	}
	cps, err := store.Files()
	if err != nil || len(cps) != files {
		t.Errorf("%d checkpoints (%v), want %d: evicted files keep theirs", len(cps), err, files)
	}
}

// Issue 14 item 16 at the processor: files come and go (each with Gone),
// four stay; the scrape has per-source series for the four only.
func TestSeriesOnlyForLiveFiles(t *testing.T) {
	store := openTestStore(t, state.Options{})
	p := newTestProcessor(t, store)
	tel := meter(t, p)
	observer := observer{m: tel.Metrics()}
	for i := range 44 {
		path := fmt.Sprintf("/var/log/sglang/server.log.%d", i)
		id := source.FileID{Dev: 1, Ino: uint64(1000 + i), Size: 1024, Sum: [16]byte{byte(i)}}
		observer.Add(path, source.CountLines, 3) // the tailer counts first
		feedFrom(p, path, id, []string{"serving", "stdout failure #1", "serving"}, 0)
		if i < 40 {
			p.line(goneNotice(path, id))
		}
	}
	for _, name := range []string{"logmatch_source_lines_total", "logmatch_entries_total"} {
		if got := scrapeSeries(t, tel, name); len(got) != 4 {
			t.Errorf("%s: %d series, want 4 (the live files):\n%s", name, len(got), strings.Join(got, "\n"))
		}
	}
	if len(p.files) != 4 {
		t.Errorf("%d files kept, want 4", len(p.files))
	}
}
