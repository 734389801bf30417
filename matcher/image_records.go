package matcher

import (
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/logmatch/logmatch/patterns"
)

// recordImage holds an image's records as words (see visitRecord) and
// turns each into a patterns.Record the first time it is asked for: a
// search asks only for its candidates' and hits' records, so the text an
// alert alone needs (solutions, documentation, source) stays in the blob
// until one does.
type recordImage struct {
	start []uint32 // record i's words are words[start[i]:start[i+1]]
	words []uint32
	blob  string
	ptrs  []atomic.Pointer[patterns.Record]

	allOnce sync.Once
	all     []patterns.Record
}

// get returns record i, built on first use.
func (ri *recordImage) get(i int) *patterns.Record {
	if p := ri.ptrs[i].Load(); p != nil {
		return p
	}
	r := new(patterns.Record)
	ri.decode(i, r)
	return keep(&ri.ptrs[i], r)
}

// patternWords is where a record's messagePattern lies in its words: the
// fifth string visitRecord visits, each string two words.
const patternWords = 2 * 4

// pattern returns record i's messagePattern without building the record:
// a program is built for each candidate at its first try, and most
// candidates match nothing, so their records need not be built for it.
func (ri *recordImage) pattern(i int) string {
	if p := ri.ptrs[i].Load(); p != nil {
		return p.MessagePattern
	}
	w := ri.words[ri.start[i]:ri.start[i+1]]
	if len(w) < patternWords+2 {
		return ri.get(i).MessagePattern // not an image check lets through
	}
	d := recordReader{words: w[patternWords : patternWords+2], blob: ri.blob}
	return d.text()
}

// records returns every record, in order, built once. A record already
// built is copied (a Hit taken before points at the first copy).
func (ri *recordImage) records() []patterns.Record {
	ri.allOnce.Do(func() {
		ri.all = make([]patterns.Record, len(ri.ptrs))
		for i := range ri.all {
			if p := ri.ptrs[i].Load(); p != nil {
				ri.all[i] = *p
				continue
			}
			ri.decode(i, &ri.all[i])
			ri.ptrs[i].CompareAndSwap(nil, &ri.all[i])
		}
	})
	return ri.all
}

func (ri *recordImage) decode(i int, r *patterns.Record) {
	d := recordReader{words: ri.words[ri.start[i]:ri.start[i+1]], blob: ri.blob, set: true}
	visitRecord(&d, r)
}

// check reads every record's words as decode will, without building
// anything: a record that check passes decodes without an error.
func (ri *recordImage) check() error {
	if len(ri.start) == 0 || ri.start[0] != 0 || int(ri.start[len(ri.start)-1]) != len(ri.words) {
		return errors.New("matcher image: the records do not cover their words")
	}
	for i := range len(ri.start) - 1 {
		a, b := ri.start[i], ri.start[i+1]
		if a > b || int(b) > len(ri.words) {
			return errors.New("matcher image: a record out of order")
		}
		if !checkWords(ri.words[a:b], uint64(len(ri.blob))) {
			return errors.New("matcher image: a damaged record")
		}
	}
	return nil
}

// recordStrings is how many plain strings visitRecord visits first.
const recordStrings = 27

// checkWords reads one record's words in visitRecord's order, as a
// recordReader that only checks would, without a call a field: at 50,000
// records this is most of what loading an image reads.
func checkWords(w []uint32, blob uint64) bool {
	i := 0
	text := func() bool {
		if len(w)-i < 2 || uint64(w[i])+uint64(w[i+1]) > blob {
			return false
		}
		i += 2
		return true
	}
	flagged := func(words int, text bool) bool { // a flag word, then a value when it is 1
		if i >= len(w) || w[i] > 1 {
			return false
		}
		i++
		if w[i-1] == 0 {
			return true
		}
		if text {
			return textAt(w, &i, blob)
		}
		i += words
		return i <= len(w)
	}
	list := func() bool {
		if i >= len(w) || w[i] > maxImageList {
			return false
		}
		n := int(w[i])
		i++
		for range n {
			if !text() {
				return false
			}
		}
		return true
	}
	for range recordStrings {
		if !text() {
			return false
		}
	}
	if !flagged(0, true) || !flagged(2, false) || !flagged(2, false) || !flagged(2, false) {
		return false
	}
	i += 6 // three numbers
	if i >= len(w) || w[i] > 1 {
		return false
	}
	i++
	for range 4 {
		if !list() {
			return false
		}
	}
	if i >= len(w) || w[i] > maxImageList {
		return false
	}
	n := int(w[i])
	i++
	for range n {
		if !text() || !list() {
			return false
		}
	}
	return i == len(w)
}

func textAt(w []uint32, i *int, blob uint64) bool {
	if len(w)-*i < 2 || uint64(w[*i])+uint64(w[*i+1]) > blob {
		return false
	}
	*i += 2
	return true
}

// recordVisitor is told of every field of a record, in image order.
type recordVisitor interface {
	str(*string)
	strs(*[]string)
	num(*int)
	numPtr(**int)
	flag(*bool)
	raw(*json.RawMessage)
	remedies(*map[string][]string)
}

// visitRecord visits every field of r. A field patterns.Record gains must
// be added here: TestImageRecordsKeepEveryField fills every field and
// fails on one the image leaves out.
func visitRecord(v recordVisitor, r *patterns.Record) {
	for _, s := range []*string{&r.ID, &r.Repo, &r.Slug, &r.ErrorMessage, &r.MessagePattern, &r.ErrorType,
		&r.ErrorClass, (*string)(&r.Severity), &r.FilePath, &r.SourceCode, &r.GithubURL, &r.Documentation,
		&r.TriggerScenarios, &r.CommonSituations, &r.ExampleFix, &r.HandlingStrategy, &r.ValidationCode,
		&r.TypeGuard, &r.TryCatchPattern, &r.BackgroundTag, &r.AnalyzedSha, &r.AnalyzedAt, (*string)(&r.Role),
		&r.IntroducedIn, &r.RemovedIn, &r.DatasetVersion, &r.Origin.File} {
		v.str(s)
	}
	v.raw(&r.ErrorCode)
	v.numPtr(&r.HTTPStatus)
	v.numPtr(&r.SourceCodeStart)
	v.numPtr(&r.SourceCodeEnd)
	v.num(&r.LineNumber)
	v.num(&r.SchemaVersion)
	v.num(&r.Origin.Line)
	v.flag(&r.Fatal)
	v.strs(&r.Solutions)
	v.strs(&r.PreventionTips)
	v.strs(&r.Tags)
	v.strs(&r.Engines)
	v.remedies(&r.Remedies)
}

// recordWriter appends a record's words to w.words.
type recordWriter struct{ w *imageWriter }

func (w *imageWriter) record(r *patterns.Record) { visitRecord(recordWriter{w}, r) }

func (rw recordWriter) put(v ...uint32) { rw.w.words = append(rw.w.words, v...) }

func (rw recordWriter) str(s *string) {
	r := rw.w.str(*s)
	rw.put(r.off, r.len)
}

func (rw recordWriter) strs(s *[]string) {
	rw.put(uint32(len(*s)))
	for i := range *s {
		rw.str(&(*s)[i])
	}
}

func (rw recordWriter) num(n *int) { rw.put(uint32(uint64(*n)), uint32(uint64(*n)>>32)) }

func (rw recordWriter) numPtr(n **int) {
	if *n == nil {
		rw.put(0)
		return
	}
	rw.put(1)
	rw.num(*n)
}

func (rw recordWriter) flag(b *bool) {
	if *b {
		rw.put(1)
	} else {
		rw.put(0)
	}
}

func (rw recordWriter) raw(m *json.RawMessage) {
	if *m == nil {
		rw.put(0)
		return
	}
	rw.put(1)
	s := string(*m)
	rw.str(&s)
}

func (rw recordWriter) remedies(m *map[string][]string) {
	keys := make([]string, 0, len(*m))
	for k := range *m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	rw.put(uint32(len(keys)))
	for _, k := range keys {
		steps := (*m)[k]
		rw.str(&k)
		rw.strs(&steps)
	}
}

// recordReader reads a record's words. With set false it only checks
// them (bad is set at the first word out of place) and assigns nothing.
type recordReader struct {
	words []uint32
	blob  string
	set   bool
	bad   bool
}

func (d *recordReader) next() uint32 {
	if len(d.words) == 0 {
		d.bad = true
		return 0
	}
	v := d.words[0]
	d.words = d.words[1:]
	return v
}

func (d *recordReader) text() string {
	off, n := d.next(), d.next()
	if uint64(off)+uint64(n) > uint64(len(d.blob)) {
		d.bad = true
		return ""
	}
	return d.blob[off : off+n]
}

func (d *recordReader) str(s *string) {
	t := d.text()
	if d.set {
		*s = t
	}
}

// maxImageList bounds a list's count as check reads it, so that a damaged
// count is refused before it is believed.
const maxImageList = 1 << 24

func (d *recordReader) count() int {
	n := d.next()
	if n > maxImageList || int(n) > len(d.words) {
		d.bad = true
		return 0
	}
	return int(n)
}

func (d *recordReader) strs(s *[]string) {
	n := d.count()
	if !d.set {
		for range n {
			d.text()
		}
		return
	}
	if n == 0 {
		*s = nil
		return
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.text()
	}
	*s = out
}

func (d *recordReader) num(n *int) {
	lo, hi := d.next(), d.next()
	if d.set {
		*n = int(uint64(lo) | uint64(hi)<<32)
	}
}

func (d *recordReader) numPtr(n **int) {
	switch d.next() {
	case 0:
		if d.set {
			*n = nil
		}
	case 1:
		if !d.set {
			d.next()
			d.next()
			return
		}
		v := new(int)
		d.num(v)
		*n = v
	default:
		d.bad = true
	}
}

func (d *recordReader) flag(b *bool) {
	v := d.next()
	if v > 1 {
		d.bad = true
	}
	if d.set {
		*b = v == 1
	}
}

func (d *recordReader) raw(m *json.RawMessage) {
	switch d.next() {
	case 0:
		if d.set {
			*m = nil
		}
	case 1:
		t := d.text()
		if d.set {
			*m = json.RawMessage(t) // a copy: the blob is read-only
		}
	default:
		d.bad = true
	}
}

func (d *recordReader) remedies(m *map[string][]string) {
	n := d.count()
	if !d.set {
		for range n {
			var steps []string
			d.text()
			d.strs(&steps)
		}
		return
	}
	if n == 0 {
		*m = nil
		return
	}
	out := make(map[string][]string, n)
	for range n {
		k := d.text()
		var steps []string
		d.strs(&steps)
		out[k] = steps
	}
	*m = out
}

// recordSizer counts the words and string bytes of records.
type recordSizer struct{ words, bytes int }

func (z *recordSizer) str(s *string) { z.words += 2; z.bytes += len(*s) }

func (z *recordSizer) strs(s *[]string) {
	z.words++
	for i := range *s {
		z.str(&(*s)[i])
	}
}

func (z *recordSizer) num(*int) { z.words += 2 }

func (z *recordSizer) numPtr(n **int) { z.words += 3 }

func (z *recordSizer) flag(*bool) { z.words++ }

func (z *recordSizer) raw(m *json.RawMessage) { z.words += 3; z.bytes += len(*m) }

func (z *recordSizer) remedies(m *map[string][]string) {
	z.words++
	for k, steps := range *m {
		z.words += 2
		z.bytes += len(k)
		z.strs(&steps)
	}
}
