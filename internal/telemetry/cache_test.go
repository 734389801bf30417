package telemetry

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// perSource collects r and returns the per-source series by instrument
// name and source, leaving out counters at zero (whether a source's idle
// counters are exported is not what the test is about).
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
					if v, ok := p.Attributes.Value("source"); ok && p.Value != 0 {
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

// TestPerSourceCountsAreExact checks that what the per-line methods record
// reaches every reader, exactly, at its next collection, including counts
// added from several goroutines while another reader collects.
func TestPerSourceCountsAreExact(t *testing.T) {
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
// entry and that the lock-free map and the additions beside it hold every
// set once.
func TestSetCacheKeepsEverySet(t *testing.T) {
	c := newSetCache("source")
	const n = 1000
	first := map[string]*metric.AddOption{}
	for i := range n {
		src := fmt.Sprintf("/var/log/pods/p%d.log", i)
		first[src] = &c.get(labels{a: src}).add[0]
		if prev := fmt.Sprintf("/var/log/pods/p%d.log", i/2); &c.get(labels{a: prev}).add[0] != first[prev] {
			t.Fatalf("after %d sets, %s is a new entry", i+1, prev)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	read := *c.read.Load()
	for l := range c.added {
		if _, ok := read[l]; ok {
			t.Errorf("%s is in both maps", l.a)
		}
	}
	if got := len(read) + len(c.added); got != n || c.n != n {
		t.Errorf("%d sets kept (count %d), want %d", got, c.n, n)
	}
}
