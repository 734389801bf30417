//go:build linux && (amd64 || arm64)

package source

import (
	"io"
	"os"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The reads of a flow's passes (design.md, Wake-ups) are raw system
// calls: the runtime is not told of them, so a pass that reads what was
// just written does not wake the runtime's system monitor, which then
// looks every 20 µs while the pass runs (scripts/perf-load-and-scan.md,
// eighth round). A raw call holds its thread's P until it returns, and
// no stop-the-world can begin meanwhile, so only files on a local file
// system, whose fresh bytes are in the page cache, are read this way; a
// network or FUSE file system, where a read may wait on a server, keeps
// the ordinary calls.

// rawDescriptor returns f's descriptor when f lies on a local file system
// that raw reads suit, or -1.
func rawDescriptor(f *os.File) int {
	rc, err := f.SyscallConn()
	if err != nil {
		return -1
	}
	fd := -1
	_ = rc.Control(func(d uintptr) {
		var st unix.Statfs_t
		if unix.Fstatfs(int(d), &st) == nil && localFS(int64(st.Type)) { //nolint:unconvert // the field's type differs between architectures
			fd = int(d)
		}
	})
	return fd
}

// localFS reports whether a file system type (statfs's f_type) keeps its
// files on this machine.
func localFS(typ int64) bool {
	switch typ {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC,
		unix.OVERLAYFS_SUPER_MAGIC, unix.F2FS_SUPER_MAGIC, unix.RAMFS_MAGIC:
		return true
	}
	return false
}

// rawRead is read(2) on fd, with io.Reader's end of file.
func rawRead(fd int, p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, e := sysRead(uintptr(fd), p)
	switch {
	case e != 0:
		return 0, os.NewSyscallError("read", e)
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// rawPread is pread(2) on fd: one call, which may return less than asked
// at the end of the file.
func rawPread(fd int, p []byte, off int64) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, _, e := syscall.RawSyscall6(syscall.SYS_PREAD64, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)), uintptr(off), 0, 0)
		switch {
		case e == syscall.EINTR:
			continue
		case e != 0:
			return 0, os.NewSyscallError("pread", e)
		}
		return int(n), nil
	}
}

// rawFstat is fstat(2) on fd: the size and modification time.
func rawFstat(fd int) (size int64, mtime time.Time, err error) {
	var st syscall.Stat_t
	_, _, e := syscall.RawSyscall(syscall.SYS_FSTAT, uintptr(fd), uintptr(unsafe.Pointer(&st)), 0)
	if e != 0 {
		return 0, time.Time{}, os.NewSyscallError("fstat", e)
	}
	return st.Size, time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec)), nil //nolint:unconvert // the fields' types differ between architectures
}
