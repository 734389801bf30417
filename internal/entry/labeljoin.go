package entry

import (
	"strings"
	"time"
)

// A message label alone at a record's end ("Last error:", "Caused by:",
// "Reason:") with what it labels in the next record: a logger that
// writes each line of a message as a record of its own (a handler that
// splits on newlines, a relay that logs its child's lines one by one)
// repeats its header before the content. The two records are one
// message, read together: the content is the failure the label's line
// names.

// messageLabels are the labels a failure line ends with when its
// writer prints what they label on the next line: NCCL's last warning,
// the cause chains of Rust's anyhow and Java's exceptions, glog's and
// Kubernetes' reason and message rows, the error a wrapper relays.
var messageLabels = [...]string{"Last error:", "Caused by:", "Reason:", "Details:", "Message:", "Error:", "error:", "Cause:", "Root cause:", "Error message:", "Exception:", "Stack trace:", "Stderr:", "stderr:", "Output:"}

// endsInMessageLabel reports whether s ends in one of messageLabels as
// its last token: the line's start or a space before it. A label is short
// and ends in a colon, so most lines are decided by their last byte.
func endsInMessageLabel(s string) bool {
	s = strings.TrimRight(s, " \t")
	if s == "" || s[len(s)-1] != ':' {
		return false
	}
	for _, l := range messageLabels {
		if strings.HasSuffix(s, l) && (len(s) == len(l) || s[len(s)-len(l)-1] == ' ') {
			return true
		}
	}
	return false
}

// labelJoins reports whether the header line c carries the content the
// pending record's last line labelled: the pending entry is a record with
// no traceback whose last line ends in a message label, and c is the
// same logger's next record (or the next line of NCCL's message, which
// the NCCL state reads), with no blank line between: the same header
// format, level, second, process and rank, and a message of its own. The
// label's level must say it failed (a warning or worse): an info record
// ending in "Output:" introduces a listing, no failure.
func (a *Assembler) labelJoins(c *classified) bool {
	p := &a.cur
	if !failureLevel(p.level) || p.hasTB || c.h.format != p.format || normLevel(c.h.level) != p.level || a.spacing.real(p.blanks) > 0 {
		return false
	}
	if isBlank(c.h.msg) || c.proc != p.proc || c.h.ranks != p.ranks || otherRayActor(p.prefix, c.prefix) || otherRank(p.prefix, c.prefix) {
		return false
	}
	if !c.h.time.Truncate(time.Second).Equal(p.time.Truncate(time.Second)) {
		return false
	}
	if endsInMessageLabel(a.kept.last()) {
		return true
	}
	// NCCL's message goes on with its error name and "Last error:"
	// without a label at the end of its first line; the record's first
	// line is read by its message, after the header.
	st := a.ncclState()
	if st == ncclNone && a.kept.count() == 1 {
		st = ncclNext(ncclNone, p.msg)
	}
	return st != ncclNone && ncclContinues(st, c.h.msg)
}

// failureLevel reports whether level, normalised, is a warning or worse.
func failureLevel(level string) bool {
	switch level {
	case LevelWarning, LevelError, LevelCritical, LevelFatal:
		return true
	}
	return false
}
