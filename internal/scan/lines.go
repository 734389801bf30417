package scan

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/logmatch/logmatch/internal/entry"
)

// MaxLineBytes bounds one physical line; the rest of a longer line is
// skipped (never buffered) and the line is marked Truncated.
const MaxLineBytes = 256 << 10

// readLines splits in into lines and calls emit for each, with offsets in
// bytes. A final line without a newline is still a line. Memory stays
// bounded by MaxLineBytes whatever the input.
func readLines(ctx context.Context, in Input, emit func(entry.Line)) error {
	br := bufio.NewReaderSize(in.R, 64<<10)
	var off int64
	var buf []byte
	for n := 0; ; n++ {
		if n&1023 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		buf = buf[:0]
		start := off
		truncated := false
		for {
			chunk, err := br.ReadSlice('\n')
			off += int64(len(chunk))
			if room := MaxLineBytes - len(buf); room > 0 {
				if len(chunk) > room {
					buf = append(buf, chunk[:room]...)
					truncated = true
				} else {
					buf = append(buf, chunk...)
				}
			} else if len(chunk) > 0 && !(len(chunk) == 1 && chunk[0] == '\n') {
				truncated = true
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if err != nil && err != io.EOF {
				return fmt.Errorf("%s: offset %d: %w", in.Name, off, err)
			}
			if len(buf) > 0 || err == nil {
				text := bytes.TrimSuffix(buf, []byte("\n"))
				text = bytes.TrimSuffix(text, []byte("\r"))
				emit(entry.Line{Text: string(text), Source: in.Name, Offset: start, Truncated: truncated})
			}
			if err == io.EOF {
				return nil
			}
			break
		}
	}
}
