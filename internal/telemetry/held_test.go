package telemetry

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// perSource collects r and returns the per-source series by instrument
// name and source.
func perSource(t *testing.T, r sdkmetric.Reader) map[string]float64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					if v, ok := p.Attributes.Value("source"); ok {
						out[m.Name+" "+v.AsString()] = float64(p.Value)
					}
				}
			case metricdata.Gauge[float64]:
				for _, p := range d.DataPoints {
					if v, ok := p.Attributes.Value("source"); ok {
						out[m.Name+" "+v.AsString()] = p.Value
					}
				}
			}
		}
	}
	return out
}

// TestHeldPerSourceCountsAreExact checks that what the per-line methods
// hold between collections reaches every reader, exactly, at its next
// collection, including counts added from several goroutines while
// another reader collects.
func TestHeldPerSourceCountsAreExact(t *testing.T) {
	a, b := sdkmetric.NewManualReader(), sdkmetric.NewManualReader()
	provider := sdkmetric.NewMeterProvider(sdkmetric.WithReader(a), sdkmetric.WithReader(b))
	defer func() {
		if err := provider.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	}()
	m, err := NewMetrics(provider.Meter("test"))
	if err != nil {
		t.Fatal(err)
	}
	m.LinesRead("x.log", 3, 300)
	m.EntriesAssembled("x.log", 2)
	m.ReadLag("x.log", 2*time.Second)
	m.EntryCut("y.log", 1, 0)
	want := map[string]float64{
		"logmatch.source.lines x.log": 3, "logmatch.source.read x.log": 300,
		"logmatch.entries x.log": 2, "logmatch.source.lag x.log": 2,
		"logmatch.entry.cut.lines y.log": 1,
	}
	if diff := cmp.Diff(want, perSource(t, a)); diff != "" {
		t.Errorf("first collection of a (-want +got):\n%s", diff)
	}

	const workers, each = 4, 1000
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				m.EntriesAssembled("x.log", 1)
				m.ReadLag("x.log", time.Duration(w*each+i)*time.Millisecond)
			}
		})
	}
	for range 20 {
		perSource(t, a) // collections race with the adds
	}
	wg.Wait()
	m.ReadLag("x.log", 500*time.Millisecond)
	want["logmatch.entries x.log"] = 2 + workers*each
	want["logmatch.source.lag x.log"] = 0.5
	if diff := cmp.Diff(want, perSource(t, b)); diff != "" {
		t.Errorf("b, which never collected before (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, perSource(t, a)); diff != "" {
		t.Errorf("a, after b's collection flushed (-want +got):\n%s", diff)
	}
}

// TestSetCacheKeepsEverySet adds many label sets, interleaved with
// lookups of earlier ones, and checks that each is found again as the same
// entry and visited once by each.
func TestSetCacheKeepsEverySet(t *testing.T) {
	c := newSetCache("source")
	c.hold = true
	const n = 1000
	first := map[string]*held{}
	for i := range n {
		src := fmt.Sprintf("/var/log/pods/p%d.log", i)
		first[src] = c.get(labels{a: src}).held
		if prev := fmt.Sprintf("/var/log/pods/p%d.log", i/2); c.get(labels{a: prev}).held != first[prev] {
			t.Fatalf("after %d sets, %s is a new entry", i+1, prev)
		}
	}
	seen := map[*held]int{}
	c.each(func(o opts) { seen[o.held]++ })
	if len(seen) != n {
		t.Errorf("each visited %d sets, want %d", len(seen), n)
	}
	for src, h := range first {
		if h == nil || seen[h] != 1 {
			t.Errorf("%s: visited %d times by each", src, seen[h])
		}
	}
}
