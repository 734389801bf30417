package gen

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// FuzzTreeParsers feeds arbitrary text to what Check parses besides
// Python: pyproject files, pip commands in advice, server argument files,
// and the catalog lines --write rewrites. None may panic; names come out
// normalized; a rewritten object is valid JSON holding the pin.
func FuzzTreeParsers(f *testing.F) {
	for _, name := range []string{"../../testdata/sglang-tree/python/pyproject.toml", "../../testdata/sglang-tree/python/sglang/srt/server_args.py", "testdata/check.jsonl"} {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(string(b))
		}
	}
	f.Add(`{"record":{"id":"a","filePath":null},"datasetVersion":"2"}`)
	f.Add("requires = [\"a>=1\", 'b @ git+https://x', \"c[x] ; y\"]\n[project]\ndependencies = [\n \"d\", # e\n]")
	f.Add(` "sglang[all]==<your version>" (or x) -r r.txt . y`)
	f.Fuzz(func(t *testing.T, s string) {
		for _, n := range pyprojectNames(s) {
			if n != NormalizePackage(n) || n == "" {
				t.Fatalf("name %q is not normalized", n)
			}
		}
		for _, n := range pipNames(s) {
			if n == "" || strings.ContainsAny(n, " \t\n/") {
				t.Fatalf("pip name %q", n)
			}
		}
		tr := &Tree{Flags: map[string]Flag{}, Envs: map[string]string{}}
		tr.readFlags("python/sglang/srt/server_args.py", s)
		tr.readEnvs(s)
		out, err := pinObject([]byte(s), Pin{FilePath: "p.py", LineNumber: 2, GithubURL: "u", AnalyzedSha: "s"})
		if err != nil {
			return
		}
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("pinObject(%q) = %q, not JSON: %v", s, out, err)
		}
	})
}
