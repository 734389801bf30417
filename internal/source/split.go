package source

import (
	"bytes"
	"io"
)

// readBufferSize is the read buffer per open file of the tailer. Lines
// longer than it are assembled in splitter.buf, which the line bound caps.
const readBufferSize = 64 << 10

// maxEmptyReads is how many reads in a row may bring nothing and no error
// before the splitter gives up with io.ErrNoProgress.
const maxEmptyReads = 100

// splitter cuts a byte stream into physical lines. A line longer than max is
// cut at max and the rest is counted but not kept, so a 20 MB line costs at
// most max bytes of memory. An unterminated line at EOF is kept (bounded)
// and completed by the next read, which is how a file that is being written
// is followed without delivering half lines.
//
// It reads into its own buffer and hands out lines that lie whole in it
// without a copy; a line is searched for its newline once, from where the
// previous line ended.
type splitter struct {
	r      io.Reader
	max    int
	rb     []byte // the read buffer
	lo, hi int    // rb[lo:hi] is read and not yet handed out
	rerr   error  // the error of a read that also brought bytes, returned once they are used
	buf    []byte // the current line when it spans reads; at most max bytes
	n      int64  // raw bytes of the current line taken into buf so far
	cut    bool   // the current line went past max
}

func newSplitter(r io.Reader, max int) *splitter {
	return newSplitterSize(r, max, readBufferSize)
}

// newSplitterSize is newSplitter with a read buffer of size bytes.
func newSplitterSize(r io.Reader, max, size int) *splitter {
	return &splitter{r: r, max: max, rb: make([]byte, size)}
}

// reset drops any partial line and reads from r next.
func (s *splitter) reset(r io.Reader) {
	s.r, s.lo, s.hi, s.rerr = r, 0, 0, nil
	s.buf, s.n, s.cut = s.buf[:0], 0, false
}

// pending is the raw size of the unterminated line consumed so far.
func (s *splitter) pending() int64 { return s.n }

// next returns the next complete line without its "\n" (and "\r"), its raw
// size including the terminator, and whether it was cut. The slice is valid
// until the next call. At the end of the data it returns io.EOF (or the read
// error) and keeps the partial line for the next call.
func (s *splitter) next() (line []byte, raw int64, cut bool, err error) {
	for {
		if i := bytes.IndexByte(s.rb[s.lo:s.hi], '\n'); i >= 0 {
			body := s.rb[s.lo : s.lo+i]
			s.lo += i + 1
			if s.n == 0 { // the whole line is in the buffer: no copy
				line, raw = body, int64(i+1)
				if i > s.max {
					line, cut = body[:s.max], true
				}
			} else {
				s.add(body)
				line, raw, cut = s.buf, s.n+int64(i+1), s.cut
				s.buf, s.n, s.cut = s.buf[:0], 0, false
			}
			if !cut && len(line) > 0 && line[len(line)-1] == '\r' {
				line = line[:len(line)-1]
			}
			return line, raw, cut, nil
		}
		if err := s.fill(); err != nil {
			return nil, 0, false, err
		}
	}
}

// fill reads more bytes behind the unterminated rest of the buffer, which
// it first moves to the front. A rest that fills the whole buffer is a line
// longer than it: what fits of it under the bound goes to buf. When the
// input has nothing more, the rest goes to buf too, where the next call (or
// flush) finds it, and the read's error is returned.
func (s *splitter) fill() error {
	if s.lo > 0 {
		s.hi = copy(s.rb, s.rb[s.lo:s.hi])
		s.lo = 0
	}
	if s.hi == len(s.rb) {
		s.take()
	}
	if s.rerr == nil {
		for range maxEmptyReads {
			n, err := s.r.Read(s.rb[s.hi:])
			if n < 0 || n > len(s.rb)-s.hi {
				n, err = 0, io.ErrShortBuffer
			}
			s.hi += n
			if err != nil {
				s.rerr = err
			}
			if n > 0 {
				return nil
			}
			if err != nil {
				break
			}
		}
		if s.rerr == nil {
			s.rerr = io.ErrNoProgress
		}
	}
	err := s.rerr
	s.rerr = nil
	s.take()
	return err
}

// take moves the unterminated rest of the buffer to buf.
func (s *splitter) take() {
	s.n += int64(s.hi - s.lo)
	s.add(s.rb[s.lo:s.hi])
	s.lo, s.hi = 0, 0
}

// flush returns the unterminated line as a final line, for a stream that
// ended or a file that is closed for good; ok is false when there is none.
func (s *splitter) flush() (line []byte, raw int64, cut bool, ok bool) {
	if s.n == 0 {
		return nil, 0, false, false
	}
	line, raw, cut = s.buf, s.n, s.cut
	s.buf, s.n, s.cut = s.buf[:0], 0, false
	return line, raw, cut, true
}

func (s *splitter) add(b []byte) {
	if room := s.max - len(s.buf); len(b) > room {
		b = b[:room]
		s.cut = true
	}
	s.buf = append(s.buf, b...)
}
