package source

import (
	"bufio"
	"errors"
	"io"
)

// readBufferSize is the bufio buffer per open file or stream. Lines longer
// than it are assembled in splitter.buf, which the line bound caps.
const readBufferSize = 64 << 10

// splitter cuts a byte stream into physical lines. A line longer than max is
// cut at max and the rest is counted but not kept, so a 20 MB line costs at
// most max bytes of memory. An unterminated line at EOF is kept (bounded)
// and completed by the next read, which is how a file that is being written
// is followed without delivering half lines.
type splitter struct {
	r   *bufio.Reader
	max int
	buf []byte // the current line when it spans fragments; at most max bytes
	n   int64  // raw bytes of the current line consumed so far
	cut bool   // the current line went past max
}

func newSplitter(r io.Reader, max int) *splitter {
	return &splitter{r: bufio.NewReaderSize(r, readBufferSize), max: max}
}

// reset drops any partial line and reads from r next.
func (s *splitter) reset(r io.Reader) {
	s.r.Reset(r)
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
		frag, err := s.r.ReadSlice('\n')
		s.n += int64(len(frag))
		switch {
		case err == nil:
			body := frag[:len(frag)-1]
			if s.n == int64(len(frag)) { // the whole line is in one fragment: no copy
				line = body
				if len(body) > s.max {
					line, cut = body[:s.max], true
				}
			} else {
				s.add(body)
				line, cut = s.buf, s.cut
			}
			raw = s.n
			s.buf, s.n, s.cut = s.buf[:0], 0, false
			if !cut && len(line) > 0 && line[len(line)-1] == '\r' {
				line = line[:len(line)-1]
			}
			return line, raw, cut, nil
		case errors.Is(err, bufio.ErrBufferFull):
			s.add(frag)
		default:
			s.add(frag)
			return nil, 0, false, err
		}
	}
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
