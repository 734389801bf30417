package gen_test

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/logmatch/logmatch/internal/gen"
)

// BenchmarkGenerate measures Generate plus Write over both fixture trees
// held in memory, so the number is the tokenizer and extractor, not the
// disk.
func BenchmarkGenerate(b *testing.B) {
	fsys := fstest.MapFS{}
	var size int64
	for _, tree := range []string{"src", "sglang"} {
		root := filepath.Join("testdata", tree)
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel("testdata", p)
			fsys[filepath.ToSlash(rel)] = &fstest.MapFile{Data: data}
			size += int64(len(data))
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		recs, _, err := gen.Generate(fsys, gen.Options{Repo: "sgl-project/sglang"})
		if err != nil {
			b.Fatal(err)
		}
		if err := gen.Write(io.Discard, recs); err != nil {
			b.Fatal(err)
		}
	}
}
