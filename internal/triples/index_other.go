//go:build !amd64

package triples

// Vector is false: Index is IndexGo.
var Vector = false

// Index is IndexGo.
func Index(s string, from int, t *Tab) int { return IndexGo(s, from, t) }

// Index3 is Index for the first three triples of t only.
func Index3(s string, from int, t *Tab) int { return indexGo(s, from, t, 3) }

// Index6 is IndexGo6.
func Index6(s string, from int, t *Tab6) int { return IndexGo6(s, from, t) }
