package catalog

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/logmatch/logmatch/internal/factcache"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// imageSetup is a catalog file and a cache directory for it.
func imageSetup(t *testing.T, catalog string) (Spec, string) {
	t.Helper()
	dir := t.TempDir()
	cat := filepath.Join(dir, "extra.jsonl")
	if err := os.WriteFile(cat, []byte(catalog), 0o644); err != nil {
		t.Fatal(err)
	}
	cache, err := factcache.Open(filepath.Join(dir, "cache"))
	if err != nil {
		t.Fatal(err)
	}
	return Spec{Paths: []string{cat}, NoDefault: true, Cache: cache}, cat
}

func imageFiles(t *testing.T, s Spec) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(s.Cache.Path(), "*"+imageSuffix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// view is what a test compares of a load: the records and the problems'
// text, and the hits on text.
type loadView struct {
	Records  []patterns.Record
	Problems []string
	Hits     []string
}

func viewOf(t *testing.T, l cachedLoad, texts ...string) loadView {
	t.Helper()
	v := loadView{Records: l.m.Records()}
	for _, p := range l.probs {
		v.Problems = append(v.Problems, p.Error())
	}
	for _, text := range texts {
		hits, _ := l.m.Match(matcher.Subject{Text: text})
		for _, h := range hits {
			v.Hits = append(v.Hits, h.Record.ID+" "+h.Line)
		}
	}
	return v
}

func sameLoad(t *testing.T, what string, want, got loadView) {
	t.Helper()
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(patterns.Record{}), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("%s (-want +got):\n%s", what, diff)
	}
}

var imageTexts = []string{
	"[2026-05-28 00:11:09 TP0] KV cache pool exhausted after 3 retries",
	"the Detokenizer manager exited",
	"scheduler watchdog fired",
}

// TestImageIsTheLoad: the second load of a catalog maps the image the
// first wrote, with the same records, problems (the refused record
// refused again) and hits, and reads no catalog file for it.
func TestImageIsTheLoad(t *testing.T) {
	s, _ := imageSetup(t, cacheCatalog)
	first := loadCached(t, s)
	if first.m.FromImage() {
		t.Fatal("the first load came from an image")
	}
	files := imageFiles(t, s)
	if len(files) != 1 || !strings.HasSuffix(files[0], imageSuffix) {
		t.Fatalf("cache holds images %v, want one", files)
	}
	second := loadCached(t, s)
	if !second.m.FromImage() || len(second.errors) > 0 {
		t.Fatalf("the second load: from an image %t, cache errors %v", second.m.FromImage(), second.errors)
	}
	want := viewOf(t, first, imageTexts...)
	if len(want.Hits) != 2 || !strings.Contains(strings.Join(want.Problems, "\n"), "record c3 refused") {
		t.Fatalf("the catalog's load: %+v", want)
	}
	sameLoad(t, "the image's load", want, viewOf(t, second, imageTexts...))
}

// TestImageOfAnEditedCatalog: an edit of the catalog that keeps its size
// and modification time still loads the edit, not the old image.
func TestImageOfAnEditedCatalog(t *testing.T) {
	s, cat := imageSetup(t, cacheCatalog)
	loadCached(t, s)
	info, err := os.Stat(cat)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(cacheCatalog, "KV cache pool exhausted", "KV cache pool depleted!", 1)
	if len(edited) != len(cacheCatalog) {
		t.Fatal("the edit changes the size")
	}
	if err := os.WriteFile(cat, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(cat, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	got := loadCached(t, s)
	if got.m.FromImage() {
		t.Error("the edited catalog loaded from the old image")
	}
	hits, _ := got.m.Match(matcher.Subject{Text: "KV cache pool depleted! after 3 retries"})
	if len(hits) != 1 {
		t.Errorf("the edited pattern: hits %v", hits)
	}
	if again := loadCached(t, s); !again.m.FromImage() {
		t.Error("the edited catalog's own image was not used")
	}
}

// TestImageOfAnotherBuild: an image whose header names another build, or
// another catalog, is reported by name and rebuilt, never used: the
// file at this build's name holds another catalog's image.
func TestImageOfAnotherBuild(t *testing.T) {
	for _, tt := range []struct {
		name  string
		build func(s Spec, key string) (string, string)
	}{
		{"build", func(s Spec, key string) (string, string) { return "another-build", key }},
		{"catalog", func(s Spec, key string) (string, string) { return s.Cache.Build(), "another-catalog" }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := imageSetup(t, cacheCatalog)
			want := viewOf(t, loadCached(t, s), imageTexts...)
			key, err := s.contentKey()
			if err != nil {
				t.Fatal(err)
			}
			// Another catalog's matcher, written where this one's image is
			// looked for, under the other build's or catalog's header.
			other, _, err := Load(Spec{})
			if err != nil {
				t.Fatal(err)
			}
			name := imageName(s.Cache.Path(), s.Cache.Build(), key)
			build, k := tt.build(s, key)
			if err := storeImage(s.Cache.Path(), name, image{m: other}, build, k); err != nil {
				t.Fatal(err)
			}
			got := loadCached(t, s)
			if got.m.FromImage() || len(got.errors) != 1 || !strings.Contains(got.errors[0].Error(), name) {
				t.Fatalf("from an image %t, cache errors %v: want the foreign image named", got.m.FromImage(), got.errors)
			}
			sameLoad(t, "a load beside a foreign image", want, viewOf(t, got, imageTexts...))
			if again := loadCached(t, s); !again.m.FromImage() || len(again.errors) > 0 {
				t.Errorf("the rebuilt image: from an image %t, errors %v", again.m.FromImage(), again.errors)
			}
		})
	}
}

// TestDamagedImage: an image with a byte changed, cut short, or replaced
// by other bytes is reported by name and rebuilt; the load is the
// catalog's.
func TestDamagedImage(t *testing.T) {
	for _, tt := range []struct {
		name   string
		damage func([]byte) []byte
	}{
		{"byte", func(b []byte) []byte { b[len(b)/2] ^= 1; return b }},
		{"checksum", func(b []byte) []byte { b[len(b)-1] ^= 1; return b }},
		{"truncated", func(b []byte) []byte { return b[:len(b)/3] }},
		{"empty", func(b []byte) []byte { return nil }},
		{"foreign", func(b []byte) []byte { return []byte(strings.Repeat("not an image\n", 100)) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := imageSetup(t, cacheCatalog)
			want := viewOf(t, loadCached(t, s), imageTexts...)
			files := imageFiles(t, s)
			if len(files) != 1 {
				t.Fatalf("images %v", files)
			}
			b, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(files[0], tt.damage(b), 0o600); err != nil {
				t.Fatal(err)
			}
			got := loadCached(t, s)
			if got.m.FromImage() || len(got.errors) != 1 || !strings.Contains(got.errors[0].Error(), files[0]) {
				t.Fatalf("from an image %t, cache errors %v: want the damaged file named", got.m.FromImage(), got.errors)
			}
			sameLoad(t, "a load beside a damaged image", want, viewOf(t, got, imageTexts...))
			if again := loadCached(t, s); !again.m.FromImage() || len(again.errors) > 0 {
				t.Errorf("the rebuilt image: from an image %t, errors %v", again.m.FromImage(), again.errors)
			}
		})
	}
}

// loaderEnv, when set to "CATALOG CACHE", makes TestImageLoaderProcess a
// process that loads CATALOG with the cache CACHE and prints the load.
const loaderEnv = "LOGMATCH_TEST_IMAGE_LOADER"

// TestImageLoaderProcess is one load in a process of its own, for
// TestConcurrentImageWriters (loads in one process are serialised).
func TestImageLoaderProcess(t *testing.T) {
	arg := os.Getenv(loaderEnv)
	if arg == "" {
		t.Skip("a helper process of TestConcurrentImageWriters")
	}
	cat, dir, _ := strings.Cut(arg, " ")
	cache, err := factcache.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	l := loadCached(t, Spec{Paths: []string{cat}, NoDefault: true, Cache: cache})
	v := viewOf(t, l, imageTexts...)
	fmt.Printf("LOAD errors=%q records=%d problems=%q hits=%q\n", l.errors, len(v.Records), v.Problems, v.Hits)
}

// loaders runs n loads of s in processes of their own, at once, and
// returns what each printed of its load.
func loaders(t *testing.T, s Spec, n int) []string {
	t.Helper()
	cmds := make([]*exec.Cmd, n)
	outs := make([]*strings.Builder, n)
	for i := range cmds {
		cmds[i] = exec.Command(os.Args[0], "-test.run=^TestImageLoaderProcess$", "-test.count=1")
		cmds[i].Env = append(os.Environ(), loaderEnv+"="+s.Paths[0]+" "+s.Cache.Path())
		outs[i] = &strings.Builder{}
		cmds[i].Stdout, cmds[i].Stderr = outs[i], outs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("loader %d: %v\n%s", i, err, outs[i])
		}
		_, line, ok := strings.Cut(outs[i].String(), "LOAD ")
		if !ok {
			t.Fatalf("loader %d printed no load:\n%s", i, outs[i])
		}
		line, _, _ = strings.Cut(line, "\n")
		got = append(got, line)
	}
	return got
}

// TestConcurrentImageWriters: processes that load the same catalog at once
// with no image each load it and report nothing (none reads another's
// image half written), and leave one whole image; a process that loads
// while an image is written but not yet renamed into place does not see
// it.
func TestConcurrentImageWriters(t *testing.T) {
	s, _ := imageSetup(t, cacheCatalog)
	want := fmt.Sprintf("errors=[] records=2 problems=%q", func() []string {
		v := viewOf(t, loadCached(t, Spec{Paths: s.Paths, NoDefault: true}))
		return v.Problems
	}())
	var hooked atomic.Bool
	var during []string
	beforeImageRename = func(tmp, name string) {
		if !hooked.CompareAndSwap(false, true) {
			return
		}
		if _, err := os.Stat(name); err == nil {
			t.Errorf("%s is in place before its rename", name)
		}
		b, err := os.ReadFile(tmp)
		if err == nil {
			_, err = decodeImage(b, s.Cache.Build(), mustKey(t, s))
		}
		if err != nil {
			t.Errorf("the image before its rename: %v", err)
		}
		during = loaders(t, s, 1)
	}
	defer func() { beforeImageRename = nil }()
	first := loadCached(t, s)
	if !hooked.Load() || first.m.FromImage() {
		t.Fatalf("the first load wrote no image by rename (from an image %t)", first.m.FromImage())
	}
	if len(during) != 1 || !strings.HasPrefix(during[0], want) {
		t.Errorf("a load during the write: %q, want %q", during, want)
	}

	for _, f := range imageFiles(t, s) {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	got := loaders(t, s, 6)
	for i, g := range got {
		if g != got[0] || !strings.HasPrefix(g, want) {
			t.Errorf("loader %d: %q, want %q like loader 0: %q", i, g, want, got[0])
		}
	}
	files := imageFiles(t, s)
	if len(files) != 1 || !strings.HasSuffix(files[0], imageSuffix) {
		t.Fatalf("after concurrent writers the cache holds %v, want one image", files)
	}
	last := loadCached(t, s)
	if !last.m.FromImage() || len(last.errors) > 0 {
		t.Errorf("the image concurrent writers left: from an image %t, errors %v", last.m.FromImage(), last.errors)
	}
}

func mustKey(t *testing.T, s Spec) string {
	t.Helper()
	k, err := s.contentKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestImagesArePruned: at most MaxImages images stay, the newest.
func TestImagesArePruned(t *testing.T) {
	s, cat := imageSetup(t, cacheCatalog)
	for i := range MaxImages + 2 {
		extra := cacheCatalog + `{"id":"x","messagePattern":"marker ` + strings.Repeat("z", i+1) + `","severity":"error"}` + "\n"
		if err := os.WriteFile(cat, []byte(extra), 0o644); err != nil {
			t.Fatal(err)
		}
		loadCached(t, s)
		// Modification times far enough apart to order the files.
		for _, f := range imageFiles(t, s) {
			info, _ := os.Stat(f)
			_ = os.Chtimes(f, info.ModTime(), info.ModTime().Add(-time.Minute))
		}
	}
	if files := imageFiles(t, s); len(files) != MaxImages {
		t.Errorf("%d images kept, want %d", len(files), MaxImages)
	}
	if got := loadCached(t, s); !got.m.FromImage() {
		t.Error("the newest image was pruned")
	}
}

// TestImageRechecksRefusals: a load from an image checks each record the
// image left out again, as a load from the catalog does. An image that
// left out a record the check does not refuse (as a refusal made on a
// starved machine could) is not used: the record loads.
func TestImageRechecksRefusals(t *testing.T) {
	s, _ := imageSetup(t, cacheCatalog)
	want := viewOf(t, loadCached(t, s), imageTexts...)
	recs, _ := patterns.LoadOptions{}.Parse(strings.NewReader(cacheCatalog), s.Paths[0])
	var kept, left []patterns.Record
	for _, r := range recs {
		if r.ID == "c2" {
			kept = append(kept, r)
		} else {
			left = append(left, r) // c1 is harmless, c3 catastrophic
		}
	}
	m, _ := Compile(kept, nil)
	key := mustKey(t, s)
	name := imageName(s.Cache.Path(), s.Cache.Build(), key)
	if err := storeImage(s.Cache.Path(), name, image{m: m, left: left}, s.Cache.Build(), key); err != nil {
		t.Fatal(err)
	}
	got := loadCached(t, s)
	if got.m.FromImage() || len(got.errors) > 0 {
		t.Fatalf("an image that left out a harmless record was used (errors %v)", got.errors)
	}
	sameLoad(t, "the load beside the image", want, viewOf(t, got, imageTexts...))
	if again := loadCached(t, s); !again.m.FromImage() {
		t.Error("the rebuilt image, which left out c3 alone, was not used")
	}
}
