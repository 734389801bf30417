package source

import (
	"context"
	"crypto/sha256"
	"fmt"
	"unsafe"

	"github.com/logmatch/logmatch/internal/entry"
)

// Line is one delivered line with everything its consumer needs to
// checkpoint it.
type Line struct {
	entry.Line

	// Path is the path the file had when the line was read (after a rename
	// inside the globs, the new path; after a rename out of them, the last
	// path seen). Empty for streams.
	Path string
	// File identifies the file the bytes came from; zero for streams.
	File FileID
	// End is the raw offset just past the line's last byte (its newline, or
	// the last physical line of a joined CRI/docker partial line): a
	// consumer that resumes before it skips the lines of this stream that
	// end at or before the End of the last line it already used.
	End int64
	// Next is the raw offset to resume from once this line is processed:
	// every byte of the file before it has been delivered in this line or an
	// earlier one. It counts framing bytes, so it differs from Offset plus
	// len(Text); with an open CRI/docker partial line on the other stream it
	// can lie before Offset, which means a restart re-reads a little rather
	// than losing the partial line.
	Next int64
	// Pod is the Kubernetes identity parsed from the path; zero when the
	// path is not a kubelet log path.
	Pod Pod
	// NewContent marks the first line of new content at a followed file:
	// the tailer found the file truncated or rewritten in place (while
	// following it, or while logmatch was stopped) and reads it again from
	// its start, with the new content's identity in File. What a consumer
	// keeps of the file's earlier content (entries being assembled, offsets
	// already used) is about bytes that are no longer there: it completes
	// and forgets them. The tailer decides this once; nothing downstream
	// infers it from sizes or offsets. Streams never set it.
	NewContent bool
	// Gone makes this Line a notice with no text: the tailer has stopped
	// following the file File, last seen at Path, and every line of it was
	// delivered before this notice. A consumer drops what it keeps for that
	// file (assembly buffers, metric series); its checkpoint stays until the
	// store prunes it. Streams never send it.
	Gone bool
}

// Key returns the key a consumer keeps the line's file or stream under.
func (l *Line) Key() Key {
	if l.File.IsZero() {
		return Key{Stream: l.Source}
	}
	return l.File.Key()
}

// Emit receives each line in order. It may block (that is the backpressure
// of the whole source); an error stops the source, which returns it.
type Emit func(context.Context, Line) error

// FileID identifies a file by where it lives and what it starts with, never
// by its path: paths change on rotation, and a path can name a new file. The
// tailer owns it: it computes the identity, reports it with every Line, and
// decides from a saved one whether a file is the one read before. Consumers
// store it as they got it (internal/state keeps it in checkpoints) and
// compare it with ==.
//
// The fingerprint covers the first Size bytes (the configured fingerprint
// size, 1 KiB by default). A file shorter than that is fingerprinted on what
// it has, and its FileID is extended as it grows, so two FileIDs of one file
// can differ in Size and Sum while Dev and Ino stay; after a truncation or a
// rewrite in place the tailer reports the new content's FileID.
type FileID struct {
	Dev, Ino uint64
	Size     int      // bytes the fingerprint covers
	Sum      [16]byte // truncated SHA-256 of those bytes
}

// Key is the one key of a file: its device and inode, which stay while
// its identity grows (a young file's fingerprint covers more bytes) or its
// content is replaced in place (a truncation). The tailer keeps its files
// under it and a consumer keeps what it knows of a file under it; for a
// stream (no identity) Stream holds the source's name instead.
type Key struct {
	Dev, Ino uint64
	Stream   string // a stream's source name; empty for a file
}

// Key returns the file's key.
func (id FileID) Key() Key { return Key{Dev: id.Dev, Ino: id.Ino} }

// IsZero reports whether id is the zero FileID: the Line came from a stream
// (standard input, a wrapped command), which has no identity to resume.
func (id FileID) IsZero() bool { return id == FileID{} }

// String renders the identity for logs and alerts: device, inode,
// fingerprint size and fingerprint, "dev:ino:size:hex".
func (id FileID) String() string {
	return fmt.Sprintf("%d:%d:%d:%x", id.Dev, id.Ino, id.Size, id.Sum)
}

// fingerprint hashes b, which holds the first bytes of a file.
func fingerprint(b []byte) [16]byte {
	full := sha256.Sum256(b)
	var s [16]byte
	copy(s[:], full[:16])
	return s
}

// Checkpoint is a saved read position: the identity of the file and the
// offset to resume it from. It is the one checkpoint notion of logmatch:
// internal/state stores it (with what the consumer adds beside it) and hands
// it back through Positions unchanged.
type Checkpoint struct {
	File   FileID
	Offset int64 // a Line.Next value
}

// Positions gives the tailer the checkpoints saved before a restart. The
// tailer owns the identity check: it resumes a path only when the file there
// (or, after a rotation while logmatch was down, a sibling file) has the
// checkpoint's identity, and reads the path from its beginning otherwise.
type Positions interface {
	// Lookup returns the last checkpoint saved for lines with this Path.
	Lookup(path string) (Checkpoint, bool)
}

// Counter names one of the counts a source reports.
type Counter int

// Counts reported to an Observer.
const (
	CountLines           Counter = iota // lines delivered
	CountBytes                          // raw bytes consumed
	CountTruncations                    // a file was truncated or its content replaced in place
	CountRotations                      // a file was renamed, deleted or replaced at its path
	CountCopyTails                      // an unread tail was read from a copy-truncate copy
	CountFramingErrors                  // a CRI/docker line did not parse and was passed through raw
	CountLinesCut                       // a line was longer than the bound and cut
	CountFilesSkipped                   // a matching file was not opened: the open-file bound was reached
	CountOpenErrors                     // a matching file could not be opened (permissions); retried at the next poll
	CountGenerationsLost                // a file generation known to exist was never read (or not to its end)
	CountSymlinksRefused                // a matching file resolves outside the allowed roots and is not read
)

var counterNames = [...]string{"lines", "bytes", "truncations", "rotations", "copy_tails", "framing_errors", "lines_cut", "files_skipped", "open_errors", "generations_lost", "symlinks_refused"}

// String returns the counter's metric-friendly name.
func (c Counter) String() string {
	if c < 0 || int(c) >= len(counterNames) {
		return fmt.Sprintf("counter(%d)", int(c))
	}
	return counterNames[c]
}

// Observer receives counts; the run mode turns them into metrics. Add is
// called from the source's goroutines, batched per read, and must not block.
type Observer interface {
	Add(source string, c Counter, n int64)
}

type nopObserver struct{}

func (nopObserver) Add(string, Counter, int64) {}

// lineText is a line's Text from the reader's bytes: a copy, or with
// borrow the bytes themselves, valid until the Emit it is given to returns.
func lineText(b []byte, borrow bool) string {
	if !borrow || len(b) == 0 {
		return string(b)
	}
	return unsafe.String(&b[0], len(b))
}
