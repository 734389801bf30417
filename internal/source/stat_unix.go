//go:build unix

package source

import (
	"os"
	"syscall"
)

// fileKey returns the device and inode of a stat result.
func fileKey(fi os.FileInfo) (devino, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return devino{}, false
	}
	return devino{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true //nolint:unconvert // field types differ between unix systems
}

// pollable returns a second *os.File for f's descriptor that the runtime
// poller manages, so that a read deadline can stop a pending Read. A pipe or
// terminal a process inherits as stdin is in blocking mode, which no
// deadline reaches. The descriptor is switched to non-blocking mode, which
// the processes sharing it see too. f must stay referenced while the result
// is used (its finalizer would close the shared descriptor). On failure f
// itself is returned.
func pollable(f *os.File) *os.File {
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	var fd uintptr
	var serr error
	if err := rc.Control(func(d uintptr) {
		fd = d
		serr = syscall.SetNonblock(int(d), true)
	}); err != nil || serr != nil {
		return f
	}
	return os.NewFile(fd, f.Name())
}
