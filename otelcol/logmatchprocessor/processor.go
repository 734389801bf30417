package logmatchprocessor

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/component/componentstatus"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/processor/processorhelper"
	"go.uber.org/zap"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// logmatchProcessor holds the compiled catalog and the scratch space that
// concurrent ConsumeLogs calls borrow. It keeps nothing between batches.
type logmatchProcessor struct {
	cfg    *Config
	logger *zap.Logger
	m      *matcher.Matcher // set by start, read-only afterwards
	host   component.Host
	pool   sync.Pool // *scratch

	// degraded is true while the last batch had pattern errors, so status
	// events go out when the health changes, not once per batch.
	degraded atomic.Bool
}

// scratch is one goroutine's working space: an Assembler is not safe for
// concurrent use, and reusing the slices keeps a miss allocation-light.
type scratch struct {
	asm *entry.Assembler
	an  *analysis.Analyzer // of the processor's matcher, built on first use
}

// result is the diagnosis of one log record: the most telling diagnosis
// of the entries its body holds, copied out of the Analyzer's scratch.
type result struct {
	matched  bool
	rec      *patterns.Record // the cause's record; nil when unclassified
	role     patterns.Role
	severity patterns.Severity
	headline string
	exc      entry.Exception // zero when the cause is not a Python exception
	root     string          // "Type: message" of the chain's root cause
	context  []string        // slugs of the wrapper records around the cause
	engine   string          // the configured engine, "" when not known
}

func newProcessor(cfg *Config, logger *zap.Logger) *logmatchProcessor {
	p := &logmatchProcessor{cfg: cfg, logger: logger}
	p.pool.New = func() any { return &scratch{asm: entry.NewAssembler(entry.Options{})} }
	return p
}

// start loads and compiles the catalog; an unreadable catalog path fails
// the Collector's start rather than a running pipeline.
func (p *logmatchProcessor) start(_ context.Context, host component.Host) error {
	m, problems, err := loadMatcher(p.cfg)
	for _, pr := range problems {
		p.logger.Warn("catalog problem", zap.String("level", pr.Level.String()), zap.String("problem", pr.Error()))
	}
	if err != nil {
		return fmt.Errorf("logmatch processor: %w", err)
	}
	p.m = m
	p.host = host
	p.logger.Info("catalog loaded", zap.Int("records", m.Len()), zap.Int("problems", len(problems)))
	return nil
}

// processLogs enriches every matching record in place, adds incident
// events when configured, and drops non-matching records with
// forward: hits.
func (p *logmatchProcessor) processLogs(_ context.Context, ld plog.Logs) (plog.Logs, error) {
	sc := p.pool.Get().(*scratch)
	defer p.pool.Put(sc)
	patternErrors := 0
	hitsOnly := p.cfg.Forward == ForwardHits
	rls := ld.ResourceLogs()
	for i := 0; i < rls.Len(); i++ {
		rl := rls.At(i)
		sls := rl.ScopeLogs()
		var incidents plog.LogRecordSlice
		haveIncidents := false
		for j := 0; j < sls.Len(); j++ {
			lrs := sls.At(j).LogRecords()
			lrs.RemoveIf(func(lr plog.LogRecord) bool {
				res, nerr := p.match(sc, p.subject(lr))
				patternErrors += nerr
				if !res.matched {
					return hitsOnly
				}
				enrich(lr.Attributes(), &res)
				if p.cfg.SetSeverity {
					setSeverity(lr, res.severity)
				}
				if p.cfg.EmitIncidents {
					if !haveIncidents {
						incidents, haveIncidents = plog.NewLogRecordSlice(), true
					}
					incident(incidents.AppendEmpty(), lr, &res)
				}
				return false
			})
		}
		if hitsOnly {
			sls.RemoveIf(func(sl plog.ScopeLogs) bool { return sl.LogRecords().Len() == 0 })
		}
		if haveIncidents {
			sl := sls.AppendEmpty()
			sl.Scope().SetName(ScopeName)
			incidents.MoveAndAppendTo(sl.LogRecords())
		}
	}
	if hitsOnly {
		rls.RemoveIf(func(rl plog.ResourceLogs) bool { return rl.ScopeLogs().Len() == 0 })
	}
	p.reportHealth(patternErrors)
	if ld.LogRecordCount() == 0 {
		// Nothing left to send: an empty export would only cost a request.
		return ld, processorhelper.ErrSkipProcessingData
	}
	return ld, nil
}

// subject returns the text configured by match: the body, or an attribute
// rendered as a string; "" when the record has neither.
func (p *logmatchProcessor) subject(lr plog.LogRecord) string {
	v := lr.Body()
	if p.cfg.Match != MatchBody {
		var ok bool
		if v, ok = lr.Attributes().Get(p.cfg.Match); !ok {
			return ""
		}
	}
	switch v.Type() {
	case pcommon.ValueTypeEmpty:
		return ""
	case pcommon.ValueTypeStr:
		return v.Str()
	}
	return v.AsString()
}

// match assembles text into logmatch entries, as the sidecar does with a
// log file, diagnoses each with the shared analysis core and returns the
// most telling diagnosis with the number of pattern errors. A record body
// usually holds one entry (a header line and its traceback); when it
// holds several, a cause beats a consequence, a consequence beats a bare
// wrapper, then the more severe wins, then a classified one, then the
// earlier entry.
func (p *logmatchProcessor) match(sc *scratch, text string) (result, int) {
	var res result
	if text == "" {
		return res, 0
	}
	if sc.an == nil || sc.an.Matcher() != p.m {
		sc.an = analysis.New(p.m)
		sc.an.SetEngine(p.cfg.Engine)
	}
	nerr := 0
	consider := func(es []entry.Entry) {
		for i := range es {
			d, ok := sc.an.Analyze(&es[i])
			nerr += len(d.PatternErrors)
			for _, pe := range d.PatternErrors {
				p.logger.Debug("pattern error", zap.Error(pe.Err))
			}
			if !ok || (res.matched && !better(&d, &res)) {
				continue
			}
			res = resultOf(&d)
		}
	}
	for offset := int64(0); text != ""; offset++ {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		consider(sc.asm.Push(entry.Line{Text: strings.TrimSuffix(line, "\r"), Offset: offset}))
	}
	consider(sc.asm.Flush())
	res.engine = p.cfg.Engine
	return res, nerr
}

// resultOf copies what the processor keeps of a diagnosis.
func resultOf(d *analysis.Diagnosis) result {
	res := result{matched: true, role: d.Role, severity: d.Severity, headline: d.Headline}
	if d.Cause != nil {
		res.rec = d.Cause.Record
	}
	if d.Exception != nil {
		res.exc = *d.Exception
	}
	res.root = analysis.ExceptionLine(d.RootCause)
	for _, h := range d.Context {
		res.context = append(res.context, h.Record.Slug)
	}
	return res
}

// better reports whether diagnosis d is more telling than the result so
// far; see match.
func better(d *analysis.Diagnosis, r *result) bool {
	if a, b := analysis.RolePriority(d.Role), analysis.RolePriority(r.role); a != b {
		return a < b
	}
	if a, b := d.Severity.Rank(), r.severity.Rank(); a != b {
		return a > b
	}
	return d.Cause != nil && r.rec == nil
}

// reportHealth tells the host when pattern errors (timeouts, stack limits)
// start or stop: a recoverable error, since the other patterns still match.
func (p *logmatchProcessor) reportHealth(patternErrors int) {
	if p.host == nil {
		return
	}
	if patternErrors > 0 {
		if !p.degraded.Swap(true) {
			componentstatus.ReportStatus(p.host, componentstatus.NewRecoverableErrorEvent(
				fmt.Errorf("logmatch processor: %d catalog patterns failed to finish matching (timeout or stack limit)", patternErrors)))
		}
		return
	}
	if p.degraded.Swap(false) {
		componentstatus.ReportStatus(p.host, componentstatus.NewEvent(componentstatus.StatusOK))
	}
}
