package source

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// birthTime is when f's file was created, where the file system keeps it
// (statx's btime: ext4, xfs, btrfs, tmpfs on recent kernels).
func birthTime(f *os.File) (time.Time, bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return time.Time{}, false
	}
	var stx unix.Statx_t
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = unix.Statx(int(fd), "", unix.AT_EMPTY_PATH, unix.STATX_BTIME, &stx)
	}); err != nil || serr != nil {
		return time.Time{}, false
	}
	return statxBirth(&stx)
}

// pathBirthTime is birthTime for the file at path (links not followed).
func pathBirthTime(path string) (time.Time, bool) {
	var stx unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, path, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_BTIME, &stx); err != nil {
		return time.Time{}, false
	}
	return statxBirth(&stx)
}

func statxBirth(stx *unix.Statx_t) (time.Time, bool) {
	if stx.Mask&unix.STATX_BTIME == 0 {
		return time.Time{}, false
	}
	return time.Unix(stx.Btime.Sec, int64(stx.Btime.Nsec)), true
}
