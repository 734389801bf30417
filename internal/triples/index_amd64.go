package triples

import "golang.org/x/sys/cpu"

// Vector reports whether Index searches with vector instructions; without
// them it is IndexGo, one comparison a byte and triple.
var Vector = cpu.X86.HasAVX2

//go:noescape
func indexAVX2(s string, from int, t *Tab) int

// Index is the first i >= from at which s holds one of t's triples, or -1.
// Vector must be true, from at least 0, and len(s) at least MinLen.
func Index(s string, from int, t *Tab) int { return indexAVX2(s, from, t) }

//go:noescape
func index3AVX2(s string, from int, t *Tab) int

// Index3 is Index for the first three triples of t only: a third fewer
// comparisons a chunk, for a search of three.
func Index3(s string, from int, t *Tab) int { return index3AVX2(s, from, t) }

//go:noescape
func index6AVX2(s string, from int, t *Tab6) int

// Index6 is Index for the Max6 triples of a Tab6: one pass where two
// Index3 passes would read s twice, at three comparisons, two ANDs and an
// OR a 32-byte chunk more than Index. Vector must be true, from at least
// 0, and len(s) at least MinLen.
func Index6(s string, from int, t *Tab6) int { return index6AVX2(s, from, t) }
