package incident

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkObserve measures one occurrence among many open incidents: a
// repeat, a new root cause, and a consequence that looks for its root.
func BenchmarkObserve(b *testing.B) {
	const open = 2000
	setup := func() *Grouper {
		g := New(foldOpts)
		for i := range open {
			o := cause(fmt.Sprintf("k%d", i), fmt.Sprintf("pod:%d", i%50), "TP0", t0)
			g.Observe(o, t0)
		}
		return g
	}
	b.Run("repeat", func(b *testing.B) {
		g := setup()
		o := cause("k7", "pod:7", "TP1", t0)
		b.ReportAllocs()
		for b.Loop() {
			g.Observe(o, t0.Add(time.Second))
		}
	})
	b.Run("new-cause", func(b *testing.B) {
		g := setup()
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			o := cause(fmt.Sprintf("n%d", i), "pod:7", "TP1", t0)
			g.Observe(o, t0.Add(time.Second))
			if len(g.groups) > open+100 {
				b.StopTimer()
				g = setup()
				b.StartTimer()
			}
		}
	})
	b.Run("new-cause-one-scope", func(b *testing.B) {
		// A scan of one file, or one pod's long run: every incident in
		// one scope, which a new root cause looks through for the
		// consequences it explains.
		one := func() *Grouper {
			g := New(foldOpts)
			for i := range open {
				g.Observe(cause(fmt.Sprintf("k%d", i), "pod:0", "TP0", t0), t0)
			}
			return g
		}
		g := one()
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			g.Observe(cause(fmt.Sprintf("n%d", i), "pod:0", "TP1", t0), t0.Add(time.Second))
			if len(g.groups) > open+100 {
				b.StopTimer()
				g = one()
				b.StartTimer()
			}
		}
	})
	b.Run("new-generic-one-scope", func(b *testing.B) {
		// Distinct generic lines among the incidents of one scan: each
		// looks for the cause of its burst among its source's causes.
		g := New(foldOpts)
		for i := range open {
			g.Observe(classified(fmt.Sprintf("k%d", i), fmt.Sprintf("file%d", i%50), t0), t0)
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			g.Observe(generic(fmt.Sprintf("line %d", i), "file7", t0.Add(time.Minute)), t0.Add(time.Minute))
			if len(g.groups) > open+100 {
				b.StopTimer()
				g.Flush(t0.Add(time.Hour))
				for j := range open {
					g.Observe(classified(fmt.Sprintf("k%d", j), fmt.Sprintf("file%d", j%50), t0), t0)
				}
				b.StartTimer()
			}
		}
	})
	b.Run("consequence", func(b *testing.B) {
		g := setup()
		o := cons("nccl", "pod:7", "rank1", t0.Add(time.Second))
		g.Observe(o, t0.Add(time.Second)) // its settling incident
		b.ReportAllocs()
		for b.Loop() {
			g.Observe(o, t0.Add(time.Second))
		}
	})
	b.Run("fold-at-once", func(b *testing.B) {
		// Without a settle time a consequence looks for its root cause at
		// once: among the incidents of its pod only.
		g := New(Options{Window: 5 * time.Minute, Correlation: 15 * time.Minute})
		for i := range open {
			g.Observe(cause(fmt.Sprintf("k%d", i), fmt.Sprintf("pod:%d", i%50), "TP0", t0), t0)
		}
		o := cons("nccl", "pod:7", "rank1", t0.Add(time.Second))
		b.ReportAllocs()
		for b.Loop() {
			g.Observe(o, t0.Add(time.Second))
		}
	})
}

// BenchmarkChanges measures the grouping state the pipeline writes with
// every commit that follows an occurrence, by open incidents, with one
// incident repeated between two commits: its cost does not grow with the
// incidents open.
func BenchmarkChanges(b *testing.B) {
	for _, open := range []int{100, 2000, DefaultMaxGroups} {
		b.Run(fmt.Sprint(open), func(b *testing.B) {
			g := New(foldOpts)
			for i := range open {
				g.Observe(cause(fmt.Sprintf("k%d", i), fmt.Sprintf("pod:%d", i%50), "TP0", t0), t0)
			}
			if _, err := g.Changes(); err != nil {
				b.Fatal(err)
			}
			g.Committed()
			repeat := cause("k7", "pod:7", "TP1", t0)
			var size int
			b.ReportAllocs()
			for b.Loop() {
				g.Observe(repeat, t0.Add(time.Second))
				c, err := g.Changes()
				if err != nil {
					b.Fatal(err)
				}
				g.Committed()
				size = len(c.Meta)
				for _, p := range c.Put {
					size += len(p.Data)
				}
			}
			b.ReportMetric(float64(size), "bytes")
		})
	}
}
