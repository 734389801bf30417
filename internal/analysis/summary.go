package analysis

import (
	"slices"
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/patterns"
)

// A launcher's failure summary. torch elastic's launcher (torchrun,
// python -m torch.distributed.run, accelerate launch) ends a run whose
// worker failed with a summary of "key : value" fields per rank, headed
// by "[N]:" ("time", "host", "rank", "exitcode", "error_file",
// "traceback"), under "Failures:" and "Root Cause (first observed
// failure):". A paste, a collector or a tail often keeps the fields and
// loses the ChildFailedError traceback above them; the fields alone are
// still the launcher's report that a worker exited with a non-zero code.
// It is read as the failure the catalog's record of that report names
// (the record tagged "torchrun" and "exit-code"): a consequence of the
// worker's own error, which leads when it is in sight.

// maxSummaryLines bounds the lines elasticExit reads.
const maxSummaryLines = 64

// elasticExit returns the exit code field of torch elastic's failure
// summary in text, trimmed ("exitcode  : 1 (pid: 69811)"), when its code
// is not 0; "" when text has none.
func elasticExit(text string) string {
	if ascii.IndexByRare(text, "exitcode", 1) < 0 { // read for every failure: by its 'x'
		return ""
	}
	n := 0
	for line := range strings.Lines(text) {
		if n++; n > maxSummaryLines {
			break
		}
		t := strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(t, "exitcode")
		if !ok {
			continue
		}
		rest = strings.TrimLeft(rest, " ")
		rest, ok = strings.CutPrefix(rest, ": ")
		if !ok {
			continue
		}
		code, pid, ok := strings.Cut(rest, " (pid: ")
		code = strings.TrimPrefix(code, "-")
		if !ok || code == "" || !ascii.Digits(code) || strings.Trim(code, "0") == "" {
			continue
		}
		pid, ok = strings.CutSuffix(pid, ")")
		if !ok || pid == "" || !ascii.Digits(pid) {
			continue
		}
		return t
	}
	return ""
}

// summaryTags are the tags of the record of torch elastic's report that a
// worker failed.
var summaryTags = [...]string{"torchrun", "exit-code"}

// summaryRecord returns the catalog's record of torch elastic's failure
// report (summaryTags), nil when there is none or it is not for the
// entry's engine. It is looked up once per Analyzer.
func (a *Analyzer) summaryRecord(e *entry.Entry) *patterns.Record {
	if !a.summaryRead {
		a.summaryRead = true
		recs := a.m.Matcher().Records()
		for i := range recs {
			r := &recs[i]
			if len(r.Solutions) > 0 && slices.Contains(r.Tags, summaryTags[0]) && slices.Contains(r.Tags, summaryTags[1]) {
				a.summaryRec = r
				break
			}
		}
	}
	if r := a.summaryRec; r != nil && r.ForEngine(a.entryEngine(e)) {
		return r
	}
	return nil
}

// leadWithSummaryRecord makes the record of torch elastic's failure report
// the cause of d, an unclassified entry that holds the report's exit code
// field. Without that record, the entry is headed by its rank's block
// (summaryHeadline).
func (a *Analyzer) leadWithSummaryRecord(d *Diagnosis, e *entry.Entry) {
	if d.Cause != nil || d.Signal != SignalLevel || e.Level != "" {
		return
	}
	line := elasticExit(e.Text)
	if line == "" {
		return
	}
	rec := a.summaryRecord(e)
	if rec == nil {
		a.summaryHeadline(d, e, line)
		return
	}
	leadWithRecord(d, rec, max(strings.Index(e.Text, line), 0), line)
}

// The summary's root cause. torch elastic's summary lists under
// "Failures:" the ranks that failed after the first (the launcher
// stopped them, or they failed of the first one's failure), then under
// "Root Cause (first observed failure):" the rank that failed first: its
// rank, host and exit code, a negative code the signal that killed it
// ("exitcode  : -9 (pid: 3131)", SIGKILL). A paste or a collector splits
// the summary into one entry a rank's block ("[1]:" and its fields). With
// no record of the report, each block is read as the failure it reports,
// headed by its exit code field ("exitcode  : 1 (pid: 69812)"); the block
// printed just after the root cause's heading is the summary's failure
// ("Root Cause (first observed failure): rank 0 (local_rank: 0) exitcode
// : 1 (pid: 69811)"), and every other block is a consequence: the rank
// that failed first leads them, and alone each is still alerted.

// rootCauseHeading heads the block of the rank that failed first.
const rootCauseHeading = "Root Cause (first observed failure):"

// summaryHeadline heads d, an unclassified entry that holds the exit code
// field line of torch elastic's summary, by that field (see above).
func (a *Analyzer) summaryHeadline(d *Diagnosis, e *entry.Entry, line string) {
	root := a.prev != nil && a.prev.rootCause
	if i := strings.Index(e.Text, rootCauseHeading); i >= 0 {
		if l := elasticExit(e.Text[i:]); l != "" {
			root, line = true, l
		}
	}
	if !root {
		d.Headline = line
		d.Role = patterns.RoleConsequence
		return
	}
	h := rootCauseHeading
	if r := elasticField(e.Text, "rank"); r != "" {
		h += " rank " + r
	}
	d.Headline = h + " " + line
	if sig := exitSignal(line); sig != "" {
		d.Headline += " (killed by " + sig + ")"
	}
	// Its own incident, which the other ranks' blocks, keyed alike,
	// join as its consequences.
	d.Key += ":root-cause"
}

// elasticField returns the value of the field name of torch elastic's
// summary in text ("0 (local_rank: 0)" of "rank      : 0 (local_rank:
// 0)"), the last one printed; "" when there is none.
func elasticField(text, name string) string {
	val := ""
	n := 0
	for line := range strings.Lines(text) {
		if n++; n > maxSummaryLines {
			break
		}
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), name)
		if !ok {
			continue
		}
		rest = strings.TrimLeft(rest, " ")
		if rest, ok = strings.CutPrefix(rest, ": "); ok && len(rest) <= maxSummaryField {
			val = rest
		}
	}
	return val
}

// exitSignals name the signals a negative exit code of torch elastic's
// summary says killed the worker ("exitcode  : -9": SIGKILL).
var exitSignals = map[string]string{
	"2": "SIGINT", "4": "SIGILL", "6": "SIGABRT", "7": "SIGBUS", "8": "SIGFPE",
	"9": "SIGKILL", "11": "SIGSEGV", "15": "SIGTERM",
}

// exitSignal returns the name of the signal the exit code field line
// says killed the worker ("SIGKILL" of "exitcode  : -9 (pid: 14750)"); ""
// for an exit of its own.
func exitSignal(line string) string {
	_, rest, ok := strings.Cut(line, ": -")
	if !ok {
		return ""
	}
	code, _, _ := strings.Cut(rest, " ")
	return exitSignals[code]
}

// maxSummaryField bounds a field elasticField returns.
const maxSummaryField = 64

// rootCauseAhead reports whether e's last line is the heading of the
// summary's root cause: the entry after it is the block of the rank that
// failed first.
func rootCauseAhead(e *entry.Entry) bool {
	t := strings.TrimRight(e.Text, " \t\r\n")
	return strings.HasSuffix(t, rootCauseHeading)
}
