package source

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// turnIdle is how long a followed file must have given no bytes before
// it is parked for a file waiting beyond max_open_files: long enough that
// a file being written keeps its descriptor, short enough that a thousand
// static files are all read within seconds.
const turnIdle = time.Second

// Coverage is what the tailer follows under max_open_files.
type Coverage struct {
	// Open files hold a descriptor; Parked ones were closed to take
	// turns and are opened again when one frees or they grow; Waiting
	// ones match the globs and were never opened yet.
	Open, Parked, Waiting int
}

// Coverage returns what the last pass saw; safe from any goroutine.
func (t *Tailer) Coverage() Coverage {
	if c := t.coverage.Load(); c != nil {
		return *c
	}
	return Coverage{}
}

// openFiles is how many tracked files hold a descriptor.
func (t *Tailer) openFiles() int { return len(t.files) - t.parkedN }

// takeTurns shares the descriptors when more files match than
// max_open_files: a parked file that grew, or else the one parked
// longest, is opened again where a slot is free; while files still wait
// (never opened, or parked and grown), the following files idle longest
// (turnIdle at least) are parked to free slots for them, and a full pass
// opens the ones never opened. Every matching file is therefore read,
// in turns, and a growing parked file is read within a pass or two.
func (t *Tailer) takeTurns(s step) error {
	defer t.noteCoverage()
	if len(t.skipped) == 0 && t.parkedN == 0 {
		return nil
	}
	var grown, rest []*tracked
	for _, tr := range t.order {
		if tr.state != parked {
			continue
		}
		if fi, err := os.Stat(tr.path); err == nil && fi.Size() != tr.readTo {
			grown = append(grown, tr) // grew, or shrank: a truncation to look at
		} else {
			rest = append(rest, tr)
		}
	}
	byParked := func(a, b *tracked) int { return a.since.Compare(b.since) }
	slices.SortStableFunc(grown, byParked)
	slices.SortStableFunc(rest, byParked)
	waiting := len(t.skipped) + len(grown)
	if free := t.cfg.MaxOpenFiles - t.openFiles(); waiting > free {
		var idle []*tracked
		for _, tr := range t.order {
			if tr.state == following && tr.copiesBefore == nil && s.now.Sub(tr.active) >= turnIdle {
				idle = append(idle, tr)
			}
		}
		slices.SortStableFunc(idle, func(a, b *tracked) int { return a.active.Compare(b.active) })
		for _, tr := range idle[:min(len(idle), waiting-free)] {
			if err := t.transition(s, tr, evPark, ""); err != nil {
				return err
			}
			rest = append(rest, tr)
		}
	}
	// Grown files first; never-opened files next (a full pass opens
	// them); then the parked ones, longest parked first, with what is
	// left.
	order := grown
	if len(t.skipped) == 0 {
		order = append(order, rest...)
	}
	for _, tr := range order {
		if t.openFiles() >= t.cfg.MaxOpenFiles {
			break
		}
		if err := t.unpark(s, tr); err != nil {
			return err
		}
	}
	if len(t.skipped) > 0 && t.openFiles() < t.cfg.MaxOpenFiles {
		t.rescan = true
	}
	return nil
}

// unpark opens a parked file again at its path. A path that now holds
// another file means it moved; the next scan finds it gone and looks for
// it where it went.
func (t *Tailer) unpark(s step, tr *tracked) error {
	f, err := openLog(tr.path)
	if err != nil {
		return nil // moved or deleted: the scan sends left
	}
	fi, err := f.Stat()
	if k, ok := fileKey(fi); err != nil || !ok || k != tr.key {
		f.Close()
		t.rescan = true
		return nil
	}
	tr.f = f
	return t.transition(s, tr, evUnpark, "")
}

// leftWhileParked handles a parked file that left the globs: it is
// looked for by identity next to its path and in the rotated directories
// and, when found, read on from where it was parked as a draining file;
// otherwise it is done (its Gone notice sent).
func (t *Tailer) leftWhileParked(s step, tr *tracked) error {
	for _, p := range append(siblings(tr.path), t.rotatedSiblings(tr.path)...) {
		cand := t.openIf(p, tr.id, tr.parkedAt, true)
		if cand == nil {
			continue
		}
		tr.f = cand.f
		tr.path = p
		if err := t.transition(s, tr, evUnpark, ""); err != nil {
			return err
		}
		tr.left, tr.state = s.now, draining
		t.cfg.Observer.Add(tr.source, CountRotations, 1)
		return nil
	}
	t.log.Warn("a file closed to take turns under max_open_files moved away and was not found; what it got since is not read",
		"path", tr.path, "offset", tr.parkedAt)
	if err := t.gone(s.ctx, tr, s.emit); err != nil {
		return err
	}
	t.close(tr)
	return nil
}

// rotatedSiblings lists, in each rotated directory (rotated_dirs,
// logrotate's olddir), the files named like path's base: where rotation
// moves it.
func (t *Tailer) rotatedSiblings(path string) []string {
	base := filepath.Base(path)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	var out []string
	for _, dir := range t.cfg.RotatedDirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		n := 0
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), stem) || !e.Type().IsRegular() {
				continue
			}
			if n++; n > maxSiblings {
				break
			}
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// startLate positions a file present at the start, opened only now (the
// open-file bound kept it out), as the first scan would have: at its
// checkpoint when it is the checkpointed file, else where StartAt says.
func (t *Tailer) startLate(tr *tracked) {
	if t.cfg.Positions != nil {
		if cp, ok := t.cfg.Positions.Lookup(tr.path); ok && tr.key == cp.File.Key() && t.hasContent(tr.f, cp.File) {
			t.startAt(tr, cp.Offset)
			return
		}
	}
	if t.cfg.StartAt == StartEnd {
		t.startAt(tr, t.lastLineEnd(tr.f))
	}
}

// noteCoverage publishes the counts for Coverage.
func (t *Tailer) noteCoverage() {
	c := Coverage{Open: t.openFiles(), Parked: t.parkedN, Waiting: len(t.skipped)}
	if old := t.coverage.Load(); old == nil || *old != c {
		t.coverage.Store(&c)
	}
}

// turnDeadline is when the following file idle longest may be parked,
// while files wait for a slot; zero otherwise.
func (t *Tailer) turnDeadline() time.Time {
	if len(t.skipped) == 0 && t.parkedN == 0 {
		return time.Time{}
	}
	var d time.Time
	for _, tr := range t.order {
		if tr.state == following && (d.IsZero() || tr.active.Before(d)) {
			d = tr.active
		}
	}
	if d.IsZero() {
		return d
	}
	return d.Add(turnIdle)
}
