// Package factcache keeps, in a directory, the matcher's Facts of each
// catalog this build loaded, so the next load of that catalog skips the
// parse of every pattern it knows and the choice of the prefilter's keys:
// about a third of the CPU of loading the 5,695-record generated catalog
// (scripts/perf-load-and-scan.md, "Fifth round").
//
// A file belongs to one build: its header names the Go build ID of the
// executable that wrote it, and any other build treats it as absent and
// replaces it. A file whose checksum or contents do not check out is
// reported and replaced; nothing in a file can make a load wrong in any way
// other than slower, short of someone who can write the directory, which
// is why a directory or file that others may write is refused.
//
// One file per catalog (the key names the catalog: its paths and whether
// the default is in), at most MaxFiles in the directory, the least
// recently written removed first.
package factcache

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/logmatch/logmatch/matcher"
)

// MaxFiles bounds the fact files kept in a directory.
const MaxFiles = 16

// maxFileBytes bounds what Load reads: the generated catalog's facts take
// about 1 MB.
const maxFileBytes = 256 << 20

// fileMagic starts every fact file; its last byte is the layout's version.
const fileMagic = "LMFCACHE\x01"

// suffix ends the name of every fact file; partial files being written end
// in partSuffix.
const (
	suffix     = ".facts"
	partSuffix = ".facts-partial"
)

// Dir is a directory of fact files. Its methods are safe for concurrent
// use; processes sharing it replace each other's files whole.
type Dir struct {
	path  string
	build string
}

// ErrNoBuildID is Open's error when the executable carries no Go build ID
// (not an ELF file, or linked with -buildid=): facts could not be tied to
// the code that derived them.
var ErrNoBuildID = errors.New("the executable has no Go build ID")

// Open prepares path (made, mode 0700, when missing) for this build's
// facts. It refuses a directory that is not the user's own or that group
// or others may write.
func Open(path string) (*Dir, error) {
	build, err := buildID()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(path, 0o700); err != nil {
		return nil, err
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := private(path, info); err != nil {
		return nil, err
	}
	return &Dir{path: path, build: build}, nil
}

// Path is the directory's path.
func (d *Dir) Path() string { return d.path }

// Build is the Go build ID of the executable the directory's files are
// kept for: other files kept there (internal/catalog's images) tie
// themselves to it too.
func (d *Dir) Build() string { return d.build }

// Private refuses a file that another user could have written, as Load
// refuses a fact file: for other files kept in the directory.
func Private(path string, info fs.FileInfo) error { return private(path, info) }

// private refuses what another user could have written.
func private(path string, info fs.FileInfo) error {
	if info.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%s: writable by group or others (mode %v); not used", path, info.Mode().Perm())
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("%s: owned by uid %d, not this user (%d); not used", path, st.Uid, os.Geteuid())
	}
	return nil
}

// file is the path of key's fact file.
func (d *Dir) file(key string) string {
	h := sha256.Sum256([]byte(key))
	return filepath.Join(d.path, hex.EncodeToString(h[:16])+suffix)
}

// Load returns the facts stored for key by this build; nil and no error
// when there are none (no file, or another build's). An error means a file
// that is damaged or not to be trusted; Store replaces it.
func (d *Dir) Load(key string) (*matcher.Facts, error) {
	name := d.file(key)
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", name)
	}
	if err := private(name, info); err != nil {
		return nil, err
	}
	if info.Size() > maxFileBytes {
		return nil, fmt.Errorf("%s: %d bytes, more than facts take", name, info.Size())
	}
	data := make([]byte, info.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	facts, err := decodeFile(data, d.build, key)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return facts, nil
}

// decodeFile checks data's header and checksum and decodes its facts; a
// file of another build gives nil facts and no error.
func decodeFile(data []byte, build, key string) (*matcher.Facts, error) {
	if len(data) < len(fileMagic)+sha256.Size || !bytes.HasPrefix(data, []byte(fileMagic)) {
		return nil, errors.New("not a fact file of this version")
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, errors.New("checksum mismatch")
	}
	rest := body[len(fileMagic):]
	fileBuild, rest, err := field(rest)
	if err != nil {
		return nil, err
	}
	if fileBuild != build {
		return nil, nil
	}
	fileKey, rest, err := field(rest)
	if err != nil {
		return nil, err
	}
	if fileKey != key {
		return nil, nil // another catalog's, under a colliding name
	}
	return matcher.UnmarshalFacts(rest)
}

// field reads a length-prefixed string.
func field(b []byte) (string, []byte, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return "", nil, errors.New("truncated header")
	}
	return string(b[k : k+int(n)]), b[k+int(n):], nil
}

// Store writes facts as key's file, replacing the one there, and removes
// the oldest files past MaxFiles. The file is written whole under another
// name and renamed, so a reader sees the old file or the new one.
func (d *Dir) Store(key string, facts *matcher.Facts) error {
	b := append([]byte(fileMagic), header(d.build, key)...)
	b, err := facts.AppendBinary(b)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(b)
	b = append(b, sum[:]...)
	err = Replace(d.path, d.file(key), partSuffix, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	}, nil)
	if err != nil {
		return err
	}
	return d.prune()
}

// Replace writes the file name in dir whole: write fills a new file whose
// name ends in partSuffix, which is renamed to name once written and
// closed, so a reader sees the old file or the new one. On an error the
// new file is removed and name is left as it was. beforeRename, when not
// nil (tests), is called with the new file's name just before the rename.
func Replace(dir, name, partSuffix string, write func(io.Writer) error, beforeRename func(tmp string)) error {
	tmp, err := os.CreateTemp(dir, "*"+partSuffix)
	if err != nil {
		return err
	}
	werr := write(tmp)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	if beforeRename != nil {
		beforeRename(tmp.Name())
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	return nil
}

func header(build, key string) []byte {
	var b []byte
	for _, s := range []string{build, key} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

// staleParts is the age past which a partial file is a crashed writer's.
const staleParts = time.Hour

// prune removes the oldest fact files past MaxFiles and partial files left
// by writers that died.
func (d *Dir) prune() error { return Prune(d.path, suffix, partSuffix, MaxFiles) }

// Prune keeps the newest keep files of dir whose names end in suffix,
// removing the older ones, and removes the files ending in partSuffix
// that writers left more than an hour ago (they died mid-write). A file
// another process removed first is not an error.
func Prune(dir, suffix, partSuffix string, keep int) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	type file struct {
		name string
		mod  time.Time
	}
	var files []file
	var errs []error
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		switch {
		case strings.HasSuffix(e.Name(), partSuffix):
			if time.Since(info.ModTime()) > staleParts {
				errs = append(errs, ignoreGone(os.Remove(filepath.Join(dir, e.Name()))))
			}
		case strings.HasSuffix(e.Name(), suffix):
			files = append(files, file{e.Name(), info.ModTime()})
		}
	}
	if len(files) <= keep {
		return errors.Join(errs...)
	}
	slices.SortFunc(files, func(a, b file) int { return b.mod.Compare(a.mod) })
	for _, f := range files[keep:] {
		errs = append(errs, ignoreGone(os.Remove(filepath.Join(dir, f.name))))
	}
	return errors.Join(errs...)
}

// ignoreGone drops the error of removing what another process removed.
func ignoreGone(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// buildID is the running executable's Go build ID, read once.
var buildID = sync.OnceValues(func() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoBuildID, err)
	}
	return elfBuildID(exe)
})

// elfBuildID reads the Go build ID note of the ELF file name: a 4-byte
// name size, description size and type (4), the name "Go\x00\x00", then
// the ID.
func elfBuildID(name string) (string, error) {
	f, err := elf.Open(name)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoBuildID, err)
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil {
		return "", ErrNoBuildID
	}
	note, err := s.Data()
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoBuildID, err)
	}
	const head = 16 // three sizes and "Go\x00\x00"
	if len(note) < head {
		return "", ErrNoBuildID
	}
	bo := f.ByteOrder
	nameSize, descSize, typ := bo.Uint32(note), bo.Uint32(note[4:]), bo.Uint32(note[8:])
	if nameSize != 4 || typ != 4 || string(note[12:16]) != "Go\x00\x00" || uint64(descSize) > uint64(len(note)-head) || descSize == 0 {
		return "", ErrNoBuildID
	}
	return string(note[head : head+int(descSize)]), nil
}
