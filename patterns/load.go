package patterns

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/logmatch/logmatch/patterns/catalog"
)

// EmbeddedPrefix starts the Origin.File of every record of the built-in
// catalog, as in "embedded:sglang.jsonl".
const EmbeddedPrefix = "embedded:"

// LoadOptions tune the loads: Load, LoadFile, LoadFS, Parse and Default
// are these methods with the zero LoadOptions.
type LoadOptions struct {
	// Parsed, when set, reports messagePatterns already known to parse
	// with this build's regexp2 (a matcher.Facts of an earlier load of
	// this build says so). Their parse is skipped, which is most of a
	// load's CPU, and their records keep no parse tree. Every other
	// check of the record is made as usual.
	Parsed func(expr string) bool
}

// LoadFile parses one catalog file. A file that cannot be opened is one
// problem with no line.
func LoadFile(name string) ([]Record, []Problem) { return LoadOptions{}.LoadFile(name) }

// LoadFile is the package's LoadFile with these options.
func (o LoadOptions) LoadFile(name string) ([]Record, []Problem) {
	recs, probs := o.loadFile(name)
	return refuseDuplicates(recs, probs)
}

// loadFile is LoadFile without the duplicate check, which Load makes
// once over all its files.
func (o LoadOptions) loadFile(name string) ([]Record, []Problem) {
	f, err := os.Open(name)
	if err != nil {
		return nil, []Problem{fileProblem(name, "cannot open", err)}
	}
	defer f.Close()
	return o.parse(f, name)
}

// Load parses the given files and directories in order. A directory
// contributes every *.jsonl and *.json file below it, recursively, sorted by
// path; names starting with "." (editor and VCS leftovers) are skipped. A file
// named explicitly is loaded whatever its extension.
//
// Records from all files are returned in order. An id seen before within
// the same call is an error naming both places, and the later record is
// left out: two records of one catalog with one id are a mistake, and
// letting either win silently would hide the other. Use Merge to lay one
// load (a user's catalog) over another (the defaults) on purpose.
func Load(paths ...string) ([]Record, []Problem) { return LoadOptions{}.Load(paths...) }

// Load is the package's Load with these options.
func (o LoadOptions) Load(paths ...string) ([]Record, []Problem) {
	var recs []Record
	var probs []Problem
	for _, p := range paths {
		files, walkProbs := catalogFiles(p)
		probs = append(probs, walkProbs...)
		for _, f := range files {
			r, pr := o.loadFile(f)
			if recs == nil {
				recs = r // the usual one file: its records, not a copy (560 bytes each)
			} else {
				recs = append(recs, r...)
			}
			probs = append(probs, pr...)
		}
	}
	return refuseDuplicates(recs, probs)
}

// catalogFiles expands one Load argument into the files to parse.
func catalogFiles(root string) ([]string, []Problem) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, []Problem{fileProblem(root, "cannot open", err)}
	}
	if !info.IsDir() {
		return []string{root}, nil
	}
	var files []string
	var probs []Problem
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			probs = append(probs, fileProblem(p, "cannot read", err))
			return nil
		}
		if p != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() && isCatalogName(d.Name()) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		probs = append(probs, fileProblem(root, "cannot read", err))
	}
	slices.Sort(files)
	return files, probs
}

// LoadFS parses every *.jsonl and *.json file of fsys, recursively, sorted by
// path, naming each origin prefix+path. Duplicate ids are refused as in
// Load. Default uses it on the embedded
// catalog; tests can use it with fstest.MapFS.
func LoadFS(fsys fs.FS, prefix string) ([]Record, []Problem) {
	return LoadOptions{}.LoadFS(fsys, prefix)
}

// LoadFS is the package's LoadFS with these options.
func (o LoadOptions) LoadFS(fsys fs.FS, prefix string) ([]Record, []Problem) {
	var names []string
	var probs []Problem
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			probs = append(probs, fileProblem(prefix+p, "cannot read", err))
			return nil
		}
		if !d.IsDir() && isCatalogName(d.Name()) && !strings.HasPrefix(d.Name(), ".") {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		probs = append(probs, fileProblem(prefix+".", "cannot read", err))
	}
	slices.Sort(names)
	var recs []Record
	for _, n := range names {
		f, err := fsys.Open(n)
		if err != nil {
			probs = append(probs, fileProblem(prefix+n, "cannot open", err))
			continue
		}
		r, pr := o.parse(f, prefix+n)
		_ = f.Close() // read-only: a close error loses nothing
		recs = append(recs, r...)
		probs = append(probs, pr...)
	}
	return refuseDuplicates(recs, probs)
}

// Default returns the catalog embedded in the binary (package
// patterns/catalog), with origins like "embedded:sglang.jsonl". Its problems
// are normally empty; a non-empty result means a broken build, and the
// records that did load are still usable.
func Default() ([]Record, []Problem) { return LoadOptions{}.Default() }

// Default is the package's Default with these options.
func (o LoadOptions) Default() ([]Record, []Problem) {
	return o.LoadFS(catalog.FS(), EmbeddedPrefix)
}

func isCatalogName(name string) bool {
	ext := path.Ext(name)
	return ext == ".jsonl" || ext == ".json"
}

// fileProblem reports a file that could not be opened or listed. The path is
// already the problem's place, so only the cause of a PathError is kept.
func fileProblem(name, what string, err error) Problem {
	cause := err
	var pe *fs.PathError
	if errors.As(err, &pe) {
		cause = pe.Err
	}
	return Problem{File: name, Message: what + ": " + cause.Error(), Err: err}
}

// Merge returns base with overrides applied: a record whose id was seen
// before replaces the earlier one in its place, a new id is appended. Order
// is otherwise kept, and later duplicates within base replace earlier ones
// the same way, so the result has unique ids. Neither input is modified;
// when base is empty and overrides has unique ids, the result is overrides
// itself rather than a copy.
//
// Typical use: recs := Merge(defaults, userRecords), so a user's catalog can
// fix or silence (by an override that never matches) a built-in record.
func Merge(base, overrides []Record) []Record {
	at := make(map[string]int, len(base)+len(overrides))
	if len(base) == 0 && len(overrides) > 0 && uniqueIDs(overrides, at) {
		return overrides
	}
	clear(at)
	out := make([]Record, 0, len(base)+len(overrides))
	for _, list := range [][]Record{base, overrides} {
		for _, r := range list {
			if i, ok := at[r.ID]; ok {
				out[i] = r
				continue
			}
			at[r.ID] = len(out)
			out = append(out, r)
		}
	}
	return out
}

// uniqueIDs reports whether no two records share an id, noting each in
// seen.
func uniqueIDs(recs []Record, seen map[string]int) bool {
	for i := range recs {
		if _, dup := seen[recs[i].ID]; dup {
			return false
		}
		seen[recs[i].ID] = i
	}
	return true
}

// refuseDuplicates leaves out every record whose id an earlier record of
// recs has, adding to probs an error at the later record that names both
// places. recs is filtered in place only when it has a duplicate.
func refuseDuplicates(recs []Record, probs []Problem) ([]Record, []Problem) {
	first := make(map[string]int, len(recs))
	out := recs[:0:0]
	dup := false
	for i := range recs {
		j, seen := first[recs[i].ID]
		if !seen {
			first[recs[i].ID] = i
			if dup {
				out = append(out, recs[i])
			}
			continue
		}
		if !dup {
			dup = true
			out = append(make([]Record, 0, len(recs)-1), recs[:i]...)
		}
		probs = append(probs, Problem{File: recs[i].Origin.File, Line: recs[i].Origin.Line, Field: "id",
			Message: fmt.Sprintf("duplicate id %q: defined at %s and again here; this record is not loaded", recs[i].ID, recs[j].Origin)})
	}
	if !dup {
		return recs, probs
	}
	return out, probs
}
