package logfile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"

	"github.com/logmatch/logmatch/internal/logfile/magic"
)

// Encoding is how a log's bytes hold its text.
type Encoding string

// Encodings Open reads.
const (
	Plain Encoding = "plain"
	Gzip  Encoding = "gzip"
	Zstd  Encoding = "zstd"
)

// ErrNotText marks content that is not a log's text: an unknown
// compression or archive, or binary data.
var ErrNotText = errors.New("not text")

// sniffBytes is how much of the (decompressed) start of a file is looked
// at to tell text from binary data: as much as grep and git look at.
const sniffBytes = 8 << 10

// maxZstdWindow bounds the memory a zstd frame may ask for. zstd's own
// command line compresses with windows of at most 8 MiB below level 20
// and 128 MiB with --long; a larger one is refused rather than allocated.
const maxZstdWindow = 128 << 20

// Reader is the text of one log.
type Reader struct {
	io.Reader
	// Encoding says how the bytes held the text.
	Encoding Encoding
	close    func()
}

// Close releases what decompression holds; the underlying reader is the
// caller's to close.
func (r *Reader) Close() error {
	if r.close != nil {
		r.close()
	}
	return nil
}

// Open reads the start of r to find how it holds its text and returns a
// reader of that text. A gzip stream (several members too, as
// concatenated rotations make) or a zstd stream (several frames too) is
// decompressed; any other compression or archive, and content whose
// first 8 KiB (after decompression) hold a NUL byte after text, are
// ErrNotText. A
// decompression error met later names the compression. Errors do not
// name the file: the caller knows it.
func Open(r io.Reader) (*Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(8)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	out := &Reader{Reader: br, Encoding: Plain}
	format, known := magic.Of(head)
	switch {
	case format.Name == "gzip":
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		out.Reader, out.Encoding = &named{r: zr, what: "gzip"}, Gzip
	case format.Name == "zstd":
		// One goroutine: a scan reads its inputs one after another.
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxZstdWindow))
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		out.Reader, out.Encoding, out.close = &named{r: zr, what: "zstd"}, Zstd, zr.Close
	case known:
		return nil, fmt.Errorf("%w: %s (logmatch reads plain text, gzip and zstd)", ErrNotText, format.What)
	}
	text := bufio.NewReaderSize(out.Reader, sniffBytes)
	start, err := text.Peek(sniffBytes)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		out.Close()
		return nil, err
	}
	// A leading run of NUL bytes is a hole, not binary data: a writer
	// without O_APPEND that goes on at its old offset after a
	// copytruncate rotation leaves one at the start of the file.
	hole := len(start) - len(bytes.TrimLeft(start, "\x00"))
	if i := bytes.IndexByte(start[hole:], 0); i >= 0 {
		i += hole
		out.Close()
		what := "binary data"
		if out.Encoding != Plain {
			what = string(out.Encoding) + " compressed binary data"
		}
		return nil, fmt.Errorf("%w: %s (a NUL byte at offset %d)", ErrNotText, what, i)
	}
	out.Reader = text
	return out, nil
}

// named prefixes a decompressor's errors with its name, so a corrupt
// file says so rather than reporting a bare "unexpected EOF".
type named struct {
	r    io.Reader
	what string
}

func (n *named) Read(p []byte) (int, error) {
	k, err := n.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%s: %w", n.what, err)
	}
	return k, err
}

// Lazy is Open done at the first Read: for a stream such as standard
// input, where looking at the start waits for the writer, and nothing
// before the scan itself should wait. An error of Open is the error of
// every Read.
func Lazy(r io.Reader) *LazyReader {
	return &LazyReader{src: r}
}

// LazyReader is the reader Lazy returns.
type LazyReader struct {
	src io.Reader
	r   *Reader
	err error
}

func (l *LazyReader) Read(p []byte) (int, error) {
	if l.r == nil && l.err == nil {
		l.r, l.err = Open(l.src)
	}
	if l.err != nil {
		return 0, l.err
	}
	return l.r.Read(p)
}

// Close releases what decompression holds, if Open ran.
func (l *LazyReader) Close() error {
	if l.r != nil {
		return l.r.Close()
	}
	return nil
}
