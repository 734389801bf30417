package main

import (
	"fmt"

	"github.com/open-telemetry/opentelemetry-collector-contrib/extension/storage/filestorage"
	"github.com/open-telemetry/opentelemetry-collector-contrib/receiver/filelogreceiver"
	"github.com/spf13/cobra"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/confmap/provider/envprovider"
	"go.opentelemetry.io/collector/confmap/provider/fileprovider"
	"go.opentelemetry.io/collector/confmap/provider/yamlprovider"
	"go.opentelemetry.io/collector/exporter/debugexporter"
	"go.opentelemetry.io/collector/exporter/otlpexporter"
	"go.opentelemetry.io/collector/exporter/otlphttpexporter"
	"go.opentelemetry.io/collector/otelcol"
	"go.opentelemetry.io/collector/processor/batchprocessor"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/service/telemetry/otelconftelemetry"

	"github.com/logmatch/logmatch/otelcol/logmatchprocessor"
)

// version is the distribution's version, reported in its own telemetry.
const version = "0.1.0"

// newCommand returns the Collector's command line for this distribution;
// --config picks the configuration.
func newCommand() *cobra.Command {
	return otelcol.NewCommand(settings(nil))
}

// settings describes the distribution: its components, build info and the
// config providers (file:, env:, yaml:). uris are the config sources; nil
// leaves them to --config.
func settings(uris []string) otelcol.CollectorSettings {
	return otelcol.CollectorSettings{
		BuildInfo: component.BuildInfo{
			Command:     "otelcol-logmatch",
			Description: "OpenTelemetry Collector with the logmatch processor",
			Version:     version,
		},
		Factories: components,
		ConfigProviderSettings: otelcol.ConfigProviderSettings{
			ResolverSettings: confmap.ResolverSettings{
				URIs: uris,
				ProviderFactories: []confmap.ProviderFactory{
					fileprovider.NewFactory(),
					envprovider.NewFactory(),
					yamlprovider.NewFactory(),
				},
				DefaultScheme: "env",
			},
		},
	}
}

// components lists every component the distribution is built with: what
// an agent per node needs (filelog), and what a gateway behind agents
// needs (the OTLP receiver, and file_storage for the exporters' persistent
// queue).
func components() (otelcol.Factories, error) {
	var f otelcol.Factories
	var err error
	if f.Receivers, err = otelcol.MakeFactoryMap(filelogreceiver.NewFactory(), otlpreceiver.NewFactory()); err != nil {
		return f, fmt.Errorf("receivers: %w", err)
	}
	if f.Processors, err = otelcol.MakeFactoryMap(logmatchprocessor.NewFactory(), batchprocessor.NewFactory()); err != nil {
		return f, fmt.Errorf("processors: %w", err)
	}
	if f.Exporters, err = otelcol.MakeFactoryMap(otlpexporter.NewFactory(), otlphttpexporter.NewFactory(), debugexporter.NewFactory()); err != nil {
		return f, fmt.Errorf("exporters: %w", err)
	}
	if f.Extensions, err = otelcol.MakeFactoryMap(filestorage.NewFactory()); err != nil {
		return f, fmt.Errorf("extensions: %w", err)
	}
	f.Telemetry = otelconftelemetry.NewFactory()
	return f, nil
}
