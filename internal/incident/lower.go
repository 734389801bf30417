package incident

import (
	"strings"

	"github.com/logmatch/logmatch/patterns"
)

// A lower layer first. A native library reports the failure of one of its
// own steps as a chain of located lines ("mem_heap.cpp:1509: non-zero
// status: 2 cuMemCreate failed", each caller passing the status on), and
// what the failed step then breaks is reported after it by the same
// library's code, often in words a cause record knows ("[barrier.cpp:21]
// cuda failed with an illegal memory access": the memory it never got). A
// record may call the chain's lines a consequence, since they most often
// pass on another layer's failure printed before them; but when no failure
// before the chain explains it, its first line is where the crash began.
// So a classified cause printed after such a chain, in the same source,
// within its burst, and located in the same library's source tree
// (sourceTree), is listed in the chain's incident, which leads. A cause
// located elsewhere, or printed before the chain, keeps the lead as
// before.

// chainBefore returns the incident of a consequence chain of located
// lines that the classified cause o, of the burst b, follows in the same
// library, or nil (see above). A line located in a C, C++ or CUDA file is
// a native library's whether or not its shape was read as one (behind a
// launcher's label it may not be).
func (g *Grouper) chainBefore(o *Occurrence, b burst) *group {
	if b.source == "" || o.Alert.Record.Role != string(patterns.RoleCause) {
		return nil
	}
	tree := sourceTree(o.Alert.Match.Text)
	if tree == "" {
		return nil
	}
	var best *group
	var bestID string
	for _, m := range g.scopeConsequences(b.scope) {
		c := m.gr
		if c.Alert.Record.ID == "" || c.Source != b.source || c.End >= b.off || !g.inBurst(c, b) ||
			sourceTree(lineOf(c)) != tree {
			continue
		}
		if best == nil || c.beganBefore(best) {
			best, bestID = c, m.id
		}
	}
	if best == nil || g.findRoot(best.Scope, best.At, bestID, eventOfGroup(best)) != nil {
		// A failure before the chain explains it.
		return nil
	}
	return best
}

// maxTreeScan bounds the bytes of a line sourceTree reads.
const maxTreeScan = 1024

// sourceTree is the source tree of the first source location a line
// names ("/nvshmem/src/host/mem/mem_heap.cpp:1509" is in "nvshmem/src"):
// the first two directories of a C, C++ or CUDA file's path that has at
// least three, "" when it names none. Two lines located in one tree are
// one library's.
func sourceTree(line string) string {
	if len(line) > maxTreeScan {
		line = line[:maxTreeScan]
	}
	for _, ext := range [...]string{".cpp:", ".cc:", ".cu:", ".cuh:", ".c:", ".h:", ".hpp:", ".cxx:"} {
		i := strings.Index(line, ext)
		if i < 0 {
			continue
		}
		start := i
		for start > 0 && pathByte(line[start-1]) {
			start--
		}
		dirs := strings.Split(strings.Trim(line[start:i], "/"), "/")
		if len(dirs) < 3 {
			return ""
		}
		return dirs[0] + "/" + dirs[1]
	}
	return ""
}

// pathByte reports whether c may be part of a source file's path.
func pathByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '/' || c == '.' || c == '_' || c == '-' || c == '+'
}
