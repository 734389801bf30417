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

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
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
	asm   *entry.Assembler
	hits  []matcher.Hit
	perrs []matcher.PatternError
	types []string
}

// result is the best hit of one log record and the exception it names.
type result struct {
	hit     matcher.Hit
	exc     entry.Exception // zero when the record holds no traceback
	matched bool
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
					setSeverity(lr, res.hit.Record.Severity)
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
// log file, and returns the best hit over all of them with the number of
// pattern errors. A record body usually holds one entry (a header line and
// its traceback); when it holds several, a hit whose errorClass agrees with
// its traceback wins, then the longer literal, then the earlier entry: the
// matcher's own ranking keys.
func (p *logmatchProcessor) match(sc *scratch, text string) (result, int) {
	var res result
	if text == "" {
		return res, 0
	}
	nerr := 0
	consider := func(es []entry.Entry) {
		for i := range es {
			e := &es[i]
			sc.types = sc.types[:0]
			if e.Traceback != nil {
				for _, l := range e.Traceback.Links {
					sc.types = append(sc.types, l.Type)
				}
			}
			sc.hits, sc.perrs = p.m.AppendMatch(sc.hits[:0], sc.perrs[:0], matcher.Subject{Text: e.Text, ExceptionTypes: sc.types})
			nerr += len(sc.perrs)
			for _, pe := range sc.perrs {
				p.logger.Debug("pattern error", zap.Error(pe.Err))
			}
			if len(sc.hits) == 0 || (res.matched && !better(sc.hits[0], res.hit)) {
				continue
			}
			res = result{hit: sc.hits[0], matched: true}
			if ex := exceptionFor(e.Traceback, res.hit.Record.ErrorClass); ex != nil {
				res.exc = *ex
			}
		}
	}
	for offset := int64(0); text != ""; offset++ {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		consider(sc.asm.Push(entry.Line{Text: strings.TrimSuffix(line, "\r"), Offset: offset}))
	}
	consider(sc.asm.Flush())
	clear(sc.hits[:cap(sc.hits)]) // drop references into this batch before pooling
	return res, nerr
}

// better reports whether a outranks b by the matcher's first two keys.
func better(a, b matcher.Hit) bool {
	if a.ClassAgrees != b.ClassAgrees {
		return a.ClassAgrees
	}
	return a.LiteralLen > b.LiteralLen
}

// exceptionFor picks the link of tb that the record describes: the one
// whose type agrees with errorClass, else the outermost exception.
func exceptionFor(tb *entry.Traceback, errorClass string) *entry.Exception {
	if tb == nil || len(tb.Links) == 0 {
		return nil
	}
	if errorClass != "" {
		for i := len(tb.Links) - 1; i >= 0; i-- {
			if lastDotted(tb.Links[i].Type) == lastDotted(errorClass) {
				return &tb.Links[i]
			}
		}
	}
	return tb.Outermost()
}

// lastDotted returns the last component of a dotted name: torch.OutOfMemoryError
// and OutOfMemoryError name the same class, as the matcher compares them.
func lastDotted(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
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
