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

// An undated line inherits its stream's last known time: its entry, ended
// ten minutes after a record of fifteen minutes ago, does not make the
// read lag 25 minutes.
func TestReadLagIgnoresInheritedTimes(t *testing.T) {
	store := openTestStore(t, state.Options{})
	p := newTestProcessor(t, store)
	tel := meter(t, p)
	const path = "/var/log/sglang/server.log"
	id := source.FileID{Dev: 1, Ino: 9, Size: 1024, Sum: [16]byte{9}}
	read := p.now()
	old := read.Add(-15 * time.Minute).Format("2006-01-02 15:04:05")
	off := int64(0)
	push := func(text string, at time.Time) {
		n := int64(len(text) + 1)
		sl := source.Line{Path: path, File: id, Next: off + n, End: off + n}
		sl.Text, sl.Offset, sl.Source, sl.Time = text, off, path, at
		p.line(sl)
		off += n
	}
	push("["+old+" TP0] Prefill batch. #new-seq: 1", read)
	push("Killed", read) // the record's entry ends: 900 s behind
	later := read.Add(10 * time.Minute)
	p.now = func() time.Time { return later }
	// The shell's line ends when the next arrives, ten minutes on.
	push("["+later.Format("2006-01-02 15:04:05")+" TP0] Decode batch. #running-req: 1", later)
	got := scrapeSeries(t, tel, "logmatch_source_lag_seconds")
	if len(got) != 1 {
		t.Fatalf("lag series %v, want one", got)
	}
	if f := strings.Fields(got[0]); len(f) != 2 || f[1] != "900" {
		t.Errorf("lag %q, want 900 seconds (the last own header time's age when read)", got[0])
	}
}
