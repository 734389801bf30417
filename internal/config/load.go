package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/logmatch/logmatch/sinks"
)

// index maps the key path of every value in a YAML file ("entry.max_lines",
// "sinks[1].url") to the lines of its key and value, so problems found
// after decoding can still name the line they come from.
type index struct {
	file string
	// parsed says the file is a YAML mapping of settings (or empty): its
	// keys decoded as far as their problems allow.
	parsed bool

	keys   map[string]int // path to the line of its key (or sequence item)
	values map[string]pos // path to the position of its value
	order  []string       // paths in document order
}

// maxDepth bounds the walk over nested (or aliased) nodes; the
// configuration is four levels deep.
const maxDepth = 32

func newIndex(file string, doc *yaml.Node) *index {
	ix := &index{file: file, keys: map[string]int{}, values: map[string]pos{}}
	if doc != nil && doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		ix.walk("", doc.Content[0], 0)
	}
	return ix
}

// pos is a node's line and column, both 1-based, and whether it is empty:
// an empty sequence or mapping, or null.
type pos struct {
	line, col int
	empty     bool
}

func (ix *index) add(path string, keyLine int, value *yaml.Node) {
	if _, dup := ix.keys[path]; !dup {
		ix.order = append(ix.order, path)
	}
	empty := value.ShortTag() == "!!null" ||
		((value.Kind == yaml.SequenceNode || value.Kind == yaml.MappingNode) && len(value.Content) == 0)
	ix.keys[path], ix.values[path] = keyLine, pos{value.Line, value.Column, empty}
}

func (ix *index) walk(path string, n *yaml.Node, depth int) {
	if depth > maxDepth {
		return
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := k.Value
			if path != "" {
				p = path + "." + k.Value
			}
			ix.add(p, k.Line, v)
			ix.walk(p, v, depth+1)
		}
	case yaml.SequenceNode:
		for i, v := range n.Content {
			p := path + "[" + strconv.Itoa(i) + "]"
			ix.add(p, v.Line, v)
			ix.walk(p, v, depth+1)
		}
	}
}

// empty reports whether the file sets path to an empty list or map, or to
// null.
func (ix *index) empty(path string) bool {
	v, ok := ix.values[path]
	return ok && v.empty
}

// has reports whether the file sets path.
func (ix *index) has(path string) bool {
	_, ok := ix.keys[path]
	return ok
}

// parent strips the last element of a key path: "a.b[2].c" -> "a.b[2]" ->
// "a.b" -> "a" -> "".
func parent(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}

var (
	lineMsgRE  = regexp.MustCompile(`^(?:yaml: )?line (\d+): (?:column (\d+): )?(.*)$`)
	unknownRE  = regexp.MustCompile(`^field (.+) not found in type \S+(?: \((.*)\))?$`)
	typeNameRE = regexp.MustCompile(`\b(?:config|patterns)\.`)
	quotedRE   = regexp.MustCompile("`[^`]*`")
)

// decodeFile decodes data (the file named name) onto cfg, after
// replacing ${VAR} references with getenv's values, and returns the file's
// index and every problem, each as "name:line: path: message".
func decodeFile(name string, data []byte, cfg *Config, getenv func(string) string) (*index, []error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	err := dec.Decode(&doc)
	if errors.Is(err, io.EOF) {
		ix := newIndex(name, nil) // empty file: all defaults
		ix.parsed = true
		return ix, nil
	}
	if err != nil {
		return newIndex(name, nil), placeYAMLErrors(newIndex(name, nil), err)
	}
	ix := newIndex(name, &doc)
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		line := 1
		if len(doc.Content) > 0 {
			line = doc.Content[0].Line
			if doc.Content[0].ShortTag() == "!!null" {
				ix.parsed = true // only comments: all defaults
				return ix, nil
			}
		}
		return ix, []error{fmt.Errorf("%s:%d: want a mapping of settings at the top level", name, line)}
	}
	ix.parsed = true
	var errs []error
	substitute(ix, "", doc.Content[0], getenv, 0, &errs)
	if err := sinks.DecodeStrict(doc.Content[0], cfg); err != nil {
		errs = append(errs, placeYAMLErrors(ix, err)...)
	}

	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		errs = append(errs, fmt.Errorf("%s:%d: a second YAML document; the config is one document", name, extra.Line))
	}
	return ix, errs
}

// envRefRE is a ${VAR} or ${env:VAR} reference, or the $$ escape.
var envRefRE = regexp.MustCompile(`\$\$|\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}|\$\{[^}]*\}?`)

// substitute replaces ${VAR} and ${env:VAR} in every scalar value under n
// (keys are left alone) with the variable's value, and $$ with $. An
// unset variable or a malformed reference is a problem of the value's
// key. A plain scalar is retyped after substitution, so "port: ${PORT}"
// decodes as a number.
func substitute(ix *index, path string, n *yaml.Node, getenv func(string) string, depth int, errs *[]error) {
	if depth > maxDepth {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			p := n.Content[i].Value
			if path != "" {
				p = path + "." + p
			}
			substitute(ix, p, n.Content[i+1], getenv, depth+1, errs)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			substitute(ix, path+"["+strconv.Itoa(i)+"]", c, getenv, depth+1, errs)
		}
	case yaml.ScalarNode:
		if !strings.Contains(n.Value, "$") {
			return
		}
		changed := false
		out := envRefRE.ReplaceAllStringFunc(n.Value, func(ref string) string {
			changed = true
			if ref == "$$" {
				return "$"
			}
			m := envRefRE.FindStringSubmatch(ref)
			if m[1] == "" {
				*errs = append(*errs, keyed(path, fmt.Errorf("%s:%d: %s: bad reference %q: want ${VAR} or ${env:VAR} (write $$ for a literal $)", ix.file, n.Line, path, ref)))
				return ref
			}
			v := getenv(m[1])
			if v == "" {
				*errs = append(*errs, keyed(path, fmt.Errorf("%s:%d: %s: environment variable %s is unset or empty", ix.file, n.Line, path, m[1])))
			}
			return v
		})
		if changed {
			n.Value = out
			if n.Style == 0 {
				n.Tag = "" // resolved again from the new text
			}
		}
	}
}

// placeYAMLErrors rewrites the decoder's "line N: message" errors into
// "file:N: key.path: message", one error per problem, so they can be
// sorted by line with the others.
func placeYAMLErrors(ix *index, err error) []error {
	var te *yaml.TypeError
	var msgs []string
	if errors.As(err, &te) {
		msgs = te.Errors
	} else {
		msgs = []string{err.Error()}
	}
	var out []error
	for _, m := range msgs {
		out = append(out, ix.place(m))
	}
	return out
}

func (ix *index) place(msg string) error {
	m := lineMsgRE.FindStringSubmatch(msg)
	if m == nil {
		return fmt.Errorf("%s: %s", ix.file, strings.TrimPrefix(msg, "yaml: "))
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2]) // 0 when the message has no column
	text := typeNameRE.ReplaceAllString(m[3], "")
	if u := unknownRE.FindStringSubmatch(m[3]); u != nil {
		msg := "unknown key"
		if u[2] != "" {
			msg += " (" + u[2] + ")"
		}
		for _, p := range ix.order {
			if ix.keys[p] == line && (p == u[1] || strings.HasSuffix(p, "."+u[1])) {
				return keyed(p, fmt.Errorf("%s:%d: %s: %s", ix.file, line, p, msg))
			}
		}
		return keyed(u[1], fmt.Errorf("%s:%d: %s: %s", ix.file, line, u[1], msg))
	}
	// The message is about the value at the column when it names one, else
	// about the deepest value on the line.
	best := ""
	for _, p := range ix.order {
		v := ix.values[p]
		if v.line == line && (col == 0 || v.col == col) && len(p) >= len(best) {
			best = p
		}
	}
	if best == "" || best == "sinks" || strings.HasPrefix(best, "sinks[") {
		// A value misplaced in a sink may be a webhook URL or a token
		// (a header given as a string, a URL as a list item): never quote
		// it back.
		text = quotedRE.ReplaceAllString(text, "`"+redacted+"`")
	}
	if best == "" {
		return fmt.Errorf("%s:%d: %s", ix.file, line, text)
	}
	return keyed(best, fmt.Errorf("%s:%d: %s: %s", ix.file, line, best, text))
}

// sortProblems orders the problems of the file by line, so they read top
// to bottom however they were found; problems without a line (flags,
// derived settings) follow in the order they were found.
func sortProblems(file string, errs []error) {
	line := func(err error) int {
		rest, ok := strings.CutPrefix(err.Error(), file+":")
		if !ok || file == "" {
			return int(^uint(0) >> 1)
		}
		digits, _, ok := strings.Cut(rest, ":")
		n, err2 := strconv.Atoi(digits)
		if !ok || err2 != nil {
			return int(^uint(0) >> 1)
		}
		return n
	}
	sort.SliceStable(errs, func(i, j int) bool { return line(errs[i]) < line(errs[j]) })
}
