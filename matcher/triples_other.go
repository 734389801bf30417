//go:build !amd64

package matcher

// haveIndexTriples is false: every anchor is searched on its own.
var haveIndexTriples = false

func indexTriples(s string, from int, t *tripleTab) int { return indexTriplesGo(s, from, t) }
