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
// field.
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
		return
	}
	leadWithRecord(d, rec, max(strings.Index(e.Text, line), 0), line)
}
