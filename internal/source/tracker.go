package source

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// fileState is where a tracked file is in its life; design.md draws the
// transitions.
type fileState int

const (
	// classifying: appeared after the start and not read yet, because it
	// may be a copy-truncate copy of a followed file (empty, or a prefix
	// of one that is still growing).
	classifying fileState = iota
	// following: at a matching path, read as it grows, checked for
	// truncation and in-place rewrites.
	following
	// draining: left the globs (renamed or deleted); read through its open
	// descriptor, wherever it moved, until RotateWait after it left.
	draining
	// copying: a copy-truncate copy of tr.copyOf, never read on its own:
	// its bytes come from the original, and from the copy only the tail
	// the original loses when it is truncated.
	copying
	// parked: closed to give its descriptor to a file waiting beyond
	// max_open_files, after it was idle for turnIdle; its identity, path
	// and resume offset are kept, and it is opened again (the identity
	// checked) when its turn comes: at once when it grew, else when it is
	// the file closed longest and a slot frees.
	parked
	// gone: closed; nothing refers to it any more.
	gone
)

var stateNames = [...]string{"classifying", "following", "draining", "copy", "parked", "gone"}

func (s fileState) String() string { return stateNames[s] }

// event is what the tailer learned about a file.
type event int

const (
	evMatched      event = iota // a scan found it at a matching path (perhaps a new one)
	evLeft                      // a scan found it at no matching path
	evNew                       // classified as a file of its own
	evCopy                      // classified as a copy of tr.copyOf
	evCopyRead                  // its original was truncated and the lost tail read from it
	evOriginalDone              // its original was closed or truncated, its content read to its end
	evWaitOver                  // RotateWait passed since it left the globs
	evPark                      // idle while files wait for a slot: its descriptor goes to one of them
	evUnpark                    // its turn came: reopened at its path, the same file
)

var eventNames = [...]string{"matched", "left", "new", "copy", "copy read", "original done", "wait over", "park", "unpark"}

func (e event) String() string { return eventNames[e] }

// tracked is one open file.
type tracked struct {
	key    Key
	state  fileState
	path   string // current path, as far as the globs show it
	real   string // where it really lives (links resolved), at open
	source string // Line.Source: the first path, or the pod identity
	pod    Pod
	f      *os.File
	cr     *countReader
	sp     *splitter
	fr     *framer
	id     FileID
	// lineStart is the raw offset of the first byte not yet cut into a
	// complete line.
	lineStart int64
	size      int64     // at the last look; -1 before the first
	mtime     time.Time // at the last look
	dirty     bool      // a write event named it since the last look
	left      time.Time // when it left the globs; zero while it matches
	// home is the matching path it had when it left the globs (for a
	// file found next to its path at the start, that path): where a
	// generation moved aside between two looks is looked for (readStrays).
	home    string
	recheck time.Time // classifying: look again then even without an event
	copyOf  *tracked  // copying: the original
	// copiesBefore: the files next to it when it was truncated to empty,
	// until content shows up (readUnseen); nil otherwise.
	copiesBefore map[Key]bool
	// active is when it was opened or last gave bytes: the file idle
	// longest is parked first.
	active time.Time
	// parkedAt is where a parked file resumes, readTo how far it had
	// been read (a held partial line lies between): a parked file larger
	// or smaller than readTo changed. since is when it was parked (the
	// file parked longest gets a free slot first).
	parkedAt, readTo int64
	since            time.Time
	// newContent is set where the file is found truncated or rewritten
	// in place and read again from its start; its next line carries it
	// (Line.NewContent).
	newContent bool
}

// step is what a transition needs to deliver lines.
type step struct {
	ctx  context.Context
	now  time.Time
	emit Emit
}

// transition is the one place a file changes state; it runs the actions
// that go with each change (counting, reading to the end, the Gone
// notice, closing).
func (t *Tailer) transition(s step, tr *tracked, ev event, path string) error {
	from := tr.state
	bad := func() error {
		return fmt.Errorf("source: %s: no transition from %s on %s", tr.path, from, ev)
	}
	// onward is where a file that is read goes: following while it
	// matches, draining once it left.
	onward := following
	if !tr.left.IsZero() {
		onward = draining
	}
	switch ev {
	case evMatched:
		switch from {
		case following, draining:
			if path != tr.path {
				tr.path = path
				t.cfg.Observer.Add(tr.source, CountRotations, 1)
			}
			tr.state = following // a draining file renamed back into the globs
		case classifying, copying, parked:
			tr.path = path
		default:
			return bad()
		}
		tr.left = time.Time{}
	case evLeft:
		if from == gone {
			return bad()
		}
		tr.home = tr.path
		if from == parked {
			// Moved away while closed: read on where it went, when it is
			// found there by identity, else it is done.
			return t.leftWhileParked(s, tr)
		}
		tr.left = s.now
		if from == following {
			tr.state = draining
			t.cfg.Observer.Add(tr.source, CountRotations, 1)
		}
	case evNew:
		if from != classifying {
			return bad()
		}
		tr.state, tr.recheck = onward, time.Time{}
	case evCopy:
		if from != classifying || tr.copyOf == nil {
			return bad()
		}
		tr.state, tr.recheck = copying, time.Time{}
	case evCopyRead:
		if from != copying && from != classifying {
			return bad()
		}
		tr.state, tr.copyOf, tr.recheck = onward, nil, time.Time{}
	case evOriginalDone:
		if from != copying {
			return bad()
		}
		// The original's content was read to its end, which covers the
		// copy.
		tr.state, tr.copyOf = onward, nil
		if err := tr.seekEnd(); err != nil {
			tr.lineStart = tr.cr.pos
		}
	case evPark:
		if from != following {
			return bad()
		}
		tr.parkedAt, tr.readTo, tr.since = tr.resume(), tr.cr.pos, s.now
		tr.f.Close()
		tr.f, tr.state = nil, parked
		t.parkedN++
	case evUnpark:
		// The caller opened the file at its path and checked that it is
		// the same (unpark, leftWhileParked); a rewrite while it was closed is found
		// by the next look for truncation, which compares the first
		// bytes read before with the file's.
		if from != parked || tr.f == nil {
			return bad()
		}
		head := tr.cr.head
		t.newReader(tr)
		tr.cr.head = head
		if err := tr.seek(tr.parkedAt); err != nil {
			return err
		}
		tr.state, tr.active, tr.size, tr.dirty = following, s.now, -1, true
		t.parkedN--
	case evWaitOver:
		switch from {
		case draining:
			if err := t.drain(s.ctx, tr, s.now, s.emit); err != nil {
				return err
			}
			if err := t.gone(s.ctx, tr, s.emit); err != nil {
				return err
			}
			t.rememberDrained(tr)
			if err := t.readStrays(s, tr); err != nil {
				return err
			}
		case classifying, copying:
			// Never read: empty, or its bytes are another file's.
		default:
			return bad()
		}
		t.close(tr)
		for _, o := range t.order {
			if o.state == copying && o.copyOf == tr {
				if err := t.transition(s, o, evOriginalDone, ""); err != nil {
					return err
				}
			}
		}
	default:
		return bad()
	}
	return nil
}

// track adds a newly opened file as the newest.
func (t *Tailer) track(tr *tracked) {
	t.files[tr.key] = tr
	t.order = append(t.order, tr)
}

// moveBefore makes a older than b in the read order.
func (t *Tailer) moveBefore(a, b *tracked) {
	i := slices.Index(t.order, a)
	if i < 0 {
		return
	}
	t.order = slices.Delete(t.order, i, i+1)
	j := max(slices.Index(t.order, b), 0)
	t.order = slices.Insert(t.order, j, a)
}

// close forgets tr for good.
func (t *Tailer) close(tr *tracked) {
	if tr.f != nil {
		tr.f.Close()
	}
	if tr.state == parked {
		t.parkedN--
	}
	tr.state = gone
	delete(t.files, tr.key)
	if i := slices.Index(t.order, tr); i >= 0 {
		t.order = slices.Delete(t.order, i, i+1)
	}
	for name, o := range t.byName {
		if o == tr {
			delete(t.byName, name)
		}
	}
	if len(t.skipped) > 0 || t.parkedN > 0 {
		t.rescan = true // a slot is free for a waiting file
	}
}

// pass is one look at the files: with full, the globs are expanded first
// (new, renamed and vanished files); then files being classified are
// classified, and every readable file is read, oldest first. A file waits
// while an older file of its source is still draining, so that a late
// line of a rotated file never comes after its successor's first lines.
func (t *Tailer) pass(ctx context.Context, now time.Time, full bool, emit Emit) (more bool, err error) {
	s := step{ctx: ctx, now: now, emit: emit}
	if full {
		if err := t.scan(s); err != nil {
			return false, err
		}
		if err := t.takeTurns(s); err != nil {
			return false, err
		}
	}
	// A copy: transitions close files. Reused, so a pass allocates nothing.
	t.passFiles = append(t.passFiles[:0], t.order...)
	files := t.passFiles
	defer clear(files) // keep no closed file alive until the next pass
	for _, tr := range files {
		if tr.state != classifying {
			continue
		}
		if ev, ok := t.classify(tr, now); ok {
			if err := t.transition(s, tr, ev, ""); err != nil {
				return false, err
			}
		}
	}
	var held []string // sources with an older file not finished yet
	for _, tr := range files {
		expired := !tr.left.IsZero() && now.Sub(tr.left) >= t.cfg.RotateWait
		switch tr.state {
		case classifying:
			if expired {
				err = t.transition(s, tr, evWaitOver, "")
			} else if !tr.left.IsZero() {
				held = append(held, tr.source)
			}
		case copying:
			if expired {
				err = t.transition(s, tr, evWaitOver, "")
			}
		case following:
			if slices.Contains(held, tr.source) {
				continue
			}
			if err := t.checkTruncation(s, tr, full); err != nil {
				return false, err
			}
			if t.beforeRead != nil {
				t.beforeRead()
			}
			if tr.copiesBefore != nil {
				// Empty at the look after its truncation: what a writer
				// added since waits for the next pass, whose look first
				// reads the copies that appeared meanwhile (readUnseen).
				// Read now, those lines would be read again from their
				// copy if logrotate copied and truncated before then.
				continue
			}
			var m bool
			m, err = t.read(ctx, tr, readBudget, now, emit)
			more = more || m
		case draining:
			if slices.Contains(held, tr.source) {
				continue
			}
			if expired {
				err = t.transition(s, tr, evWaitOver, "")
			} else {
				_, err = t.read(ctx, tr, 0, now, emit)
				held = append(held, tr.source)
			}
		}
		if err != nil {
			return false, err
		}
	}
	return more, nil
}

// found is one glob match.
type found struct {
	path string
	key  Key
	// at is where the file is now, when that is not path: a file renamed
	// out of the globs before it could be opened (see openCreated).
	at string
}

func (t *Tailer) glob() []found {
	var out []found
	seen := make(map[Key]bool)
	var paths []string
	for _, p := range t.roots.globs { // absolute, as the watch's event names are
		m, _ := filepath.Glob(p) // patterns were validated in New
		for _, f := range m {
			if !compressedName(f) {
				paths = append(paths, f)
			} else if !t.saidCompressed {
				t.saidCompressed = true
				t.log.Info("compressed files in the paths are not followed (logmatch scan reads them)", "first", f)
			}
		}
	}
	slices.Sort(paths)
	for _, p := range slices.Compact(paths) {
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue // vanished since the glob, or not a file: the next scan sees it again
		}
		k, ok := fileKey(fi)
		if !ok || seen[k] {
			continue // a second name (symlink, hard link) of a file already found
		}
		seen[k] = true
		out = append(out, found{path: p, key: k})
	}
	return out
}

// scan expands the globs: tracked files that match are matched (perhaps
// at a new path), tracked files that do not have left, and new files are
// opened. The first scan decides where the files present at the start
// begin (Positions, StartAt).
func (t *Tailer) scan(s step) error {
	t.rescan = false
	t.watch.sync(t.watchDirs()) // before the glob: a file created meanwhile makes an event
	matches := t.glob()
	present := make(map[Key]bool, len(matches))
	skipped := make(map[Key]string)
	var fresh []*tracked
	for _, m := range matches {
		present[m.key] = true
		if tr := t.files[m.key]; tr != nil {
			if err := t.transition(s, tr, evMatched, m.path); err != nil {
				return err
			}
			continue
		}
		if _, ok := t.refused[m.key]; ok {
			continue
		}
		tr, err := t.open(m)
		switch {
		case errors.Is(err, errSkipped):
			skipped[m.key] = m.path
			if !t.started {
				t.initial[m.key] = true
			}
			if _, ok := t.skipped[m.key]; !ok {
				t.cfg.Observer.Add(m.path, CountFilesSkipped, 1)
			}
		case errors.Is(err, errRefused):
			t.refused[m.key] = m.path
			t.cfg.Observer.Add(m.path, CountSymlinksRefused, 1)
			t.log.Warn("not reading a file that lies outside the allowed roots (a link out of the watched directories)",
				"path", m.path, "err", err, "roots", t.roots.dirs)
		case errors.Is(err, errVanished):
			t.missed[m.key] = m.path
		case err != nil:
			t.cfg.Observer.Add(m.path, CountOpenErrors, 1)
		default:
			tr.active = s.now
			fresh = append(fresh, tr)
		}
	}
	t.account(present, skipped)
	for k := range t.initial {
		if !present[k] {
			delete(t.initial, k)
		}
	}
	for _, tr := range append([]*tracked(nil), t.order...) {
		if !present[tr.key] && tr.left.IsZero() && tr.state != gone {
			if err := t.transition(s, tr, evLeft, ""); err != nil {
				return err
			}
		}
	}
	if !t.started {
		t.resolvePositions(fresh, s.now)
		t.started = true
	}
	clear(t.byName)
	for _, tr := range t.order {
		t.byName[tr.path] = tr
		if tr.real != "" {
			t.byName[tr.real] = tr
		}
	}
	if len(fresh) > 0 {
		t.watch.sync(t.watchDirs()) // the real directories of the new files
	}
	if t.afterScan != nil {
		t.afterScan()
	}
	return nil
}

// account keeps the sets of refused, skipped and missed files to what the
// scan saw, and counts the generations that vanished without ever being
// opened.
func (t *Tailer) account(present map[Key]bool, skipped map[Key]string) {
	for k := range t.refused {
		if !present[k] {
			delete(t.refused, k)
		}
	}
	for k, p := range t.skipped {
		if !present[k] && t.files[k] == nil {
			t.lost(p, "it vanished while max_open_files kept it from being opened")
		}
	}
	if len(skipped) != len(t.skipped) {
		if len(skipped) > 0 {
			t.log.Warn("max_open_files reached: the matching files take turns, one idle for a second is closed for one that waits",
				"waiting", len(skipped), "max_open_files", t.cfg.MaxOpenFiles)
		} else {
			t.log.Info("every matching file was opened; files beyond max_open_files keep taking turns",
				"parked", t.parkedN, "max_open_files", t.cfg.MaxOpenFiles)
		}
	}
	t.skipped = skipped
	for k, p := range t.missed {
		switch {
		case t.files[k] != nil:
			delete(t.missed, k)
		case !present[k]:
			delete(t.missed, k)
			t.lost(p, "it was renamed away or deleted between two looks, before it could be opened")
		}
	}
}

// lost counts and logs a file generation that was never read.
func (t *Tailer) lost(path, why string) {
	t.cfg.Observer.Add(path, CountGenerationsLost, 1)
	t.log.Warn("a file generation was never read", "path", path, "why", why)
}

// Why open did not return a file.
var (
	errSkipped  = errors.New("max_open_files reached")
	errRefused  = errors.New("outside the allowed roots")
	errVanished = errors.New("vanished or replaced since the scan")
)

// open starts tracking a newly matched file.
func (t *Tailer) open(m found) (*tracked, error) {
	if t.openFiles() >= t.cfg.MaxOpenFiles {
		return nil, errSkipped
	}
	f, err := openLog(cmp.Or(m.at, m.path))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, errNotRegular) {
			return nil, errVanished
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	k, ok := fileKey(fi)
	if !ok || k != m.key {
		f.Close()
		return nil, errVanished
	}
	real, err := realPath(f)
	if err != nil || !t.roots.allows(real) {
		f.Close()
		return nil, fmt.Errorf("%w: resolves to %q", errRefused, real)
	}
	tr := &tracked{key: k, path: m.path, real: real, source: m.path, f: f, size: fi.Size(), mtime: fi.ModTime()}
	if pod, ok := ParsePodPath(m.path); ok {
		tr.pod, tr.source = pod, pod.Source()
	}
	t.newReader(tr)
	t.identify(tr)
	t.track(tr)
	tr.state = following
	if i := t.retiredIndex(k); i >= 0 {
		r := t.retired[i]
		t.retired = slices.Delete(t.retired, i, i+1)
		if t.hasContent(f, r.id) {
			// A copy whose tail was read when its original was truncated,
			// now renamed into the globs: only what follows is new.
			if err := tr.seek(r.end); err == nil {
				return tr, nil
			}
		}
	}
	tr.active = time.Now()
	if t.started && t.initial[k] {
		// Present at the start but kept out by max_open_files until now:
		// it begins where a file found at the start does.
		delete(t.initial, k)
		t.startLate(tr)
		return tr, nil
	}
	if t.started {
		tr.state, tr.size = classifying, -1 // classify decides whether it is a copy
	}
	return tr, nil
}
