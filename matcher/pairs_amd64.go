package matcher

import "golang.org/x/sys/cpu"

// haveIndexPairs reports whether indexPairs searches with vector
// instructions; without them every anchor is searched on its own.
var haveIndexPairs = cpu.X86.HasAVX2

//go:noescape
func indexPairsAVX2(s string, from int, t *pairTab) int

// indexPairs is the first i >= from at which s holds one of t's pairs, or
// -1. haveIndexPairs must be true, and len(s) at least minPairsLen.
func indexPairs(s string, from int, t *pairTab) int {
	return indexPairsAVX2(s, from, t)
}
