package matcher

import "github.com/logmatch/logmatch/internal/triples"

// haveIndexTriples reports whether indexTriples searches with vector
// instructions; without them every anchor is searched on its own.
var haveIndexTriples = triples.Vector

// indexTriples is the first i >= from at which s holds one of t's
// triples, or -1. haveIndexTriples must be true, and len(s) at least
// minTriplesLen.
func indexTriples(s string, from int, t *tripleTab) int { return triples.Index(s, from, t) }
