package matcher

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// factsMagic starts every encoding of Facts; its last byte is the layout's
// version, changed whenever the layout changes.
const factsMagic = "LMFACTS\x02"

// AppendBinary appends f's encoding to b (encoding.BinaryAppender):
//
//	magic, options
//	patterns: count, then each: expr, warning, clauses: count, then each:
//	  literals: count, then each: fold (a byte), text
//	plan: a byte (0: none; 1: one follows), then records: count, then
//	  each: its pattern, clause (-1: unkeyed), and for a keyed record
//	  tiny (a byte) and each literal's window offset
//
// Counts, indexes and offsets are varints, strings a length and bytes.
func (f *Facts) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, factsMagic...)
	b = appendString(b, f.options)
	b = binary.AppendUvarint(b, uint64(len(f.pats)))
	for _, p := range f.pats {
		b = appendString(b, p.expr)
		b = appendString(b, p.warn)
		b = binary.AppendUvarint(b, uint64(len(p.req)))
		for _, c := range p.req {
			b = binary.AppendUvarint(b, uint64(len(c)))
			for _, l := range c {
				fold := byte(0)
				if l.Fold {
					fold = 1
				}
				b = append(b, fold)
				b = appendString(b, l.Text)
			}
		}
	}
	if f.order == nil {
		return append(b, 0), nil
	}
	b = append(b, 1)
	b = binary.AppendUvarint(b, uint64(len(f.order)))
	for rec, p := range f.order {
		c := f.plan.choice[rec]
		b = binary.AppendUvarint(b, uint64(p))
		b = binary.AppendVarint(b, int64(c.clause))
		if c.clause < 0 {
			continue
		}
		kind := byte(0) // strided; 1: tiny; 2: strided, short windows every fourth byte
		switch {
		case c.tiny:
			kind = 1
		case c.low:
			kind = 2
		}
		b = append(b, kind)
		for i := range f.pats[p].req[c.clause] {
			b = binary.AppendUvarint(b, uint64(f.plan.offs[int(c.at)+i]))
		}
	}
	return b, nil
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// UnmarshalFacts decodes what Facts.AppendBinary wrote. Whatever data
// holds, it returns an error or Facts a Compile can use safely: every
// count, index and offset is checked against what it refers to, and a
// pattern's literals against the rules extraction follows. The Facts'
// strings share one copy of data.
func UnmarshalFacts(data []byte) (*Facts, error) {
	d := factsDecoder{b: data, s: string(data)}
	f, err := d.facts()
	if err != nil {
		return nil, fmt.Errorf("facts: at byte %d: %w", d.off, err)
	}
	return f, nil
}

// factsDecoder reads an encoding of Facts: numbers from b, strings from s
// (the same bytes, copied once, which the Facts' strings share); off is
// where the next read starts, for errors.
type factsDecoder struct {
	b   []byte
	s   string
	off int
}

var errTruncated = errors.New("truncated")

func (d *factsDecoder) facts() (*Facts, error) {
	if !strings.HasPrefix(d.s, factsMagic) {
		return nil, errors.New("not a facts encoding of this version")
	}
	d.off = len(factsMagic)
	f := &Facts{}
	var err error
	if f.options, err = d.string(); err != nil {
		return nil, err
	}
	n, err := d.count()
	if err != nil {
		return nil, err
	}
	f.pats = make([]patternFacts, n)
	f.index = make(map[string]int32, n)
	for i := range f.pats {
		p := &f.pats[i]
		if p.expr, err = d.string(); err != nil {
			return nil, err
		}
		if p.expr == "" {
			return nil, fmt.Errorf("pattern %d: empty", i)
		}
		if _, dup := f.index[p.expr]; dup {
			return nil, fmt.Errorf("pattern %d: repeated", i)
		}
		f.index[p.expr] = int32(i)
		if p.warn, err = d.string(); err != nil {
			return nil, err
		}
		if p.req, err = d.required(); err != nil {
			return nil, fmt.Errorf("pattern %d: %w", i, err)
		}
	}
	hasPlan, err := d.byte()
	if err != nil {
		return nil, err
	}
	switch hasPlan {
	case 0:
	case 1:
		if err := d.plan(f); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("plan marker %d", hasPlan)
	}
	if d.off != len(d.s) {
		return nil, fmt.Errorf("%d bytes after the end", len(d.s)-d.off)
	}
	return f, nil
}

func (d *factsDecoder) required() (Required, error) {
	n, err := d.count()
	if err != nil || n == 0 {
		return nil, err
	}
	req := make(Required, n)
	for ci := range req {
		nl, err := d.count()
		if err != nil {
			return nil, err
		}
		if nl == 0 || nl > maxAlternatives {
			return nil, fmt.Errorf("clause %d: %d literals", ci, nl)
		}
		c := make([]Literal, nl)
		for li := range c {
			fold, err := d.byte()
			if err != nil {
				return nil, err
			}
			if fold > 1 {
				return nil, fmt.Errorf("clause %d: literal %d: fold %d", ci, li, fold)
			}
			if c[li].Text, err = d.string(); err != nil {
				return nil, err
			}
			c[li].Fold = fold == 1
			// A folded literal is lower case: it is compared with
			// folded text, so an upper-case letter would never match.
			if c[li].Text == "" || c[li].Fold && strings.ContainsFunc(c[li].Text, func(r rune) bool { return 'A' <= r && r <= 'Z' }) {
				return nil, fmt.Errorf("clause %d: literal %d: not one extraction makes", ci, li)
			}
		}
		req[ci] = c
	}
	return req, nil
}

// plan reads the records' patterns and their key choices, and checks the
// plan against the patterns' literals.
func (d *factsDecoder) plan(f *Facts) error {
	n, err := d.count()
	if err != nil {
		return err
	}
	f.order = make([]int32, n)
	f.plan.choice = make([]keyChoice, n)
	reqs := make([]Required, n)
	for rec := range f.order {
		p, err := d.uvarint()
		if err != nil {
			return err
		}
		if p >= uint64(len(f.pats)) {
			return fmt.Errorf("record %d: pattern %d of %d", rec, p, len(f.pats))
		}
		f.order[rec], reqs[rec] = int32(p), f.pats[p].req
		clause, err := d.varint()
		if err != nil {
			return err
		}
		if clause < -1 || clause >= int64(len(reqs[rec])) {
			return fmt.Errorf("record %d: clause %d of %d", rec, clause, len(reqs[rec]))
		}
		c := keyChoice{clause: int32(clause), at: int32(len(f.plan.offs))}
		if clause >= 0 {
			kind, err := d.byte()
			if err != nil {
				return err
			}
			if kind > 2 {
				return fmt.Errorf("record %d: key kind %d", rec, kind)
			}
			c.tiny, c.low = kind == 1, kind == 2
			for range reqs[rec][clause] {
				off, err := d.uvarint()
				if err != nil {
					return err
				}
				if off > uint64(len(d.s)) { // longer than any literal here
					return fmt.Errorf("record %d: offset %d", rec, off)
				}
				f.plan.offs = append(f.plan.offs, int32(off))
			}
		}
		f.plan.choice[rec] = c
	}
	return f.plan.check(reqs)
}

func (d *factsDecoder) byte() (byte, error) {
	if d.off >= len(d.s) {
		return 0, errTruncated
	}
	d.off++
	return d.s[d.off-1], nil
}

func (d *factsDecoder) uvarint() (uint64, error) {
	x, n := binary.Uvarint(d.b[d.off:])
	return x, d.advance(n)
}

// varint reads what binary.AppendVarint wrote.
func (d *factsDecoder) varint() (int64, error) {
	x, n := binary.Varint(d.b[d.off:])
	return x, d.advance(n)
}

// advance moves past a varint of n bytes, as binary.Uvarint reports it.
func (d *factsDecoder) advance(n int) error {
	switch {
	case n == 0:
		return errTruncated
	case n < 0:
		return errors.New("varint overflows")
	}
	d.off += n
	return nil
}

// count reads a number of things still to come, each at least a byte, so
// a count past the end is refused before anything is allocated for it.
func (d *factsDecoder) count() (int, error) {
	n, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if n > uint64(len(d.s)-d.off) {
		return 0, fmt.Errorf("count %d past the end", n)
	}
	return int(n), nil
}

func (d *factsDecoder) string() (string, error) {
	n, err := d.uvarint()
	if err != nil {
		return "", err
	}
	if n > uint64(len(d.s)-d.off) {
		return "", errTruncated
	}
	s := d.s[d.off : d.off+int(n)]
	d.off += int(n)
	return s, nil
}
