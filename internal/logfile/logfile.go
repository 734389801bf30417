package logfile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"unicode/utf16"
	"unicode/utf8"

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
	// Charset says how the (decompressed) bytes encode the text: UTF8
	// (ASCII too), or UTF-16 told by its byte order mark, which the
	// reader turns into UTF-8.
	Charset Charset
	close   func()
}

// Charset is how a log's (decompressed) bytes encode its characters.
type Charset string

// Charsets Open reads. A Windows tool writes UTF-16 with a byte order mark:
// PowerShell 5's ">" and Out-File, a .NET program's default, Notepad's
// "Unicode". A UTF-8 byte order mark (Notepad's "UTF-8 with BOM") is
// dropped.
const (
	UTF8    Charset = "utf-8"
	UTF16LE Charset = "utf-16le"
	UTF16BE Charset = "utf-16be"
)

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
	out := &Reader{Reader: br, Encoding: Plain, Charset: UTF8}
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
	if err := out.decodeCharset(); err != nil {
		out.Close()
		return nil, err
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

// decodeCharset reads the byte order mark at the start of r's text, if
// any: UTF-16's makes r read the text as UTF-8, a UTF-8 one is dropped.
func (r *Reader) decodeCharset() error {
	br, ok := r.Reader.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r.Reader)
		r.Reader = br
	}
	head, err := br.Peek(3)
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	err = nil
	switch {
	case bytes.HasPrefix(head, []byte{0xef, 0xbb, 0xbf}):
		_, err = br.Discard(3)
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}):
		_, err = br.Discard(2)
		r.Reader, r.Charset = &utf16Reader{r: br, little: true}, UTF16LE
	case bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		_, err = br.Discard(2)
		r.Reader, r.Charset = &utf16Reader{r: br}, UTF16BE
	}
	return err
}

// utf16Reader turns UTF-16 into UTF-8 as it reads; an unpaired surrogate
// or a last odd byte becomes U+FFFD. Its state is one code unit and the
// bytes of one character not yet handed out.
type utf16Reader struct {
	r      *bufio.Reader
	little bool
	high   rune    // a high surrogate waiting for its pair, or 0
	out    [8]byte // encoded bytes not yet handed out
	n, at  int
	err    error
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	k := 0
	for k < len(p) {
		if u.at < u.n {
			c := copy(p[k:], u.out[u.at:u.n])
			k += c
			u.at += c
			continue
		}
		if u.err != nil {
			break
		}
		u.n, u.at = 0, 0
		var unit [2]byte
		m, err := io.ReadFull(u.r, unit[:])
		if err != nil {
			u.err = err
			if errors.Is(err, io.ErrUnexpectedEOF) {
				u.err = io.EOF
			}
			if u.high != 0 || m == 1 {
				u.n = utf8.EncodeRune(u.out[:], utf8.RuneError)
				u.high = 0
			}
			continue
		}
		v := rune(unit[0])<<8 | rune(unit[1])
		if u.little {
			v = rune(unit[1])<<8 | rune(unit[0])
		}
		switch {
		case u.high != 0 && v >= 0xdc00 && v < 0xe000:
			u.n = utf8.EncodeRune(u.out[:], utf16.DecodeRune(u.high, v))
			u.high = 0
		case u.high != 0:
			u.n = utf8.EncodeRune(u.out[:], utf8.RuneError)
			u.high = 0
			if v >= 0xd800 && v < 0xdc00 {
				u.high = v
			} else {
				u.n += utf8.EncodeRune(u.out[u.n:], unitRune(v))
			}
		case v >= 0xd800 && v < 0xdc00:
			u.high = v
		default:
			u.n = utf8.EncodeRune(u.out[:], unitRune(v))
		}
	}
	if k == 0 && u.err != nil {
		return 0, u.err
	}
	return k, nil
}

// unitRune is the character of one UTF-16 code unit outside a surrogate
// pair: a low surrogate alone is U+FFFD.
func unitRune(v rune) rune {
	if v >= 0xdc00 && v < 0xe000 {
		return utf8.RuneError
	}
	return v
}
