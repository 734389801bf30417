package sinks

import (
	"fmt"
	"strings"
)

// SeverityRank orders the catalog severities: info 1, warning 2, error 3,
// critical 4 (case-insensitive); anything else is 0. It mirrors
// patterns.Severity.Rank so that sinks need not import the catalog.
//
// The catalog's severities are written in lower case, and the grouper asks
// for ranks several times an occurrence: those are compared as they are,
// and only another spelling is lower-cased (strings.ToLower reads the
// whole string to tell that it has nothing to change).
func SeverityRank(s string) int {
	if r := lowerSeverityRank(s); r > 0 {
		return r
	}
	return lowerSeverityRank(strings.ToLower(s))
}

// lowerSeverityRank is SeverityRank for a severity in lower case.
func lowerSeverityRank(s string) int {
	switch s {
	case "info":
		return 1
	case "warning", "warn":
		return 2
	case "error":
		return 3
	case "critical", "crit":
		return 4
	}
	return 0
}

// CheckMinSeverity validates a min_severity setting and returns its rank:
// 0 for "" (no filter), else SeverityRank(min). Config validation calls it
// so that a bad value is reported before anything runs; run mode routes
// to a sink only the alerts whose severity ranks at least that.
func CheckMinSeverity(min string) (int, error) {
	if min == "" {
		return 0, nil
	}
	if r := SeverityRank(min); r > 0 {
		return r, nil
	}
	return 0, fmt.Errorf("min_severity: unknown severity %q (want info, warning, error or critical)", min)
}
