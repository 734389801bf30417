package sinks

import (
	"fmt"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// DecodeStrict decodes the YAML mapping n into v (a pointer to a struct
// with yaml tags), rejecting keys v has no field for, at any depth. It is
// what a sink package's Config.UnmarshalYAML calls, so each integration
// owns the strict decoding of its own keys.
//
// Problems come back as one *yaml.TypeError with a "line N: ..." message
// each, in the decoder's own form: the enclosing decoder merges them with
// its own, and a loader can place them in the file. Unknown keys read
// "line N: field K not found in type T", as the decoder's KnownFields
// mode says it.
func DecodeStrict(n *yaml.Node, v any) error {
	var msgs []string
	unknownKeys(n, reflect.TypeOf(v), 0, &msgs)
	err := n.Decode(v)
	if te, ok := err.(*yaml.TypeError); ok {
		msgs = append(msgs, te.Errors...)
	} else if err != nil {
		msgs = append(msgs, fmt.Sprintf("line %d: %v", n.Line, err))
	}
	if len(msgs) > 0 {
		return &yaml.TypeError{Errors: msgs}
	}
	return nil
}

var unmarshalerType = reflect.TypeFor[yaml.Unmarshaler]()

// maxDecodeDepth bounds the walk over nested or aliased nodes.
const maxDecodeDepth = 16

func unknownKeys(n *yaml.Node, t reflect.Type, depth int, msgs *[]string) {
	if depth > maxDecodeDepth || n == nil {
		return
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return // the type decodes, and checks, its own keys
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return // the decoder reports the type mismatch
		}
		fields := yamlFields(t)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			ft, ok := fields[k.Value]
			if !ok {
				msg := fmt.Sprintf("line %d: field %s not found in type %s", k.Line, k.Value, t.String())
				known := make([]string, 0, len(fields))
				for name := range fields {
					known = append(known, name)
				}
				if s := Suggest(k.Value, known); s != "" {
					msg += " (did you mean " + s + "?)"
				}
				*msgs = append(*msgs, msg)
				continue
			}
			unknownKeys(n.Content[i+1], ft, depth+1, msgs)
		}
	case reflect.Map:
		if n.Kind == yaml.MappingNode {
			for i := 1; i < len(n.Content); i += 2 {
				unknownKeys(n.Content[i], t.Elem(), depth+1, msgs)
			}
		}
	case reflect.Slice:
		if n.Kind == yaml.SequenceNode {
			for _, c := range n.Content {
				unknownKeys(c, t.Elem(), depth+1, msgs)
			}
		}
	}
}

// yamlFields maps the YAML keys of struct t to their field types, as the
// yaml package names them: the tag's name, or the lower-cased field name.
func yamlFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("yaml")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if strings.Contains(","+opts+",", ",inline,") {
			for k, v := range yamlFields(f.Type) {
				out[k] = v
			}
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out[name] = f.Type
	}
	return out
}

// Suggest returns the known key closest to key, for a "did you mean"
// after an unknown key: within two edits, or "" when none is that close.
func Suggest(key string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := EditDistance(key, k); d < bestD || (d == bestD && best != "" && k < best) {
			best, bestD = k, d
		}
	}
	if bestD > 2 || bestD >= len(key) {
		return ""
	}
	return best
}

// EditDistance is the Levenshtein distance of a and b, in bytes: what the
// "did you mean" of a mistyped configuration key or flag is chosen by.
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
