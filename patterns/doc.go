// Package patterns is the catalog: the error records a user owns, loaded
// from JSONL files, directories or the catalog embedded in the binary,
// validated and linted. Each record's messagePattern is compiled with
// Compile, so every consumer shares one regex dialect and one timeout.
package patterns
