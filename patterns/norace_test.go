//go:build !race

package patterns

// raceEnabled: see race_test.go.
const raceEnabled = false
