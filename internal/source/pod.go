package source

import (
	"path/filepath"
	"strings"
)

// Pod is the Kubernetes identity of a container log file.
type Pod struct {
	Namespace   string
	Name        string
	UID         string // from /var/log/pods paths
	Container   string
	ContainerID string // from /var/log/containers paths
}

// IsZero reports whether p holds no identity.
func (p Pod) IsZero() bool { return p == Pod{} }

// Source renders the identity as "namespace/pod/container", the stream name
// the entry assembler groups lines by.
func (p Pod) Source() string { return p.Namespace + "/" + p.Name + "/" + p.Container }

// ParsePodPath reads the pod identity from a kubelet log path, wherever the
// log directory is mounted:
//
//	.../pods/<namespace>_<pod>_<uid>/<container>/<restart>.log[.<rotation suffix>]
//	.../containers/<pod>_<namespace>_<container>-<container id>.log
//
// Namespaces and pod names are DNS names and hold no "_", which is what
// makes the split unambiguous. ok is false for any other path.
func ParsePodPath(path string) (p Pod, ok bool) {
	parts := strings.Split(filepath.ToSlash(path), "/")
	n := len(parts)
	if n >= 4 && parts[n-4] == "pods" && isRestartLog(parts[n-1]) {
		f := strings.Split(parts[n-3], "_")
		if len(f) != 3 || f[0] == "" || f[1] == "" || f[2] == "" || parts[n-2] == "" {
			return Pod{}, false
		}
		return Pod{Namespace: f[0], Name: f[1], UID: f[2], Container: parts[n-2]}, true
	}
	if n >= 2 && parts[n-2] == "containers" {
		base, found := strings.CutSuffix(parts[n-1], ".log")
		if !found {
			return Pod{}, false
		}
		f := strings.Split(base, "_")
		if len(f) != 3 || f[0] == "" || f[1] == "" {
			return Pod{}, false
		}
		dash := strings.LastIndexByte(f[2], '-')
		if dash <= 0 || !isHex(f[2][dash+1:]) {
			return Pod{}, false
		}
		return Pod{Name: f[0], Namespace: f[1], Container: f[2][:dash], ContainerID: f[2][dash+1:]}, true
	}
	return Pod{}, false
}

// isRestartLog accepts "<n>.log" and kubelet's rotated "<n>.log.<suffix>".
func isRestartLog(name string) bool {
	digits := 0
	for digits < len(name) && name[digits] >= '0' && name[digits] <= '9' {
		digits++
	}
	if digits == 0 {
		return false
	}
	rest := name[digits:]
	return rest == ".log" || (strings.HasPrefix(rest, ".log.") && len(rest) > len(".log."))
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
