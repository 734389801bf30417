package logmatchprocessor

import (
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"

	"github.com/logmatch/logmatch/patterns"
)

// Attribute keys the processor sets on a matched record. Empty catalog
// fields are left out rather than set to "".
const (
	AttrRecordID         = "logmatch.record.id"
	AttrSlug             = "logmatch.slug"
	AttrSeverity         = "logmatch.severity"
	AttrSolutions        = "logmatch.solutions"
	AttrEngine           = "logmatch.engine"
	AttrPreventionTips   = "logmatch.prevention_tips"
	AttrDocumentation    = "logmatch.documentation"
	AttrGithubURL        = "logmatch.github_url"
	AttrHandlingStrategy = "logmatch.handling_strategy"
	AttrHeadline         = "logmatch.headline"
	AttrRole             = "logmatch.role"
	AttrContext          = "logmatch.context"
	AttrRootCause        = "logmatch.root_cause"
	AttrExceptionType    = "exception.type"
	AttrExceptionMessage = "exception.message"
)

// UnclassifiedSlug is the slug of a failure no record names (the sidecar's
// alerts use the same).
const UnclassifiedSlug = "unclassified"

// IncidentEventName is the event name of the incident records
// (emit_incidents), as logmatch's OpenTelemetry sink names its events.
const IncidentEventName = "logmatch.incident"

// enrich writes the diagnosis (its record when it has one) and its
// exception into attrs.
func enrich(attrs pcommon.Map, res *result) {
	if rec := res.rec; rec != nil {
		putStr(attrs, AttrRecordID, rec.ID)
		putStr(attrs, AttrSlug, rec.Slug)
		putSlice(attrs, AttrSolutions, rec.SolutionsFor(res.engine))
		putSlice(attrs, AttrPreventionTips, rec.PreventionTips)
		putStr(attrs, AttrDocumentation, rec.Documentation)
		putStr(attrs, AttrGithubURL, rec.GithubURL)
		putStr(attrs, AttrHandlingStrategy, rec.HandlingStrategy)
	} else {
		putStr(attrs, AttrSlug, UnclassifiedSlug)
	}
	putStr(attrs, AttrEngine, res.engine)
	putStr(attrs, AttrSeverity, string(res.severity))
	putStr(attrs, AttrRole, string(res.role))
	putStr(attrs, AttrHeadline, res.headline)
	putSlice(attrs, AttrContext, res.context)
	putStr(attrs, AttrRootCause, res.root)
	putStr(attrs, AttrExceptionType, res.exc.Type)
	putStr(attrs, AttrExceptionMessage, res.exc.Message)
}

func putStr(attrs pcommon.Map, k, v string) {
	if v != "" {
		attrs.PutStr(k, v)
	}
}

func putSlice(attrs pcommon.Map, k string, vs []string) {
	if len(vs) == 0 {
		return
	}
	s := attrs.PutEmptySlice(k)
	s.EnsureCapacity(len(vs))
	for _, v := range vs {
		s.AppendEmpty().SetStr(v)
	}
}

// setSeverity maps a catalog severity onto the OpenTelemetry severity
// scale; an unknown severity leaves the record's own.
func setSeverity(lr plog.LogRecord, s patterns.Severity) {
	var n plog.SeverityNumber
	var text string
	switch s {
	case patterns.SeverityInfo:
		n, text = plog.SeverityNumberInfo, "INFO"
	case patterns.SeverityWarning:
		n, text = plog.SeverityNumberWarn, "WARN"
	case patterns.SeverityError:
		n, text = plog.SeverityNumberError, "ERROR"
	case patterns.SeverityCritical:
		n, text = plog.SeverityNumberFatal, "FATAL"
	default:
		return
	}
	lr.SetSeverityNumber(n)
	lr.SetSeverityText(text)
}
