package sinks

import (
	"context"
	"fmt"
	"strings"
)

// SeverityRank orders the catalog severities: info 1, warning 2, error 3,
// critical 4 (case-insensitive); anything else is 0. It mirrors
// patterns.Severity.Rank so that sinks need not import the catalog.
func SeverityRank(s string) int {
	switch strings.ToLower(s) {
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
// so that a bad value is reported before anything runs.
func CheckMinSeverity(min string) (int, error) {
	if min == "" {
		return 0, nil
	}
	if r := SeverityRank(min); r > 0 {
		return r, nil
	}
	return 0, fmt.Errorf("min_severity: unknown severity %q (want info, warning, error or critical)", min)
}

// MinSeverity wraps next so that alerts whose Record.Severity ranks below
// min are dropped: Send returns (false, nil) for them, because not sending is
// this sink's configured answer, not a failure. That holds for unclassified
// alerts too, whose Record.Severity the incident builder sets. An alert with
// an empty or unknown severity always passes: a filter must never hide what
// it cannot rank. An empty min returns next unchanged.
//
// If next implements BatchSink, so does the returned Sink: it filters the
// batch and sends what is left.
func MinSeverity(next Sink, min string) (Sink, error) {
	rank, err := CheckMinSeverity(min)
	if err != nil {
		return nil, err
	}
	if rank == 0 {
		return next, nil
	}
	f := &severityFilter{next: next, min: rank}
	if b, ok := next.(BatchSink); ok {
		return &severityBatchFilter{severityFilter: f, batch: b}, nil
	}
	return f, nil
}

type severityFilter struct {
	next Sink
	min  int
}

func (f *severityFilter) pass(a *Alert) bool {
	r := SeverityRank(a.Record.Severity)
	return r == 0 || r >= f.min
}

// Send forwards a when its severity passes.
func (f *severityFilter) Send(ctx context.Context, a *Alert) (bool, error) {
	if !f.pass(a) {
		return false, nil
	}
	return f.next.Send(ctx, a)
}

type severityBatchFilter struct {
	*severityFilter
	batch BatchSink
}

// BatchMin is the wrapped sink's.
func (f *severityBatchFilter) BatchMin() int { return f.batch.BatchMin() }

// SendBatch forwards the alerts whose severity passes.
func (f *severityBatchFilter) SendBatch(ctx context.Context, alerts []*Alert) (bool, error) {
	kept := make([]*Alert, 0, len(alerts))
	for _, a := range alerts {
		if f.pass(a) {
			kept = append(kept, a)
		}
	}
	switch len(kept) {
	case 0:
		return false, nil
	case 1:
		// One alert reads better as itself than as a digest of one.
		return f.batch.Send(ctx, kept[0])
	}
	return f.batch.SendBatch(ctx, kept)
}
