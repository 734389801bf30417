// Package patterns is the catalog: the error records a user owns, loaded
// from JSONL files, directories or the catalog embedded in the binary,
// validated and linted. Each record's messagePattern is compiled with
// Compile, so every consumer shares one regex dialect and one timeout.
//
// Loading never fails as a whole. Parse, LoadFile, Load, LoadFS and Default
// return the records that are good and a Problem for everything that is not,
// each naming its file, line and field ("catalog.jsonl:12: severity: want
// string, got number"); a bad line is skipped and the lines after it load.
// An id repeated within one load is an error naming both places, and the
// later record is left out. Lint adds the whole-catalog checks (duplicate
// ids among records put together by hand, patterns that backtrack
// catastrophically), and LoadForLint does both for a command line tool.
// Merge lays a user's records over the defaults by id. A record may say
// which server releases print its message (introducedIn, removedIn, see
// Version); AppliesTo answers for a given version.
//
// A record may split its cause from its fixes per serving engine: its
// solutions are the steps that hold on every engine, its remedies the
// steps of one engine, keyed by engine name (sglang, vllm, tgi, trtllm,
// triton, lmdeploy, ollama, llamacpp), and SolutionsFor puts the two
// together for the engine that wrote a log. Its engines list, when set,
// names the only engines whose logs print its message (ForEngine). An
// unknown engine name is a warning at file:line and is ignored; Lint
// warns about remedies no alert can show. A record with neither field
// reads as it always did.
//
//	recs, probs := patterns.Load("/etc/logmatch/catalog.d")
//	for _, p := range probs {
//		log.Printf("%s: %v", p.Level, p)
//	}
//	recs = patterns.Merge(defaults, recs)
package patterns
