package pipeline

import (
	"strings"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/internal/state"
)

// The read lag of a plain file is measured against its entries' own header
// times: lines read now that were written 15 minutes ago are 15 minutes
// behind, although the tailer stamps plain lines with their read time.
func TestReadLagUsesHeaderTimes(t *testing.T) {
	store := openTestStore(t, state.Options{})
	p := newTestProcessor(t, store)
	tel := meter(t, p)
	const path = "/var/log/sglang/server.log"
	id := source.FileID{Dev: 1, Ino: 9, Size: 1024, Sum: [16]byte{9}}
	read := p.now()
	old := read.Add(-15 * time.Minute).Format("2006-01-02 15:04:05")
	lines := []string{
		"[" + old + " TP0] Prefill batch. #new-seq: 1",
		"[" + old + " TP0] Decode batch. #running-req: 1",
	}
	off := int64(0)
	for _, text := range lines {
		n := int64(len(text) + 1)
		sl := source.Line{Path: path, File: id, Next: off + n, End: off + n}
		sl.Text, sl.Offset, sl.Source, sl.Time = text, off, path, read
		p.line(sl)
		off += n
	}
	got := scrapeSeries(t, tel, "logmatch_source_lag_seconds")
	if len(got) != 1 {
		t.Fatalf("lag series %v, want one", got)
	}
	f := strings.Fields(got[0])
	if len(f) != 2 || f[1] != "900" {
		t.Errorf("lag %q, want 900 seconds (the header time's age)", got[0])
	}
}
