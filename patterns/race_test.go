//go:build race

package patterns

// raceEnabled: the race detector slows regexp2 down about a hundredfold, so
// probe budgets in tests are scaled by testLintOptions.
const raceEnabled = true
