package patterns

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The fast decoder reads a catalog line the way the catalog's own tools
// write it: one object, the known field names spelled exactly, each field
// once, values of the field's type. Such a line gives the Record that
// encoding/json would give, at a fraction of the cost (no reflection, one
// pass instead of a validity scan and a decode). Everything else (a syntax
// error, a type mismatch, a key that matches a field only ignoring case, a
// repeated key, invalid UTF-8, a lone surrogate escape) makes it give up,
// and the line is decoded again by encoding/json, whose errors the problems
// are built from. So the fast path never decides a problem; it can only
// agree with encoding/json (FuzzFastDecode checks that it does).

// fastField names a Record field the fast decoder fills.
type fastField uint8

const (
	ffNone fastField = iota
	ffID
	ffRepo
	ffSlug
	ffErrorCode
	ffErrorMessage
	ffMessagePattern
	ffErrorType
	ffErrorClass
	ffHTTPStatus
	ffSeverity
	ffFilePath
	ffLineNumber
	ffSourceCode
	ffSourceCodeStart
	ffSourceCodeEnd
	ffGithubURL
	ffDocumentation
	ffTriggerScenarios
	ffCommonSituations
	ffSolutions
	ffExampleFix
	ffHandlingStrategy
	ffValidationCode
	ffTypeGuard
	ffTryCatchPattern
	ffPreventionTips
	ffTags
	ffBackgroundTag
	ffAnalyzedSha
	ffAnalyzedAt
	ffSchemaVersion
	ffRole
	ffFatal
	ffIntroducedIn
	ffRemovedIn
	ffRemedies
	ffEngines
	ffCount
)

// fastFields maps the JSON names of Record to their fields. It must list
// every field with a JSON name (TestFastFieldsCoverRecord checks).
var fastFields = map[string]fastField{
	"id": ffID, "repo": ffRepo, "slug": ffSlug, "errorCode": ffErrorCode,
	"errorMessage": ffErrorMessage, "messagePattern": ffMessagePattern,
	"errorType": ffErrorType, "errorClass": ffErrorClass, "httpStatus": ffHTTPStatus,
	"severity": ffSeverity, "filePath": ffFilePath, "lineNumber": ffLineNumber,
	"sourceCode": ffSourceCode, "sourceCodeStart": ffSourceCodeStart, "sourceCodeEnd": ffSourceCodeEnd,
	"githubUrl": ffGithubURL, "documentation": ffDocumentation,
	"triggerScenarios": ffTriggerScenarios, "commonSituations": ffCommonSituations,
	"solutions": ffSolutions, "exampleFix": ffExampleFix, "handlingStrategy": ffHandlingStrategy,
	"validationCode": ffValidationCode, "typeGuard": ffTypeGuard, "tryCatchPattern": ffTryCatchPattern,
	"preventionTips": ffPreventionTips, "tags": ffTags, "backgroundTag": ffBackgroundTag,
	"analyzedSha": ffAnalyzedSha, "analyzedAt": ffAnalyzedAt, "schemaVersion": ffSchemaVersion,
	"role": ffRole, "fatal": ffFatal, "introducedIn": ffIntroducedIn, "removedIn": ffRemovedIn,
	"remedies": ffRemedies, "engines": ffEngines,
}

// fieldTable is fastFields as a small open-addressing table with a hash
// of a few bytes of the name: a record's every member looks its name up,
// and a map's string hash was most of that. An empty slot has name "".
var fieldTable = func() (t [fieldTableSize]struct {
	name string
	f    fastField
}) {
	for name, f := range fastFields {
		i := fieldHash([]byte(name))
		for t[i].name != "" {
			i = (i + 1) % fieldTableSize
		}
		t[i].name, t[i].f = name, f
	}
	return t
}()

const fieldTableSize = 128 // a power of two, over three times the fields

// fieldHash mixes a name's length and its first, middle and last bytes.
func fieldHash(key []byte) uint {
	n := uint(len(key))
	if n == 0 {
		return 0
	}
	return (n*131 + uint(key[0])*31 + uint(key[n/2])*7 + uint(key[n-1])) % fieldTableSize
}

// lookupField is fastFields[string(key)].
func lookupField(key []byte) (fastField, bool) {
	for i := fieldHash(key); fieldTable[i].name != ""; i = (i + 1) % fieldTableSize {
		if fieldTable[i].name == string(key) {
			return fieldTable[i].f, true
		}
	}
	return 0, false
}

// foldedFields holds the JSON names of Record in lower case.
var foldedFields = func() map[string]bool {
	m := make(map[string]bool, len(fastFields))
	for name := range fastFields {
		m[strings.ToLower(name)] = true
	}
	return m
}()

// foldsToField reports whether key names a Record field ignoring case, as
// encoding/json matches keys.
func foldsToField(key []byte) bool {
	for i := 0; i < len(key); i++ {
		if key[i] >= utf8.RuneSelf {
			// Unicode folding (the Kelvin sign folds to k, the long s
			// to s): the slow, exact check.
			for name := range fastFields {
				if bytes.EqualFold(key, []byte(name)) {
					return true
				}
			}
			return false
		}
	}
	var buf [32]byte
	if len(key) > len(buf) {
		return false // longer than every field name
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return foldedFields[string(buf[:len(key)])]
}

// maxFastDepth bounds the nesting the fast decoder skips through; deeper
// input is left to encoding/json, which has its own limit.
const maxFastDepth = 256

// fastDecoder is one pass over one line.
type fastDecoder struct {
	data []byte
	pos  int
	// arena holds the text of every string value kept so far, unescaped,
	// and pending says which field gets which part of it. Once the line
	// decoded, the arena becomes one string and each field a substring:
	// a record costs one string allocation, holding only its own text,
	// instead of one per field.
	arena   []byte
	pending []pendingString
	// bare gets the top-level members, inner a "record" member's; they
	// live here, with the arena, so a decoder reused line after line
	// allocates only what the record keeps.
	bare, inner Record
	version     string
}

// pendingString is a string field waiting for the arena: *p gets
// arena[start:end].
type pendingString struct {
	p          *string
	start, end int
}

// keep registers arena[start:end] as the value of *p.
func (d *fastDecoder) keep(p *string, start, end int) {
	d.pending = append(d.pending, pendingString{p, start, end})
}

// settle gives every kept field its text.
func (d *fastDecoder) settle() {
	all := string(d.arena)
	for _, ps := range d.pending {
		*ps.p = all[ps.start:ps.end]
	}
}

// fastDecodeRecord decodes raw as decodeRecord's JSON step does (wrapper or
// bare record, DatasetVersion and ErrorCode settled), or reports false
// when the line needs encoding/json. It reads the line once: the top-level
// members are decoded as a bare record's fields while a "record" member is
// decoded on its own, and the wrapper wins when there is one.
func fastDecodeRecord(raw []byte, rec *Record) bool {
	var d fastDecoder
	return d.decode(raw, rec)
}

// decode is fastDecodeRecord with d's scratch space, which it reuses.
func (d *fastDecoder) decode(raw []byte, rec *Record) bool {
	if !utf8.Valid(raw) {
		return false // encoding/json replaces invalid bytes; let it
	}
	d.data, d.pos = raw, 0
	d.arena, d.pending = d.arena[:0], d.pending[:0]
	d.bare, d.inner, d.version = Record{}, Record{}, ""
	var seen [ffCount]bool
	hasRecord, hasVersion := false, false
	ok := d.object(func(key []byte) bool {
		switch string(key) {
		case "record":
			if hasRecord {
				return false
			}
			hasRecord = true
			d.space()
			if d.pos >= len(d.data) || d.data[d.pos] != '{' {
				return false // encoding/json reports what it is
			}
			return d.record(&d.inner)
		case "datasetVersion":
			if hasVersion {
				return false
			}
			hasVersion = true
			return d.string(&d.version)
		}
		if bytes.EqualFold(key, []byte("record")) || bytes.EqualFold(key, []byte("datasetVersion")) {
			return false
		}
		return d.member(&d.bare, &seen, key)
	})
	if !ok || !d.end() {
		return false
	}
	d.settle()
	if hasRecord {
		*rec = d.inner
		rec.DatasetVersion = d.version
	} else {
		*rec = d.bare
	}
	if string(rec.ErrorCode) == "null" {
		rec.ErrorCode = nil
	}
	return true
}

// record decodes one object into rec.
func (d *fastDecoder) record(rec *Record) bool {
	var seen [ffCount]bool
	return d.object(func(key []byte) bool { return d.member(rec, &seen, key) })
}

// member decodes the value of the member key into rec's field of that name,
// or skips it when rec has none.
func (d *fastDecoder) member(rec *Record, seen *[ffCount]bool, key []byte) bool {
	f, known := lookupField(key)
	if !known {
		if foldsToField(key) {
			return false // encoding/json would fill that field
		}
		_, ok := d.value(1)
		return ok
	}
	if seen[f] {
		return false
	}
	seen[f] = true
	return d.field(rec, f)
}

// field decodes the value of field f.
func (d *fastDecoder) field(rec *Record, f fastField) bool {
	switch f {
	case ffErrorCode:
		v, ok := d.value(1)
		if ok {
			rec.ErrorCode = json.RawMessage(append([]byte(nil), v...))
		}
		return ok
	case ffHTTPStatus:
		return d.intPtr(&rec.HTTPStatus)
	case ffSourceCodeStart:
		return d.intPtr(&rec.SourceCodeStart)
	case ffSourceCodeEnd:
		return d.intPtr(&rec.SourceCodeEnd)
	case ffLineNumber:
		return d.int(&rec.LineNumber)
	case ffSchemaVersion:
		return d.int(&rec.SchemaVersion)
	case ffSolutions:
		return d.strings(&rec.Solutions)
	case ffPreventionTips:
		return d.strings(&rec.PreventionTips)
	case ffTags:
		return d.strings(&rec.Tags)
	case ffEngines:
		return d.strings(&rec.Engines)
	case ffRemedies:
		return d.remedies(&rec.Remedies)
	case ffFatal:
		switch {
		case d.literal("true"):
			rec.Fatal = true
		case d.literal("false"):
			rec.Fatal = false
		case d.literal("null"):
		default:
			return false
		}
		return true
	case ffSeverity:
		return d.string((*string)(&rec.Severity))
	case ffRole:
		return d.string((*string)(&rec.Role))
	}
	return d.string(stringField(rec, f))
}

// stringField returns the string field f of rec.
func stringField(rec *Record, f fastField) *string {
	switch f {
	case ffID:
		return &rec.ID
	case ffRepo:
		return &rec.Repo
	case ffSlug:
		return &rec.Slug
	case ffErrorMessage:
		return &rec.ErrorMessage
	case ffMessagePattern:
		return &rec.MessagePattern
	case ffErrorType:
		return &rec.ErrorType
	case ffErrorClass:
		return &rec.ErrorClass
	case ffFilePath:
		return &rec.FilePath
	case ffSourceCode:
		return &rec.SourceCode
	case ffGithubURL:
		return &rec.GithubURL
	case ffDocumentation:
		return &rec.Documentation
	case ffTriggerScenarios:
		return &rec.TriggerScenarios
	case ffCommonSituations:
		return &rec.CommonSituations
	case ffExampleFix:
		return &rec.ExampleFix
	case ffHandlingStrategy:
		return &rec.HandlingStrategy
	case ffValidationCode:
		return &rec.ValidationCode
	case ffTypeGuard:
		return &rec.TypeGuard
	case ffTryCatchPattern:
		return &rec.TryCatchPattern
	case ffBackgroundTag:
		return &rec.BackgroundTag
	case ffAnalyzedSha:
		return &rec.AnalyzedSha
	case ffAnalyzedAt:
		return &rec.AnalyzedAt
	case ffIntroducedIn:
		return &rec.IntroducedIn
	case ffRemovedIn:
		return &rec.RemovedIn
	}
	panic("patterns: fast decoder: field " + strconv.Itoa(int(f)) + " is not a string")
}

func (d *fastDecoder) space() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// end reports whether only white space is left.
func (d *fastDecoder) end() bool {
	d.space()
	return d.pos == len(d.data)
}

func (d *fastDecoder) literal(lit string) bool {
	d.space()
	if len(d.data)-d.pos < len(lit) {
		return false
	}
	for i := 0; i < len(lit); i++ {
		if d.data[d.pos+i] != lit[i] {
			return false
		}
	}
	d.pos += len(lit)
	return true
}

// object reads an object, calling member with each key once the decoder
// stands before its value; member reads the value.
func (d *fastDecoder) object(member func(key []byte) bool) bool {
	d.space()
	if d.pos >= len(d.data) || d.data[d.pos] != '{' {
		return false
	}
	d.pos++
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return true
	}
	for {
		d.space()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return false
		}
		key, ok := d.key()
		if !ok {
			return false
		}
		d.space()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return false
		}
		d.pos++
		if !member(key) {
			return false
		}
		if more, ok := d.next('}'); !ok || !more {
			return ok
		}
	}
}

// key reads an object key without escapes; a key with one goes to
// encoding/json.
func (d *fastDecoder) key() ([]byte, bool) {
	i := d.pos + 1
	for i < len(d.data) {
		c := d.data[i]
		switch {
		case c == '"':
			k := d.data[d.pos+1 : i]
			d.pos = i + 1
			return k, true
		case c == '\\' || c < 0x20:
			return nil, false
		}
		i++
	}
	return nil, false
}

// value skips one JSON value, checking its syntax, and returns its bytes.
func (d *fastDecoder) value(depth int) ([]byte, bool) {
	if depth > maxFastDepth {
		return nil, false
	}
	d.space()
	if d.pos >= len(d.data) {
		return nil, false
	}
	start := d.pos
	ok := false
	switch c := d.data[d.pos]; {
	case c == '"':
		ok = d.skipString()
	case c == '{':
		ok = d.object(func([]byte) bool {
			_, ok := d.value(depth + 1)
			return ok
		})
	case c == '[':
		ok = d.array(func() bool {
			_, ok := d.value(depth + 1)
			return ok
		})
	case c == 't':
		ok = d.literal("true")
	case c == 'f':
		ok = d.literal("false")
	case c == 'n':
		ok = d.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		_, ok = d.number()
	}
	return d.data[start:d.pos], ok
}

// next reads what follows a member or element of an object or array
// closed by end: a comma (more follow) or end itself. ok is false on
// anything else.
func (d *fastDecoder) next(end byte) (more, ok bool) {
	d.space()
	if d.pos >= len(d.data) {
		return false, false
	}
	switch d.data[d.pos] {
	case ',':
		d.pos++
		return true, true
	case end:
		d.pos++
		return false, true
	}
	return false, false
}

// array reads an array, calling elem before each element; elem reads it.
func (d *fastDecoder) array(elem func() bool) bool {
	d.space()
	if d.pos >= len(d.data) || d.data[d.pos] != '[' {
		return false
	}
	d.pos++
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return true
	}
	for {
		if !elem() {
			return false
		}
		if more, ok := d.next(']'); !ok || !more {
			return ok
		}
	}
}

// number reads a JSON number and reports whether it is an integer (no
// fraction, no exponent).
func (d *fastDecoder) number() (integer, ok bool) {
	i := d.pos
	if i < len(d.data) && d.data[i] == '-' {
		i++
	}
	switch {
	case i < len(d.data) && d.data[i] == '0':
		i++
	case i < len(d.data) && '1' <= d.data[i] && d.data[i] <= '9':
		for i < len(d.data) && isASCIIDigit(d.data[i]) {
			i++
		}
	default:
		return false, false
	}
	integer = true
	if i < len(d.data) && d.data[i] == '.' {
		integer = false
		i++
		if i >= len(d.data) || !isASCIIDigit(d.data[i]) {
			return false, false
		}
		for i < len(d.data) && isASCIIDigit(d.data[i]) {
			i++
		}
	}
	if i < len(d.data) && (d.data[i] == 'e' || d.data[i] == 'E') {
		integer = false
		i++
		if i < len(d.data) && (d.data[i] == '+' || d.data[i] == '-') {
			i++
		}
		if i >= len(d.data) || !isASCIIDigit(d.data[i]) {
			return false, false
		}
		for i < len(d.data) && isASCIIDigit(d.data[i]) {
			i++
		}
	}
	d.pos = i
	return integer, true
}

func isASCIIDigit(c byte) bool { return '0' <= c && c <= '9' }

// int reads an integer or null (which leaves *p as it is).
func (d *fastDecoder) int(p *int) bool {
	if d.literal("null") {
		return true
	}
	v, ok := d.intValue()
	if ok {
		*p = v
	}
	return ok
}

// intPtr reads an integer into a new int, or null into nil.
func (d *fastDecoder) intPtr(p **int) bool {
	if d.literal("null") {
		*p = nil
		return true
	}
	v, ok := d.intValue()
	if ok {
		*p = &v
	}
	return ok
}

func (d *fastDecoder) intValue() (int, bool) {
	d.space()
	start := d.pos
	integer, ok := d.number()
	if !ok || !integer {
		return 0, false
	}
	v, err := strconv.ParseInt(string(d.data[start:d.pos]), 10, 0)
	return int(v), err == nil
}

// string reads a string, or null (which leaves *p as it is). *p gets its
// text when the line is settled.
func (d *fastDecoder) string(p *string) bool {
	if d.literal("null") {
		return true
	}
	start, end, ok := d.str()
	if ok {
		d.keep(p, start, end)
	}
	return ok
}

// strings reads an array of strings, or null into nil. An empty array is an
// empty, non-nil slice, as encoding/json makes it.
func (d *fastDecoder) strings(p *[]string) bool {
	if d.literal("null") {
		*p = nil
		return true
	}
	first := len(d.pending)
	ok := d.array(func() bool {
		d.space()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return false // null or another type inside: encoding/json decides
		}
		start, end, ok := d.str()
		d.keep(nil, start, end)
		return ok
	})
	if !ok {
		return false
	}
	// The elements' places exist only now that their number is known.
	out := make([]string, len(d.pending)-first)
	for i := range out {
		d.pending[first+i].p = &out[i]
	}
	*p = out
	return true
}

// remedies reads an object of string arrays, or null into nil. A key
// given twice goes to encoding/json, which keeps the later value.
func (d *fastDecoder) remedies(p *map[string][]string) bool {
	if d.literal("null") {
		*p = nil
		return true
	}
	m := map[string][]string{}
	ok := d.object(func(key []byte) bool {
		k := string(key)
		if _, dup := m[k]; dup {
			return false
		}
		var v []string
		if !d.strings(&v) {
			return false
		}
		m[k] = v
		return true
	})
	if ok {
		*p = m
	}
	return ok
}

// skipString steps over a string, checking its escapes.
func (d *fastDecoder) skipString() bool {
	_, _, ok := d.scanString(false)
	return ok
}

// str reads a string value into the arena.
func (d *fastDecoder) str() (start, end int, ok bool) {
	d.space()
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		return 0, 0, false
	}
	return d.scanString(true)
}

// scanString reads the string that starts at d.pos; with keep it appends
// the unescaped text to the arena and returns where it is there.
func (d *fastDecoder) scanString(keep bool) (start, end int, ok bool) {
	start = len(d.arena)
	i := d.pos + 1
	// The common case: no escape.
	for i < len(d.data) {
		c := d.data[i]
		if c == '"' {
			if keep {
				d.arena = append(d.arena, d.data[d.pos+1:i]...)
			}
			d.pos = i + 1
			return start, len(d.arena), true
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return 0, 0, false
		}
		i++
	}
	// With an escape the text is unescaped into the arena even when it
	// is not kept, and dropped again at the end.
	buf := append(d.arena, d.data[d.pos+1:i]...)
	for i < len(d.data) {
		c := d.data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			if keep {
				d.arena = buf
			}
			return start, len(buf), true
		case c < 0x20:
			return 0, 0, false
		case c != '\\':
			buf = append(buf, c)
			i++
			continue
		}
		if i+1 >= len(d.data) {
			return 0, 0, false
		}
		switch e := d.data[i+1]; e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := hex4(d.data[i+2:])
			if !ok {
				return 0, 0, false
			}
			i += 6
			if utf16.IsSurrogate(r) {
				// Only a proper pair is decoded here; encoding/json
				// turns a lone surrogate into U+FFFD.
				if i+1 >= len(d.data) || d.data[i] != '\\' || d.data[i+1] != 'u' {
					return 0, 0, false
				}
				r2, ok := hex4(d.data[i+2:])
				if !ok {
					return 0, 0, false
				}
				r = utf16.DecodeRune(r, r2)
				if r == utf8.RuneError {
					return 0, 0, false
				}
				i += 6
			}
			buf = utf8.AppendRune(buf, r)
			continue
		default:
			return 0, 0, false
		}
		i += 2
	}
	return 0, 0, false
}

// hex4 reads four hexadecimal digits.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
