package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
)

// Kubernetes reports a workload that failed in the tables kubectl prints,
// not in a log line: an event of type Warning whose reason names a
// failure (kubectl describe's "Events:" rows, "  Warning  BackOff  1s
// kubelet  Back-off restarting failed container", and kubectl get
// events' "5m  Warning  FailedScheduling  pod/x  0/6 nodes are
// available..."), a pod's status column (kubectl get pods' "web-0  0/1
// CrashLoopBackOff  7  12m"), and a container's state reason (describe's
// "Reason:  OOMKilled"), and the scheduler's message that no node fits a
// pod, wherever it is quoted (schedulerFitError). kubeFailureRow reads
// them.

// maxKubeColumns bounds the columns kubeFailureRow reads before the
// reason.
const maxKubeColumns = 3

// kubeFailureRow reports whether l, a line with no level of its own, is a
// row of kubectl's output that reports a failure (see above).
func kubeFailureRow(l string) bool {
	t := strings.TrimSpace(l)
	if len(t) < 8 {
		return false
	}
	if r, ok := strings.CutPrefix(t, "Reason:"); ok {
		// describe's container state: one reason word alone.
		r = strings.TrimSpace(r)
		return r != "" && !strings.ContainsAny(r, " \t") && kubeFailedState(r)
	}
	if schedulerFitError(t) {
		return true
	}
	if !strings.Contains(t, "  ") {
		// kubectl pads its columns; prose does not.
		return false
	}
	var cols [maxKubeColumns + 2]string
	n := 0
	rest := t
	for n < len(cols) && rest != "" {
		i := strings.IndexAny(rest, " \t")
		if i < 0 {
			cols[n], rest = rest, ""
		} else {
			cols[n], rest = rest[:i], strings.TrimLeft(rest[i:], " \t")
		}
		n++
	}
	if n == 2 && rest == "" && podUnscheduled(t) {
		// describe's Conditions row of a pod the scheduler placed on
		// no node: it stays Pending, with or without the events that
		// say why (see podUnscheduled).
		return true
	}
	for i := 0; i+1 < n && i < maxKubeColumns; i++ {
		if cols[i] == "Warning" && kubeFailureReason(cols[i+1]) && (i+2 < n || rest != "") {
			// An event: its type, its reason, then the columns that
			// end in its message. A readiness probe that fails only
			// keeps traffic away, while the server starts or when it
			// is busy: a liveness or start-up probe's failure has the
			// container restarted.
			return cols[i+1] != "Unhealthy" || strings.Contains(t, "Liveness probe") || strings.Contains(t, "Startup probe")
		}
	}
	// get pods: NAME, READY (n/m), STATUS.
	return n >= 4 && readyColumn(cols[1]) && kubeFailedState(cols[2])
}

// podUnscheduled reports whether t, a trimmed row, is describe's
// Conditions row of a pod the scheduler placed on no node: "PodScheduled"
// and "False" in padded columns. Such a pod stays Pending; the events, when
// the output shows them, say why ("FailedScheduling ... 0/1 nodes are
// available: 1 Insufficient nvidia.com/gpu."), and without them the row is
// the only word of it.
func podUnscheduled(t string) bool {
	r, ok := strings.CutPrefix(t, "PodScheduled")
	return ok && len(r) > 2 && r[0] == ' ' && r[1] == ' ' && strings.TrimSpace(r) == "False"
}

// The scheduler says why it placed a pod nowhere in one message, which
// the FailedScheduling event, kubectl describe, a scheduler's own log and
// a cluster autoscaler quote wherever they put it: "0/4 nodes are
// available: 1 Insufficient nvidia.com/gpu, 3 node(s) had untolerated
// taint ...". It counts the nodes that fit, none: "0/" and the nodes of
// the cluster open it.

// schedulerFitError reports whether t holds the scheduler's message that
// no node fits a pod (see above), with its reasons after the colon.
func schedulerFitError(t string) bool {
	const mark = " nodes are available: "
	i := strings.Index(t, mark)
	if i < 3 {
		return false
	}
	j := i
	for j > 0 && isDigitByte(t[j-1]) {
		j--
	}
	if j == i || j < 2 || t[j-1] != '/' || t[j-2] != '0' || j > 2 && isDigitByte(t[j-3]) {
		return false
	}
	return hasLetter(t[i+len(mark):])
}

// kubeFailureReason reports whether r is the reason of an event that
// reports a failure: the kubelet's and the scheduler's Failed...
// reasons, a container's restart back-off, a failed probe, an eviction.
func kubeFailureReason(r string) bool {
	switch r {
	case "BackOff", "Unhealthy", "Evicted", "OOMKilling", "Failed", "NodeNotReady":
		return true
	}
	return len(r) > len("Failed") && strings.HasPrefix(r, "Failed") && isUpperByte(r[len("Failed")])
}

// kubeFailedState reports whether s, a pod's status or a container's
// state reason, says the container failed or cannot start; an init
// container's carries "Init:" first.
func kubeFailedState(s string) bool {
	s = strings.TrimPrefix(s, "Init:")
	switch s {
	case "CrashLoopBackOff", "ImagePullBackOff", "ErrImagePull", "OOMKilled", "Error",
		"CreateContainerConfigError", "CreateContainerError", "InvalidImageName", "RunContainerError", "ContainerCannotRun":
		return true
	}
	return false
}

// readyColumn reports whether c is kubectl get pods' READY column: "n/m".
func readyColumn(c string) bool {
	a, b, ok := strings.Cut(c, "/")
	return ok && a != "" && b != "" && strings.Trim(a, "0123456789") == "" && strings.Trim(b, "0123456789") == ""
}

// maxKubeLines bounds the lines of an entry kubeFailureIn reads: a
// table's header and its rows, which no header of a logger split.
const maxKubeLines = 32

// kubeFailureIn returns the first row of kubectl's output among the first
// lines of an entry with no level that reports a failure, trimmed; ""
// when none does.
func kubeFailureIn(e *entry.Entry) string {
	if e.Level != "" || loggerHeader(e.Format) {
		return ""
	}
	text := e.Text
	for n := 0; text != "" && n < maxKubeLines; n++ {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		if kubeFailureRow(line) {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// A container's state in kubectl describe says that it died ("Exit Code:
// 137") or that the kubelet restarts it ("Reason: CrashLoopBackOff"),
// and, on the reason line of the terminated state, why when the kubelet
// knows: it exceeded its memory limit (OOMKilled), its image could not be
// pulled, its configuration could not be made. "Reason: Error" and
// "Completed" say only that the process exited. A crash loop's waiting
// state is followed by the last terminated state that put it there.

// kubeStateCause reports whether line is describe's reason line of a
// container's state that says why the container died or cannot start
// (see above): "Reason:" and one such word, an init container's with
// "Init:" first.
func kubeStateCause(line string) bool {
	r, ok := strings.CutPrefix(strings.TrimSpace(line), "Reason:")
	if !ok {
		return false
	}
	switch strings.TrimPrefix(strings.TrimSpace(r), "Init:") {
	case "OOMKilled", "ImagePullBackOff", "ErrImagePull", "InvalidImageName",
		"CreateContainerConfigError", "CreateContainerError", "RunContainerError", "ContainerCannotRun":
		return true
	}
	return false
}

// KubeView reports whether line is a row of kubectl's output that reports
// a failed workload from outside (kubeFailureRow) without saying why: a
// pod's CrashLoopBackOff, a container state's "Reason: Error", a back-off
// event. The container's own lines beside it say what failed. A state's
// reason that says why itself (kubeStateCause: OOMKilled) is no such view.
func KubeView(line string) bool {
	return kubeFailureRow(line) && !kubeStateCause(line)
}

// kubeWarningFor returns the first Warning row of an event table in e
// that reports a failure (kubeFailureRow: a failed liveness probe, a
// back-off, a failed mount), trimmed, when matched, the line a record
// read, is a Normal row of that table: what the kubelet did about a
// failure ("Killing ... will be restarted"), which the Warning row says.
// "" otherwise.
func kubeWarningFor(e *entry.Entry, matched string) string {
	if EventRowType(matched) != normalEvent {
		return ""
	}
	text := e.Text
	for n := 0; text != "" && n < maxKubeLines; n++ {
		var l string
		l, text, _ = strings.Cut(text, "\n")
		if EventRowType(l) == warningEvent && kubeFailureRow(l) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// stateHeading reports whether t, a trimmed line, opens a container's
// state in describe ("State:  Waiting", "Last State:  Terminated").
func stateHeading(t string) bool {
	return strings.HasPrefix(t, "State:") || strings.HasPrefix(t, "Last State:")
}

// kubeStateReasonFor returns the reason line of describe's container
// state that says why the container of the line matched died or is
// restarted (see above), trimmed: for its "Exit Code:", the reason of the
// same state; for its crash loop's "Reason: CrashLoopBackOff", the reason
// of the last state after it. "" when matched is neither, or that reason
// only says the process exited.
func kubeStateReasonFor(e *entry.Entry, matched string) string {
	m := strings.TrimSpace(matched)
	exit := false
	if r, ok := strings.CutPrefix(m, "Exit Code:"); ok {
		r = strings.TrimSpace(r)
		exit = r != "" && strings.Trim(r, "0123456789") == ""
	} else if r, ok := strings.CutPrefix(m, "Reason:"); !ok || strings.TrimPrefix(strings.TrimSpace(r), "Init:") != "CrashLoopBackOff" {
		return ""
	}
	var lines [maxKubeLines]string
	n, at := 0, -1
	for text := e.Text; text != "" && n < len(lines); n++ {
		var l string
		l, text, _ = strings.Cut(text, "\n")
		lines[n] = strings.TrimSpace(l)
		if at < 0 && lines[n] == m {
			at = n
		}
	}
	if at < 0 {
		return ""
	}
	if exit {
		for i := at - 1; i >= 0 && !stateHeading(lines[i]); i-- {
			if strings.HasPrefix(lines[i], "Reason:") {
				return condIf(kubeStateCause(lines[i]), lines[i])
			}
		}
		return ""
	}
	// The waiting state's next line opens the last state, whose reason
	// follows it.
	if at+2 >= n || !strings.HasPrefix(lines[at+1], "Last State:") {
		return ""
	}
	return condIf(kubeStateCause(lines[at+2]), lines[at+2])
}

// condIf returns s when ok, else "".
func condIf(ok bool, s string) string {
	if ok {
		return s
	}
	return ""
}

// kubeExitOfState returns describe's "Exit Code:" line of the container
// state whose reason line is reason, trimmed, when that reason says only
// that the process exited ("Reason: Error"): the exit code says how
// (137, a SIGKILL; 139, a segfault; 1, the program's own failure). ""
// when reason is another or the state shows no exit code.
func kubeExitOfState(e *entry.Entry, reason string) string {
	r, ok := strings.CutPrefix(reason, "Reason:")
	if !ok || strings.TrimSpace(r) != "Error" {
		return ""
	}
	found := false
	text := e.Text
	for n := 0; text != "" && n < maxKubeLines; n++ {
		var l string
		l, text, _ = strings.Cut(text, "\n")
		t := strings.TrimSpace(l)
		switch {
		case !found:
			found = t == reason
		case stateHeading(t):
			return ""
		default:
			if c, ok := strings.CutPrefix(t, "Exit Code:"); ok {
				c = strings.TrimSpace(c)
				return condIf(c != "" && c != "0" && strings.Trim(c, "0123456789") == "", t)
			}
		}
	}
	return ""
}
