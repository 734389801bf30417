package matcher

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"reflect"
	"strconv"
	"sync/atomic"
	"unsafe"

	"github.com/logmatch/logmatch/patterns"
)

// A Matcher's image is the compiled catalog laid out flat, so that a later
// process of the same build takes it in place instead of decoding and
// compiling the catalog again: every string (the records' fields, the
// literals, the warnings) is an offset and a length into one string blob,
// and the prefilter's tables and blooms are arrays of their own in-memory
// layout, which LoadImage uses where they lie. A record is turned back
// into a patterns.Record only when something asks for it (a candidate's
// program, a hit, Records).
//
// The layout is this build's memory layout (byte order, struct padding),
// so an image is only for the build that wrote it: internal/catalog keys
// its files by the executable's build ID as well as the catalog's content,
// and imageVersion names this layout. LoadImage checks every offset, size
// and index it is given, so a damaged image is an error, never a panic or
// a Matcher that can panic or loop; whether its content is the catalog's is
// the file's checksum's business.
//
// The image, in order: imageMagic; imageVersion (u32) and the count of
// records (u32); the factsOptions it was compiled under (a string); then
// length-prefixed arrays, each starting at a multiple of 8 bytes from the
// image's start:
//
//	records   recStart (n+1 u32), recWords (u32): each record's fields
//	required  reqStart (n+1 u32), clauseStart (u32), lits (imgLit)
//	classKey  n imgStr; warnings: imgWarn
//	prefilter one u32 word of flags and the scan loop, then per table
//	          (long, short, low, tiny) its slots, shift, refs (each with its
//	          check), its bloom; the strided, short and low blooms; the
//	          long keys' blocked bloom (when it has one); lits (imgLit);
//	          keyClause (int), always (int32), plan choice and offsets
//	blob      every string's bytes
const (
	imageMagic   = "LMMATCH\x00"
	imageVersion = 5 // 5: the blocked bloom's bits by blockedPatterns
)

// imgStr is a string of the image: where it starts in the blob, and its
// length.
type imgStr struct{ off, len uint32 }

// imgLit is a Literal of the image.
type imgLit struct {
	text imgStr
	fold uint32
}

// imgWarn is the backtracking check's warning on one record.
type imgWarn struct {
	rec  uint32
	text imgStr
}

// maxImageBlob bounds the blob: offsets are 32 bits.
const maxImageBlob = 1<<32 - 1

// imageWriter lays out an image: parts, in order, the strings in blob
// (the last part). The parts are the Matcher's own arrays where they are
// laid out as they are in memory, so writing an image copies little more
// than the strings.
type imageWriter struct {
	parts [][]byte
	n     int // the length of parts
	blob  []byte
	// strs finds a string already in blob by its hash (a colliding one is
	// only stored again): a map of the strings themselves would hold a
	// large catalog's text twice more while the image is written.
	strs  map[uint64]imgStr
	words []uint32 // the records' words
	err   error
}

func (w *imageWriter) str(s string) imgStr {
	if s == "" {
		return imgStr{}
	}
	h := maphash.String(imageSeed, s)
	if r, ok := w.strs[h]; ok && string(w.blob[r.off:r.off+r.len]) == s {
		return r
	}
	if len(w.blob)+len(s) > maxImageBlob {
		w.err = errors.New("matcher image: strings past 4 GB")
		return imgStr{}
	}
	r := imgStr{uint32(len(w.blob)), uint32(len(s))}
	w.blob = append(w.blob, s...)
	w.strs[h] = r
	return r
}

var imageSeed = maphash.MakeSeed()

func (w *imageWriter) put(b []byte) {
	w.parts = append(w.parts, b)
	w.n += len(b)
}

func (w *imageWriter) u32(v uint32) { w.put(binary.LittleEndian.AppendUint32(nil, v)) }

// array appends an array: its length in bytes as a u64, padding to a
// multiple of 8, then its bytes.
func (w *imageWriter) array(data []byte) {
	w.put(binary.LittleEndian.AppendUint64(nil, uint64(len(data))))
	if pad := -w.n & 7; pad > 0 {
		w.put(make([]byte, pad))
	}
	w.put(data)
}

// raw is the memory of s as bytes.
func raw[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

// viewAs is data as a []T in place; data's address and length must suit T
// (the image reader checks both).
func viewAs[T any](data []byte) []T {
	var z T
	if len(data) == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&data[0])), len(data)/int(unsafe.Sizeof(z)))
}

// scanLoops are the prefilter's scan loops, by their number in an image.
var scanLoops = []scanFunc{scanNone, scanHighFixed, scanLowFixed, scanLowSplit, scanLowSplitLarge, scanHigh, scanLow, scanLowSplitBlocked}

func scanIndex(f scanFunc) int {
	p := reflect.ValueOf(f).Pointer()
	for i, g := range scanLoops {
		if reflect.ValueOf(g).Pointer() == p {
			return i
		}
	}
	return -1
}

// AppendImage appends m's image to b, whose length must be a multiple of
// 8 (arrays are aligned from the image's start). It fails for a Matcher
// it cannot lay out: one compiled for a test of the engines
// (regexpOnly), or on a platform whose int is not 64 bits.
func (m *Matcher) AppendImage(b []byte) ([]byte, error) {
	if len(b)%8 != 0 {
		return nil, errors.New("matcher image: not at a multiple of 8 bytes")
	}
	parts, err := m.imageParts()
	if err != nil {
		return nil, err
	}
	for _, p := range parts {
		b = append(b, p...)
	}
	return b, nil
}

// WriteImage writes m's image to w, which must be at a multiple of 8
// bytes from the start of what will be loaded (see AppendImage). It
// writes the image in parts, copying little of it.
func (m *Matcher) WriteImage(w io.Writer) error {
	parts, err := m.imageParts()
	if err != nil {
		return err
	}
	for _, p := range parts {
		if _, err := w.Write(p); err != nil {
			return err
		}
	}
	return nil
}

func (m *Matcher) imageParts() ([][]byte, error) {
	if m.regexpOnly || strconv.IntSize != 64 {
		return nil, errors.New("matcher image: this Matcher cannot be laid out")
	}
	n := m.Len()
	w := &imageWriter{strs: make(map[uint64]imgStr, 4*n)}
	// The records' words and strings in arrays of their final size: a
	// large catalog's would otherwise be copied as they grow. (Capacity
	// past what deduplication leaves is never written, so never resident.)
	var size recordSizer
	for i := range n {
		visitRecord(&size, m.rec(i))
	}
	w.words = make([]uint32, 0, size.words)
	w.blob = make([]byte, 0, size.bytes+m.literalBytes())
	w.put([]byte(imageMagic))
	w.u32(imageVersion)
	w.u32(uint32(n))
	w.array([]byte(m.factsOptions))

	// Records.
	recStart := make([]uint32, 0, n+1)
	for i := range n {
		recStart = append(recStart, uint32(len(w.words)))
		w.record(m.rec(i))
	}
	recStart = append(recStart, uint32(len(w.words)))
	w.array(raw(recStart))
	w.array(raw(w.words))

	// Required literals.
	reqStart := make([]uint32, 0, n+1)
	var clauseStart []uint32
	var lits []imgLit
	for i := range n {
		reqStart = append(reqStart, uint32(len(clauseStart)))
		for _, c := range m.reqs[i] {
			clauseStart = append(clauseStart, uint32(len(lits)))
			for _, l := range c {
				lits = append(lits, w.lit(l))
			}
		}
	}
	reqStart = append(reqStart, uint32(len(clauseStart)))
	clauseStart = append(clauseStart, uint32(len(lits)))
	w.array(raw(reqStart))
	w.array(raw(clauseStart))
	w.array(raw(lits))

	classKey := make([]imgStr, n)
	for i, k := range m.classKey {
		classKey[i] = w.str(k)
	}
	w.array(raw(classKey))
	var warns []imgWarn
	for i := range n {
		if s, ok := m.warnings[int32(i)]; ok {
			warns = append(warns, imgWarn{uint32(i), w.str(s)})
		}
	}
	w.array(raw(warns))

	if err := w.prefilter(m.pf); err != nil {
		return nil, err
	}
	if w.err != nil {
		return nil, w.err
	}
	w.array(w.blob)
	return w.parts, nil
}

// literalBytes is the length of m's literals and class keys.
func (m *Matcher) literalBytes() int {
	n := 0
	for _, req := range m.reqs {
		for _, c := range req {
			for _, l := range c {
				n += len(l.Text)
			}
		}
	}
	for _, k := range m.classKey {
		n += len(k)
	}
	for _, w := range m.warnings {
		n += len(w)
	}
	return n
}

func (w *imageWriter) lit(l Literal) imgLit {
	f := uint32(0)
	if l.Fold {
		f = 1
	}
	return imgLit{w.str(l.Text), f}
}

// Prefilter flags.
const (
	imgHasPrefilter = 1 << iota
	imgHasLow
	imgShortOwn // shortB has bits of its own, not strided's
	imgLowOwn
	imgBlocked       // the long keys' blocked bloom follows the low bloom
	imgScanShift = 8 // the scan loop's number, above the flags
)

func (w *imageWriter) prefilter(p *prefilter) error {
	if p == nil {
		w.u32(0)
		return nil
	}
	loop := scanIndex(p.scan)
	if loop < 0 {
		return errors.New("matcher image: the prefilter's scan loop is not one the image knows")
	}
	flags := uint32(imgHasPrefilter | loop<<imgScanShift)
	if p.hasLow {
		flags |= imgHasLow
	}
	if !sameBits(p.shortB, p.strided) {
		flags |= imgShortOwn
	}
	if !sameBits(p.lowB, p.strided) {
		flags |= imgLowOwn
	}
	if p.blocked != nil {
		flags |= imgBlocked
	}
	w.u32(flags)
	for _, t := range []*windowTable{&p.long, &p.short, &p.low, &p.tiny} {
		w.array(raw(t.slots))
		w.array(binary.LittleEndian.AppendUint64(nil, uint64(t.slotShift)))
		w.array(raw(t.refs))
		w.bloom(t.bloom)
	}
	w.bloom(p.strided)
	if flags&imgShortOwn != 0 {
		w.bloom(p.shortB)
	}
	if flags&imgLowOwn != 0 {
		w.bloom(p.lowB)
	}
	if p.blocked != nil {
		w.array(raw(p.blocked[:]))
	}
	lits := make([]imgLit, len(p.lits))
	for i, l := range p.lits {
		lits[i] = w.lit(l)
	}
	w.array(raw(lits))
	w.array(raw(p.keyClause))
	w.array(raw(p.always))
	w.array(raw(p.plan.choice))
	w.array(raw(p.plan.offs))
	return nil
}

// sameBits reports whether a and b are one bloom.
func sameBits(a, b bloom) bool {
	return len(a.bits) == len(b.bits) && a.shift == b.shift && (len(a.bits) == 0 || &a.bits[0] == &b.bits[0])
}

func (w *imageWriter) bloom(b bloom) {
	w.array(binary.LittleEndian.AppendUint64(nil, uint64(b.shift)))
	w.array(raw(b.bits))
}

// imageReader reads an image's arrays in order.
type imageReader struct {
	data []byte
	off  int
	err  error
}

func (r *imageReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("matcher image: at byte %d: %s", r.off, fmt.Sprintf(format, args...))
	}
}

func (r *imageReader) u32() uint32 {
	if r.err != nil || len(r.data)-r.off < 4 {
		r.fail("truncated")
		return 0
	}
	v := binary.LittleEndian.Uint32(r.data[r.off:])
	r.off += 4
	return v
}

// array returns the next array's bytes, which must be a whole number of
// elems of size bytes.
func (r *imageReader) array(size int) []byte {
	if r.err != nil || len(r.data)-r.off < 8 {
		r.fail("truncated")
		return nil
	}
	n := binary.LittleEndian.Uint64(r.data[r.off:])
	r.off += 8
	r.off = (r.off + 7) &^ 7
	if r.off > len(r.data) || n > uint64(len(r.data)-r.off) || n%uint64(size) != 0 {
		r.fail("array of %d bytes does not fit", n)
		return nil
	}
	a := r.data[r.off : r.off+int(n)]
	r.off += int(n)
	return a
}

func arrayOf[T any](r *imageReader) []T {
	var z T
	return viewAs[T](r.array(int(unsafe.Sizeof(z))))
}

// word reads an array of one u64.
func (r *imageReader) word() uint64 {
	a := r.array(8)
	if len(a) != 8 {
		r.fail("want one word")
		return 0
	}
	return binary.LittleEndian.Uint64(a)
}

// LoadImage returns the Matcher of an image AppendImage wrote, compiled
// under opts' factsOptions (the refusal check and its settings, the
// corpus, the prefilter): an image compiled under others is refused, as
// are images of another layout. opts' MatchTimeout and EntryBudget apply.
//
// The Matcher uses data in place: data must stay unchanged and mapped as
// long as the Matcher or anything taken from it (a Hit, a Record) is in
// use, and its address must be a multiple of 8.
func LoadImage(data []byte, opts Options) (*Matcher, error) {
	if strconv.IntSize != 64 {
		return nil, errors.New("matcher image: int is not 64 bits")
	}
	if len(data) > 0 && uintptr(unsafe.Pointer(&data[0]))%8 != 0 {
		return nil, errors.New("matcher image: not aligned")
	}
	if len(data) < len(imageMagic) || string(data[:len(imageMagic)]) != imageMagic {
		return nil, errors.New("matcher image: not an image")
	}
	r := &imageReader{data: data, off: len(imageMagic)}
	if v := r.u32(); v != imageVersion {
		return nil, fmt.Errorf("matcher image: layout %d, this build reads %d", v, imageVersion)
	}
	n := int(r.u32())
	if opt := r.array(1); r.err == nil && string(opt) != factsOptions(opts) {
		return nil, errors.New("matcher image: compiled under other options")
	}
	recStart := arrayOf[uint32](r)
	recWords := arrayOf[uint32](r)
	reqStart := arrayOf[uint32](r)
	clauseStart := arrayOf[uint32](r)
	reqLits := arrayOf[imgLit](r)
	classKey := arrayOf[imgStr](r)
	warns := arrayOf[imgWarn](r)
	flags := r.u32()
	var tables [4]struct {
		slots []slot
		shift uint64
		refs  []keyRef
		bloom imgBloom
	}
	var strided, shortB, lowB imgBloom
	var blocked []uint64
	var pfLits []imgLit
	var keyClause []int
	var always []int32
	var choice []keyChoice
	var offs []int32
	if flags&imgHasPrefilter != 0 {
		for i := range tables {
			t := &tables[i]
			t.slots = arrayOf[slot](r)
			t.shift = r.word()
			t.refs = arrayOf[keyRef](r)
			t.bloom = r.bloom()
		}
		strided = r.bloom()
		shortB, lowB = strided, strided
		if flags&imgShortOwn != 0 {
			shortB = r.bloom()
		}
		if flags&imgLowOwn != 0 {
			lowB = r.bloom()
		}
		if flags&imgBlocked != 0 {
			blocked = arrayOf[uint64](r)
		}
		pfLits = arrayOf[imgLit](r)
		keyClause = arrayOf[int](r)
		always = arrayOf[int32](r)
		choice = arrayOf[keyChoice](r)
		offs = arrayOf[int32](r)
	}
	blobBytes := r.array(1)
	if r.err != nil {
		return nil, r.err
	}
	if r.off != len(data) {
		return nil, fmt.Errorf("matcher image: %d bytes past its end", len(data)-r.off)
	}
	blob := unsafe.String(unsafe.SliceData(blobBytes), len(blobBytes))
	d := &imageDecoder{blob: blob}

	// The records: each one's words are checked now, so that turning one
	// into a patterns.Record later cannot fail.
	if len(recStart) != n+1 || len(reqStart) != n+1 || len(classKey) != n {
		return nil, fmt.Errorf("matcher image: arrays do not have %d records", n)
	}
	recs := &recordImage{start: recStart, words: recWords, blob: blob, ptrs: make([]atomic.Pointer[patterns.Record], n)}
	if err := recs.check(); err != nil {
		return nil, err
	}

	m := &Matcher{timeout: opts.MatchTimeout, budget: opts.EntryBudget, img: recs, factsOptions: factsOptions(opts)}
	if m.budget <= 0 {
		m.budget = DefaultEntryBudget
	}
	m.clock = monotonic
	var err error
	if m.reqs, err = d.required(reqStart, clauseStart, reqLits); err != nil {
		return nil, err
	}
	m.litLen = make([]int, n)
	for i, req := range m.reqs {
		m.litLen[i] = req.LiteralLen()
	}
	m.classKey = make([]string, n)
	for i, k := range classKey {
		if m.classKey[i], err = d.str(k); err != nil {
			return nil, err
		}
	}
	for _, w := range warns {
		if int(w.rec) >= n {
			return nil, errors.New("matcher image: a warning's record out of range")
		}
		s, err := d.str(w.text)
		if err != nil {
			return nil, err
		}
		if m.warnings == nil {
			m.warnings = map[int32]string{}
		}
		m.warnings[int32(w.rec)] = s
	}
	m.setHot()
	m.timeouts = make([]atomic.Uint64, n)
	m.stackLimit = make([]atomic.Uint64, n)
	m.factsUse = FactsUse{Known: n}
	if flags&imgHasPrefilter != 0 {
		if opts.NoPrefilter {
			return nil, errors.New("matcher image: has a prefilter, the options have none")
		}
		p := &prefilter{reqs: m.reqs, hasLow: flags&imgHasLow != 0, keyClause: keyClause, always: always,
			plan: keyPlan{choice: choice, offs: offs}}
		loop := int(flags >> imgScanShift)
		if loop >= len(scanLoops) {
			return nil, fmt.Errorf("matcher image: scan loop %d", loop)
		}
		p.scan = scanLoops[loop]
		ts := []*windowTable{&p.long, &p.short, &p.low, &p.tiny}
		for i, t := range tables {
			if ts[i].bloom, err = t.bloom.get(); err != nil {
				return nil, err
			}
			ts[i].slots, ts[i].slotShift, ts[i].refs = t.slots, uint(t.shift), t.refs
		}
		for _, b := range []struct {
			dst *bloom
			src imgBloom
		}{{&p.strided, strided}, {&p.shortB, shortB}, {&p.lowB, lowB}} {
			if *b.dst, err = b.src.get(); err != nil {
				return nil, err
			}
		}
		if flags&imgBlocked != 0 {
			if len(blocked) != len(blockedBloom{}) {
				return nil, fmt.Errorf("matcher image: a blocked bloom of %d words", len(blocked))
			}
			p.blocked = (*blockedBloom)(blocked)
		}
		if p.lits, err = d.lits(pfLits); err != nil {
			return nil, err
		}
		if err := p.checkImage(n); err != nil {
			return nil, err
		}
		p.anchorAlways() // a few records', from the records alone
		if p.blocked != nil {
			p.setExt() // the short, low and long refs', one pass
		}
		m.pf = p
		m.factsUse.prefilter, m.factsUse.Plan = true, true
	} else if !opts.NoPrefilter {
		return nil, errors.New("matcher image: has no prefilter, the options want one")
	}
	m.pool.New = func() any { return m.newScratch() }
	return m, nil
}

// imgBloom is a bloom as the image holds it.
type imgBloom struct {
	shift uint64
	bits  []uint64
}

func (r *imageReader) bloom() imgBloom {
	return imgBloom{shift: r.word(), bits: arrayOf[uint64](r)}
}

// get checks that the shift picks a bit of bits: bits has 2^(64-shift)
// bits (an empty bloom has none, and shift 0).
func (b imgBloom) get() (bloom, error) {
	if len(b.bits) == 0 {
		if b.shift != 0 {
			return bloom{}, errors.New("matcher image: an empty bloom with a shift")
		}
		return bloom{}, nil
	}
	if b.shift < 6 || b.shift > 63 || uint64(len(b.bits)) != 1<<(64-b.shift)/64 {
		return bloom{}, fmt.Errorf("matcher image: a bloom of %d words with shift %d", len(b.bits), b.shift)
	}
	return bloom{bits: b.bits, shift: uint(b.shift)}, nil
}

// checkImage checks what the prefilter's search indexes with: every table
// probe ends (an empty slot), every index is in range, each scan loop has
// the blooms it is written for. With it a damaged image cannot make a
// search panic or loop; it can only find other candidates, which every
// candidate's full check then refutes.
func (p *prefilter) checkImage(n int) error {
	for _, t := range []*windowTable{&p.long, &p.short, &p.low, &p.tiny} {
		if len(t.slots) == 0 {
			if len(t.refs) != 0 {
				return errors.New("matcher image: refs without slots")
			}
			continue
		}
		if len(t.slots)&(len(t.slots)-1) != 0 || t.slotShift != uint(64-(bitsLen(len(t.slots))-1)) {
			return fmt.Errorf("matcher image: %d slots with shift %d", len(t.slots), t.slotShift)
		}
		empty := false
		for _, s := range t.slots {
			if s.end == 0 {
				empty = true
				continue
			}
			if s.start > s.end || int(s.end) > len(t.refs) {
				return errors.New("matcher image: a slot's refs out of range")
			}
		}
		if !empty {
			return errors.New("matcher image: a table without an empty slot")
		}
		for _, ref := range t.refs {
			if ref.rec < 0 || int(ref.rec) >= n || ref.lit < 0 || int(ref.lit) >= len(p.lits) {
				return errors.New("matcher image: a key's record or literal out of range")
			}
		}
	}
	if len(p.tiny.slots) > 0 && len(p.tiny.bloom.bits) == 0 {
		return errors.New("matcher image: tiny keys without their bloom")
	}
	if len(p.keyClause) != n {
		return errors.New("matcher image: key clauses do not have every record")
	}
	for _, r := range p.always {
		if r < 0 || int(r) >= n {
			return errors.New("matcher image: an unkeyed record out of range")
		}
	}
	fixed := func(b bloom, words int) bool { return len(b.bits) == words }
	idx := func(p *prefilter) int { return scanIndex(p.scan) }
	ok := true
	switch idx := scanIndex(p.scan); idx {
	case 0: // scanNone
	case 1, 2: // scanHighFixed, scanLowFixed
		ok = fixed(p.strided, len(fixedBloom{}))
	case 3, 4: // scanLowSplit, scanLowSplitLarge
		ok = fixed(p.shortB, len(shortBloom{})) && fixed(p.lowB, len(lowBloom{})) &&
			(idx == 4 && len(p.strided.bits) > 0 || fixed(p.strided, len(fixedBloom{})))
	case 7: // scanLowSplitBlocked
		ok = fixed(p.shortB, len(shortBloom{})) && fixed(p.lowB, len(blockedLowBloom{})) && p.blocked != nil && len(p.strided.bits) == 0
	default: // scanHigh, scanLow
		ok = len(p.strided.bits) > 0
	}
	if p.blocked == nil && idx(p) != 0 && len(p.strided.bits) == 0 {
		ok = false // longMay reads strided
	}
	if idx := scanIndex(p.scan); idx != 0 && (len(p.shortB.bits) == 0 || len(p.lowB.bits) == 0) {
		ok = false
	}
	if p.hasLow && len(p.lowB.bits) == 0 {
		ok = false
	}
	if (p.blocked != nil) != (scanIndex(p.scan) == 7) {
		ok = false // candidates tests the long keys in the bloom the loop scans
	}
	if !ok {
		return errors.New("matcher image: the scan loop does not fit its blooms")
	}
	for i := range p.plan.choice {
		// A bool of the image is one byte, 0 or 1, as Go's are.
		c := &p.plan.choice[i]
		if *(*uint8)(unsafe.Pointer(&c.tiny)) > 1 || *(*uint8)(unsafe.Pointer(&c.low)) > 1 {
			return errors.New("matcher image: a damaged key choice")
		}
	}
	if err := p.plan.check(p.reqs); err != nil {
		return fmt.Errorf("matcher image: %w", err)
	}
	return nil
}

func bitsLen(x int) int {
	n := 0
	for ; x > 0; x >>= 1 {
		n++
	}
	return n
}

// imageDecoder turns the image's strings into strings of its blob.
type imageDecoder struct{ blob string }

func (d *imageDecoder) str(s imgStr) (string, error) {
	if uint64(s.off)+uint64(s.len) > uint64(len(d.blob)) {
		return "", errors.New("matcher image: a string out of range")
	}
	return d.blob[s.off : s.off+s.len], nil
}

func (d *imageDecoder) lits(in []imgLit) ([]Literal, error) {
	out := make([]Literal, len(in))
	for i, l := range in {
		t, err := d.str(l.text)
		if err != nil {
			return nil, err
		}
		out[i] = Literal{Text: t, Fold: l.fold != 0}
	}
	return out, nil
}

// required builds every record's Required in three allocations.
func (d *imageDecoder) required(reqStart, clauseStart []uint32, in []imgLit) ([]Required, error) {
	lits, err := d.lits(in)
	if err != nil {
		return nil, err
	}
	if len(clauseStart) == 0 || int(clauseStart[len(clauseStart)-1]) != len(lits) {
		return nil, errors.New("matcher image: clauses do not end with the literals")
	}
	nc := len(clauseStart) - 1
	clauses := make([][]Literal, nc)
	for i := range clauses {
		a, b := clauseStart[i], clauseStart[i+1]
		if a >= b || int(b) > len(lits) {
			return nil, errors.New("matcher image: a clause out of range")
		}
		clauses[i] = lits[a:b:b]
	}
	reqs := make([]Required, len(reqStart)-1)
	if reqStart[0] != 0 || int(reqStart[len(reqStart)-1]) != nc {
		return nil, errors.New("matcher image: records do not end with the clauses")
	}
	for i := range reqs {
		a, b := reqStart[i], reqStart[i+1]
		if a > b || int(b) > nc {
			return nil, errors.New("matcher image: a record's clauses out of range")
		}
		if a < b {
			reqs[i] = clauses[a:b:b]
		}
	}
	return reqs, nil
}

// FromImage reports whether m was loaded from an image (LoadImage).
func (m *Matcher) FromImage() bool { return m.img != nil }
