package logmatchprocessor

import (
	"errors"
	"fmt"
	"time"

	"github.com/logmatch/logmatch/internal/engine"
	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/patterns"
)

// Values of Config.Forward.
const (
	// ForwardAll passes every record on, enriched or not.
	ForwardAll = "all"
	// ForwardHits passes on only the records that matched on their own.
	ForwardHits = "hits"
	// ForwardNone passes no log record on: only the incidents leave the
	// processor.
	ForwardNone = "none"
)

// MatchBody is the Config.Match value that matches the record body.
const MatchBody = "body"

// Defaults of the incident options, the same as logmatch run's.
const (
	DefaultSettleTime        = incident.DefaultSettle
	DefaultGroupWindow       = 5 * time.Minute
	DefaultRepeatInterval    = 4 * time.Hour
	DefaultCorrelationWindow = incident.DefaultCorrelation
	DefaultConsequenceWait   = incident.DefaultConsequenceWait
	DefaultMaxOpenIncidents  = 2000
	// DefaultMaxStreams bounds the streams whose assembly state is kept: a
	// gateway receiving many nodes' pods needs more.
	DefaultMaxStreams = 10000
	// DefaultIdleFlush completes an entry whose stream sent nothing for
	// this long. Longer than run's: a receiver delivers lines in batches,
	// a poll interval apart.
	DefaultIdleFlush = time.Second
)

// Config is the processor's configuration, as written under
// processors: logmatch: in a Collector config.
type Config struct {
	// Catalogs are JSONL catalog files or directories, laid over the
	// embedded default catalog by record id (patterns.Merge).
	Catalogs []string `mapstructure:"catalogs"`
	// NoDefaultCatalog leaves the embedded default catalog out; Catalogs
	// must then name at least one catalog.
	NoDefaultCatalog bool `mapstructure:"no_default_catalog"`
	// Match is what is searched: "body" (the default) or the name of a
	// log record attribute (for example "log" when a receiver keeps the
	// message there). A record without that attribute matches nothing.
	Match string `mapstructure:"match"`
	// MinSeverity leaves catalog records below this severity out of the
	// matcher: "info", "warning", "error" or "critical"; empty keeps all,
	// including records without a severity.
	MinSeverity string `mapstructure:"min_severity"`
	// Forward is "all" (the default), "hits" or "none": which of the
	// received log records go on. Forwarded records that match on their
	// own are enriched in place.
	Forward string `mapstructure:"forward"`
	// SetSeverity replaces a forwarded matched record's severity number
	// and text with the catalog record's severity (critical becomes FATAL).
	SetSeverity bool `mapstructure:"set_severity"`
	// EmitIncidents (the default) keeps per-stream state and adds one
	// "logmatch.incident" record per incident, carrying the alert contract
	// (logmatch.alert/v1): the same incidents logmatch scan and run report.
	EmitIncidents bool `mapstructure:"emit_incidents"`
	// Engine is the serving engine whose logs this pipeline carries
	// (sglang, vllm, tgi, trtllm, triton, lmdeploy, ollama, llamacpp): a
	// record's solutions are followed by that engine's remedies, and
	// records of other engines only do not lead. Empty: the engine is not
	// known, and only engine-neutral advice is given.
	Engine string `mapstructure:"engine"`

	// SettleTime delays an incident's first record so it carries the
	// whole burst (the traceback, every rank, the consequences).
	SettleTime time.Duration `mapstructure:"settle_time"`
	// GroupWindow is how long repeats are counted into one incident before
	// a summary record; 0 emits one record per occurrence.
	GroupWindow time.Duration `mapstructure:"group_window"`
	// RepeatInterval is how often a still-happening incident is repeated;
	// 0 sends no reminders.
	RepeatInterval time.Duration `mapstructure:"repeat_interval"`
	// CorrelationWindow is how long after a root cause a consequence on
	// the same pod (or node) is folded into its incident; 0 turns folding
	// off.
	CorrelationWindow time.Duration `mapstructure:"correlation_window"`
	// ConsequenceWait is how long an incident made only of consequences
	// (a failed health check) waits for its cause before it is emitted
	// alone; up to SettleTime, no longer than the settle time.
	ConsequenceWait time.Duration `mapstructure:"consequence_wait"`
	// MaxOpenIncidents bounds the incidents held open.
	MaxOpenIncidents int `mapstructure:"max_open_incidents"`
	// MaxStreams bounds the streams whose state is kept; the least
	// recently seen is completed and dropped to make room.
	MaxStreams int `mapstructure:"max_streams"`
	// IdleFlush completes a stream's pending entry when nothing arrived on
	// it for this long, so a traceback's last line is not held.
	IdleFlush time.Duration `mapstructure:"idle_flush"`

	// prevent unkeyed literal initialization
	_ struct{}
}

// Validate reports every problem of the configuration at once. It checks
// shape only; catalog files are read when the processor starts, so a
// missing file fails the Collector's start, never a running pipeline.
func (c *Config) Validate() error {
	var errs []error
	if c.NoDefaultCatalog && len(c.Catalogs) == 0 {
		errs = append(errs, errors.New("catalogs: no_default_catalog is set but no catalog is named"))
	}
	for i, p := range c.Catalogs {
		if p == "" {
			errs = append(errs, fmt.Errorf("catalogs[%d]: empty path", i))
		}
	}
	if c.Match == "" {
		errs = append(errs, errors.New(`match: empty; want "body" or an attribute name`))
	}
	if c.Engine != "" && !engine.Known(c.Engine) {
		errs = append(errs, fmt.Errorf("engine: unknown engine %q; want one of %v", c.Engine, engine.Names))
	}
	if c.MinSeverity != "" {
		if _, err := patterns.ParseSeverity(c.MinSeverity); err != nil {
			errs = append(errs, fmt.Errorf("min_severity: %w", err))
		}
	}
	switch c.Forward {
	case ForwardAll, ForwardHits:
	case ForwardNone:
		if !c.EmitIncidents {
			errs = append(errs, errors.New("forward: none with emit_incidents: false lets nothing through; set one of them"))
		}
		if c.SetSeverity {
			errs = append(errs, errors.New("set_severity: applies to forwarded records, and forward is none"))
		}
	default:
		errs = append(errs, fmt.Errorf("forward: %q; want %q, %q or %q", c.Forward, ForwardAll, ForwardHits, ForwardNone))
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"settle_time", c.SettleTime}, {"group_window", c.GroupWindow}, {"repeat_interval", c.RepeatInterval},
		{"correlation_window", c.CorrelationWindow}, {"consequence_wait", c.ConsequenceWait}, {"idle_flush", c.IdleFlush},
	} {
		if d.v < 0 {
			errs = append(errs, fmt.Errorf("%s: %v is negative", d.name, d.v))
		}
	}
	if c.EmitIncidents && c.IdleFlush == 0 {
		errs = append(errs, errors.New("idle_flush: 0 would hold a stream's last entry until its next line; want a duration such as 1s"))
	}
	if c.MaxOpenIncidents <= 0 {
		errs = append(errs, fmt.Errorf("max_open_incidents: %d; want at least 1", c.MaxOpenIncidents))
	}
	if c.MaxStreams <= 0 {
		errs = append(errs, fmt.Errorf("max_streams: %d; want at least 1", c.MaxStreams))
	}
	return errors.Join(errs...)
}

// groupOptions are the grouper's options, as run derives them from its
// configuration.
func (c *Config) groupOptions() incident.Options {
	return incident.Options{
		Window:          c.GroupWindow,
		RepeatInterval:  c.RepeatInterval,
		Settle:          c.SettleTime,
		Correlation:     c.CorrelationWindow,
		ConsequenceWait: c.ConsequenceWait,
		MaxGroups:       c.MaxOpenIncidents,
	}
}
