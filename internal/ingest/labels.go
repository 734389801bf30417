package ingest

import (
	"slices"
	"strings"

	"github.com/logmatch/logmatch/internal/source"
)

// LabelMap says which labels of a pushed stream are its source identity
// (the configuration's accept_labels). Each list is tried in order and the
// first label the stream has wins. Names match with dots read as
// underscores, as OTLP attributes become labels.
type LabelMap struct {
	Pod, Namespace, Container []string
	// Extra labels are kept in the identity beside the pod's.
	Extra []string
}

// DefaultLabels read the names Promtail, Alloy, Fluent Bit, Vector and the
// Collector's k8sattributes processor give a pod's identity.
func DefaultLabels() LabelMap {
	return LabelMap{
		Pod:       []string{"pod", "k8s_pod_name", "pod_name"},
		Namespace: []string{"namespace", "k8s_namespace_name", "namespace_name"},
		Container: []string{"container", "k8s_container_name", "container_name"},
	}
}

// Identity returns the name of the stream labelled ls (the source its
// lines are assembled and its incidents grouped under) and its pod. The
// name is made of the identity labels the stream has, in label order; a
// stream that has none is named by all its labels, so streams the map
// says nothing of are still told apart. Labels outside the identity (a
// file name that changes when the container restarts, a shipper's own
// labels) then leave one stream one stream.
func (m LabelMap) Identity(ls []Label) (string, source.Pod) {
	var keep []Label
	pick := func(names []string) string {
		for _, n := range names {
			n = strings.ReplaceAll(n, ".", "_")
			for _, l := range ls {
				if l.Name == n {
					keep = append(keep, l)
					return l.Value
				}
			}
		}
		return ""
	}
	pod := source.Pod{Namespace: pick(m.Namespace), Name: pick(m.Pod), Container: pick(m.Container)}
	for _, n := range m.Extra {
		pick([]string{n})
	}
	if len(keep) == 0 {
		return LabelString(ls), pod
	}
	sortLabels(keep)
	return LabelString(keep), pod
}

func sortLabels(ls []Label) {
	slices.SortFunc(ls, func(a, b Label) int { return strings.Compare(a.Name, b.Name) })
}
