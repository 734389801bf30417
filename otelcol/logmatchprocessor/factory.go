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

// ScopeName is the instrumentation scope of the incident records the
// processor adds, and of its metrics.
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

// createDefaultConfig forwards every record, enriched when it matches on
// its own, and adds one incident record per incident with run's grouping
// defaults.
func createDefaultConfig() component.Config {
	return &Config{
		Match:             MatchBody,
		Forward:           ForwardAll,
		EmitIncidents:     true,
		SettleTime:        DefaultSettleTime,
		GroupWindow:       DefaultGroupWindow,
		RepeatInterval:    DefaultRepeatInterval,
		CorrelationWindow: DefaultCorrelationWindow,
		ConsequenceWait:   DefaultConsequenceWait,
		MaxOpenIncidents:  DefaultMaxOpenIncidents,
		MaxStreams:        DefaultMaxStreams,
		IdleFlush:         DefaultIdleFlush,
	}
}

func createLogs(ctx context.Context, set processor.Settings, cfg component.Config, next consumer.Logs) (processor.Logs, error) {
	c, ok := cfg.(*Config)
	if !ok {
		return nil, fmt.Errorf("logmatch processor %s: config is %T, want *Config", set.ID, cfg)
	}
	p, err := newProcessor(c, set, next)
	if err != nil {
		return nil, fmt.Errorf("logmatch processor %s: %w", set.ID, err)
	}
	return processorhelper.NewLogs(ctx, set, cfg, next, p.processLogs,
		processorhelper.WithStart(p.start),
		processorhelper.WithShutdown(p.shutdown),
		processorhelper.WithCapabilities(consumer.Capabilities{MutatesData: true}),
	)
}
