// Package stdout is the sink that writes each alert as one line of JSON
// (logmatch.alert/v1) to a stream, standard output by default: the log
// pipeline plugin's output, and the default sink of logmatch run.
package stdout

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/logmatch/logmatch/sinks"
)

// Sink writes alerts as JSON lines. It is safe for concurrent use; each
// alert is written with one Write call, so lines never interleave.
type Sink struct {
	mu   sync.Mutex
	w    io.Writer
	line []byte // the line Send renders, reused from alert to alert
}

// New returns a Sink writing to w.
func New(w io.Writer) *Sink { return &Sink{w: w} }

// Wants reports whether the sink takes alerts of kind: every kind but the
// periodic update of a still-active incident, which only receivers that
// expire alerts need.
func (s *Sink) Wants(kind string) bool { return kind != sinks.KindUpdate }

// Send writes a as one JSON line. A failed write is permanent: a closed
// standard output does not come back, and retrying would only hold up the
// queue.
func (s *Sink) Send(_ context.Context, a *sinks.Alert) (retry bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	line, err := sinks.AppendAlertJSON(s.line[:0], a)
	if err != nil {
		return false, fmt.Errorf("stdout: encode alert: %w", err)
	}
	line = append(line, '\n')
	s.line = line
	if cap(line) > maxKeptLine {
		s.line = nil // one very large alert does not keep its memory
	}
	return s.writeLocked(line)
}

// maxKeptLine bounds the line buffer a Sink keeps between alerts.
const maxKeptLine = 256 << 10

// SendEncoded writes payload, an alert's JSON as sinks.AlertJSON renders
// it, as one line: what Send writes for that alert.
func (s *Sink) SendEncoded(_ context.Context, payload []byte) (retry bool, err error) {
	line := make([]byte, 0, len(payload)+1)
	return s.write(append(append(line, payload...), '\n'))
}

// write writes one line with one Write call.
func (s *Sink) write(line []byte) (retry bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writeLocked(line)
}

// writeLocked is write with s.mu held.
func (s *Sink) writeLocked(line []byte) (retry bool, err error) {
	if _, err := s.w.Write(line); err != nil {
		return false, fmt.Errorf("stdout: %w", err)
	}
	return false, nil
}
