//go:build race

package incident

// raceEnabled: the race detector changes what allocates, so allocation
// counts are not checked under it.
const raceEnabled = true
