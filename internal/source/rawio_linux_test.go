//go:build linux && (amd64 || arm64)

package source

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestRawCallsMatchOrdinary: the raw read, pread and fstat of a flow's
// passes give what the ordinary calls give, and the read ends with io.EOF.
func TestRawCallsMatchOrdinary(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.log")
	want := bytes.Repeat([]byte("0123456789abcdef\n"), 1000)
	if err := os.WriteFile(p, want, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var st unix.Statfs_t
	if err := unix.Fstatfs(int(f.Fd()), &st); err != nil {
		t.Fatal(err)
	}
	fd := rawDescriptor(f)
	if !localFS(int64(st.Type)) { //nolint:unconvert // the field's type differs between architectures
		if fd != -1 {
			t.Fatalf("rawDescriptor gave %d on file system type %#x, which is not local", fd, st.Type)
		}
		t.Skipf("the test directory's file system (%#x) gets the ordinary calls", st.Type)
	}
	if fd < 0 {
		t.Fatal("rawDescriptor refused a file on a local file system")
	}
	size, mtime, err := rawFstat(fd)
	fi, _ := f.Stat()
	if err != nil || size != fi.Size() || !mtime.Equal(fi.ModTime()) {
		t.Fatalf("rawFstat = %d, %v, %v; Stat gives %d, %v", size, mtime, err, fi.Size(), fi.ModTime())
	}
	head := make([]byte, 100)
	if n, err := rawPread(fd, head, 17); err != nil || n != 100 || !bytes.Equal(head, want[17:117]) {
		t.Fatalf("rawPread = %d, %v, %q", n, err, head)
	}
	var got []byte
	buf := make([]byte, 4096)
	for {
		n, err := rawRead(fd, buf)
		got = append(got, buf[:n]...)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("rawRead: %v", err)
		}
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("rawRead read %d bytes, want %d", len(got), len(want))
	}
	if _, err := rawRead(-1, buf); err == nil {
		t.Fatal("rawRead of a bad descriptor gave no error")
	}
}

func TestLocalFS(t *testing.T) {
	for typ, want := range map[int64]bool{
		unix.EXT4_SUPER_MAGIC: true, unix.TMPFS_MAGIC: true, unix.OVERLAYFS_SUPER_MAGIC: true,
		unix.NFS_SUPER_MAGIC: false, unix.FUSE_SUPER_MAGIC: false, unix.CIFS_SUPER_MAGIC: false,
	} {
		if localFS(typ) != want {
			t.Errorf("localFS(%#x) = %v, want %v", typ, !want, want)
		}
	}
}
