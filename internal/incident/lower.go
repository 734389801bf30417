package incident

import (
	"slices"
	"strings"

	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
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
//
// The same holds across libraries for an interconnect: a transport's
// failure (a consequence record of a network stack: an InfiniBand or RoCE
// completion error, a UCX or NVSHMEM transport error, a peer that left the
// fabric) printed first, with no failure before it, breaks what runs over
// it, and the CUDA error, collective failure or device fault its process
// reports after it is how the break shows (a communicator torn down under
// a kernel still reading its buffers). So a cause of those layers
// (carriedBy) printed after such a transport failure, in the same source
// and burst, is listed in the transport's incident too. A cause that is
// itself a network failure, one printed before the transport's line, and
// a transport failure explained by a failure before it keep their order,
// and so do an allocation failure (a transport's break does not use up
// memory) and lines of two processes when both name theirs (NCCL's
// "host:pid:tid [dev]" prefix, read by the assembler into
// entry.Entry.Process): a peer's out of memory closes the socket another
// rank then reports.

// interconnectTags are the tags of a network stack whose failure breaks
// the collectives and kernels running over it; a record tagged "network"
// and one of these is a transport's.
var interconnectTags = [...]string{"rdma", "infiniband", "nccl", "ucx", "nvshmem", "hccl"}

// carrierTags are the tags of a failure an interconnect's break shows
// through: a runtime crash of the device (an illegal access, a launch
// failure, a fault), a collective's failure.
var carrierTags = [...]string{"crash", "collective"}

// transportFailure reports whether the record r of a consequence is a
// transport's failure (see above).
func transportFailure(r *sinks.Record) bool {
	if r.Role != string(patterns.RoleConsequence) || !slices.Contains(r.Tags, "network") {
		return false
	}
	for _, t := range interconnectTags {
		if slices.Contains(r.Tags, t) {
			return true
		}
	}
	return false
}

// carriedBy reports whether the cause record r is a failure of the layers
// a transport carries (see above): a device's crash or a collective's
// failure, not itself a network failure, an allocation failure or a
// kernel's assertion (which checks the data, not the link).
func carriedBy(r *sinks.Record) bool {
	// One pass over the tags, not one a tag asked about: this runs for
	// every classified cause that opens an incident.
	carried := false
	for _, t := range r.Tags {
		switch t {
		case "network", "oom", "assert":
			return false
		}
		carried = carried || slices.Contains(carrierTags[:], t)
	}
	return carried
}

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
	carried := carriedBy(&o.Alert.Record)
	if tree == "" && !carried {
		return nil
	}
	var best *group
	var bestID string
	for _, m := range g.scopeConsequences(b.scope) {
		c := m.gr
		if c.Alert.Record.ID == "" || c.Source != b.source || c.End >= b.off || !g.inBurst(c, b) {
			continue
		}
		if !(tree != "" && sourceTree(lineOf(c)) == tree ||
			carried && transportFailure(&c.Alert.Record) && sameProcess(c.Process, o.Process)) {
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
	if !dotCOrH(line) {
		// Every extension below starts ".c" or ".h": most lines have
		// neither, and are read once rather than once an extension.
		return ""
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

// dotCOrH reports whether s holds ".c" or ".h".
func dotCOrH(s string) bool {
	for {
		i := strings.IndexByte(s, '.')
		if i < 0 || i+1 >= len(s) {
			return false
		}
		if c := s[i+1]; c == 'c' || c == 'h' {
			return true
		}
		s = s[i+1:]
	}
}

// pathByte reports whether c may be part of a source file's path.
func pathByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '/' || c == '.' || c == '_' || c == '-' || c == '+'
}

// sameProcess reports whether two incidents' lines may be one process's:
// not when both name their process (entry.Entry.Process: NCCL's
// "host:pid:tid [dev]" prefix, an engine's process prefix) and the two
// differ.
func sameProcess(a, b string) bool {
	return a == "" || b == "" || a == b
}
