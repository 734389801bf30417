// Package gen generates catalog records from Python source and checks a
// catalog against a source tree.
//
// Generate finds the messages a program raises, returns as exceptions,
// asserts or logs (raise X("..."), return XError("..."), assert cond,
// "...", %-formatted and .format() messages, f-strings, logger calls, a
// message assigned to a variable first, in every branch that assigns it)
// and turns each into a patterns.Record whose messagePattern matches the
// text Python prints, with the placeholders made wildcards. Paths are
// relative to the repository's top. Messages with too little literal
// text, and the wordings of Python's, torch's and pydantic's own errors,
// get no record. It is pure Go with a small Python tokenizer, so the
// logmatch binary needs no Python; the records it writes have no
// solutions and are meant to be curated.
//
// Check reads a tree (OpenTree) and reports, for each record, whether its
// text is still where it says, and whether the flags, environment
// variables and packages its advice names still exist there; WritePins
// rewrites the places it found, pinned to the tree's commit.
package gen
