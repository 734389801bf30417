// Package sinks holds the contract every alert destination implements (the
// Sink interface and the Alert type, whose JSON form is logmatch.alert/v1)
// and the behaviour shared by all of them. Each integration lives in its own
// subpackage and imports nothing else of logmatch.
//
// The shared behaviour: a sink only classifies its failures (Classify does
// it for HTTP, with Retry-After and URL redaction) and the Retry decorator
// retries; MinSeverity filters; BatchSink lets a delivery loop fold many
// waiting alerts into one request; Observer carries delivery counts to
// metrics; AlertJSON, Title and the truncation helpers keep every sink's
// text consistent and bounded.
package sinks
