// Package catalog holds the error records shipped inside the logmatch
// binary: every *.jsonl file in this directory is embedded at build time.
// It only exposes the files; patterns.Default parses and validates them, so
// a record here obeys exactly the rules of a user's catalog.
package catalog
