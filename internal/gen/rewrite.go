package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/logmatch/logmatch/patterns"
)

// Pin is what --write sets on one record: where its text is, and the
// link to it pinned to the tree's commit.
type Pin struct {
	FilePath    string
	LineNumber  int
	GithubURL   string
	AnalyzedSha string
}

// Pins turns a CheckResult's found records into the pins to write: each
// record of recs found in the tree gets its place there and a githubUrl
// of repo at sha.
func Pins(recs []patterns.Record, res CheckResult, repo, sha string) map[patterns.Origin]Pin {
	out := make(map[patterns.Origin]Pin, len(res.Pins))
	for i, loc := range res.Pins {
		r := &recs[i]
		rp := repo
		if rp == "" {
			rp = r.Repo
		}
		out[r.Origin] = Pin{FilePath: loc.File, LineNumber: loc.Line, AnalyzedSha: sha,
			GithubURL: fmt.Sprintf("https://github.com/%s/blob/%s/%s#L%d", rp, sha, loc.File, loc.Line)}
	}
	return out
}

// WritePins rewrites the catalog files the pins' records are in, each
// record's line in place: filePath, lineNumber, githubUrl and analyzedSha
// are set, every other key keeps its value and order, and lines without
// a pin are left byte for byte. Records of the embedded catalog cannot
// be written: load the catalog from its file instead. It returns the
// files it changed.
func WritePins(pins map[patterns.Origin]Pin) ([]string, error) {
	byFile := map[string]map[int]Pin{}
	for o, p := range pins {
		if strings.HasPrefix(o.File, patterns.EmbeddedPrefix) {
			return nil, fmt.Errorf("%s: the embedded catalog cannot be rewritten: name its file instead", o)
		}
		if byFile[o.File] == nil {
			byFile[o.File] = map[int]Pin{}
		}
		byFile[o.File][o.Line] = p
	}
	var files []string
	for f := range byFile {
		files = append(files, f)
	}
	slices.Sort(files)
	var changed []string
	for _, f := range files {
		ok, err := rewriteFile(f, byFile[f])
		if err != nil {
			return changed, err
		}
		if ok {
			changed = append(changed, f)
		}
	}
	return changed, nil
}

func rewriteFile(name string, pins map[int]Pin) (bool, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return false, err
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	changed := false
	for ln, p := range pins {
		if ln < 1 || ln > len(lines) {
			return false, fmt.Errorf("%s:%d: no such line", name, ln)
		}
		line := lines[ln-1]
		body := bytes.TrimRight(line, "\r\n")
		out, err := pinObject(body, p)
		if err != nil {
			return false, fmt.Errorf("%s:%d: %w", name, ln, err)
		}
		if !bytes.Equal(out, body) {
			lines[ln-1] = append(out, line[len(body):]...)
			changed = true
		}
	}
	if !changed {
		return false, nil
	}
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, bytes.Join(lines, nil), 0o644); err != nil {
		return false, err
	}
	if err := os.Rename(tmp, name); err != nil {
		return false, errors.Join(err, os.Remove(tmp))
	}
	return true, nil
}

// pinObject sets the pin's keys in one JSON object, or in its "record"
// when it is a wrapper, keeping the other keys in order.
func pinObject(raw []byte, p Pin) ([]byte, error) {
	keys, vals, err := objectMembers(raw)
	if err != nil {
		return nil, err
	}
	if i := slices.Index(keys, "record"); i >= 0 {
		inner, err := pinObject(vals[i], p)
		if err != nil {
			return nil, fmt.Errorf("record: %w", err)
		}
		vals[i] = inner
		return joinObject(keys, vals), nil
	}
	set := func(key string, v any) {
		b, _ := json.Marshal(v)
		if i := slices.Index(keys, key); i >= 0 {
			vals[i] = b
			return
		}
		keys = append(keys, key)
		vals = append(vals, b)
	}
	set("filePath", p.FilePath)
	set("lineNumber", p.LineNumber)
	set("githubUrl", p.GithubURL)
	set("analyzedSha", p.AnalyzedSha)
	return joinObject(keys, vals), nil
}

// objectMembers splits a JSON object into its keys and raw values.
func objectMembers(raw []byte) ([]string, []json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, errors.New("not a JSON object")
	}
	var keys []string
	var vals []json.RawMessage
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", k, err)
		}
		keys = append(keys, k)
		vals = append(vals, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, errors.New("data after the JSON object")
	}
	return keys, vals, nil
}

// joinObject writes the members back as a compact object, HTML
// characters unescaped, as the catalog files are written.
func joinObject(keys []string, vals []json.RawMessage) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vals[i])
	}
	b.WriteByte('}')
	return b.Bytes()
}
