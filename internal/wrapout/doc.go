// Package wrapout shares one output stream (logmatch's standard output or
// standard error) between a wrapped command's own bytes, passed through
// unchanged and in order, and whole lines of logmatch's (alerts, its log).
// A line of logmatch's is written only where the command's output is at
// the start of a line, so it never lands inside a line the command has
// not finished, and the command's line is never split. A line waits at
// most a hold time (2 s) for the command to finish its line; after that,
// or when the command's stream ends mid-line, a line break is written
// before it.
package wrapout
