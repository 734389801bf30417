//go:build !amd64

package triples

// Vector is false: Index is IndexGo.
var Vector = false

// Index is IndexGo.
func Index(s string, from int, t *Tab) int { return IndexGo(s, from, t) }
