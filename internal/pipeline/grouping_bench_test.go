package pipeline

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/internal/state"
	"github.com/logmatch/logmatch/sinks"
)

// BenchmarkCommitStorm measures one commit of the processor during a storm
// of distinct incidents, by open incidents: each commit follows one new
// incident (the oldest evicted at the bound), as each burst of a storm
// does. The alerts are the size an unclassified four-line traceback makes.
func BenchmarkCommitStorm(b *testing.B) {
	t0 := time.Date(2026, 5, 28, 0, 0, 0, 0, time.UTC)
	occ := func(i int) incident.Occurrence {
		tb := fmt.Sprintf("Traceback (most recent call last):\n  File \"/app/mod%d.py\", line %d, in handler%d\n    run()\nStormError%d: distinct failure %d", i, i+1, i, i, i)
		return incident.Occurrence{Time: t0, Timed: true, Scope: "node:", Alert: sinks.Alert{
			Schema: sinks.Schema, Fingerprint: fmt.Sprintf("%016x", i), Count: 1, Time: t0, LastTime: t0,
			Headline: fmt.Sprintf("StormError%d: distinct failure %d", i, i),
			Record: sinks.Record{Slug: "unclassified", Severity: "error", Role: "cause", ErrorClass: fmt.Sprintf("StormError%d", i),
				Solutions: []string{strings.Repeat("Start at the frame that raised it. ", 4), strings.Repeat("Search the known issues. ", 4)}},
			Match: sinks.Match{Text: tb[strings.LastIndexByte(tb, '\n')+1:], Exception: &sinks.Exception{Type: "StormError", Stacktrace: tb}},
			Entry: tb,
		}}
	}
	for _, open := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("open=%d", open), func(b *testing.B) {
			store, err := state.Open(b.TempDir(), state.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer store.Close()
			p := newProcessor(&processor{
				log: slog.New(slog.DiscardHandler), store: store,
				grouper: incident.New(incident.Options{Window: time.Minute, Settle: 2 * time.Second, MaxGroups: open}),
				now:     func() time.Time { return t0 },
			})
			for i := range open {
				p.grouper.Observe(occ(i), t0)
			}
			p.grouped = true
			if _, err := p.commit(); err != nil {
				b.Fatal(err)
			}
			i := open
			b.ResetTimer()
			for b.Loop() {
				p.queue(p.grouper.Observe(occ(i), t0))
				i++
				p.grouped = true
				if _, err := p.commit(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
