// Package catalogcheck analyses a compiled catalog for its author, as
// `logmatch patterns lint` prints it: records whose own errorMessage does not
// match their pattern, pairs of records whose patterns match the same
// message (and which of the pair wins the ranking), patterns the prefilter
// cannot index, and the patterns that cost the most per match. Findings are
// returned as data and rendered as "file:line: id slug: ..." lines.
package catalogcheck
