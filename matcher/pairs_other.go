//go:build !amd64

package matcher

// haveIndexPairs is false: every anchor is searched on its own.
var haveIndexPairs = false

func indexPairs(s string, from int, t *pairTab) int { return indexPairsGo(s, from, t) }
