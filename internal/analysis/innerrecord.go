package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// A collector that does not know vLLM's format puts its own prefix, with
// its own level, in front of each line vLLM printed: Google Cloud
// Logging's export ("INFO 2025-11-19T20:16:36.096625454Z
// [resource.labels.containerName: vllm] (EngineCore_DP0 pid=270) ERROR
// 11-19 12:16:36 [v1/engine/core.py:842] torch.OutOfMemoryError: CUDA out
// of memory. ..."). The entry package reads vLLM's header only where the
// line opens with it (or with a process label); behind such a prefix,
// vLLM's ERROR header is read here: its level word, the date and time
// ("MM-DD HH:MM:SS"), the source location in brackets, and a message that
// opens with an exception's type, the line that ends a traceback vLLM
// printed line by line (each line of the traceback carries the header:
// reading only its exception line gives one signal for it).

// innerRecordCandidate is innerRecordError's byte test: l holds "ERROR ",
// found by its capital R.
func innerRecordCandidate(l string) bool {
	return ascii.IndexByRare(l, "ERROR ", 1) > 0
}

// innerRecordError reports whether l holds, after a prefix, vLLM's ERROR
// header and an exception line (see above).
func innerRecordError(l string) bool {
	for from, n := 0, 0; from < len(l) && n < maxQuotedAnchors; n++ {
		i := ascii.IndexByRare(l[from:], "ERROR ", 1)
		if i < 0 {
			return false
		}
		at := from + i
		from = at + len("ERROR ")
		if at == 0 || l[at-1] != ' ' {
			continue
		}
		if msg, ok := vllmHeaderRest(l[from:]); ok && exceptionTypeOpens(msg) {
			return true
		}
	}
	return false
}

// vllmHeaderRest returns what follows vLLM's header after its level word:
// "MM-DD HH:MM:SS", optional milliseconds, " [<location>] ". ok is false
// when s does not open so.
func vllmHeaderRest(s string) (string, bool) {
	const stamp = "00-00 00:00:00"
	if len(s) < len(stamp)+4 {
		return "", false
	}
	for k := 0; k < len(stamp); k++ {
		if stamp[k] == '0' && !isDigitByte(s[k]) || stamp[k] != '0' && s[k] != stamp[k] {
			return "", false
		}
	}
	r := s[len(stamp):]
	if strings.HasPrefix(r, ".") {
		k := 1
		for k < len(r) && k < 8 && isDigitByte(r[k]) {
			k++
		}
		r = r[k:]
	}
	r, ok := strings.CutPrefix(r, " [")
	if !ok {
		return "", false
	}
	end := strings.Index(r[:min(len(r), maxLineTag+2)], "] ")
	if end < 1 || strings.ContainsAny(r[:end], " []") {
		return "", false
	}
	return r[end+2:], true
}
