package source

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// roots are the directories a followed file's real path must lie in: the
// fixed leading directory of each glob, and the symlink roots. A link in
// a watched directory to /etc/shadow, or to a mounted secret, is refused,
// while kubelet's /var/log/containers links into /var/log/pods are read.
type roots struct {
	globs []string // the globs, absolute
	dirs  []string // the allowed roots, absolute and clean
	real  []string // dirs with their own links resolved, once they exist
}

// podsRoot is where kubelet's /var/log/containers links point.
const (
	containersDir = "/var/log/containers"
	podsRoot      = "/var/log/pods"
)

func newRoots(globs, symlinkRoots []string) (*roots, error) {
	r := &roots{}
	underContainers := false
	for _, g := range globs {
		a, err := filepath.Abs(g)
		if err != nil {
			return nil, fmt.Errorf("path %q: %w", g, err)
		}
		r.globs = append(r.globs, a)
		d := fixedDir(a)
		r.dirs = append(r.dirs, d)
		if within(d, containersDir) {
			underContainers = true
		}
	}
	extra := symlinkRoots
	if extra == nil && underContainers {
		extra = []string{podsRoot}
	}
	for _, d := range extra {
		r.dirs = append(r.dirs, filepath.Clean(d))
	}
	return r, nil
}

// matches reports whether an absolute path matches one of the globs. A
// compressed rotation never does (compressedName).
func (r *roots) matches(path string) bool {
	if compressedName(path) {
		return false
	}
	for _, g := range r.globs {
		if ok, _ := filepath.Match(g, path); ok {
			return true
		}
	}
	return false
}

// allows reports whether a real (link-free) path lies inside a root. The
// roots' own links (a /var/log that is a link to /data/log) are resolved
// as late as possible, since a root may not exist yet at start.
func (r *roots) allows(real string) bool {
	if len(r.real) < len(r.dirs) {
		r.real = r.real[:0]
		for _, d := range r.dirs {
			if res, err := filepath.EvalSymlinks(d); err == nil {
				r.real = append(r.real, res)
			}
		}
	}
	for _, d := range r.real {
		if within(real, d) {
			return true
		}
	}
	for _, d := range r.dirs {
		if within(real, d) {
			return true
		}
	}
	return false
}

// within reports whether path is dir or lies below it.
func within(path, dir string) bool {
	if dir == string(filepath.Separator) {
		return true
	}
	return path == dir || strings.HasPrefix(path, dir+string(filepath.Separator))
}

// fixedDir is the leading directory of an absolute glob that holds no
// pattern characters: /var/log/pods for /var/log/pods/*/*/*.log.
func fixedDir(glob string) string {
	d := filepath.Dir(glob)
	for hasMeta(d) {
		d = filepath.Dir(d)
	}
	return d
}

func hasMeta(p string) bool { return strings.ContainsAny(p, `*?[\`) }

// realPath is where an opened file really lives, links resolved: the
// kernel's own name for the descriptor where /proc has it (no race with a
// link swapped after the open), the resolved path otherwise.
func realPath(f *os.File) (string, error) {
	if p, err := descriptorPath(f); err == nil && filepath.IsAbs(p) {
		return p, nil
	}
	return filepath.EvalSymlinks(f.Name())
}

// compressedExts are the names logrotate's compressors (compresscmd:
// gzip, zstd, bzip2, xz, lz4, compress) and archivers give a rotated log.
var compressedExts = []string{".gz", ".zst", ".bz2", ".xz", ".lz4", ".lzma", ".Z", ".zip", ".7z"}

// compressedName reports whether path names a compressed file. A glob
// such as /var/log/sglang/* also matches the rotations logrotate
// compresses: they are complete and were read before they were
// compressed, and their bytes read as lines would be noise, so the tailer
// leaves them out (logmatch scan reads them).
func compressedName(path string) bool {
	for _, ext := range compressedExts {
		if strings.HasSuffix(path, ext) {
			return true
		}
	}
	return false
}
