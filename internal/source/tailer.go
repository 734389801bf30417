package source

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"time"
)

// readBudget is how many raw bytes one file may deliver per pass before the
// others get their turn; a pass that stops on the budget is followed by
// another at once.
const readBudget = 4 << 20

// minPassGap spaces the passes a stream of write events causes: a write
// after a quiet spell is read at once, while a busy file is read in
// batches of at least this long, so the cost per pass is shared by many
// lines.
const minPassGap = 20 * time.Millisecond

// flowWatchTicks bounds the ticks of a flow without taking the watch's
// events while every pass finds new bytes and no name changes (Run): the
// watcher's goroutine wakes once per flowWatchTicks passes (half a
// second), not every pass. Each time it wakes, its read of the inotify
// descriptor wakes the runtime's system monitor, and taking its event
// wakes a second thread for it.
const flowWatchTicks = 25

// recheckAfter is how soon a file still being classified (it grew as a
// prefix of a followed file at the last look) is looked at again when no
// event comes first.
const recheckAfter = 50 * time.Millisecond

// Tailer follows the files matching a set of globs through rotation and
// truncation, decodes their framing and delivers their lines in order per
// file. Build it with New and call Run once.
//
// One goroutine does everything: it waits for a file-system event, a timer
// or a tick, then makes a pass over the files (design.md describes the
// states and what each event does).
type Tailer struct {
	ran   atomic.Bool
	cfg   Config
	log   *slog.Logger
	roots *roots

	files  map[Key]*tracked
	order  []*tracked          // every tracked file, oldest first: the read order of a pass
	byName map[string]*tracked // current and real paths of tracked files, for watch events

	started bool // the first pass is done: start-at and Positions no longer apply
	manual  bool // driven by Config.Tick: the clock is the tick's

	scratch   []byte     // fingerprint reads
	passFiles []*tracked // the files of the current pass
	// retired remembers copies read to their end outside the globs, oldest
	// first (at most maxRetired), so that one showing up in a glob later is
	// not read again.
	retired []retiredFile
	// drained remembers the files closed after they left the globs,
	// oldest first (at most maxRetired): never taken for a generation
	// moved aside (readStrays).
	drained []retiredFile

	skipped map[Key]string // matched but not opened: the open-file bound
	initial map[Key]bool   // skipped at the first scan: starts as a file found then
	parkedN int            // tracked files in state parked (no descriptor)
	// coverage is what the last pass saw of the open-file bound, for
	// Coverage (read by another goroutine).
	coverage atomic.Pointer[Coverage]
	refused  map[Key]string // matched but resolving outside the roots
	missed   map[Key]string // seen by a scan, gone before it could be opened
	rescan   bool           // a slot freed while files were skipped
	// saidCompressed is set once a compressed file in the globs was left
	// out and logged: one notice, not one per rotation.
	saidCompressed bool

	watch *watch // nil when polling only

	// raw is set for the passes of a flow: files on a local file system
	// are then read with raw system calls (rawio_linux.go).
	raw bool
	// grew is set when the last pass read new bytes from a file.
	grew bool

	// afterPoll, when set, runs after each pass (tests wait on it).
	afterPoll func()
	// reach, when set, replaces eventsReach in the watch (tests).
	reach func(dir string) bool
	// afterScan, when set, runs after each expansion of the globs.
	afterScan func()
	// beforeRead, when set, runs between a following file's look for
	// truncation and its read (tests write there, as a writer may).
	beforeRead func()
}

// maxRetired bounds Tailer.retired.
const maxRetired = 64

type retiredFile struct {
	key Key
	id  FileID
	end int64
}

// New validates cfg and builds a Tailer.
func New(cfg Config) (*Tailer, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("source config: %w", err)
	}
	r, err := newRoots(cfg.Paths, cfg.SymlinkRoots)
	if err != nil {
		return nil, fmt.Errorf("source config: %w", err)
	}
	for _, d := range cfg.RotatedDirs {
		r.dirs = append(r.dirs, filepath.Clean(d))
	}
	return &Tailer{
		cfg:     cfg,
		log:     cfg.Logger,
		roots:   r,
		files:   make(map[Key]*tracked),
		byName:  make(map[string]*tracked),
		skipped: make(map[Key]string),
		initial: make(map[Key]bool),
		refused: make(map[Key]string),
		missed:  make(map[Key]string),
	}, nil
}

// Run follows the globs and delivers lines to emit until ctx is done (it
// then returns nil) or emit or the file system fails (it returns that
// error). It closes every file before returning. Lines held back at that
// moment (an unterminated last line, an open partial line) are not
// delivered: the checkpoint (Line.Next) lies before them, so a restart
// reads them again.
func (t *Tailer) Run(ctx context.Context, emit Emit) error {
	if !t.ran.CompareAndSwap(false, true) {
		return errors.New("source: Tailer.Run called twice")
	}
	defer t.closeAll()
	if t.cfg.Tick != nil {
		return t.runManual(ctx, emit)
	}
	if !t.cfg.NoWatch {
		t.watch = newWatch(t.log)
		defer t.watch.close()
		if t.watch != nil && t.reach != nil {
			t.watch.reach = t.reach
		}
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	full := true
	nextScan := time.Time{}
	// flowing is set while write events come faster than minPassGap: the
	// loop then sleeps out the gap after a pass and takes the events that
	// came meanwhile, instead of waking for the first of them and again
	// when the gap ends. One wake-up a pass rather than two.
	flowing := false
	// flow ticks every minPassGap while flowing (flowclock_linux.go: a
	// timerfd, which wakes no thread but the one waiting in the poller).
	// A clock re-armed where it fired: resetting a timer to an earlier
	// deadline after each pass made the runtime break its network
	// poller's sleep (an eventfd write and a thread woken) once a pass.
	flow := newFlowClock(ctx)
	defer flow.close()
	// inFlow is what Config.Flow was last told.
	inFlow := false
	setFlow := func(on bool) {
		if t.cfg.Flow != nil && on != inFlow {
			t.cfg.Flow(on)
		}
		inFlow = on
	}
	defer setFlow(false)
	// quietTicks counts the ticks of a flow since the watch's events
	// were last taken.
	quietTicks := 0
	for {
		now := time.Now()
		t.raw = flowing
		more, err := t.flushed(ctx, now, full, emit)
		if full { // after the scan, which knows whether the watch covers every directory
			nextScan = now.Add(t.scanPeriod())
		}
		if t.afterPoll != nil {
			t.afterPoll()
		}
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return err
		}
		full = t.rescan
		if more || full {
			continue
		}
		if flowing {
			flowing = false
			if !flow.wait(ctx) {
				return nil
			}
			// While the passes find new bytes and the name watch knows
			// that no name changed in the watched directories, the flow
			// goes on without the watch's events, taken every
			// flowWatchTicks ticks: the events of a growing file only
			// repeat what the pass finds, and the watcher keeps them
			// meanwhile (the kernel merges a file's repeated writes into
			// one event). A name that changed makes the pass a full one
			// at once, whether or not the watcher's event has come.
			changed, known := t.watch.namesChanged()
			if quietTicks++; known && !changed && t.grew && quietTicks < flowWatchTicks {
				full = !time.Now().Before(nextScan)
				flowing = true
				continue
			}
			quietTicks = 0
			if got, f := t.takeEvents(); got || changed {
				full = f || changed || !time.Now().Before(nextScan)
				flowing = true
				continue
			}
			flow.stop()
			setFlow(false)
		}
		wake, wakeFull := nextScan, true
		if d := t.turnDeadline(); !d.IsZero() && d.After(now) && d.Before(wake) {
			wake = d // a file idle long enough to give its turn away
		}
		if d := t.nextDeadline(now); !d.IsZero() && d.Before(wake) {
			wake, wakeFull = d, false
		}
		timer.Reset(time.Until(wake))
		select {
		case <-ctx.Done():
			return nil
		case <-timer.C:
			full = wakeFull
		case ev, ok := <-t.watch.events():
			if !ok {
				t.watch.stopped()
				full = true
				break
			}
			full = t.noteEvent(ev)
			if gap := minPassGap - time.Since(now); gap > 0 {
				if !sleep(ctx, timer, gap) {
					return nil
				}
				flowing = true
				quietTicks = 0
				flow.start(minPassGap)
				setFlow(true)
			}
			_, more := t.takeEvents()
			full = more || full
		case err, ok := <-t.watch.errors():
			if !ok {
				t.watch.stopped()
			} else {
				t.watch.noteError(err)
			}
			full = true
		}
		timer.Stop() // since Go 1.23 a stopped timer delivers no stale tick
	}
}

// sleep waits d (nothing when d is not positive) on timer, which must be
// stopped or drained, and reports false when ctx ended first.
func sleep(ctx context.Context, timer *time.Timer, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	timer.Reset(d)
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}

// runManual is Run driven by Config.Tick: every receive is one full pass
// at the received time, and nothing else wakes the tailer.
func (t *Tailer) runManual(ctx context.Context, emit Emit) error {
	t.manual = true
	for {
		var now time.Time
		select {
		case <-ctx.Done():
			return nil
		case now = <-t.cfg.Tick:
		}
		for {
			more, err := t.flushed(ctx, now, true, emit)
			if t.afterPoll != nil {
				t.afterPoll()
			}
			if ctx.Err() != nil {
				return nil
			}
			if err != nil {
				return err
			}
			if !more {
				break
			}
		}
	}
}

// flushed is a pass followed by Config.Flush, so a consumer that batches
// lines has them all before the tailer waits.
func (t *Tailer) flushed(ctx context.Context, now time.Time, full bool, emit Emit) (more bool, err error) {
	t.grew = false
	more, err = t.pass(ctx, now, full, emit)
	if t.cfg.Flush != nil {
		err = errors.Join(err, t.cfg.Flush(ctx))
	}
	return more, err
}

// scanPeriod is the time to the next full scan without an event: the
// safety net while the watch covers every directory, the poll otherwise.
func (t *Tailer) scanPeriod() time.Duration {
	if t.watch.complete() {
		return t.cfg.RescanInterval
	}
	return t.cfg.PollInterval
}

// nextDeadline is the earliest time after now that a file needs a look
// without an event: the end of a RotateWait, or a recheck of a file being
// classified. Zero when there is none. A deadline already past belongs to
// a file waiting behind an older one of its source, whose own deadline
// comes first.
func (t *Tailer) nextDeadline(now time.Time) time.Time {
	var d time.Time
	earlier := func(x time.Time) {
		if x.After(now) && (d.IsZero() || x.Before(d)) {
			d = x
		}
	}
	for _, tr := range t.order {
		if !tr.left.IsZero() {
			earlier(tr.left.Add(t.cfg.RotateWait))
		}
		earlier(tr.recheck)
	}
	return d
}

func (t *Tailer) closeAll() {
	for _, tr := range t.order {
		if tr.f != nil {
			tr.f.Close()
		}
	}
	t.order = nil
	clear(t.files)
	clear(t.byName)
}
