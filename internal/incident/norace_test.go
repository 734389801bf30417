//go:build !race

package incident

const raceEnabled = false
