//go:build race

package matcher

// raceEnabled: the race detector slows regexp2 several times over, so the
// differential test samples instead of sweeping.
const raceEnabled = true
