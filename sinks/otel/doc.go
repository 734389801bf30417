// Package otel delivers alerts as OpenTelemetry events: each alert becomes
// one log record named "logmatch.incident", built with the
// go.opentelemetry.io/otel/log API and exported over OTLP (gRPC or
// HTTP/protobuf) by the SDK LoggerProvider.
//
// # Configuration
//
// The standard variables apply: OTEL_EXPORTER_OTLP_ENDPOINT and
// OTEL_EXPORTER_OTLP_LOGS_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL and
// OTEL_EXPORTER_OTLP_LOGS_PROTOCOL ("grpc" or "http/protobuf", the default),
// OTEL_EXPORTER_OTLP_HEADERS, _INSECURE, _TIMEOUT, _COMPRESSION,
// _CERTIFICATE, _CLIENT_CERTIFICATE and _CLIENT_KEY (each also with the
// LOGS_ infix, which wins), OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES.
// A non-zero field of [Config] overrides its variables.
//
// # Resource
//
// service.name defaults to "logmatch". The Kubernetes resource attributes
// come from the variables a Pod spec sets with the downward API:
// k8s.pod.name from K8S_POD_NAME or LOGMATCH_POD_NAME, k8s.pod.uid from
// K8S_POD_UID or LOGMATCH_POD_UID, k8s.namespace.name from
// K8S_NAMESPACE_NAME or LOGMATCH_POD_NAMESPACE, k8s.node.name from
// K8S_NODE_NAME or LOGMATCH_NODE_NAME and k8s.container.name from
// K8S_CONTAINER_NAME or LOGMATCH_CONTAINER_NAME (the K8S_ name wins). Anything in
// OTEL_RESOURCE_ATTRIBUTES or OTEL_SERVICE_NAME overrides them, because it
// is the operator's explicit choice.
//
// # The record
//
// Timestamp is the alert's Time (its first occurrence; the moment of Send
// when the alert has none), observed timestamp the moment of Send, body the matched text (the entry when the match has
// no text). Severity follows the catalog record:
//
//	critical  FATAL (21)   the serving process is down or about to be
//	error     ERROR (17)
//	warning   WARN  (13)
//	info      INFO  (9)
//	other     ERROR (17)   every alert is a failure someone should read
//
// and SeverityText is the record's own word. Attributes follow the semantic
// conventions where one exists (exception.type, exception.message,
// exception.stacktrace from the match's exception; code.file.path and
// code.line.number from the record's source location) and are named
// logmatch.* otherwise: logmatch.record.id, logmatch.slug,
// logmatch.severity, logmatch.kind, logmatch.fingerprint and logmatch.count
// always; logmatch.solutions, logmatch.prevention_tips and logmatch.ranks as
// string slices, logmatch.github_url, logmatch.handling_strategy,
// logmatch.error_class, logmatch.repo and logmatch.source.path (plus
// logmatch.source.pod, .namespace, .container and .node, which differ from
// the resource when logmatch reads other pods' logs) when not empty. The
// diagnosis: logmatch.headline (the real line), logmatch.role,
// logmatch.first_rank (where a multi-rank failure began),
// logmatch.runbook_url, and for a root cause with consequences folded in,
// logmatch.consequences (one line each: slug, count, ranks) and
// logmatch.consequence.slugs, both string slices.
//
// # Delivery
//
// The SDK's batch processor exports in the background and drops export
// errors, which would make Send lie. This sink instead exports synchronously
// inside Send, through its own processor that hands the exporter's result
// back to the caller, so Send returns only after the receiver answered. The
// exporters' own retries are disabled: the sinks retry wrapper owns
// retrying, and Send classifies each failure. Retryable: connection
// failures, deadlines, gRPC Unavailable, DeadlineExceeded, ResourceExhausted,
// Aborted, OutOfRange, DataLoss and Canceled, HTTP 408, 429 and 5xx.
// Permanent: everything else (gRPC InvalidArgument, HTTP 400, a request too
// large, a shut-down sink, a certificate that fails verification, a partial
// success in which the receiver rejected the record). A 2xx answer whose
// body is not an OTLP response (a proxy's page, garbage) is a delivery: the
// status is the receiver's word. A retryable HTTP
// answer with Retry-After yields a *sinks.RetryAfterError. Header values and
// URL passwords are removed from every error.
package otel
