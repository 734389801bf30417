// Package otlptest is an OTLP receiver for tests: the official collector
// protobuf services for logs and metrics served over gRPC and over
// HTTP/protobuf on loopback, recording every export request it accepts and
// answering with a chosen gRPC status when a test asks it to fail. It lets the
// OpenTelemetry sink and logmatch's metrics pipeline be tested against a
// real wire protocol without a collector process.
package otlptest
