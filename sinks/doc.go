// Package sinks holds the contract every alert destination implements (the
// Sink interface and the Alert type, whose JSON form is logmatch.alert/v1)
// and the behaviour shared by all of them. Each integration lives in its own
// subpackage and imports nothing else of logmatch.
//
// The shared behaviour: a sink only classifies its failures (Classify does
// it for HTTP, with Retry-After and URL redaction) and the Retry decorator
// retries; CheckMinSeverity validates a severity filter (run mode applies
// it where it routes alerts); BatchSink lets a delivery loop fold many
// waiting alerts into one request, and EncodedSink lets one take the
// queued alert JSON as it is; Observer carries delivery counts to
// metrics; AlertJSON, Title and the truncation helpers keep every sink's
// text consistent and bounded.
//
// An alert names the entry it came from by Source.File (the identity of the
// file content, which changes when a file is recreated or rewritten) and
// Source.Offset; a sink that needs a per-alert key (the webhook's
// Idempotency-Key) derives it from those and the fingerprint, never from
// the path, which a new file can reuse.
package sinks
