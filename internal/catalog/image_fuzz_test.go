package catalog

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// seedImageFile is the image file of a small catalog, by build "b" for key
// "k", with one problem.
func seedImageFile(tb testing.TB) []byte {
	tb.Helper()
	recs, probs := patterns.LoadOptions{}.Parse(bytes.NewReader([]byte(cacheCatalog)), "seed.jsonl")
	m, more := Compile(recs, nil)
	var b bytes.Buffer
	left := []patterns.Record{{ID: "c3", MessagePattern: "^(a+)+$", Origin: patterns.Origin{File: "seed.jsonl", Line: 3}}}
	if err := writeImage(&b, image{m: m, problems: append(probs, more...), left: left}, "b", "k"); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// TestWriteImageFileSeeds writes FuzzDecodeImage's committed seed when
// LOGMATCH_WRITE_IMAGE_SEEDS is set (after a change of the layout).
func TestWriteImageFileSeeds(t *testing.T) {
	if os.Getenv("LOGMATCH_WRITE_IMAGE_SEEDS") == "" {
		t.Skip("set LOGMATCH_WRITE_IMAGE_SEEDS to rewrite testdata/fuzz/FuzzDecodeImage")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzDecodeImage")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	seed := "go test fuzz v1\n[]byte(" + strconv.Quote(string(seedImageFile(t))) + ")\n"
	if err := os.WriteFile(filepath.Join(dir, "image"), []byte(seed), 0o644); err != nil {
		t.Fatal(err)
	}
}

// FuzzDecodeImage: an image file's decoder never panics; what it accepts
// searches without panicking.
func FuzzDecodeImage(f *testing.F) {
	f.Add(seedImageFile(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		b := make([]byte, len(data))
		copy(b, data)
		img, err := decodeImage(b, "b", "k")
		if err != nil {
			return
		}
		m := img.m
		for _, p := range img.problems {
			_ = p.Error()
		}
		for _, text := range imageTexts {
			m.Match(matcher.Subject{Text: text})
		}
		m.Records()
	})
}
