//go:build unix

package source

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// fileKey returns the device and inode of a stat result.
func fileKey(fi os.FileInfo) (Key, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return Key{}, false
	}
	return Key{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}, true //nolint:unconvert // field types differ between unix systems
}

// pollable returns a duplicate of f's descriptor as an *os.File that the
// runtime poller manages, so that a read deadline can stop a pending Read:
// a pipe or terminal a process inherits as stdin is in blocking mode, which
// no deadline reaches. Non-blocking mode belongs to the open file, so the
// processes sharing it see it too. The caller closes the result; f stays
// open. On failure f itself is returned.
func pollable(f *os.File) *os.File {
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	dup := -1
	var serr error
	if err := rc.Control(func(fd uintptr) {
		if dup, serr = syscall.Dup(int(fd)); serr == nil {
			serr = syscall.SetNonblock(dup, true)
		}
	}); err != nil || serr != nil {
		if dup >= 0 {
			syscall.Close(dup)
		}
		return f
	}
	syscall.CloseOnExec(dup)
	return os.NewFile(uintptr(dup), f.Name())
}

// descriptorPath is the kernel's name for f's descriptor (Linux /proc).
func descriptorPath(f *os.File) (string, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return "", err
	}
	var p string
	var rerr error
	if err := rc.Control(func(fd uintptr) {
		p, rerr = os.Readlink("/proc/self/fd/" + strconv.FormatUint(uint64(fd), 10))
	}); err != nil {
		return "", err
	}
	return p, rerr
}

// errNotRegular is openLog's answer for a name that is not a regular file
// (any more) when opened.
var errNotRegular = errors.New("not a regular file")

// openLog opens a log file for reading without blocking in the open: a
// FIFO (or a device) put in a log file's place between the look at the
// name and the open would otherwise block the open until a writer came,
// and the tailer with it. What the descriptor names is checked; anything
// but a regular file is closed and refused with errNotRegular. A regular
// file is put back in blocking mode, so that its reads are as they were
// with a plain open.
func openLog(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s: %w", path, errNotRegular)
	}
	if err == nil {
		err = setBlocking(f)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// setBlocking clears O_NONBLOCK on f's descriptor.
func setBlocking(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return err
	}
	return serr
}
