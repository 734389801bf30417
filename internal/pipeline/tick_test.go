package pipeline

import (
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/internal/state"
)

// The processor is quiet (the tick may slow down) only when nothing the
// tick does can be due: a pending entry, an uncommitted alert or position,
// or an incident deadline within the horizon each keep it awake.
func TestProcessorQuiet(t *testing.T) {
	store := openTestStore(t, state.Options{})
	p := newTestProcessor(t, store)
	now := p.now()
	if !p.quiet(now, quietTick) {
		t.Fatal("a fresh processor is not quiet")
	}
	const path = "/var/log/sglang/server.log"
	id := source.FileID{Dev: 1, Ino: 7, Size: 1024, Sum: [16]byte{7}}
	feedFrom(p, path, id, pendingTraceback, 0)
	if p.quiet(now, quietTick) {
		t.Fatal("quiet with a pending entry and an uncommitted position")
	}
	p.flushAll()
	if _, err := p.commit(); err != nil {
		t.Fatal(err)
	}
	if !p.quiet(now, quietTick) {
		t.Fatal("not quiet once everything is completed and committed")
	}

	// An incident settling before the horizon keeps it awake; one whose
	// deadline lies beyond it does not.
	p.grouper = incident.New(incident.Options{Window: time.Minute, Settle: time.Second})
	feedFrom(p, path, id, pendingTraceback, 0)
	p.flushAll()
	if _, err := p.commit(); err != nil {
		t.Fatal(err)
	}
	d := p.grouper.NextDeadline()
	if d.IsZero() {
		t.Fatal("no incident deadline after a settling hit")
	}
	if p.quiet(d.Add(-quietTick/2), quietTick) {
		t.Error("quiet although an incident deadline falls within the horizon")
	}
	if !p.quiet(d.Add(-2*quietTick), quietTick) {
		t.Error("not quiet although the next deadline lies beyond the horizon")
	}
}
