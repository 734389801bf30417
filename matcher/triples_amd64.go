package matcher

import "golang.org/x/sys/cpu"

// haveIndexTriples reports whether indexTriples searches with vector
// instructions; without them every anchor is searched on its own.
var haveIndexTriples = cpu.X86.HasAVX2

//go:noescape
func indexTriplesAVX2(s string, from int, t *tripleTab) int

// indexTriples is the first i >= from at which s holds one of t's
// triples, or -1. haveIndexTriples must be true, and len(s) at least
// minTriplesLen.
func indexTriples(s string, from int, t *tripleTab) int {
	return indexTriplesAVX2(s, from, t)
}
