package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/patterns"
)

// Ray's C++ components (the raylet, the GCS server, a core worker) log
// with a header of their own: "[2021-11-18 20:33:44,699 E 69952 69952]
// core_worker.cc:451: <message>", its level a letter (I, W, E, C, F)
// between the time and the pid and thread. The entry package reads that
// header where it opens the line. Ray's driver relays the lines of the
// cluster's processes behind the process's name in parentheses ("(raylet,
// ip=172.31.6.60) [2021-11-18 20:33:44,699 E 69952 69952] core_worker.cc:451:
// Failed to register worker ...", "(pid=gcs_server) [2021-11-08
// 14:04:01,117 E 145 145] gcs_actor_scheduler.cc:498: Cannot create an
// actor ..."); behind that prefix the line has no level the entry package
// reads. rayRelayedCoreSeverity reads it: the E level is an error, C and F
// (RAY_LOG(FATAL)) are critical; I, W and D lines are routine.

// maxRayPrefix bounds the driver's process prefix in front of the header.
const maxRayPrefix = 160

// rayRelayedCoreSeverity returns the severity of l when it is a Ray C++
// line at an error or fatal level behind the driver's process prefix (see
// above); "" for any other line. The byte test is l's opening parenthesis.
func rayRelayedCoreSeverity(l string) patterns.Severity {
	if l == "" || l[0] != '(' {
		return ""
	}
	end := strings.Index(l[:min(len(l), maxRayPrefix)], ") [")
	if end < 1 {
		return ""
	}
	switch rayCoreLevel(l[end+3:]) {
	case 'E':
		return patterns.SeverityError
	case 'C', 'F':
		return patterns.SeverityCritical
	}
	return ""
}

// rayCoreLevel returns the level letter of Ray's C++ header that h opens
// with after its "[": "2021-11-18 20:33:44,699 E 69952 69952] "; 0 when h
// opens with none.
func rayCoreLevel(h string) byte {
	const layout = "dddd-dd-dd dd:dd:dd,ddd L "
	if len(h) < len(layout)+4 {
		return 0
	}
	for i := 0; i < len(layout); i++ {
		switch layout[i] {
		case 'd':
			if !isDigitByte(h[i]) {
				return 0
			}
		case 'L':
		default:
			if h[i] != layout[i] {
				return 0
			}
		}
	}
	// The pid and the thread, then the header's closing bracket.
	r := h[len(layout):]
	i := 0
	for i < len(r) && isDigitByte(r[i]) {
		i++
	}
	if i == 0 || i >= len(r) || r[i] != ' ' {
		return 0
	}
	j := i + 1
	for j < len(r) && isDigitByte(r[j]) {
		j++
	}
	if j == i+1 || j+1 >= len(r) || r[j] != ']' || r[j+1] != ' ' {
		return 0
	}
	return h[len(layout)-2]
}
