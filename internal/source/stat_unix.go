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
