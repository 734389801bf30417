package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// readBudget is how many raw bytes one file may deliver per poll before the
// others get their turn; a poll that stops on the budget is followed by
// another at once.
const readBudget = 4 << 20

// maxSiblings bounds the directory entries examined when looking for a
// rotated copy of a file.
const maxSiblings = 256

// Tailer follows the files matching a set of globs through rotation and
// truncation, decodes their framing and delivers their lines in order per
// file. Build it with New and call Run once.
type Tailer struct {
	ran     atomic.Bool
	cfg     Config
	files   map[devino]*tracked
	started bool   // the first poll is done: start-at and Positions no longer apply
	scratch []byte // fingerprint reads
	// retired remembers copies read to their end outside the globs, oldest
	// first (at most maxRetired), so that one showing up in a glob later is
	// not read again.
	retired []retiredFile
	// afterPoll, when set, runs after each poll (tests wait on it).
	afterPoll func()
}

// maxRetired bounds Tailer.retired.
const maxRetired = 64

type retiredFile struct {
	key devino
	id  FileID
	end int64
}

type devino struct{ dev, ino uint64 }

// tracked is one open file.
type tracked struct {
	key       devino
	path      string // current path, as far as the globs show it
	source    string // Line.Source: the first path, or the pod identity
	pod       Pod
	f         *os.File
	cr        *countReader
	sp        *splitter
	fr        *framer
	id        FileID
	lineStart int64     // raw offset of the first byte not yet cut into a complete line
	lastSize  int64     // size at the last poll, to skip fingerprint checks of idle files
	goneAt    time.Time // when the file left the globs; zero while it matches
	copyOf    *tracked  // a copy-truncate copy of this file, not read on its own
	fresh     bool      // first read in this poll, after the files already followed
	pending   bool      // appeared after the start; not read until classify decides
	first     bool      // read before other fresh files: a predecessor found through Positions
}

// resume is the offset from which nothing undelivered would be lost.
func (tr *tracked) resume() int64 { return tr.fr.resume(tr.lineStart) }

// countReader tracks the read position of a file without a seek per read.
type countReader struct {
	f   *os.File
	pos int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.f.Read(p)
	c.pos += int64(n)
	return n, err
}

// New validates cfg and builds a Tailer.
func New(cfg Config) (*Tailer, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("source config: %w", err)
	}
	return &Tailer{cfg: cfg, files: make(map[devino]*tracked)}, nil
}

// Run polls the globs and delivers lines to emit until ctx is done (it then
// returns nil) or emit or the file system fails (it returns that error). It
// closes every file before returning. Lines held back at that moment (an
// unterminated last line, an open partial line) are not delivered: the
// checkpoint (Line.Next) lies before them, so a restart reads them again.
func (t *Tailer) Run(ctx context.Context, emit Emit) error {
	if !t.ran.CompareAndSwap(false, true) {
		return errors.New("source: Tailer.Run called twice")
	}
	defer t.closeAll()
	tick := t.cfg.Tick
	manual := tick != nil
	if !manual {
		tk := time.NewTicker(t.cfg.PollInterval)
		defer tk.Stop()
		tick = tk.C
	}
	now := time.Now()
	if manual { // the first poll too waits for its tick
		select {
		case <-ctx.Done():
			return nil
		case now = <-tick:
		}
	}
	for {
		more, err := t.poll(ctx, now, emit)
		if t.afterPoll != nil {
			t.afterPoll()
		}
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return err
		}
		if more {
			if !manual {
				now = time.Now()
			}
			continue
		}
		select {
		case <-ctx.Done():
			return nil
		case now = <-tick:
		}
	}
}

func (t *Tailer) closeAll() {
	for k, tr := range t.files {
		tr.f.Close()
		delete(t.files, k)
	}
}

// found is one glob match.
type found struct {
	path string
	key  devino
}

func (t *Tailer) glob() []found {
	var out []found
	seen := make(map[devino]bool)
	var paths []string
	for _, p := range t.cfg.Paths {
		m, _ := filepath.Glob(p) // patterns were validated in New
		paths = append(paths, m...)
	}
	slices.Sort(paths)
	for _, p := range slices.Compact(paths) {
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue // vanished since the glob, or not a file: the next poll sees it again
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

func (t *Tailer) poll(ctx context.Context, now time.Time, emit Emit) (more bool, err error) {
	matches := t.glob()
	present := make(map[devino]bool, len(matches))
	var fresh []*tracked
	for _, m := range matches {
		present[m.key] = true
		if tr, ok := t.files[m.key]; ok {
			if !tr.goneAt.IsZero() {
				tr.goneAt = time.Time{} // renamed back into the globs
			}
			if tr.path != m.path {
				tr.path = m.path
				t.cfg.Observer.Add(tr.source, CountRotations, 1)
			}
			continue
		}
		if tr := t.open(m); tr != nil {
			fresh = append(fresh, tr)
		}
	}
	// ready files are read for the first time in this poll, after the
	// files already followed.
	ready := fresh
	if !t.started {
		t.resolvePositions(fresh, now)
		t.started = true
	} else {
		ready = nil
		for _, m := range matches {
			if tr := t.files[m.key]; tr != nil && tr.pending && t.classify(tr) {
				tr.pending = false
				if tr.copyOf == nil {
					ready = append(ready, tr)
				}
			}
		}
	}
	for _, tr := range ready {
		tr.fresh = true
	}
	// Files still fresh from an earlier poll (held back behind a rotated
	// file of their source) are read with this poll's new ones.
	ready = ready[:0]
	for _, m := range matches {
		if tr := t.files[m.key]; tr != nil && tr.fresh {
			ready = append(ready, tr)
		}
	}

	// Files that left the globs first: a rotated file's tail comes before
	// the new file's first lines.
	var gone []*tracked
	for k, tr := range t.files {
		if !present[k] {
			if tr.goneAt.IsZero() {
				tr.goneAt = now
				t.cfg.Observer.Add(tr.source, CountRotations, 1)
			}
			gone = append(gone, tr)
		}
	}
	slices.SortFunc(gone, func(a, b *tracked) int { return strings.Compare(a.path, b.path) })
	// While a file that left the globs may still be written to (RotateWait),
	// the other files of its source wait: a late line in the old file must
	// not come after the new file's first lines.
	waiting := make(map[string]bool)
	for _, tr := range gone {
		if tr.pending || tr.copyOf != nil {
			// Never read on its own: its content is (or may be) another
			// file's.
			if now.Sub(tr.goneAt) >= t.cfg.RotateWait {
				t.drop(tr)
			}
			continue
		}
		if _, err := t.read(ctx, tr, 0, now, emit); err != nil {
			return false, err
		}
		if now.Sub(tr.goneAt) >= t.cfg.RotateWait {
			if err := t.finish(ctx, tr, now, emit); err != nil {
				return false, err
			}
			t.drop(tr)
		} else {
			waiting[tr.source] = true
		}
	}

	for _, m := range matches {
		tr := t.files[m.key]
		if tr == nil || tr.fresh || tr.pending || tr.copyOf != nil || waiting[tr.source] {
			continue
		}
		if err := t.checkTruncation(ctx, tr, now, emit); err != nil {
			return false, err
		}
		m, err := t.read(ctx, tr, readBudget, now, emit)
		if err != nil {
			return false, err
		}
		more = more || m
	}

	slices.SortStableFunc(ready, func(a, b *tracked) int {
		switch {
		case a.first == b.first:
			return 0
		case a.first:
			return -1
		}
		return 1
	})
	for _, tr := range ready {
		if tr.copyOf != nil {
			tr.fresh = false
			continue
		}
		if waiting[tr.source] {
			continue // stays fresh: read first once the old file is closed
		}
		tr.fresh = false
		m, err := t.read(ctx, tr, readBudget, now, emit)
		if err != nil {
			return false, err
		}
		more = more || m
	}
	return more, nil
}

// open starts tracking a newly matched file. It returns nil when the file
// is not to be read now (the open-file bound, an open error, or it
// vanished).
func (t *Tailer) open(m found) *tracked {
	if len(t.files) >= t.cfg.MaxOpenFiles {
		t.cfg.Observer.Add(m.path, CountFilesSkipped, 1)
		return nil
	}
	// A file that cannot be opened must not stop the others: it is
	// counted and tried again at the next poll.
	f, err := os.Open(m.path)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			t.cfg.Observer.Add(m.path, CountOpenErrors, 1)
		}
		return nil
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		t.cfg.Observer.Add(m.path, CountOpenErrors, 1)
		return nil
	}
	k, ok := fileKey(fi)
	if !ok || k != m.key || t.files[k] != nil {
		f.Close() // replaced between glob and open; the next poll sees the new one
		return nil
	}
	tr := &tracked{key: k, path: m.path, source: m.path, f: f}
	if pod, ok := ParsePodPath(m.path); ok {
		tr.pod, tr.source = pod, pod.Source()
	}
	tr.cr = &countReader{f: f}
	tr.sp = newSplitter(tr.cr, physicalBound(t.cfg.Format, t.cfg.MaxLineBytes))
	tr.fr = newFramer(t.cfg.Format, t.cfg.MaxLineBytes)
	tr.id = t.identify(f, k)
	tr.lastSize = fi.Size()
	t.files[k] = tr

	if i := t.retiredIndex(k); i >= 0 {
		r := t.retired[i]
		t.retired = slices.Delete(t.retired, i, i+1)
		if t.hasContent(f, r.id) {
			// A copy whose tail was read when its original was truncated,
			// now renamed into the globs: only what follows is new.
			if err := tr.seek(r.end); err == nil {
				return tr
			}
		}
	}
	if t.started {
		tr.pending, tr.lastSize = true, -1 // classify decides whether it is a copy
	}
	return tr
}

func (t *Tailer) retiredIndex(k devino) int {
	return slices.IndexFunc(t.retired, func(r retiredFile) bool { return r.key == k })
}

// retire remembers a copy read to its end outside the globs.
func (t *Tailer) retire(cp *tracked) {
	if i := t.retiredIndex(cp.key); i >= 0 {
		t.retired = slices.Delete(t.retired, i, i+1)
	}
	if len(t.retired) == maxRetired {
		t.retired = slices.Delete(t.retired, 0, 1)
	}
	t.retired = append(t.retired, retiredFile{key: cp.key, id: cp.id, end: cp.lineStart})
}

// classify decides whether a file that appeared after the start is a
// copy-truncate copy of a followed file in the same directory (its bytes
// are then read from the original, and from the copy only what the
// original loses when it is truncated) or a new file, read from its
// beginning. It reports false while it cannot tell yet: the file is empty,
// or it holds fewer bytes than the original's fingerprint and they equal the
// original's first bytes (logrotate writing its copy) and it is still
// growing. A file that stops growing as a prefix of a followed file is
// taken as its copy. Only the same directory is compared: that is where
// copytruncate puts its copy, and it keeps unrelated files apart.
func (t *Tailer) classify(tr *tracked) bool {
	fi, err := tr.f.Stat()
	if err != nil {
		return true // read errors surface when it is read
	}
	size := fi.Size()
	stable := size == tr.lastSize
	tr.lastSize = size
	if size == 0 {
		return false
	}
	b := append([]byte(nil), t.head(tr.f, t.cfg.FingerprintSize)...)
	for _, o := range t.files {
		if o == tr || o.pending || o.copyOf != nil || o.id.Size == 0 || filepath.Dir(o.path) != filepath.Dir(tr.path) {
			continue
		}
		if len(b) >= o.id.Size && fingerprint(b[:o.id.Size]) == o.id.Sum {
			tr.copyOf = o
			break
		}
		if ob := t.head(o.f, len(b)); len(ob) == len(b) && string(ob) == string(b) {
			if !stable {
				return false
			}
			tr.copyOf = o
			break
		}
	}
	tr.id = t.identify(tr.f, tr.key)
	return true
}

func (t *Tailer) drop(tr *tracked) {
	tr.f.Close()
	delete(t.files, tr.key)
	for _, o := range t.files {
		if o.copyOf == tr {
			// The original was read to its end, which covers the copy.
			o.copyOf = nil
			if err := o.seekEnd(); err != nil {
				o.lineStart = o.cr.pos
			}
		}
	}
}

// seekEnd positions the file at its current end.
func (tr *tracked) seekEnd() error {
	end, err := tr.f.Seek(0, io.SeekEnd)
	if err != nil {
		return fmt.Errorf("seek %s: %w", tr.path, err)
	}
	tr.setPos(end)
	return nil
}

// seek positions the file at off and forgets any partial line.
func (tr *tracked) seek(off int64) error {
	if _, err := tr.f.Seek(off, io.SeekStart); err != nil {
		return fmt.Errorf("seek %s: %w", tr.path, err)
	}
	tr.setPos(off)
	return nil
}

func (tr *tracked) setPos(off int64) {
	tr.cr.pos = off
	tr.lineStart = off
	tr.sp.reset(tr.cr)
	tr.fr.reset()
}

// identify fingerprints the first bytes of f.
func (t *Tailer) identify(f *os.File, k devino) FileID {
	b := t.head(f, t.cfg.FingerprintSize)
	return FileID{Dev: k.dev, Ino: k.ino, Size: len(b), Sum: fingerprint(b)}
}

// head reads up to n leading bytes of f without moving its offset.
func (t *Tailer) head(f *os.File, n int) []byte {
	if cap(t.scratch) < n {
		t.scratch = make([]byte, n)
	}
	b := t.scratch[:n]
	got, _ := f.ReadAt(b, 0) // a short read is a short file
	return b[:got]
}

// hasContent reports whether f starts with the bytes id fingerprints.
func (t *Tailer) hasContent(f *os.File, id FileID) bool {
	b := t.head(f, id.Size)
	return len(b) == id.Size && fingerprint(b) == id.Sum
}

// checkTruncation notices a file that was truncated, or whose content was
// replaced in place, since the last poll, and restarts it from its
// beginning. Before that it reads what the old content still had unread
// from a copy-truncate copy, when one is found.
func (t *Tailer) checkTruncation(ctx context.Context, tr *tracked, now time.Time, emit Emit) error {
	fi, err := tr.f.Stat()
	if err != nil {
		return fmt.Errorf("stat %s: %w", tr.path, err)
	}
	size := fi.Size()
	truncated := size < tr.cr.pos
	if !truncated && size != tr.lastSize {
		if !t.hasContent(tr.f, tr.id) {
			truncated = true
		} else if tr.id.Size < t.cfg.FingerprintSize && size > int64(tr.id.Size) {
			tr.id = t.identify(tr.f, tr.key) // grown: fingerprint more of it
		}
	}
	tr.lastSize = size
	if !truncated {
		return nil
	}
	t.cfg.Observer.Add(tr.source, CountTruncations, 1)
	from := tr.resume()
	if cp := t.findCopy(tr); cp != nil {
		if err := t.readCopy(ctx, tr, cp, from, now, emit); err != nil {
			return err
		}
	} else if err := t.finish(ctx, tr, now, emit); err != nil {
		return err
	}
	if err := tr.seek(0); err != nil {
		return err
	}
	tr.id = t.identify(tr.f, tr.key)
	return nil
}

// findCopy looks for a copy of tr's old content: first among tracked
// files, then among the files next to it whose name starts like its own
// (app.log.1, app.log-20260101, app-20260101.log).
func (t *Tailer) findCopy(tr *tracked) *tracked {
	if tr.id.Size == 0 {
		return nil // nothing of the old content is known: any file would match
	}
	for _, o := range t.files {
		if o.copyOf == tr {
			return o
		}
	}
	// A copy still being classified (logrotate was writing it at the last
	// look) is the copy when it now holds the old content.
	for _, o := range t.files {
		if o.pending && filepath.Dir(o.path) == filepath.Dir(tr.path) && t.hasContent(o.f, tr.id) {
			o.pending = false
			return o
		}
	}
	dir, base := filepath.Split(tr.path)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	entries, err := os.ReadDir(filepath.Clean(dir))
	if err != nil {
		return nil
	}
	seen := 0
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), stem) || e.Name() == base || !e.Type().IsRegular() {
			continue
		}
		if seen++; seen > maxSiblings {
			break
		}
		if cp := t.openIf(filepath.Join(dir, e.Name()), tr.id, 0, false); cp != nil {
			if t.files[cp.key] != nil { // followed on its own: not a copy of tr
				cp.f.Close()
				continue
			}
			cp.source, cp.pod = tr.source, tr.pod
			return cp
		}
	}
	return nil
}

// fileSize is f's current size, or -1 when it cannot be read.
func fileSize(f *os.File) int64 {
	fi, err := f.Stat()
	if err != nil {
		return -1
	}
	return fi.Size()
}

// openIf opens path when it holds id's content (and, with sameFile, is the
// same inode) and is at least min bytes long. The result is not tracked.
func (t *Tailer) openIf(path string, id FileID, min int64, sameFile bool) *tracked {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	fi, err := f.Stat()
	k, ok := devino{}, false
	if err == nil {
		k, ok = fileKey(fi)
	}
	if !ok || fi.Size() < min || (sameFile && k != (devino{id.Dev, id.Ino})) || !t.hasContent(f, id) {
		f.Close()
		return nil
	}
	tr := &tracked{key: k, path: path, source: path, f: f, cr: &countReader{f: f}}
	tr.sp = newSplitter(tr.cr, physicalBound(t.cfg.Format, t.cfg.MaxLineBytes))
	tr.fr = newFramer(t.cfg.Format, t.cfg.MaxLineBytes)
	tr.id = t.identify(f, k)
	return tr
}

// readCopy delivers the copy's bytes from offset from to its end, as lines
// of orig, and closes the copy unless it is tracked (then it continues from
// its end as a file of its own).
func (t *Tailer) readCopy(ctx context.Context, orig, cp *tracked, from int64, now time.Time, emit Emit) error {
	t.cfg.Observer.Add(orig.source, CountCopyTails, 1)
	cp.copyOf = nil
	cp.fr.format = orig.fr.format
	// The copy can be shorter than what was read from the original: lines
	// written between logrotate's copy and its truncation are only in what
	// we read before the truncation.
	if size := fileSize(cp.f); size >= 0 && from > size {
		from = size
	}
	if err := cp.seek(from); err != nil {
		return err
	}
	if _, err := t.read(ctx, cp, 0, now, emit); err != nil {
		return err
	}
	if err := t.finish(ctx, cp, now, emit); err != nil {
		return err
	}
	if t.files[cp.key] != cp {
		t.retire(cp)
		cp.f.Close()
	}
	return nil
}

// read delivers complete lines of tr, at most budget raw bytes (0: no
// bound), and reports whether it stopped on the budget.
func (t *Tailer) read(ctx context.Context, tr *tracked, budget int64, now time.Time, emit Emit) (more bool, err error) {
	start, lines, cut, bad := tr.lineStart, int64(0), int64(0), tr.fr.bad
	defer func() {
		t.count(tr.source, tr.lineStart-start, lines, cut, tr.fr.bad-bad)
	}()
	deliver := func(fr frame) error {
		lines++
		if fr.truncated {
			cut++
		}
		return emit(ctx, t.line(tr, fr, now))
	}
	for n := 0; ; n++ {
		if budget > 0 && tr.lineStart-start >= budget {
			return true, nil
		}
		if n&255 == 255 && ctx.Err() != nil {
			return false, ctx.Err()
		}
		b, raw, c, err := tr.sp.next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return false, nil
			}
			return false, fmt.Errorf("read %s: %w", tr.path, err)
		}
		off := tr.lineStart
		tr.lineStart += raw
		if err := tr.fr.push(b, off, tr.lineStart, c, deliver); err != nil {
			return false, err
		}
	}
}

// finish delivers what tr holds back (an unterminated last line, open
// partial lines) because its content ends here for good.
func (t *Tailer) finish(ctx context.Context, tr *tracked, now time.Time, emit Emit) error {
	start, lines, cut := tr.lineStart, int64(0), int64(0)
	deliver := func(fr frame) error {
		lines++
		if fr.truncated {
			cut++
		}
		return emit(ctx, t.line(tr, fr, now))
	}
	if b, raw, c, ok := tr.sp.flush(); ok {
		off := tr.lineStart
		tr.lineStart += raw
		if err := tr.fr.push(b, off, tr.lineStart, c, deliver); err != nil {
			return err
		}
	}
	err := tr.fr.flush(deliver)
	t.count(tr.source, tr.lineStart-start, lines, cut, 0)
	return err
}

func (t *Tailer) line(tr *tracked, fr frame, now time.Time) Line {
	l := Line{Path: tr.path, File: tr.id, End: fr.end, Next: tr.resume(), Pod: tr.pod}
	l.Text = string(fr.text)
	l.Source = tr.source
	l.Stream = fr.stream
	l.Offset = fr.offset
	l.Time = fr.time
	if l.Time.IsZero() {
		l.Time = now
	}
	l.Truncated = fr.truncated
	return l
}

func (t *Tailer) count(source string, bytes, lines, cut, bad int64) {
	o := t.cfg.Observer
	if lines > 0 {
		o.Add(source, CountLines, lines)
	}
	if bytes > 0 {
		o.Add(source, CountBytes, bytes)
	}
	if cut > 0 {
		o.Add(source, CountLinesCut, cut)
	}
	if bad > 0 {
		o.Add(source, CountFramingErrors, bad)
	}
}
