package patterns

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// DefaultSeverity is the severity of a record whose severity is missing,
// null or not one of the four names. An unknown name is also reported as a
// warning: the record still loads, because dropping it would hide the
// failure it recognises, and "error" is what a catalog of errors means when
// it says nothing else.
const DefaultSeverity = SeverityError

// wrapper is the dataset's line form {"record": {...}, "datasetVersion": "..."}.
type wrapper struct {
	Record         json.RawMessage `json:"record"`
	DatasetVersion json.RawMessage `json:"datasetVersion"`
}

// decodeRecord decodes one wrapper or bare record and validates it. The
// problems it returns carry no file or line; the caller adds them.
// d is the fast decoder's scratch space, reused from line to line.
func decodeRecord(d *fastDecoder, raw []byte, parsed *patternTrees) (Record, []Problem) {
	var rec Record
	if d.decode(raw, &rec) {
		return rec, validate(&rec, parsed)
	}
	rec, probs := jsonDecodeRecord(raw)
	if probs != nil {
		return rec, probs
	}
	return rec, validate(&rec, parsed)
}

// patternTrees holds the parse of each pattern one Parse has validated, so
// a pattern several records share (a sixth of the generated catalog's) is
// parsed once and its records share the tree, which nothing changes. A nil
// *patternTrees keeps nothing and knows nothing.
type patternTrees struct {
	trees map[string]*parsedPattern
	// known is LoadOptions.Parsed: patterns it reports are not parsed.
	known func(expr string) bool
}

// tree is the parse kept for expr, or nil.
func (t *patternTrees) tree(expr string) *parsedPattern {
	if t == nil {
		return nil
	}
	return t.trees[expr]
}

// jsonDecodeRecord is decodeRecord's JSON step done by encoding/json, whose
// errors become the problems; nil problems mean the record decoded.
func jsonDecodeRecord(raw []byte) (Record, []Problem) {
	var rec Record
	var w wrapper
	if err := json.Unmarshal(raw, &w); err != nil {
		return rec, []Problem{jsonProblem(err, "")}
	}
	body := raw
	if w.Record != nil {
		body = w.Record
		if !isObject(body) {
			return rec, []Problem{{Field: "record", Message: "want object, got " + jsonKind(body)}}
		}
		if w.DatasetVersion != nil && !bytes.Equal(w.DatasetVersion, []byte("null")) {
			if err := json.Unmarshal(w.DatasetVersion, &rec.DatasetVersion); err != nil {
				return rec, []Problem{{Field: "datasetVersion", Message: "want string, got " + jsonKind(w.DatasetVersion)}}
			}
		}
	}
	dv := rec.DatasetVersion
	if err := json.Unmarshal(body, &rec); err != nil {
		return rec, []Problem{jsonProblem(err, "")}
	}
	rec.DatasetVersion = dv
	if bytes.Equal(rec.ErrorCode, []byte("null")) {
		rec.ErrorCode = nil
	}
	return rec, nil
}

// validate checks one record's own fields and normalises its severity.
func validate(rec *Record, parsed *patternTrees) []Problem {
	var probs []Problem
	if strings.TrimSpace(rec.ID) == "" {
		probs = append(probs, Problem{Field: "id", Message: "missing or empty"})
	}
	if strings.TrimSpace(rec.MessagePattern) == "" {
		probs = append(probs, Problem{Field: "messagePattern", Message: "missing or empty"})
	} else if parsed != nil && parsed.known != nil && parsed.known(rec.MessagePattern) {
		// Known to parse: no tree is kept, and the one consumer that
		// wants it (matcher.Compile) has it from the same facts.
	} else if pp := parsed.tree(rec.MessagePattern); pp != nil {
		rec.parse = pp
	} else if tree, err := parseTree(rec.MessagePattern); err != nil {
		// Parsing is the part of regexp2.Compile that can reject a
		// pattern (its code writer fails only on node types its own
		// parser never makes), so the program itself is left for the
		// matcher to build when the pattern is first tried.
		probs = append(probs, Problem{Field: "messagePattern", Message: "does not compile: " + err.Error(), Err: err})
	} else {
		rec.parse = &parsedPattern{expr: rec.MessagePattern, tree: tree}
		if parsed != nil {
			parsed.trees[rec.MessagePattern] = rec.parse
		}
	}
	if rec.Severity == "" {
		rec.Severity = DefaultSeverity
	} else if sev, err := ParseSeverity(string(rec.Severity)); err != nil {
		probs = append(probs, Problem{Field: "severity", Level: LevelWarning,
			Message: fmt.Sprintf("%v; loaded as %q", err, DefaultSeverity), Err: err})
		rec.Severity = DefaultSeverity
	} else {
		rec.Severity = sev
	}
	if rec.IntroducedIn != "" || rec.RemovedIn != "" {
		probs = append(probs, validateVersions(rec)...)
	}
	if len(rec.Remedies) > 0 || len(rec.Engines) > 0 {
		probs = append(probs, validateEngines(rec)...)
	}
	if rec.Role != "" {
		// An empty role stays empty (a cause), so records round-trip
		// as written.
		if role, err := ParseRole(string(rec.Role)); err != nil {
			probs = append(probs, Problem{Field: "role", Level: LevelWarning,
				Message: fmt.Sprintf("%v; loaded as %q", err, RoleCause), Err: err})
			rec.Role = ""
		} else {
			rec.Role = role
		}
	}
	return probs
}

// jsonProblem turns an encoding/json error into a problem that names the
// field and the JSON types involved, or the byte where the syntax broke.
func jsonProblem(err error, field string) Problem {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return Problem{Message: fmt.Sprintf("invalid JSON at byte %d: %s", se.Offset, jsonSyntax(se)), Err: err}
	case errors.As(err, &te):
		if te.Field == "" {
			return Problem{Field: field, Message: "want object, got " + te.Value, Err: err}
		}
		return Problem{Field: te.Field, Message: typeMessage(te), Err: err}
	}
	return Problem{Field: field, Message: "invalid JSON: " + err.Error(), Err: err}
}

// jsonSyntax is encoding/json's syntax message without the character it
// quotes, unless that is JSON punctuation: a file that is not JSON at all
// (a YAML secret given by mistake) would otherwise have the first
// character of each of its lines printed.
func jsonSyntax(err error) string {
	msg := err.Error()
	const prefix = "invalid character "
	if !strings.HasPrefix(msg, prefix) {
		return msg
	}
	rest := msg[len(prefix):]
	quoted := rest
	if i := strings.Index(rest, "' "); i >= 0 {
		quoted, rest = rest[:i+1], rest[i+1:]
	} else {
		rest = ""
	}
	switch quoted {
	case "'{'", "'}'", "'['", "']'", "':'", "','", "'\"'":
		return msg
	}
	return "unexpected character" + rest
}

// typeMessage says what a field wants in JSON terms. For an element of an
// array field the error names the element type, so the field's own type is
// looked up to say "array of strings".
func typeMessage(te *json.UnmarshalTypeError) string {
	if ft, ok := recordFieldType(te.Field); ok && ft.Kind() == reflect.Slice && ft.Elem() == te.Type {
		return fmt.Sprintf("want %s, got an array holding a %s", typeName(ft), te.Value)
	}
	return fmt.Sprintf("want %s, got %s", typeName(te.Type), te.Value)
}

// recordFieldType returns the Go type of the Record field with that JSON name.
func recordFieldType(jsonName string) (reflect.Type, bool) {
	t := reflect.TypeFor[Record]()
	for i := range t.NumField() {
		sf := t.Field(i)
		if tag, _, _ := strings.Cut(sf.Tag.Get("json"), ","); tag == jsonName {
			return sf.Type, true
		}
	}
	return nil, false
}

// typeName names a Go type by the JSON value that decodes into it.
func typeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return typeName(t.Elem())
	case reflect.String:
		return "string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice, reflect.Array:
		return "array of " + typeName(t.Elem()) + "s"
	}
	return "object"
}

func isObject(raw []byte) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

// jsonKind names the kind of a valid JSON value by its first byte.
func jsonKind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}
