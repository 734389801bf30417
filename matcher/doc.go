// Package matcher matches log entries against a compiled catalog and ranks
// the hits. It is pure: no I/O and no goroutines, so it can be fuzzed,
// benchmarked and embedded in other pipelines.
//
// Trying thousands of regexp2 patterns on every line runs at tens of lines
// per second, so a prefilter decides which patterns to try. ExtractLiterals
// reads each pattern's parse tree (regexp2/v2's own parser, with
// patterns.RegexOptions) and lists the literals every match must contain:
// all of a concatenation's, one per branch of an alternation, nothing from
// optional or repeated parts, lookarounds or back-references, and
// case-insensitive parts folded. A pattern becomes a candidate for a text
// only when all its literals occur in it; candidates are confirmed by the
// regexp2 pattern under its timeout, whose errors are reported, never taken
// for a miss.
//
// The index is written here rather than taken from an Aho-Corasick library.
// Each pattern is keyed on the rarest run of eight consecutive 8-byte
// windows of one literal (eight 4-byte windows for literals of 11 to 14
// bytes, four for literals of 7 to 10), rarity judged on a sample of healthy
// sglang output and on how many catalog literals share the window. A text
// is read eight bytes at a time and each block probed as one 8-byte and one
// 4-byte window (and its other 4-byte half when some literal has 7 to 10
// bytes): with as many consecutive windows indexed as the stride, any
// occurrence of the literal puts exactly one of them at a probed position.
// A probe is a multiply and a bloom-bit test, all three windows in one
// bloom; for a few percent of probes a look-up in an open-addressing table
// follows, after which the whole literal is compared in place. For the
// 5,695 generated sglang records this is about 45k key windows and 2 MB,
// built within Compile; the coregx/ahocorasick library (v0.3.1) measured
// on the same machine took 15 s and 36 MB to build over the same windows
// and scanned 150k lines/s, and 36 s and 120 MB over the whole literals.
// Patterns whose literals are all shorter than 7 bytes are tried on every
// text; catalogcheck reports them. Each is searched first for one of its
// literals (anchor.go): with AVX2, up to five of them in one pass over the
// text by three bytes each (triples_amd64.s), else one by one by the
// literal's rarest byte.
//
// A catalog of tens of thousands of records keys its long windows in a
// blocked bloom, and its 4-byte keys are cut from literals made of the
// words of ordinary lines; its scan loop confirms a 4-byte half's pass
// with six bytes of the text around it, and an 8-byte window's with the
// four bytes before or after it, before it probes (confirm.go).
//
// Compile parses each pattern once, for its literals and to check that
// regexp2 can compile it; the regexp2 program is built the first time the
// pattern is a candidate. Most patterns never are in a given log, so the
// compiled generated catalog holds 3.3 MB (BenchmarkCompile's heap-MB), and
// building every program would add about 20 MB. A pattern that is literal
// text joined by lazy gaps (`CUDA error: (.+?) at (.+?)\.`; 5,608 of the
// generated catalog's 5,695) gets no regexp2 program: at its first use it
// is read into a litProg, which finds regexp2's matches and groups by
// searching for its literals (literalprog.go).
//
// A Searcher's error texts go through the Matcher's cache of shapes
// (shapes.go): a text whose windows include a key with its check bytes
// present is looked up by its shape, the text with the digit runs no
// literal can overlap masked, which has the same candidates as every
// text of that shape; the last text of each shape keeps its hits, so the
// same text again is not searched. A Searcher whose look-ups find fewer
// than half turns sparse: it searches as without the cache and looks up
// one text in sixteen, until those find half again (most misses then,
// and a miss costs more than a find saves). Options.NoShapeCache turns it
// off.
//
// What Compile derives from the patterns (that each parses, its literals,
// the backtracking check's warning, and the prefilter's key plan) are its
// Facts. A Matcher gives them out; a later Compile of the same build given
// them (Options.Facts) derives only what they do not know, and builds the
// same Matcher in about a third of the CPU. internal/factcache keeps them
// on disk between runs.
package matcher
