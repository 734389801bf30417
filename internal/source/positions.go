package source

import (
	"bytes"
	"os"
	"time"
)

// resolvePositions decides where each file found by the first poll starts:
// at its checkpoint when the file at the path still has the checkpoint's
// identity; when it does not (rotated while logmatch was down), the
// checkpointed file is looked for among the matches and next to the path and
// read from the checkpoint, and the path's new file from its beginning;
// files with no checkpoint start where StartAt says.
func (t *Tailer) resolvePositions(fresh []*tracked, now time.Time) {
	decided := make(map[*tracked]bool, len(fresh))
	saved := make(map[*tracked]Checkpoint, len(fresh))
	if t.cfg.Positions != nil {
		for _, tr := range fresh {
			cp, ok := t.cfg.Positions.Lookup(tr.path)
			if !ok {
				continue
			}
			saved[tr] = cp
			if tr.key == cp.File.Key() && t.hasContent(tr.f, cp.File) {
				t.startAt(tr, cp.Offset)
				decided[tr] = true
			}
		}
	}
	for _, tr := range fresh {
		cp, ok := saved[tr]
		if !ok || decided[tr] {
			continue
		}
		decided[tr] = true
		t.cfg.Observer.Add(tr.source, CountRotations, 1)
		if pred := t.predecessor(tr, cp, fresh, decided); pred != nil {
			decided[pred] = true
			t.startAt(pred, cp.Offset)
			t.moveBefore(pred, tr) // its lines come first
			continue
		}
		if pred := t.siblingWith(tr, cp); pred != nil {
			pred.source, pred.pod, pred.home = tr.source, tr.pod, tr.path
			// Rotated while logmatch was down: read to its end in this
			// pass, then closed, before the path's new file.
			pred.state, pred.left = draining, now.Add(-t.cfg.RotateWait)
			t.track(pred)
			t.moveBefore(pred, tr)
			continue
		}
		t.log.Warn("the checkpointed file is gone: lines it got after the checkpoint, if any, were never read",
			"path", tr.path, "checkpoint", cp.File.String(), "offset", cp.Offset)
	}
	for _, tr := range fresh {
		if !decided[tr] && t.cfg.StartAt == StartEnd {
			t.startAt(tr, t.lastLineEnd(tr.f))
		}
	}
}

// predecessor finds among the other new matches the file a checkpoint of
// tr's path was saved for: the same inode with the same content (renamed),
// or failing that the same content (copied).
func (t *Tailer) predecessor(tr *tracked, cp Checkpoint, fresh []*tracked, decided map[*tracked]bool) *tracked {
	var copied *tracked
	for _, o := range fresh {
		if o == tr || decided[o] || cp.File.Size == 0 || !t.hasContent(o.f, cp.File) {
			continue
		}
		if o.key == cp.File.Key() {
			return o
		}
		if copied == nil {
			copied = o
		}
	}
	return copied
}

// siblingWith finds next to tr's path, outside the globs, the file a
// checkpoint was saved for, preferring the same inode to a copy.
func (t *Tailer) siblingWith(tr *tracked, cp Checkpoint) *tracked {
	if cp.File.Size == 0 {
		return nil // an empty file's checkpoint matches any file
	}
	names := append(siblings(tr.path), t.rotatedSiblings(tr.path)...)
	for _, sameFile := range []bool{true, false} {
		for _, p := range names {
			if pred := t.openIf(p, cp.File, cp.Offset, sameFile); pred != nil {
				if t.files[pred.key] != nil {
					pred.f.Close()
					continue
				}
				t.startAt(pred, cp.Offset)
				return pred
			}
		}
	}
	return nil
}

// startAt positions tr at off, or at its beginning when the file is shorter
// than off (it was truncated while logmatch was down).
func (t *Tailer) startAt(tr *tracked, off int64) {
	if fi, err := tr.f.Stat(); err == nil && fi.Size() < off {
		t.cfg.Observer.Add(tr.source, CountTruncations, 1)
		off = 0
		tr.newContent = true
	}
	if err := tr.seek(off); err != nil {
		_ = tr.seek(0) // a file that cannot seek is read from where it is
	}
}

// lastLineEnd is the offset just past the last "\n" in the final block of
// f, so that starting at the end never starts in the middle of a line.
func (t *Tailer) lastLineEnd(f *os.File) int64 {
	fi, err := f.Stat()
	if err != nil {
		return 0
	}
	size := fi.Size()
	n := int64(readBufferSize)
	if size < n {
		n = size
	}
	b := make([]byte, n)
	got, _ := f.ReadAt(b, size-n)
	if i := bytes.LastIndexByte(b[:got], '\n'); i >= 0 {
		return size - n + int64(i) + 1
	}
	return size
}
