//go:build linux

package source

import (
	"testing"

	"golang.org/x/sys/unix"
)

func TestRemoteFS(t *testing.T) {
	for typ, want := range map[int64]bool{
		unix.EXT4_SUPER_MAGIC: false, unix.XFS_SUPER_MAGIC: false, unix.TMPFS_MAGIC: false,
		unix.OVERLAYFS_SUPER_MAGIC: false, unix.BTRFS_SUPER_MAGIC: false, 0x2fc12fc1: false, // zfs: local, though localFS does not list it
		unix.NFS_SUPER_MAGIC: true, unix.FUSE_SUPER_MAGIC: true, unix.CIFS_SUPER_MAGIC: true,
		unix.SMB2_SUPER_MAGIC: true, unix.CEPH_SUPER_MAGIC: true, unix.V9FS_MAGIC: true, lustreSuperMagic: true,
	} {
		if remoteFS(typ) != want {
			t.Errorf("remoteFS(%#x) = %v, want %v", typ, !want, want)
		}
	}
}

// TestEventsReachLocalDir checks the real statfs path on a directory of
// this machine, and that a path whose file system cannot be read is taken
// to be local (its watch then fails on its own).
func TestEventsReachLocalDir(t *testing.T) {
	dir := t.TempDir()
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	if remoteFS(int64(st.Type)) { //nolint:unconvert // the field's type differs between architectures
		t.Skipf("the test's temporary directory lies on a network file system (%#x)", st.Type)
	}
	if !eventsReach(dir) {
		t.Errorf("eventsReach(%s) = false on a local file system (%#x)", dir, st.Type)
	}
	if !eventsReach(dir + "/not-there") {
		t.Error("eventsReach of a missing directory = false, want true")
	}
}
