// Package matcher matches log entries against a compiled catalog and ranks
// the hits. It is pure: no I/O and no goroutines, so it can be fuzzed,
// benchmarked and embedded in other pipelines.
package matcher
