package logmatchprocessor

import (
	"fmt"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"

	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// Attributes of an incident record beyond the enrichment ones, named as
// logmatch's OpenTelemetry sink names them, so a backend routes the
// Collector's incidents and the sidecar's alike.
const (
	AttrKind             = "logmatch.kind"
	AttrFingerprint      = "logmatch.fingerprint"
	AttrCount            = "logmatch.count"
	AttrRanks            = "logmatch.ranks"
	AttrFirstRank        = "logmatch.first_rank"
	AttrErrorClass       = "logmatch.error_class"
	AttrRunbookURL       = "logmatch.runbook_url"
	AttrConsequences     = "logmatch.consequences"
	AttrConsequenceSlugs = "logmatch.consequence.slugs"
	AttrSourcePath       = "logmatch.source.path"
	AttrExceptionStack   = "exception.stacktrace"
)

// appendIncident adds a as one incident record to ld, in a resource of its
// own that names the pod (or file) it is about. The body is the alert's
// logmatch.alert/v1 JSON, the contract every logmatch sink delivers; the
// attributes mirror what a backend routes on. observed is when it was
// emitted.
func appendIncident(ld plog.Logs, a *sinks.Alert, observed time.Time) error {
	body, err := sinks.AlertJSON(a)
	if err != nil {
		return fmt.Errorf("incident %s: %w", a.Fingerprint, err)
	}
	rl := ld.ResourceLogs().AppendEmpty()
	res := rl.Resource().Attributes()
	putStr(res, attrNamespace, a.Source.Namespace)
	putStr(res, attrPodName, a.Source.Pod)
	putStr(res, attrContainer, a.Source.Container)
	putStr(res, attrNode, a.Source.Node)
	sl := rl.ScopeLogs().AppendEmpty()
	sl.Scope().SetName(ScopeName)
	lr := sl.LogRecords().AppendEmpty()
	lr.SetEventName(IncidentEventName)
	t := a.Time
	if t.IsZero() {
		t = observed
	}
	lr.SetTimestamp(pcommon.NewTimestampFromTime(t))
	lr.SetObservedTimestamp(pcommon.NewTimestampFromTime(observed))
	// Every incident is a failure someone should read: a severity the
	// scale does not know is an error.
	lr.SetSeverityNumber(plog.SeverityNumberError)
	lr.SetSeverityText(a.Record.Severity)
	setSeverity(lr, patterns.Severity(a.Record.Severity))
	lr.Body().SetStr(string(body))

	attrs := lr.Attributes()
	rec := &a.Record
	attrs.EnsureCapacity(24)
	attrs.PutStr(AttrRecordID, rec.ID)
	attrs.PutStr(AttrSlug, rec.Slug)
	attrs.PutStr(AttrSeverity, rec.Severity)
	attrs.PutStr(AttrKind, a.Kind)
	attrs.PutStr(AttrFingerprint, a.Fingerprint)
	attrs.PutInt(AttrCount, int64(a.Count))
	putStr(attrs, AttrRole, rec.Role)
	putStr(attrs, AttrHeadline, a.Headline)
	putStr(attrs, AttrFirstRank, a.FirstRank)
	putSlice(attrs, AttrRanks, a.Ranks)
	putSlice(attrs, AttrSolutions, rec.Solutions)
	putSlice(attrs, AttrPreventionTips, rec.PreventionTips)
	putStr(attrs, AttrGithubURL, rec.GithubURL)
	putStr(attrs, AttrHandlingStrategy, rec.HandlingStrategy)
	putStr(attrs, AttrErrorClass, rec.ErrorClass)
	putStr(attrs, AttrSourcePath, a.Source.Path)
	putStr(attrs, AttrRunbookURL, sinks.RunbookURL(a))
	if e := a.Match.Exception; e != nil {
		putStr(attrs, AttrExceptionType, e.Type)
		putStr(attrs, AttrExceptionMessage, e.Message)
		putStr(attrs, AttrExceptionStack, e.Stacktrace)
	}
	if len(a.Consequences) > 0 {
		lines := make([]string, len(a.Consequences))
		slugs := make([]string, len(a.Consequences))
		for i := range a.Consequences {
			lines[i] = sinks.ConsequenceLine(&a.Consequences[i])
			slugs[i] = a.Consequences[i].Slug
		}
		putSlice(attrs, AttrConsequences, lines)
		putSlice(attrs, AttrConsequenceSlugs, slugs)
	}
	return nil
}
