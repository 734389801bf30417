package source

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// maxSiblings bounds the directory entries examined when looking for a
// rotated copy of a file.
const maxSiblings = 256

// classify decides whether a file that appeared after the start is a
// copy-truncate copy of a followed file in the same directory (evCopy: its
// bytes are then read from the original, and from the copy only what the
// original loses when it is truncated) or a new file (evNew: read from its
// beginning). It reports false while it cannot tell yet: the file is
// empty, or it is a prefix of the first bytes read from a followed file
// (logrotate writing its copy) and grew since the last look. A file that
// stops growing as such a prefix is taken as its copy. The comparison is
// with what was read of the original, not with the original as it is now:
// by the next look logrotate may have truncated it. Only files following
// in the same directory are compared: that is where copytruncate puts its
// copy, the original of a copy is never renamed away, and it keeps
// unrelated files apart.
func (t *Tailer) classify(tr *tracked, now time.Time) (event, bool) {
	fi, err := tr.f.Stat()
	if err != nil {
		return evNew, true // read errors surface when it is read
	}
	size := fi.Size()
	stable := size == tr.size
	tr.size, tr.mtime, tr.recheck = size, fi.ModTime(), time.Time{}
	if size == 0 {
		return 0, false // its first write is an event, or the next scan sees it
	}
	tr.copyOf = nil
	for _, o := range t.order {
		if o == tr || o.state != following || o.id.Size == 0 || filepath.Dir(o.path) != filepath.Dir(tr.path) {
			continue
		}
		whole, prefix := t.startsLike(tr, o)
		if whole || prefix && stable {
			tr.copyOf = o
			break
		}
		if prefix {
			tr.recheck = now.Add(recheckAfter)
			return 0, false
		}
	}
	if tr.copyOf == nil && t.awaitsUnseen(tr) {
		return 0, false
	}
	t.identify(tr)
	if tr.copyOf != nil {
		return evCopy, true
	}
	return evNew, true
}

// awaitsUnseen reports whether tr, no copy of what was read of any
// followed file, may be the copy of a generation of one that was never
// read: tr is named like a rotation of a followed file in its directory
// whose content is not known now, because it was truncated to empty and
// has shown no content since (and tr was not there then), or because it
// was truncated or rewritten since its last look (its size is below the
// read position or its first bytes changed). Such a file is left to that
// file's next look (readUnseen, readSkipped), which reads it as lines of
// the original, after what the original's old content had unread and
// before its new content, or leaves it to be classified when it is a copy
// of what the original holds now. Classified at once, as a file of its
// own, its lines would come after the original's later ones, or twice
// when the original still held them.
func (t *Tailer) awaitsUnseen(tr *tracked) bool {
	for _, o := range t.order {
		if o == tr || o.state != following || filepath.Dir(o.path) != filepath.Dir(tr.path) ||
			!rotatedName(filepath.Base(o.path), filepath.Base(tr.path)) {
			continue
		}
		if o.copiesBefore != nil {
			if !o.copiesBefore[tr.key] {
				return true
			}
			continue
		}
		if size := fileSize(o.f); size >= 0 && size < o.cr.pos || o.id.Size > 0 && !t.unchanged(o) {
			return true
		}
	}
	return false
}

// holdsUnseen reports whether f, size bytes long, may hold a generation of
// tr that was never read: it is not empty and no copy of what tr holds
// now. Such a copy is a prefix of tr, read after the copy: tr only grows
// meanwhile. A shared start alone (the same line again, the first bytes
// of one) does not make a longer file a copy of it.
func (t *Tailer) holdsUnseen(tr *tracked, f *os.File, size int64) bool {
	if size == 0 {
		return false
	}
	b := append([]byte(nil), t.head(f, t.cfg.FingerprintSize)...) // t.head's buffer is reused
	cur := t.head(tr.f, len(b))
	return !bytes.Equal(cur, b)
}

// trackedHoldsUnseen reports whether cp, a file still being classified,
// holds a generation of tr that was never read (holdsUnseen), its size
// and time read again; one that does not is classified at its next
// recheck.
func (t *Tailer) trackedHoldsUnseen(s step, tr, cp *tracked) bool {
	if fi, err := cp.f.Stat(); err == nil {
		cp.size, cp.mtime = fi.Size(), fi.ModTime()
	}
	if t.holdsUnseen(tr, cp.f, cp.size) {
		return true
	}
	cp.recheck = s.now.Add(recheckAfter)
	return false
}

// readSkipped reads, as lines of tr, the files that awaitsUnseen held back
// while tr's truncation was pending, oldest first: tr's old content was
// just read to its end (from its copy when one was found), and its new
// content is read next. Such a file that starts like tr's old content is
// another copy of it, and one that is a copy of what tr holds now is
// classified at the next look, against the new content.
func (t *Tailer) readSkipped(s step, tr *tracked) error {
	var found []*tracked
	for _, o := range t.order {
		if o.state != classifying || filepath.Dir(o.path) != filepath.Dir(tr.path) ||
			!rotatedName(filepath.Base(tr.path), filepath.Base(o.path)) {
			continue
		}
		if whole, prefix := t.startsLike(o, tr); whole || prefix {
			continue
		}
		if t.trackedHoldsUnseen(s, tr, o) {
			found = append(found, o)
		}
	}
	slices.SortStableFunc(found, func(a, b *tracked) int { return a.mtime.Compare(b.mtime) })
	for _, cp := range found {
		if err := t.readCopy(s, tr, cp, 0); err != nil {
			return err
		}
	}
	return nil
}

// startsLike compares the first bytes of cp's file with the first bytes
// read from orig: whole when cp holds all of them, prefix when all of cp
// (shorter) equals their beginning.
func (t *Tailer) startsLike(cp, orig *tracked) (whole, prefix bool) {
	known := orig.cr.head
	b := t.head(cp.f, len(known))
	switch {
	case len(b) == len(known):
		return bytes.Equal(b, known), false
	case len(b) < len(known) && int64(len(b)) == fileSize(cp.f):
		return false, bytes.Equal(b, known[:len(b)])
	}
	return false, false
}

// checkTruncation notices a file that was truncated, or whose content was
// replaced in place, since the last look, and restarts it from its
// beginning with its new identity. Before that it reads what the old
// content still had unread from a copy-truncate copy, when one is found.
// The first bytes are compared whenever the size or the modification time
// changed, a write event named the file, or the look is a full scan: a
// rewrite to the same size within one look changes them.
func (t *Tailer) checkTruncation(s step, tr *tracked, full bool) error {
	size, mtime, err := t.stat(tr)
	if err != nil {
		return err
	}
	changed := full || tr.dirty || size != tr.size || !mtime.Equal(tr.mtime)
	tr.size, tr.mtime, tr.dirty = size, mtime, false
	if tr.copiesBefore != nil && size > 0 {
		before := tr.copiesBefore
		tr.copiesBefore = nil
		if err := t.readUnseen(s, tr, before); err != nil {
			return err
		}
	}
	truncated := size < tr.cr.pos
	if !truncated && changed {
		if !t.unchanged(tr) {
			truncated = true
		} else if tr.id.Size < t.cfg.FingerprintSize && size > int64(tr.id.Size) {
			t.identify(tr) // grown past what was read (it started at an offset): fingerprint more of it
		}
	}
	if !truncated {
		return nil
	}
	t.cfg.Observer.Add(tr.source, CountTruncations, 1)
	from := tr.resume()
	if cp := t.findCopy(tr); cp != nil {
		if err := t.readCopy(s, tr, cp, from); err != nil {
			return err
		}
	} else if err := t.finish(s.ctx, tr, s.now, s.emit); err != nil {
		return err
	}
	// Whole generations written, copied and truncated since the last look
	// lie between the old content and the new one.
	if tr.id.Size > 0 {
		if err := t.readSkipped(s, tr); err != nil {
			return err
		}
	}
	// Other copies of the old content (an earlier copy logrotate did not
	// truncate after) hold nothing more to read: they become files of
	// their own from their end, never copies of the new content.
	for _, o := range t.order {
		if o.state == copying && o.copyOf == tr {
			if err := t.transition(s, o, evOriginalDone, ""); err != nil {
				return err
			}
		}
	}
	if err := tr.seek(0); err != nil {
		return err
	}
	tr.newContent = true
	// The new content's first bytes: what is there now, extended by what
	// is read next (an empty file gets its identity from its first read).
	t.identify(tr)
	if tr.id.Size == 0 {
		// Nothing of the next content is known, so its own truncation
		// could not be seen: remember the files there are now.
		tr.copiesBefore = t.siblingKeys(tr.path)
	}
	return nil
}

// siblings lists the regular files next to path whose name starts like
// its own (app.log.1, app.log-20260101, app-20260101.log), at most
// maxSiblings.
func siblings(path string) []string {
	dir, base := filepath.Split(path)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	entries, err := os.ReadDir(filepath.Clean(dir))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), stem) || e.Name() == base || !e.Type().IsRegular() {
			continue
		}
		if len(out) == maxSiblings {
			break
		}
		out = append(out, filepath.Join(dir, e.Name()))
	}
	return out
}

// siblingKeys is the set of files next to path, by device and inode.
func (t *Tailer) siblingKeys(path string) map[Key]bool {
	keys := make(map[Key]bool)
	for _, p := range siblings(path) {
		if fi, err := os.Stat(p); err == nil {
			if k, ok := fileKey(fi); ok {
				keys[k] = true
			}
		}
	}
	return keys
}

// readUnseen reads, as lines of tr, the copies that appeared next to it
// since it was truncated to empty (before holds the files there were
// then), oldest first. With nothing of its content known, a generation
// written, copied and truncated between two looks changes nothing tr can
// see; only its copy holds those lines. A copy inside the globs is already
// tracked, still being classified (awaitsUnseen held it back): it is read
// here too and then followed from its end. Files followed on their own,
// copies already read, compressed files, and copies of what tr holds now
// are left alone; a tracked one of the last kind is classified at the
// next look.
func (t *Tailer) readUnseen(s step, tr *tracked, before map[Key]bool) error {
	var found []*tracked
	for _, p := range siblings(tr.path) {
		if compressed(p) || !rotatedName(filepath.Base(tr.path), filepath.Base(p)) {
			continue
		}
		if fi, err := os.Stat(p); err == nil {
			if k, ok := fileKey(fi); ok && t.files[k] != nil {
				cp := t.files[k]
				if cp.state != classifying || before[k] || slices.Contains(found, cp) {
					continue
				}
				if t.trackedHoldsUnseen(s, tr, cp) {
					found = append(found, cp)
				}
				continue
			}
		}
		cp := t.openWhen(p, func(f *os.File, k Key, size int64) bool {
			return !before[k] && t.files[k] == nil && t.retiredIndex(k) < 0 && t.holdsUnseen(tr, f, size)
		})
		if cp != nil {
			cp.source, cp.pod = tr.source, tr.pod
			found = append(found, cp)
		}
	}
	slices.SortStableFunc(found, func(a, b *tracked) int { return a.mtime.Compare(b.mtime) })
	for i, cp := range found {
		if err := t.readCopy(s, tr, cp, 0); err != nil {
			for _, rest := range found[i+1:] {
				if t.files[rest.key] != rest {
					rest.f.Close()
				}
			}
			return err
		}
	}
	return nil
}

// rotatedName reports whether name is what a rotation names a copy of
// base: base with a numbered or dated suffix (app.log.1, app.log-20260101),
// or base's stem with one before its extension (app-20260101.log,
// app.1.log). With nothing of the content known, readUnseen has only the
// name to go by: another log that shares the stem (app-access.log) is not
// a copy, nor is another program's file beside the log (app.log.pos,
// app.log.bak, app.log.lock).
func rotatedName(base, name string) bool {
	if rest, ok := strings.CutPrefix(name, base); ok && rotationSuffix(rest) {
		return true
	}
	rest, ok := strings.CutPrefix(name, strings.TrimSuffix(base, filepath.Ext(base)))
	return ok && rotationSuffix(rest)
}

// rotationSuffix reports whether rest, what follows a log's name or stem,
// starts like a rotation's number or date: a separator and a digit.
func rotationSuffix(rest string) bool {
	return len(rest) >= 2 && (rest[0] == '.' || rest[0] == '-' || rest[0] == '_') && rest[1] >= '0' && rest[1] <= '9'
}

// compressed reports whether path is named like a compressed file, which
// is never read as lines.
func compressed(path string) bool {
	switch filepath.Ext(path) {
	case ".gz", ".bz2", ".xz", ".zst", ".lz4", ".lzma", ".Z", ".zip":
		return true
	}
	return false
}

// findCopy looks for a copy of tr's old content: first among tracked
// copies and files being classified in its directory that start like what
// was read of it (the largest: the latest copy), then among the files next
// to it whose name starts like its own (app.log.1, app.log-20260101,
// app-20260101.log) that hold what was read of it or a prefix of that
// (again the largest).
func (t *Tailer) findCopy(tr *tracked) *tracked {
	if tr.id.Size == 0 {
		return nil // nothing of the old content is known: any file would match
	}
	var best *tracked
	bestSize := int64(-1)
	for _, o := range t.order {
		mine := o.state == copying && o.copyOf == tr
		if !mine && (o.state != classifying || filepath.Dir(o.path) != filepath.Dir(tr.path)) {
			continue
		}
		if whole, prefix := t.startsLike(o, tr); !whole && !prefix {
			continue
		}
		if size := fileSize(o.f); size > bestSize {
			best, bestSize = o, size
		}
	}
	if best != nil {
		return best
	}
	for _, p := range siblings(tr.path) {
		cp := t.openWhen(p, func(f *os.File, k Key, size int64) bool {
			if t.files[k] != nil { // followed on its own: not a copy of tr
				return false
			}
			if t.hasContent(f, tr.id) {
				return true
			}
			// A copy taken before lines that were then read from the
			// original (logrotate truncates a while after it copies):
			// all of it is a prefix of what was read.
			b := t.head(f, tr.id.Size)
			return size > 0 && int64(len(b)) == size && len(b) <= len(tr.cr.head) && bytes.Equal(b, tr.cr.head[:len(b)])
		})
		if cp == nil {
			continue
		}
		if best != nil && cp.size <= bestSize {
			cp.f.Close()
			continue
		}
		if best != nil {
			best.f.Close()
		}
		best, bestSize = cp, cp.size
	}
	if best != nil {
		best.source, best.pod = tr.source, tr.pod
	}
	return best
}

// openIf opens path when it holds id's content (and, with sameFile, is the
// same inode), is at least min bytes long and lies inside the roots. The
// result is not tracked.
func (t *Tailer) openIf(path string, id FileID, min int64, sameFile bool) *tracked {
	return t.openWhen(path, func(f *os.File, k Key, size int64) bool {
		return size >= min && (!sameFile || k == id.Key()) && t.hasContent(f, id)
	})
}

// openWhen opens path when ok accepts the file (given its device and
// inode and its size) and it lies inside the roots. The result is not
// tracked.
func (t *Tailer) openWhen(path string, ok func(f *os.File, k Key, size int64) bool) *tracked {
	f, err := openLog(path)
	if err != nil {
		return nil
	}
	fi, err := f.Stat()
	k, known := Key{}, false
	if err == nil {
		k, known = fileKey(fi)
	}
	if !known || !ok(f, k, fi.Size()) {
		f.Close()
		return nil
	}
	real, err := realPath(f)
	if err != nil || !t.roots.allows(real) {
		f.Close()
		return nil
	}
	tr := &tracked{key: k, state: copying, path: path, real: real, source: path, f: f, size: fi.Size(), mtime: fi.ModTime()}
	t.newReader(tr)
	t.identify(tr)
	return tr
}

// readCopy delivers the copy's bytes from offset from to its end, as lines
// of orig. A tracked copy then continues from its end as a file of its
// own; an untracked one is closed (after its Gone notice: its lines
// carried its identity) and remembered.
func (t *Tailer) readCopy(s step, orig, cp *tracked, from int64) error {
	t.cfg.Observer.Add(orig.source, CountCopyTails, 1)
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
	if err := t.drain(s.ctx, cp, s.now, s.emit); err != nil {
		return err
	}
	if t.files[cp.key] == cp {
		return t.transition(s, cp, evCopyRead, "")
	}
	t.retire(cp)
	cp.f.Close()
	return t.gone(s.ctx, cp, s.emit)
}

func (t *Tailer) retiredIndex(k Key) int {
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
