package logmatchprocessor

import (
	"context"
	"fmt"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/collector/processor/processorhelper"
)

// TypeName is the processor's type in a Collector config (processors:
// logmatch:).
const TypeName = "logmatch"

// ScopeName is the instrumentation scope of the incident events the
// processor adds (emit_incidents).
const ScopeName = "github.com/logmatch/logmatch/otelcol/logmatchprocessor"

// LogsStability is the stability level of the logs pipeline support.
const LogsStability = component.StabilityLevelAlpha

// NewFactory returns the factory of the logmatch processor: logs only.
func NewFactory() processor.Factory {
	return processor.NewFactory(
		component.MustNewType(TypeName),
		createDefaultConfig,
		processor.WithLogs(createLogs, LogsStability),
	)
}

// createDefaultConfig matches the body with the embedded catalog and
// forwards every record: enrichment only, nothing dropped or rewritten.
func createDefaultConfig() component.Config {
	return &Config{
		Match:   MatchBody,
		Forward: ForwardAll,
	}
}

func createLogs(ctx context.Context, set processor.Settings, cfg component.Config, next consumer.Logs) (processor.Logs, error) {
	c, ok := cfg.(*Config)
	if !ok {
		return nil, fmt.Errorf("logmatch processor %s: config is %T, want *Config", set.ID, cfg)
	}
	p := newProcessor(c, set.Logger)
	return processorhelper.NewLogs(ctx, set, cfg, next, p.processLogs,
		processorhelper.WithStart(p.start),
		processorhelper.WithCapabilities(consumer.Capabilities{MutatesData: true}),
	)
}
