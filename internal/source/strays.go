package source

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/logmatch/logmatch/internal/logfile/magic"
)

// maxStrays bounds the files one readStrays reads.
const maxStrays = 16

// stray is a file next to a path that may be a generation of it never
// opened.
type stray struct {
	path  string
	key   Key
	mtime time.Time
}

// readStrays reads, after tr (a file that left its path, just read to its
// end and about to be closed), the generations of that path that held it
// between two looks and were moved away before they could be opened. A
// writer that reopens its log by name (Python's WatchedFileHandler)
// recreates it in the instant between logrotate's rename and its create;
// logrotate then finds its destination taken, renames the writer's file
// aside (NAME-YYYYMMDDHH.backup) and creates its own. The same happens with
// a rotation faster than the polls, or several rotations while logmatch was
// down. The path's current file waits while tr drains, so these lines come
// after tr's and before the current file's.
//
// A file is taken for such a generation only on this evidence:
//   - it lies next to tr's path and is named like a rotation of it
//     (rotatedName: not another program's file beside the log, not another
//     log sharing its stem), and is not compressed;
//   - it is no file read or being read: not tr, not tracked, not a copy
//     already read (retired) nor a file closed after it drained (drained),
//     by inode and first bytes;
//   - it is not empty, starts like no file read here (a copy of one,
//     from copy or copytruncate, holds lines already delivered) and not
//     like a compressed file (a compression's temporary file, such as
//     kubelet's NAME.TIME.tmp before it becomes NAME.TIME.gz);
//   - it was last written no earlier than tr, and no later than a newer
//     generation of tr's path that left it and is still open (draining, or
//     still being classified): one writer wrote it after tr.
//     An older generation (app.log.2 of an earlier rotation) was last
//     written before tr was first written, so before tr's last write;
//   - where the file system keeps creation times, it was created no
//     earlier than tr: it held the path after tr. An older generation, or
//     another program's log named like a rotation (app.log-2 beside
//     app.log, written all along), was there before.
//
// At most maxStrays files are read, oldest first, whole, each followed by
// its Gone notice, and remembered like copies read outside the globs.
func (t *Tailer) readStrays(s step, tr *tracked) error {
	if tr.home == "" || tr.f == nil {
		return nil
	}
	fi, err := tr.f.Stat()
	if err != nil {
		return nil
	}
	floor := fi.ModTime()
	born, knowBirth := birthTime(tr.f)
	var ceiling time.Time
	for _, o := range t.order {
		left := o.state == draining || o.state == classifying && !o.left.IsZero()
		if o == tr || !left || o.source != tr.source || o.f == nil {
			continue
		}
		if ofi, err := o.f.Stat(); err == nil && !ofi.ModTime().Before(floor) &&
			(ceiling.IsZero() || ofi.ModTime().Before(ceiling)) {
			ceiling = ofi.ModTime()
		}
	}
	base := filepath.Base(tr.home)
	var cands []stray
	for _, p := range siblings(tr.home) {
		if compressed(p) || !rotatedName(base, filepath.Base(p)) {
			continue
		}
		fi, err := os.Stat(p)
		if err != nil || fi.Size() == 0 {
			continue
		}
		k, ok := fileKey(fi)
		if !ok || k == tr.key || t.files[k] != nil {
			continue
		}
		m := fi.ModTime()
		if m.Before(floor) || !ceiling.IsZero() && m.After(ceiling) {
			continue
		}
		if b, ok := pathBirthTime(p); knowBirth && ok && b.Before(born) {
			continue // there before tr: an older generation, or another writer's file
		}
		cands = append(cands, stray{path: p, key: k, mtime: m})
	}
	slices.SortStableFunc(cands, func(a, b stray) int { return a.mtime.Compare(b.mtime) })
	if len(cands) > maxStrays {
		t.log.Warn("more files next to a rotated log look like generations never read than are read at once; the newest are left",
			"path", tr.home, "found", len(cands), "read", maxStrays)
		cands = cands[:maxStrays]
	}
	for _, c := range cands {
		cp := t.openWhen(c.path, func(f *os.File, k Key, size int64) bool {
			return k == c.key && size > 0 && !t.wasRead(f, k) && !compressedContent(t.head(f, magic.Longest)) && !t.copyOfRead(f, size)
		})
		if cp == nil {
			continue
		}
		cp.source, cp.pod = tr.source, tr.pod
		t.cfg.Observer.Add(tr.source, CountRotations, 1)
		t.log.Info("reading a generation of a log that was moved aside before it could be opened",
			"path", tr.home, "file", c.path)
		cp.fr.format = tr.fr.format
		err := t.drain(s.ctx, cp, s.now, s.emit)
		t.retire(cp)
		cp.f.Close()
		if err != nil {
			return err
		}
		if err := t.gone(s.ctx, cp, s.emit); err != nil {
			return err
		}
	}
	return nil
}

// rememberDrained remembers tr, a file closed after it drained, unless
// it was empty: the last maxRetired such files are never read again as a
// generation moved aside.
func (t *Tailer) rememberDrained(tr *tracked) {
	if tr.id.Size == 0 {
		return
	}
	if len(t.drained) == maxRetired {
		t.drained = slices.Delete(t.drained, 0, 1)
	}
	t.drained = append(t.drained, retiredFile{key: tr.key, id: tr.id, end: tr.lineStart})
}

// wasRead reports whether f, the file k, is a copy read to its end
// outside the globs or a file closed after it drained: the same inode
// with the same first bytes (an inode freed by a deleted rotation is
// soon reused by a new file).
func (t *Tailer) wasRead(f *os.File, k Key) bool {
	for _, list := range [][]retiredFile{t.retired, t.drained} {
		for _, r := range list {
			if r.key == k && t.hasContent(f, r.id) {
				return true
			}
		}
	}
	return false
}

// copyOfRead reports whether f, size bytes long, starts like a tracked
// file's first bytes as read: all of them, or all of f as their beginning.
func (t *Tailer) copyOfRead(f *os.File, size int64) bool {
	for _, o := range t.order {
		if o.cr == nil || len(o.cr.head) == 0 {
			continue
		}
		known := o.cr.head
		b := t.head(f, len(known))
		switch {
		case len(b) == len(known) && bytes.Equal(b, known):
			return true
		case len(b) < len(known) && int64(len(b)) == size && bytes.Equal(b, known[:len(b)]):
			return true
		}
	}
	return false
}

// compressedContent reports whether b, a file's first bytes, starts like a
// compressed stream.
func compressedContent(b []byte) bool {
	f, ok := magic.Of(b)
	return ok && f.Compressed
}
