// Package gen generates catalog records from Python source: it finds the
// messages a program raises, asserts or logs (raise X("..."),
// assert cond, "...", %-formatted and .format() messages, f-strings,
// logger.error/critical/exception/warning calls) and turns each into a patterns.Record whose messagePattern matches
// the text Python prints, with the placeholders made wildcards. It is pure
// Go with a small Python tokenizer, so the logmatch binary needs no Python;
// the records it writes have no solutions and are meant to be curated.
package gen
