package patterns

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// MaxLineBytes bounds one JSONL line, not counting its line terminator, and
// one element of a JSON array. A record carrying its sourceCode is a few KiB;
// the bound is far above that so it only stops runaway input. A longer line
// is reported as a Problem and skipped, never loaded in part.
const MaxLineBytes = 16 << 20

// MaxArrayBytes bounds a catalog in JSON-array form, which, unlike JSONL, is
// read whole before it is decoded. A larger array is reported and skipped.
const MaxArrayBytes = 256 << 20

// readBufferBytes is the bufio buffer for JSONL; longer lines are assembled
// from several reads up to MaxLineBytes.
const readBufferBytes = 64 << 10

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// Parse reads a catalog from r. name is used in Origin.File and in problems.
//
// Two forms are accepted, told apart by the first byte after an optional
// UTF-8 BOM and white space:
//   - JSONL (anything not starting with '['): one JSON object per line, each
//     either a wrapper {"record": {...}, "datasetVersion": "..."} or a bare
//     record. CRLF line ends, blank lines and a last line without a newline
//     are fine. A bad line is reported and skipped; the lines after it load.
//   - a JSON array of such objects. Each element is checked on its own and
//     reported with the line it starts on; a syntax error in the array ends
//     the file there, because the rest cannot be found reliably.
//
// Unknown fields are ignored, null counts as absent. Records that have an
// error-level problem are left out; records with only warnings are kept.
// A record whose id an earlier line has is an error naming both lines,
// and is left out (see Load).
// Parse never fails as a whole: everything wrong is in the returned problems.
func Parse(r io.Reader, name string) ([]Record, []Problem) {
	return LoadOptions{}.Parse(r, name)
}

// Parse is the package's Parse with these options.
func (o LoadOptions) Parse(r io.Reader, name string) ([]Record, []Problem) {
	return refuseDuplicates(o.parse(r, name))
}

// parse is Parse without the duplicate check.
func (o LoadOptions) parse(r io.Reader, name string) ([]Record, []Problem) {
	p := parser{name: name, maxLine: MaxLineBytes, maxArray: MaxArrayBytes,
		trees: &patternTrees{trees: map[string]*parsedPattern{}, known: o.Parsed}, size: inputSize(r)}
	return p.parse(r)
}

// inputSize is the size of a file or an in-memory reader, 0 when r does
// not tell it.
func inputSize(r io.Reader) int64 {
	switch r := r.(type) {
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() {
			return fi.Size()
		}
	case interface{ Size() int64 }:
		return r.Size()
	}
	return 0
}

// parser holds the bounds so tests can exercise them without writing
// hundreds of megabytes.
type parser struct {
	name     string
	maxLine  int
	maxArray int

	// recs are the records read so far, in chunks of recordChunk: a
	// slice grown by append would allocate about five times its final
	// size (records are 560 bytes), chunks copied once at the end twice.
	// When the input's size is known, the first chunk tells the bytes a
	// record takes, and the records go on in flat, one slice sized for
	// the whole input, which is not copied at the end.
	recs     [][]Record
	flat     []Record
	size     int64 // of the input, 0 when unknown
	consumed int64 // bytes read by parseLines so far
	problems []Problem
	decoder  fastDecoder
	trees    *patternTrees
}

const recordChunk = 256

func (p *parser) add(rec Record) {
	if p.flat != nil {
		p.flat = append(p.flat, rec)
		return
	}
	if n := len(p.recs); n == 0 || len(p.recs[n-1]) == recordChunk {
		if n == 1 && p.size > p.consumed && p.consumed > 0 {
			// A tenth more than the estimate, so that records longer
			// further on rarely make append copy them all.
			est := int(p.size*recordChunk/p.consumed) * 11 / 10
			p.flat = append(make([]Record, 0, max(est, 2*recordChunk)), p.recs[0]...)
			p.flat = append(p.flat, rec)
			p.recs = nil
			return
		}
		p.recs = append(p.recs, make([]Record, 0, recordChunk))
	}
	last := &p.recs[len(p.recs)-1]
	*last = append(*last, rec)
}

// records returns the records read, in one slice.
func (p *parser) records() []Record {
	if p.flat != nil {
		return p.flat
	}
	switch len(p.recs) {
	case 0:
		return nil
	case 1:
		return p.recs[0]
	}
	n := 0
	for _, c := range p.recs {
		n += len(c)
	}
	out := make([]Record, 0, n)
	for _, c := range p.recs {
		out = append(out, c...)
	}
	return out
}

func (p *parser) parse(r io.Reader) ([]Record, []Problem) {
	br := bufio.NewReaderSize(r, readBufferBytes)
	if head, _ := br.Peek(len(utf8BOM)); bytes.Equal(head, utf8BOM) {
		_, _ = br.Discard(len(utf8BOM))
	}
	if startsWithArray(br) {
		p.parseArray(br)
	} else {
		p.parseLines(br)
	}
	return p.records(), p.problems
}

// startsWithArray looks at the first non-blank byte within the read buffer.
// A file that opens with more than a buffer of white space is taken as JSONL,
// whose blank lines are skipped anyway.
func startsWithArray(br *bufio.Reader) bool {
	head, _ := br.Peek(readBufferBytes)
	for _, c := range head {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '[':
			return true
		}
		return false
	}
	return false
}

func (p *parser) problem(line int, field string, level Level, msg string, err error) {
	p.problems = append(p.problems, Problem{File: p.name, Line: line, Field: field, Level: level, Message: msg, Err: err})
}

func (p *parser) parseLines(br *bufio.Reader) {
	var buf []byte
	line := 0
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) == 0 && err == io.EOF {
			return
		}
		p.consumed += int64(len(chunk))
		line++
		buf = buf[:0]
		tooLong := false
		for {
			if !tooLong {
				if len(buf)+len(chunk) > p.maxLine+2 { // +2: the CRLF is not counted
					tooLong = true
					buf = buf[:0]
				} else {
					buf = append(buf, chunk...)
				}
			}
			if err != bufio.ErrBufferFull {
				break
			}
			chunk, err = br.ReadSlice('\n')
			p.consumed += int64(len(chunk))
		}
		if err != nil && err != io.EOF {
			p.problem(line, "", LevelError, "read failed: "+err.Error(), err)
			return
		}
		text := bytes.TrimRight(buf, "\r\n")
		switch {
		case tooLong || len(text) > p.maxLine:
			p.problem(line, "", LevelError, fmt.Sprintf("line is longer than %d bytes; skipped", p.maxLine), nil)
		case len(bytes.TrimSpace(text)) > 0:
			p.value(text, line)
		}
		if err == io.EOF {
			return
		}
	}
}

func (p *parser) parseArray(br *bufio.Reader) {
	data, err := io.ReadAll(io.LimitReader(br, int64(p.maxArray)+1))
	if err != nil {
		p.problem(1, "", LevelError, "read failed: "+err.Error(), err)
		return
	}
	if len(data) > p.maxArray {
		p.problem(1, "", LevelError, fmt.Sprintf("JSON array is larger than %d bytes; skipped (use JSONL for large catalogs)", p.maxArray), nil)
		return
	}
	lines := lineCounter{data: data}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // the '[' startsWithArray saw
		p.syntaxProblem(&lines, 0, err)
		return
	}
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			p.syntaxProblem(&lines, dec.InputOffset(), err)
			return
		}
		end := int(dec.InputOffset())
		line := lines.at(end - len(raw))
		if len(raw) > p.maxLine {
			p.problem(line, "", LevelError, fmt.Sprintf("array element is longer than %d bytes; skipped", p.maxLine), nil)
			continue
		}
		p.value(raw, line)
	}
	if _, err := dec.Token(); err != nil { // the closing ']'
		p.syntaxProblem(&lines, dec.InputOffset(), err)
		return
	}
	if _, err := dec.Token(); err != io.EOF {
		p.problem(lines.at(int(dec.InputOffset())), "", LevelError, "unexpected data after the JSON array", nil)
	}
}

// syntaxProblem reports a decoder error at the line of its offset, preferring
// the offset a SyntaxError carries.
func (p *parser) syntaxProblem(lines *lineCounter, offset int64, err error) {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		offset = se.Offset
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		offset = int64(len(lines.data))
		err = io.ErrUnexpectedEOF
	}
	p.problem(lines.at(int(offset)), "", LevelError, "invalid JSON array: "+jsonSyntax(err), err)
}

// lineCounter maps byte offsets to 1-based lines. Offsets are asked for in
// increasing order, so it counts newlines incrementally.
type lineCounter struct {
	data []byte
	off  int
	line int // newlines before off
}

func (c *lineCounter) at(off int) int {
	off = max(0, min(off, len(c.data)))
	if off < c.off {
		c.off, c.line = 0, 0
	}
	c.line += bytes.Count(c.data[c.off:off], []byte{'\n'})
	c.off = off
	return c.line + 1
}

// value decodes and validates one JSON object that starts on line.
func (p *parser) value(raw []byte, line int) {
	rec, probs := decodeRecord(&p.decoder, raw, p.trees)
	rec.Origin = Origin{File: p.name, Line: line}
	keep := true
	for _, pr := range probs {
		pr.File, pr.Line = p.name, line
		p.problems = append(p.problems, pr)
		if pr.Level == LevelError {
			keep = false
		}
	}
	if keep {
		p.add(rec)
	}
}
