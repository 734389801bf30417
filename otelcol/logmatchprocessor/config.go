package logmatchprocessor

import (
	"errors"
	"fmt"

	"github.com/logmatch/logmatch/internal/engine"
	"github.com/logmatch/logmatch/patterns"
)

// Values of Config.Forward.
const (
	// ForwardAll passes every record on, enriched or not.
	ForwardAll = "all"
	// ForwardHits passes on only the records that matched a catalog record
	// (and the incident events, when enabled).
	ForwardHits = "hits"
)

// MatchBody is the Config.Match value that matches the record body.
const MatchBody = "body"

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
	// Forward is "all" (the default) or "hits".
	Forward string `mapstructure:"forward"`
	// SetSeverity replaces a matched record's severity number and text
	// with the catalog record's severity (critical becomes FATAL).
	SetSeverity bool `mapstructure:"set_severity"`
	// Engine is the serving engine whose logs this pipeline carries
	// (sglang, vllm, tgi, trtllm, triton, lmdeploy, ollama, llamacpp):
	// records of other engines only do not match, and a record's
	// solutions are followed by that engine's remedies. Empty: the
	// engine is not known, and only engine-neutral solutions are given.
	Engine string `mapstructure:"engine"`
	// EmitIncidents adds, for every matched record, a separate event record
	// named "logmatch.incident" carrying the same attributes, in its own
	// scope, so a backend can route alerts without filtering all logs.
	EmitIncidents bool `mapstructure:"emit_incidents"`

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
	if c.MinSeverity != "" {
		if _, err := patterns.ParseSeverity(c.MinSeverity); err != nil {
			errs = append(errs, fmt.Errorf("min_severity: %w", err))
		}
	}
	if c.Engine != "" && !engine.Known(c.Engine) {
		errs = append(errs, fmt.Errorf("engine: unknown engine %q; want one of %v", c.Engine, engine.Names))
	}
	switch c.Forward {
	case ForwardAll, ForwardHits:
	default:
		errs = append(errs, fmt.Errorf("forward: %q; want %q or %q", c.Forward, ForwardAll, ForwardHits))
	}
	return errors.Join(errs...)
}
