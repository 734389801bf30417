package logmatchprocessor

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/component/componentstatus"
	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/collector/processor/processorhelper"
	"go.uber.org/zap"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/internal/stream"
	"github.com/logmatch/logmatch/internal/telemetry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// logmatchProcessor holds the compiled catalog, the state across batches
// (tracker) and the scratch space that concurrent ConsumeLogs calls borrow
// to enrich single records.
type logmatchProcessor struct {
	cfg     *Config
	logger  *zap.Logger
	next    consumer.Logs
	metrics *telemetry.Metrics
	now     func() time.Time
	m       *matcher.Matcher // set by start, read-only afterwards
	host    component.Host
	pool    sync.Pool // *scratch

	// state is nil unless emit_incidents; set by start. Its own mutex
	// serialises ConsumeLogs calls and the ticker on it.
	state *tracker
	// The ticker goroutine: stop ends it, done says it ended, and cancel
	// abandons an emission it is blocked in.
	stop     chan struct{}
	done     chan struct{}
	cancel   context.CancelFunc
	shutOnce sync.Once

	// dropped counts the incident records the next consumer refused, as
	// logmatch.sink.dropped does.
	dropped atomic.Int64

	// degraded is true while the last batch had pattern errors, so status
	// events go out when the health changes, not once per batch.
	degraded atomic.Bool
}

// scratch is one goroutine's working space for diagnosing a record on its
// own: a stream (whose assembler is not safe for concurrent use) and a
// shell, reused so a miss stays allocation-light.
type scratch struct {
	s  *stream.Stream
	sh *stream.Shell
}

// result is the diagnosis of one log record: the most telling diagnosis
// of the entries its body holds, copied out of the shell's scratch.
type result struct {
	matched  bool
	rec      *patterns.Record // the cause's record; nil when unclassified
	role     patterns.Role
	severity patterns.Severity
	headline string
	exc      entry.Exception // zero when the cause is not a Python exception
	root     string          // "Type: message" of the chain's root cause
	context  []string        // slugs of the wrapper records around the cause
	engine   string          // the configured engine: its remedies follow the solutions
}

func newProcessor(cfg *Config, set processor.Settings, next consumer.Logs) (*logmatchProcessor, error) {
	metrics, err := telemetry.NewMetrics(set.MeterProvider.Meter(ScopeName))
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	p := &logmatchProcessor{cfg: cfg, logger: set.Logger, next: next, metrics: metrics, now: time.Now}
	p.pool.New = func() any {
		s := stream.New("", entry.Options{})
		if cfg.Engine != "" {
			s.SetEngine(cfg.Engine)
		}
		return &scratch{s: s}
	}
	return p, nil
}

// start loads and compiles the catalog, and with emit_incidents starts the
// ticker that completes idle streams and emits settled incidents when no
// batch arrives. An unreadable catalog path fails the Collector's start
// rather than a running pipeline.
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
	p.metrics.CatalogRecords(m.Len())
	p.logger.Info("catalog loaded", zap.Int("records", m.Len()), zap.Int("problems", len(problems)))
	if p.cfg.EmitIncidents {
		p.state = newTracker(p.cfg, m, p.metrics, p.logger, p.now)
		ctx, cancel := context.WithCancel(context.Background())
		p.stop, p.done, p.cancel = make(chan struct{}), make(chan struct{}), cancel
		go p.loop(ctx, tickPeriod(p.cfg))
	}
	return nil
}

// tickPeriod is how often the ticker looks for idle streams and settled
// incidents: often enough that neither waits much past its time.
func tickPeriod(c *Config) time.Duration {
	d := c.IdleFlush / 2
	if c.SettleTime > 0 && c.SettleTime/2 < d {
		d = c.SettleTime / 2
	}
	return min(max(d, 10*time.Millisecond), 500*time.Millisecond)
}

// loop is the ticker goroutine: the only caller of tracker.tick.
func (p *logmatchProcessor) loop(ctx context.Context, period time.Duration) {
	defer close(p.done)
	tk := time.NewTicker(period)
	defer tk.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-tk.C:
			as, perrs := p.state.tick(p.now())
			if perrs > 0 {
				p.reportHealth(perrs)
			}
			p.emit(ctx, as)
		}
	}
}

// shutdown stops the ticker, then completes every stream and closes every
// incident, sending what they held on: nothing read is lost at the end of
// the pipeline.
func (p *logmatchProcessor) shutdown(ctx context.Context) error {
	p.shutOnce.Do(func() {
		if p.stop == nil {
			return // never started
		}
		// The ticker finishes what it is sending, unless the shutdown's
		// own deadline comes first.
		close(p.stop)
		select {
		case <-p.done:
		case <-ctx.Done():
			p.cancel()
			<-p.done
		}
		p.cancel()
		as, _ := p.state.flush(p.now())
		p.emit(ctx, as)
	})
	return nil
}

// emit sends alerts on as incident records, outside any batch. A refusal
// by the next consumer is logged and counted: the Collector retries in
// its exporters, not here.
func (p *logmatchProcessor) emit(ctx context.Context, as []sinks.Alert) {
	if len(as) == 0 {
		return
	}
	ld := plog.NewLogs()
	p.appendIncidents(ld, as)
	n := ld.LogRecordCount()
	if n == 0 {
		return
	}
	if err := p.next.ConsumeLogs(ctx, ld); err != nil {
		p.dropped.Add(int64(n))
		p.metrics.AlertDropped(sinkName, "consumer_error", n)
		p.logger.Warn("incident records refused by the next consumer", zap.Int("records", n), zap.Error(err))
	}
}

// sinkName labels the processor's drops in logmatch.sink.dropped.
const sinkName = "otelcol"

// appendIncidents adds one record per alert to ld. Updates (an incident
// still active at the end of a window) are left out: they exist for
// receivers that expire what is not re-posted, and a log backend keeps
// every record.
func (p *logmatchProcessor) appendIncidents(ld plog.Logs, as []sinks.Alert) {
	now := p.now()
	for i := range as {
		a := &as[i]
		if a.Kind == incident.KindUpdate {
			continue
		}
		if err := appendIncident(ld, a, now); err != nil {
			p.metrics.AlertDropped(sinkName, "render", 1)
			p.logger.Warn("incident record not built", zap.Error(err))
			continue
		}
		p.metrics.Incident(a.Record.ID, a.Record.Severity, a.Kind)
	}
}

// processLogs feeds every record into the per-stream state, enriches the
// records forwarded that match on their own, drops what forward leaves
// out, and appends the incidents that became due.
func (p *logmatchProcessor) processLogs(_ context.Context, ld plog.Logs) (plog.Logs, error) {
	var as []sinks.Alert
	patternErrors := 0
	if p.state != nil {
		as, patternErrors = p.state.consume(ld, p.subject, p.now())
	}
	if p.cfg.Forward == ForwardNone {
		ld.ResourceLogs().RemoveIf(func(plog.ResourceLogs) bool { return true })
	} else {
		patternErrors += p.enrichAll(ld)
	}
	p.appendIncidents(ld, as)
	p.reportHealth(patternErrors)
	if ld.LogRecordCount() == 0 {
		// Nothing left to send: an empty export would only cost a request.
		return ld, processorhelper.ErrSkipProcessingData
	}
	return ld, nil
}

// enrichAll enriches in place every record that matches on its own and,
// with forward: hits, drops the others. It returns the pattern errors.
func (p *logmatchProcessor) enrichAll(ld plog.Logs) int {
	sc := p.pool.Get().(*scratch)
	defer p.pool.Put(sc)
	patternErrors := 0
	hitsOnly := p.cfg.Forward == ForwardHits
	rls := ld.ResourceLogs()
	for i := 0; i < rls.Len(); i++ {
		sls := rls.At(i).ScopeLogs()
		for j := 0; j < sls.Len(); j++ {
			sls.At(j).LogRecords().RemoveIf(func(lr plog.LogRecord) bool {
				res, nerr := p.match(sc, p.subject(lr))
				patternErrors += nerr
				if !res.matched {
					return hitsOnly
				}
				res.engine = p.cfg.Engine
				enrich(lr.Attributes(), &res)
				if p.cfg.SetSeverity {
					setSeverity(lr, res.severity)
				}
				return false
			})
		}
		if hitsOnly {
			sls.RemoveIf(func(sl plog.ScopeLogs) bool { return sl.LogRecords().Len() == 0 })
		}
	}
	if hitsOnly {
		rls.RemoveIf(func(rl plog.ResourceLogs) bool { return rl.ScopeLogs().Len() == 0 })
	}
	return patternErrors
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
// log file, diagnoses each through the shared shell and returns the most
// telling diagnosis with the number of pattern errors. A record body
// usually holds one entry (a header line and its traceback); when it
// holds several, a cause beats a consequence, a consequence beats a bare
// wrapper, then the more severe wins, then a classified one, then the
// earlier entry.
func (p *logmatchProcessor) match(sc *scratch, text string) (result, int) {
	var res result
	if text == "" {
		return res, 0
	}
	if sc.sh == nil {
		sc.sh = stream.NewShell(p.m, p.now)
	}
	nerr := 0
	consider := func(de *stream.Entry) {
		d := de.Diagnosis
		nerr += len(d.PatternErrors)
		for _, pe := range d.PatternErrors {
			p.logger.Debug("pattern error", zap.Error(pe.Err))
		}
		if !de.Failure || (res.matched && !better(d, &res)) {
			return
		}
		res = resultOf(d)
	}
	for offset := int64(0); text != ""; offset++ {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		sc.sh.Diagnose(sc.s, sc.s.Push(&entry.Line{Text: strings.TrimSuffix(line, "\r"), Offset: offset}), consider)
	}
	sc.sh.Diagnose(sc.s, sc.s.Flush(), consider)
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
