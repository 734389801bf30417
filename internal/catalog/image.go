package catalog

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/cespare/xxhash/v2"
	"github.com/logmatch/logmatch/internal/factcache"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// A catalog image is a whole load kept in the cache directory: the
// compiled Matcher's image (matcher.AppendImage) and the load's problems.
// A load whose catalog and build have an image maps the file and uses it
// in place, instead of decoding the catalog's JSON and compiling it: at
// 50,000 records that is the difference between about a second of CPU
// and a few tens of milliseconds (scripts/perf-load-and-scan.md, "Twelfth
// round").
//
// An image's name is a hash of the build ID and of the catalog's content
// key (contentKey: every byte of every catalog file, the default
// catalog's inclusion and the severity filter), and its header repeats
// both, with imageFileVersion: a catalog edited, a new build, or a
// layout of another version never reads an old image. The file ends with
// the XXH64 checksum of the rest; a file whose checksum, header or image
// does not check out is reported by name through OnCacheError and
// rebuilt. The matcher refuses an image compiled under other options, so
// an image never decides a refusal it did not record. Images are written
// whole under another name and renamed into place, so concurrent loads
// see the old file or the new one; at most MaxImages are kept, the least
// recently written removed first.
//
// A mapped image stays mapped for the life of the process: the records'
// strings point into it, and a hit's text can outlive its Matcher. Past
// maxMapped mappings (a process that reloads many edited catalogs) an
// image is read into memory instead, which the collector frees.
const (
	imageSuffix     = ".image"
	imagePartSuffix = ".image-partial"
	imageFileMagic  = "LMCATIMG"
	// imageFileVersion names this file layout; matcher.LoadImage checks
	// the version of its own.
	imageFileVersion = 1
	// MaxImages bounds the images kept in a cache directory: at 50,000
	// records an image takes about 70 MB.
	MaxImages = 4
	// maxImageBytes bounds the file a load maps.
	maxImageBytes = 8 << 30
	maxMapped     = 8
)

// compileOptions are the matcher's options of every load (see Compile).
func compileOptions(facts *matcher.Facts) matcher.Options {
	return matcher.Options{Refuse: &patterns.LintOptions{}, Facts: facts}
}

// contentKey hashes what a load reads: the default catalog's inclusion
// (its content is the build's), the severity filter, and each path's
// absolute name with the name, size and bytes of every file under it, in
// walk order. Any change to a file under a path changes it, whether or
// not the load reads that file.
func (s Spec) contentKey() (string, error) {
	h := xxhash.New()
	fmt.Fprintf(h, "logmatch catalog %d\x00default=%t\x00min=%s\x00", imageFileVersion, !s.NoDefault, s.MinSeverity)
	buf := make([]byte, 256<<10)
	for _, p := range s.Paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "path %s\x00", abs)
		err = filepath.WalkDir(abs, func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				return nil
			}
			return hashFile(h, name, buf)
		})
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func hashFile(h *xxhash.Digest, name string, buf []byte) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	fmt.Fprintf(h, "file %s %d %t\x00", name, info.Size(), info.Mode().IsRegular())
	if !info.Mode().IsRegular() {
		return nil
	}
	_, err = io.CopyBuffer(h, io.LimitReader(f, info.Size()), buf)
	return err
}

// imageName is the file of the image of key by build in dir.
func imageName(dir, build, key string) string {
	sum := xxhash.Sum64String(build + "\x00" + key)
	return filepath.Join(dir, fmt.Sprintf("%016x%s", sum, imageSuffix))
}

// mapped counts the images this process keeps mapped.
var mapped struct {
	sync.Mutex
	n int
}

// openImage loads name, the image of key by build: no Matcher and no
// error when there is none, or when a record it left out would not be
// refused now. An error names a file to rebuild.
func openImage(name, build, key string) (image, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return image{}, nil
	}
	if err != nil {
		return image{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return image{}, err
	}
	if !info.Mode().IsRegular() {
		return image{}, errors.New("not a regular file")
	}
	if err := factcache.Private(name, info); err != nil {
		return image{}, err
	}
	if info.Size() < int64(len(imageFileMagic))+16 || info.Size() > maxImageBytes {
		return image{}, fmt.Errorf("%d bytes: not an image", info.Size())
	}
	data, unmap, err := mapFile(f, int(info.Size()))
	if err != nil {
		return image{}, err
	}
	img, err := decodeImage(data, build, key)
	if err != nil {
		unmap()
		return image{}, err
	}
	if !img.refusedStill() {
		unmap()
		return image{}, nil
	}
	return img, nil
}

// mapFile maps f's size bytes read-only; past maxMapped mappings it reads
// them into memory instead. unmap undoes it, for an image not taken.
func mapFile(f *os.File, size int) (data []byte, unmap func(), err error) {
	mapped.Lock()
	defer mapped.Unlock()
	if mapped.n >= maxMapped {
		data = make([]byte, size)
		if _, err := io.ReadFull(f, data); err != nil {
			return nil, nil, err
		}
		return data, func() {}, nil
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil, fmt.Errorf("mmap: %w", err)
	}
	mapped.n++
	return data, func() {
		mapped.Lock()
		defer mapped.Unlock()
		if syscall.Munmap(data) == nil {
			mapped.n--
		}
	}, nil
}

// decodeImage checks data's checksum and header and loads its Matcher.
// The problems and the records left out are copied out of data; the
// Matcher uses it in place.
func decodeImage(data []byte, build, key string) (image, error) {
	if len(data) < len(imageFileMagic)+16 || string(data[:len(imageFileMagic)]) != imageFileMagic {
		return image{}, errors.New("not a catalog image")
	}
	body := data[:len(data)-8]
	if xxhash.Sum64(body) != binary.LittleEndian.Uint64(data[len(body):]) {
		return image{}, errors.New("checksum mismatch")
	}
	r := headerReader{b: body[len(imageFileMagic):]}
	if v := r.uint(); v != imageFileVersion {
		return image{}, fmt.Errorf("file layout %d, this build reads %d", v, imageFileVersion)
	}
	if b := r.str(); b != build {
		return image{}, errors.New("written by another build")
	}
	if k := r.str(); k != key {
		return image{}, errors.New("the image of another catalog")
	}
	n := r.uint()
	if n > uint64(len(body)) {
		return image{}, errors.New("damaged header")
	}
	probs := make([]patterns.Problem, 0, n)
	for range n {
		p := patterns.Problem{File: r.str(), Line: int(r.uint()), Field: r.str(), Level: patterns.Level(r.uint()), Message: r.str()}
		if r.uint() == 1 {
			p.Err = errors.New(r.str())
		}
		probs = append(probs, p)
	}
	n = r.uint()
	if n > uint64(len(body)) {
		return image{}, errors.New("damaged header")
	}
	var left []patterns.Record
	for range n {
		rec := patterns.Record{ID: r.str(), Origin: patterns.Origin{File: r.str(), Line: int(r.uint())}}
		rec.MessagePattern = r.str()
		left = append(left, rec)
	}
	if r.err != nil {
		return image{}, r.err
	}
	off := len(body) - len(r.b)
	off = (off + 7) &^ 7
	if off > len(body) {
		return image{}, errors.New("damaged header")
	}
	m, err := matcher.LoadImage(body[off:], compileOptions(nil))
	if err != nil {
		return image{}, err
	}
	return image{m: m, problems: probs, left: left}, nil
}

// refusedStill reports whether every record img left out is left out
// still: one whose pattern does not parse is, and one the backtracking
// check refused is when the check, run again, refuses it again. The check
// probes the pattern against a clock, so like a load from the catalog, a
// load from an image checks each refusal again rather than trust the
// one recorded.
func (img image) refusedStill() bool {
	for i := range img.left {
		r := &img.left[i]
		tree, err := patterns.ParseTree(r.MessagePattern)
		if err != nil {
			continue
		}
		if p, bad := patterns.RefuseTree(r, tree, *compileOptions(nil).Refuse); !bad || p.Level != patterns.LevelError {
			return false
		}
	}
	return true
}

// headerReader reads the image file's header: uvarints and strings of a
// uvarint length. Strings are copied.
type headerReader struct {
	b   []byte
	err error
}

func (r *headerReader) uint() uint64 {
	v, k := binary.Uvarint(r.b)
	if k <= 0 {
		if r.err == nil {
			r.err = errors.New("damaged header")
		}
		r.b = nil
		return 0
	}
	r.b = r.b[k:]
	return v
}

func (r *headerReader) str() string {
	n := r.uint()
	if n > uint64(len(r.b)) {
		if r.err == nil {
			r.err = errors.New("damaged header")
		}
		r.b = nil
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func appendStr(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// image is what an image file holds: a load's Matcher and problems, and
// the records it left out, whose refusal a load from the image checks
// again.
type image struct {
	m        *matcher.Matcher
	problems []patterns.Problem
	left     []patterns.Record
}

// writeImage writes the image file of img to w.
func writeImage(w io.Writer, img image, build, key string) error {
	m, problems := img.m, img.problems
	b := []byte(imageFileMagic)
	b = binary.AppendUvarint(b, imageFileVersion)
	b = appendStr(b, build)
	b = appendStr(b, key)
	b = binary.AppendUvarint(b, uint64(len(problems)))
	for _, p := range problems {
		b = appendStr(b, p.File)
		b = binary.AppendUvarint(b, uint64(p.Line))
		b = appendStr(b, p.Field)
		b = binary.AppendUvarint(b, uint64(p.Level))
		b = appendStr(b, p.Message)
		if p.Err != nil {
			b = binary.AppendUvarint(b, 1)
			b = appendStr(b, p.Err.Error())
		} else {
			b = binary.AppendUvarint(b, 0)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(img.left)))
	for _, r := range img.left {
		b = appendStr(b, r.ID)
		b = appendStr(b, r.Origin.File)
		b = binary.AppendUvarint(b, uint64(r.Origin.Line))
		b = appendStr(b, r.MessagePattern)
	}
	for len(b)%8 != 0 {
		b = append(b, 0)
	}
	sum := xxhash.New()
	bw := bufio.NewWriterSize(io.MultiWriter(w, sum), 1<<20)
	if _, err := bw.Write(b); err != nil {
		return err
	}
	if err := m.WriteImage(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(binary.LittleEndian.AppendUint64(nil, sum.Sum64()))
	return err
}

// beforeImageRename, when set (by tests), is called with a written image's
// temporary name before it is renamed into place.
var beforeImageRename func(tmp, name string)

// storeImage writes the image file of m and problems as name, whole under
// another name and then renamed, and removes the oldest images past
// MaxImages.
func storeImage(dir, name string, img image, build, key string) error {
	var before func(string)
	if beforeImageRename != nil {
		before = func(tmp string) { beforeImageRename(tmp, name) }
	}
	err := factcache.Replace(dir, name, imagePartSuffix, func(w io.Writer) error {
		return writeImage(w, img, build, key)
	}, before)
	if err != nil {
		return err
	}
	return factcache.Prune(dir, imageSuffix, imagePartSuffix, MaxImages)
}

// imageSlot is where a load's image is: its file, and the key and build
// it is of. A zero slot means no image (no cache, or a catalog path that
// cannot be read, which the load then reports).
type imageSlot struct {
	name, build, key string
}

// fromImage loads s from its image, when the cache has one for this
// catalog and build; otherwise it returns false and the slot a load
// should write its image to.
func (s Spec) fromImage() (*matcher.Matcher, []patterns.Problem, imageSlot, bool) {
	key, err := s.contentKey()
	if err != nil {
		return nil, nil, imageSlot{}, false
	}
	slot := imageSlot{name: imageName(s.Cache.Path(), s.Cache.Build(), key), build: s.Cache.Build(), key: key}
	img, err := openImage(slot.name, slot.build, slot.key)
	if err != nil {
		s.cacheError(fmt.Errorf("%s: %v; rebuilding it", slot.name, err))
		return nil, nil, slot, false
	}
	return img.m, img.problems, slot, img.m != nil
}

// keepImage writes the image of a load to slot, unless the catalog
// changed while it loaded (the image would be of other content than its
// key's).
func (s Spec) keepImage(slot imageSlot, img image) {
	if key, err := s.contentKey(); err != nil || key != slot.key {
		return
	}
	if err := storeImage(s.Cache.Path(), slot.name, img, slot.build, slot.key); err != nil {
		s.cacheError(fmt.Errorf("%s: %w", slot.name, err))
	}
}
