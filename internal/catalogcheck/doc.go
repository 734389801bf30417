// Package catalogcheck analyses a compiled catalog for its author, as
// `logmatch patterns lint` and `logmatch test` print it: records whose own
// errorMessage does not match their pattern, pairs of records whose
// patterns match the same message (and which of the pair wins the
// ranking), patterns the prefilter cannot index, and the patterns that
// cost the most per match. Findings are returned as data (Lint, Finding),
// filtered by kind and record (Filter), and rendered as "file:line: ..."
// lines with one summary, or as one JSON document. ExplainRecord and
// ExplainPattern say why a pattern does not match a text: the literal the
// prefilter misses, or where the regex stops matching.
package catalogcheck
