// Package telemetry holds logmatch's own metrics: a typed [Metrics] value
// that the pipeline and the sinks' delivery loop call (so no caller touches
// an instrument), recorded through the OpenTelemetry metric SDK and exposed
// both as a Prometheus /metrics handler (its own registry, no globals) and,
// when an OTLP endpoint is configured, pushed periodically over OTLP.
//
// # Instruments
//
//	OpenTelemetry name              unit        Prometheus series                          labels
//	logmatch.source.lines           {line}      logmatch_source_lines_total                source
//	logmatch.source.read            By          logmatch_source_read_bytes_total           source
//	logmatch.source.lag             s           logmatch_source_lag_seconds (gauge)        source
//	logmatch.entries                {entry}     logmatch_entries_total                     source
//	logmatch.entry.cut.lines        {line}      logmatch_entry_cut_lines_total             source
//	logmatch.entry.cut              By          logmatch_entry_cut_bytes_total             source
//	logmatch.hits                   {hit}       logmatch_hits_total                        record_id, severity
//	logmatch.pattern.timeouts       {timeout}   logmatch_pattern_timeouts_total            record_id
//	logmatch.incidents              {incident}  logmatch_incidents_total                   record_id, severity, kind
//	logmatch.incidents.unclassified {incident}  logmatch_incidents_unclassified_total      kind
//	logmatch.sink.alerts            {alert}     logmatch_sink_alerts_total                 sink
//	logmatch.sink.failures          {failure}   logmatch_sink_failures_total               sink, class
//	logmatch.sink.retries           {retry}     logmatch_sink_retries_total                sink
//	logmatch.sink.queue.depth       {alert}     logmatch_sink_queue_depth (gauge)          sink
//	logmatch.sink.dropped           {alert}     logmatch_sink_dropped_total                sink, reason
//	logmatch.gate.trips             {failure}   logmatch_gate_trips_total                  record_id, state
//	logmatch.gate.restarts          {restart}   logmatch_gate_restarts_total               (none)
//	logmatch.gate.targets.dropped   {target}    logmatch_gate_targets_dropped_total        reason
//	logmatch.gate.state             {state}     logmatch_gate_state (gauge)                namespace, pod, container
//	logmatch.gate.restarts.recent   {restart}   logmatch_gate_restarts_recent (gauge)      namespace, pod, container
//	logmatch.sink.overflow          {incident}  logmatch_sink_overflow_total               sink
//	logmatch.state.commit.failures  {commit}    logmatch_state_commit_failures_total       (none)
//	logmatch.source.evicted         {file}      logmatch_source_evicted_total              (none)
//	logmatch.incidents.evicted      {incident}  logmatch_incidents_evicted_total           reason
//	logmatch.incidents.dropped      {incident}  logmatch_incidents_dropped_total           reason
//	logmatch.source.events          {event}     logmatch_source_events_total               event
//	logmatch.http.connections.evicted {connection} logmatch_http_connections_evicted_total (none)
//
// The gate gauges are observed at each collection from the liveness gate
// (SetGateSource): logmatch_gate_state is 0 healthy, 1 failing (/livez
// fails), 2 held by the flap guard; logmatch_gate_restarts_recent is the
// flap counter. In the node-agent mode there is one series per pod read, the
// only place a gate of another pod can be seen, since a node agent cannot
// restart it. state is "failing" or "held"; reason is "evicted" or
// "forgotten".
//
//	logmatch.build.info                         logmatch_build_info (gauge, 1)             version, goversion
//	logmatch.catalog.records        {record}    logmatch_catalog_records (gauge)
//	logmatch.config.last_reload_successful      logmatch_config_last_reload_successful     (gauge, 1 or 0)
//	logmatch.config.last_reload_success_timestamp s logmatch_config_last_reload_success_timestamp_seconds (gauge)
//	logmatch.source.files           {file}      logmatch_source_files (gauge)              state
//	logmatch.source.glob.unmatched              logmatch_source_glob_unmatched (gauge, 1/0) glob
//
// class is "retryable" or "permanent"; state is "matched" or "unreadable".
// The two config series carry Alertmanager's names, so the same alert rules
// apply. An unclassified incident (a
// traceback no record matched) counts only in
// logmatch.incidents.unclassified. The Prometheus handler also serves the
// Go runtime and process collectors and target_info (the resource).
//
// # Cardinality
//
// Every label is bounded by configuration, never by log content: source is
// the identity of a configured source (a path of a configured glob, a
// container, "stdin"), record_id comes from the loaded catalog, severity,
// kind, class and reason are small fixed sets, and sink names are
// configured; the gate's namespace, pod and container are those of the
// servers read, at most the gate's bound on servers. As a hard stop the SDK keeps at most Config.CardinalityLimit
// series per instrument (default 8192, above the 5,695 records of the
// largest catalog we ship tests for) and folds the rest into one series
// labelled otel_metric_overflow="true", so the bound is itself visible.
//
// The per-source series (the six with the source label) are asynchronous:
// logmatch keeps the totals of each source it has (a Source) and the SDK
// reads them at each collection, so a source that goes takes its series with
// it: once the pipeline releases a file the tailer stopped following
// (ReleaseSource), the next scrape or export no longer has it, and a source
// counted only by name (read by the tailer, never held) goes after ten
// minutes without a count. The series are the live sources', not every file
// ever seen; kubelet's rotated names, unique each time, do not pile up.
//
// # OTLP
//
// The push pipeline runs when Config.OTLP.Endpoint,
// OTEL_EXPORTER_OTLP_METRICS_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT is set
// and OTEL_METRICS_EXPORTER is not "none". The protocol comes from
// Config.OTLP.Protocol, OTEL_EXPORTER_OTLP_METRICS_PROTOCOL or
// OTEL_EXPORTER_OTLP_PROTOCOL ("grpc" or "http/protobuf", the default); the
// exporters read the other standard variables (headers, TLS, timeout,
// compression) themselves, and OTEL_METRIC_EXPORT_INTERVAL sets the period
// unless Config.OTLP.Interval does. Export errors go to the OpenTelemetry
// error handler; the next period exports the cumulative totals again, so a
// failed push loses no count.
package telemetry
