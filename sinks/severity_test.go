package sinks

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMinSeverity(t *testing.T) {
	tests := []struct {
		name     string
		min      string
		severity string
		wantSent bool
	}{
		{"critical passes error", "error", "critical", true},
		{"error passes error", "error", "error", true},
		{"warning dropped by error", "error", "warning", false},
		{"info dropped by warning", "warning", "info", false},
		{"case is ignored", "ERROR", "Critical", true},
		{"unclassified ranked by its severity", "critical", "error", false},
		{"unknown severity always passes", "critical", "", true},
		{"info passes everything", "info", "info", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			next := &scriptSink{}
			s, err := MinSeverity(next, tc.min)
			if err != nil {
				t.Fatalf("MinSeverity: %v", err)
			}
			retry, err := s.Send(context.Background(), &Alert{Record: Record{Severity: tc.severity}})
			if retry || err != nil {
				t.Fatalf("Send = (%v, %v), want (false, nil)", retry, err)
			}
			if got := len(next.sent) == 1; got != tc.wantSent {
				t.Errorf("sent = %v, want %v", got, tc.wantSent)
			}
		})
	}
}

func TestMinSeverityConfig(t *testing.T) {
	next := &scriptSink{}
	if s, err := MinSeverity(next, ""); err != nil || s != Sink(next) {
		t.Errorf("MinSeverity(next, \"\") = (%v, %v), want next unchanged", s, err)
	}
	if _, err := MinSeverity(next, "loud"); err == nil {
		t.Errorf("MinSeverity(next, \"loud\") succeeded, want an error")
	}
}

func TestMinSeverityBatch(t *testing.T) {
	tests := []struct {
		name        string
		severities  []string
		wantBatches [][]string
		wantSent    []string
	}{
		{"all dropped", []string{"info", "warning"}, nil, nil},
		{"one left is sent alone", []string{"info", "critical", "warning"}, nil, []string{"critical"}},
		{"several left stay a batch", []string{"error", "info", "critical"}, [][]string{{"error", "critical"}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			next := &scriptBatchSink{}
			s, err := MinSeverity(next, "error")
			if err != nil {
				t.Fatal(err)
			}
			b, ok := s.(BatchSink)
			if !ok {
				t.Fatalf("MinSeverity(BatchSink) is %T, not a BatchSink", s)
			}
			var batch []*Alert
			for _, sev := range tc.severities {
				batch = append(batch, &Alert{Record: Record{Severity: sev}})
			}
			if _, err := b.SendBatch(context.Background(), batch); err != nil {
				t.Fatal(err)
			}
			var gotBatches [][]string
			for _, bt := range next.batches {
				var sev []string
				for _, a := range bt {
					sev = append(sev, a.Record.Severity)
				}
				gotBatches = append(gotBatches, sev)
			}
			var gotSent []string
			for _, a := range next.sent {
				gotSent = append(gotSent, a.Record.Severity)
			}
			if diff := cmp.Diff(tc.wantBatches, gotBatches); diff != "" {
				t.Errorf("batches (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantSent, gotSent); diff != "" {
				t.Errorf("single sends (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSeverityRank(t *testing.T) {
	got := []int{SeverityRank("info"), SeverityRank("warning"), SeverityRank("warn"), SeverityRank("error"), SeverityRank("critical"), SeverityRank("crit"), SeverityRank("fatal"), SeverityRank("")}
	want := []int{1, 2, 2, 3, 4, 4, 0, 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ranks (-want +got):\n%s", diff)
	}
}
