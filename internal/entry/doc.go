// Package entry turns physical log lines into logical entries: it strips
// wrappers (ANSI colour, Ray and docker-compose prefixes, collector
// timestamps), recognises sglang, uvicorn and native headers, joins
// continuation lines and tracebacks, and parses Python exception chains. It
// is pure: no I/O and no goroutines.
package entry
