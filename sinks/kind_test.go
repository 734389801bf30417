package sinks

import (
	"context"
	"testing"
)

type plainSink struct{}

func (plainSink) Send(context.Context, *Alert) (bool, error) { return false, nil }

type everything struct{ plainSink }

func (everything) Wants(string) bool { return true }

// A sink says which kinds it takes; one that does not say takes all but
// the periodic update.
func TestWants(t *testing.T) {
	for _, k := range []string{KindNew, KindSummary, KindReminder} {
		if !Wants(plainSink{}, k) {
			t.Errorf("a plain sink does not take %s", k)
		}
	}
	if Wants(plainSink{}, KindUpdate) {
		t.Error("a plain sink takes updates")
	}
	if !Wants(everything{}, KindUpdate) {
		t.Error("a sink that wants updates does not get them")
	}
}
