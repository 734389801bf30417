package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// A hosting platform that runs the server's container reports, on its
// own status line, that the container exited, with its exit code and the
// tail of the container's log as the reason, cut wherever the tail began:
// Hugging Face's Inference Endpoints ("[Server message]Endpoint failed to
// start", then `Exit code: 1. Reason: :"backends/v3/src/client/mod.rs",...`)
// and Spaces ("runtime error", then "Exit code: 1. Reason: nection and try
// again ..."). A non-zero code is the server's death, whatever the tail
// holds: critical. The bare line before it that says what failed ("...
// Endpoint failed to start") heads it (see streamDecided); a traceback the
// tail or the container's log shows is read as any other.

// platformExitMarker opens the status line; platformReasonMarker follows
// its code.
const (
	platformExitMarker   = "Exit code: "
	platformReasonMarker = ". Reason:"
)

// maxExitDigits bounds the exit code's digits.
const maxExitDigits = 10

// platformExitCode returns the exit code of l, a hosting platform's
// report that the container exited (see above), when it is not zero; ""
// otherwise.
func platformExitCode(l string) string {
	r, ok := strings.CutPrefix(strings.TrimLeft(l, " \t"), platformExitMarker)
	if !ok {
		return ""
	}
	j := 0
	if j < len(r) && r[j] == '-' {
		j++
	}
	for j < len(r) && j <= maxExitDigits && isDigitByte(r[j]) {
		j++
	}
	code := r[:j]
	if code == "" || code == "-" || !strings.HasPrefix(r[j:], platformReasonMarker) || strings.Trim(code, "-0") == "" || !ascii.Digits(strings.TrimPrefix(code, "-")) {
		return ""
	}
	return code
}
