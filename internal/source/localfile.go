package source

import (
	"errors"
	"os"
	"sync/atomic"
)

// localFile reads a regular file on a local file system with raw read(2)
// calls (rawio_linux.go), as the tailer reads during a flow: the runtime
// is not told of them, so reading a large file does not wake the runtime's
// system monitor around every read. Such a read returns as soon as the page
// cache has the bytes, so holding the thread meanwhile is harmless; pipes,
// terminals, standard input and files of network or FUSE file systems keep
// the ordinary reads (openLocalFile returns nil for them), as does every
// file where raw reads are not made.
type localFile struct {
	f       *os.File // holds the descriptor open while fd is read
	fd      int
	stopped atomic.Bool
}

// errStopped is the read error of a localFile stopped by its Stream's
// context.
var errStopped = errors.New("read stopped")

// openLocalFile returns a localFile over f when f suits raw reads, or nil.
func openLocalFile(f *os.File) *localFile {
	fd := rawDescriptor(f)
	if fd <= 0 { // no raw reads, or standard input
		return nil
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	return &localFile{f: f, fd: fd}
}

func (lf *localFile) Read(p []byte) (int, error) {
	if lf.stopped.Load() {
		return 0, errStopped
	}
	return rawRead(lf.fd, p)
}

// stop makes every later Read fail: a read of a regular file never blocks
// for long, so the one under way is left to finish.
func (lf *localFile) stop() { lf.stopped.Store(true) }
