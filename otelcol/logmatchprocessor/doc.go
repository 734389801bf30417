// Package logmatchprocessor is an OpenTelemetry Collector logs processor that
// runs logmatch's matcher inside a Collector pipeline. Each log record's body
// (or a chosen attribute) is assembled into logmatch entries with the same
// rules the logmatch sidecar uses (sglang headers and wrappers stripped, a
// multi-line record body parsed for its Python traceback), matched against
// the error catalog, and, on a hit, enriched in place with the catalog
// record's id, severity, solutions and links under "logmatch.*" attributes,
// plus "exception.type" and "exception.message" from the traceback. Records
// that match nothing pass through untouched, or are dropped with
// forward: hits. The processor keeps no state between batches: grouping
// repeats into incidents is left to the backend.
package logmatchprocessor
