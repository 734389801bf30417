package source

import (
	"encoding/binary"
	"slices"
	"syscall"

	"golang.org/x/sys/unix"
)

// nameWatch tells a flow's pass whether a name appeared, moved or
// vanished in the watched directories since the last look, without the
// watcher's goroutine: a second inotify descriptor for those events alone
// (no writes), read with a raw non-blocking read, outside the runtime's
// poller. Taking the watcher's events every pass woke its goroutine, whose
// read of the inotify descriptor woke the runtime's system monitor, and
// cost a third of the pass (scripts/perf-load-and-scan.md, eighth round).
// A nil *nameWatch, or one that could not watch every directory, does not
// know.
type nameWatch struct {
	fd       int
	wds      map[string]int
	complete bool
	buf      [4096]byte
}

const nameEvents = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO |
	unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR

func newNameWatch() *nameWatch {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil
	}
	return &nameWatch{fd: fd, wds: map[string]int{}}
}

func (n *nameWatch) close() {
	if n != nil {
		unix.Close(n.fd)
	}
}

// sync makes the watched directories dirs.
func (n *nameWatch) sync(dirs []string) {
	if n == nil {
		return
	}
	n.complete = true
	for _, d := range dirs {
		if _, ok := n.wds[d]; ok {
			continue
		}
		wd, err := unix.InotifyAddWatch(n.fd, d, nameEvents)
		if err != nil {
			n.complete = false
			continue
		}
		n.wds[d] = wd
	}
	for d, wd := range n.wds {
		if !slices.Contains(dirs, d) {
			delete(n.wds, d)
			if !n.watched(wd) { // two paths of one directory share its watch
				_, _ = unix.InotifyRmWatch(n.fd, uint32(wd)) // gone already, or no longer wanted
			}
		}
	}
}

// watched reports whether a directory still kept uses the watch wd.
func (n *nameWatch) watched(wd int) bool {
	for _, w := range n.wds {
		if w == wd {
			return true
		}
	}
	return false
}

// forget drops the watch wd, which no longer follows its directory's
// path (the directory was removed or moved): the next sync adds the
// path again, and until then the name watch does not know.
func (n *nameWatch) forget(wd int32) {
	for d, w := range n.wds {
		if w == int(wd) {
			delete(n.wds, d)
			n.complete = false
		}
	}
	_, _ = unix.InotifyRmWatch(n.fd, uint32(wd)) // gone already after a removal
}

// changed reports whether a name changed since the last call, and
// forgets the events that say so; known is false when it cannot tell.
func (n *nameWatch) changed() (changed, known bool) {
	if n == nil || !n.complete {
		return false, false
	}
	for {
		r, e := sysRead(uintptr(n.fd), n.buf[:])
		switch {
		case e == syscall.EAGAIN:
			return changed, true
		case e != 0 || r == 0:
			return false, false
		}
		changed = true
		for off := 0; off+unix.SizeofInotifyEvent <= r; {
			// struct inotify_event: wd, mask, cookie, len, then the name.
			wd := int32(binary.NativeEndian.Uint32(n.buf[off:]))
			mask := binary.NativeEndian.Uint32(n.buf[off+4:])
			if mask&(unix.IN_IGNORED|unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0 {
				n.forget(wd)
			}
			off += unix.SizeofInotifyEvent + int(binary.NativeEndian.Uint32(n.buf[off+12:]))
		}
		if !n.complete {
			return true, false
		}
	}
}
