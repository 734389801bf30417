//go:build linux

package source

import "golang.org/x/sys/unix"

// eventsReach reports whether the file-system watch hears of every change
// in dir. inotify reports what this kernel does to a file system; a network
// file system changed by another machine (NFS, SMB, Ceph, Lustre, GPFS, 9P)
// or a FUSE one (sshfs, GlusterFS, virtiofs, cloud buckets) changes without
// it, so such a directory is polled every PollInterval rather than left to
// the slower safety-net rescan. A directory whose file system cannot be
// read is taken to be local: the watch of it fails on its own if it is
// gone.
func eventsReach(dir string) bool {
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) != nil {
		return true
	}
	return !remoteFS(int64(st.Type)) //nolint:unconvert // the field's type differs between architectures
}

// remoteFS reports whether a file system type (statfs's f_type) is changed
// by others than this kernel: network file systems, and FUSE, whose server
// may be one.
func remoteFS(typ int64) bool {
	switch typ {
	case unix.NFS_SUPER_MAGIC, unix.SMB_SUPER_MAGIC, unix.SMB2_SUPER_MAGIC, unix.CIFS_SUPER_MAGIC,
		unix.FUSE_SUPER_MAGIC, unix.CEPH_SUPER_MAGIC, unix.V9FS_MAGIC, unix.AFS_SUPER_MAGIC,
		unix.AFS_FS_MAGIC, unix.CODA_SUPER_MAGIC, unix.NCP_SUPER_MAGIC,
		lustreSuperMagic, gpfsSuperMagic:
		return true
	}
	return false
}

// File system types x/sys/unix does not name.
const (
	lustreSuperMagic = 0x0BD00BD0
	gpfsSuperMagic   = 0x47504653
)
