// Package sinks holds the contract every alert destination implements (the
// Sink interface and the Alert type, whose JSON form is logmatch.alert/v1)
// and the behaviour shared by all of them. Each integration lives in its own
// subpackage and imports nothing else of logmatch.
package sinks
