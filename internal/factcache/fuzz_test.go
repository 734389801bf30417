package factcache

import (
	"os"
	"testing"

	"github.com/logmatch/logmatch/matcher"
)

// FuzzDecodeFile reads invented fact files: an error, a miss or facts a
// Compile can use, never a panic. (The facts' own decoder has its fuzz
// target in package matcher; here the header and checksum are under test.)
func FuzzDecodeFile(f *testing.F) {
	d := &Dir{path: f.TempDir(), build: "build-1"}
	if err := d.Store("catalog", testFacts(f)); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(d.file("catalog"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(fileMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		facts, err := decodeFile(data, "build-1", "catalog")
		if err != nil || facts == nil {
			return
		}
		m, _ := matcher.Compile(testRecords, matcher.Options{Facts: facts})
		m.Match(matcher.Subject{Text: "CUDA out of memory. Tried to allocate 2.00 GiB"})
	})
}
