package logmatchprocessor

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A server's start-up line closes the incidents of its source, as in run
// and scan: the same crash before and after a restart is two incidents,
// each announced as new, and the processor agrees with scan on it.
func TestTrackerRestartStartsANewIncident(t *testing.T) {
	text := schedulerException +
		"[2026-11-29 17:06:00] server_args=ServerArgs(model_path='Qwen/Qwen3-8B', tp_size=1)\n" +
		schedulerException
	path := filepath.Join(t.TempDir(), "restart.log")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	want := summarize(scanIncidents(t, path))
	got := trackerIncidents(t, path)
	if len(got) != 2 || got[0].Kind != "new" || got[1].Kind != "new" {
		t.Fatalf("alerts %v, want two new incidents, one each side of the restart", slugs(got))
	}
	if diff := cmp.Diff(want, summarize(got)); diff != "" {
		t.Errorf("incidents (-scan +processor):\n%s", diff)
	}
}

// A tick past an incident's settle time holds it while its source is
// still assembling an entry that began by the deadline: that entry is the
// rest of the burst, read in time, and a slow ticker must not decide
// otherwise than a fast one.
func TestTrackerHoldsWhileTheBurstAssembles(t *testing.T) {
	tr := newTestTracker(t, nil)
	res := pod("sglang-0")
	tb := linesOf(schedulerException, res, "stderr")
	// The cause alone on a line, then the wrapper's traceback begins: the
	// cause's entry is complete and its incident settles from t0; the
	// traceback is pending from t0.
	first := append([]line{{text: "[2026-11-29 17:04:25 TP0] RuntimeError: Ascend Transfer Engine initialization failed.", res: res, iostream: "stderr"}}, tb[0])
	if as, _ := tr.consume(batchOf(t, first...), body, t0); len(as) != 0 {
		t.Fatalf("alerts %v before the settle time", slugs(as))
	}
	// More of the traceback after the settle time, then a tick before the
	// stream has been idle: the incident waits for the traceback.
	late := t0.Add(DefaultSettleTime + 500*time.Millisecond)
	if as, _ := tr.consume(batchOf(t, tb[1:len(tb)-1]...), body, late); len(as) != 0 {
		t.Fatalf("alerts %v while the burst's traceback is being assembled", slugs(as))
	}
	if as, _ := tr.tick(late.Add(DefaultIdleFlush / 2)); len(as) != 0 {
		t.Fatalf("alerts %v while the burst's traceback is being assembled", slugs(as))
	}
	var got []string
	as, _ := tr.consume(batchOf(t, tb[len(tb)-1]), body, late.Add(DefaultIdleFlush/2))
	got = append(got, slugs(as)...)
	as, _ = tr.flush(late.Add(time.Minute))
	got = append(got, slugs(as)...)
	if want := []string{"new ascend-transfer-engine-initialization-failed"}; !slices.Equal(got, want) {
		t.Errorf("alerts %v, want %v: the cause and its wrapper's traceback are one incident", got, want)
	}
}
