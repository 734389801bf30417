// Package entry turns physical log lines into logical entries, the unit the
// matcher searches. An Assembler, one per stream, strips wrappers (ANSI
// colour, Ray, docker-compose and kubectl prefixes, collector and CI
// timestamps, torchrun ranks, Markdown quotes), recognises sglang, uvicorn,
// dynamo and generic Python logging headers and the native crash shapes of
// SGLANG-LOGS.md, joins continuation lines and tracebacks into one bounded
// entry, and fills in the parsed exception chain (ParseTraceback). It is
// pure: no I/O, no goroutines, no clock; the caller supplies time and decides
// when an idle stream is flushed.
package entry
