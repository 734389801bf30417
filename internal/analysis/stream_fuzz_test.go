package analysis_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
)

// FuzzAnalyzeStream feeds arbitrary logs through assembly with reused
// memory and AnalyzeLentInto with one Stream, as the stream shell does, so
// that the shapes read across entries (a help box, a gdb dump, a probe's
// answers while the server starts) are fuzzed too: no input panics, and
// every failure has a key and a one-line headline.
func FuzzAnalyzeStream(f *testing.F) {
	for _, s := range []string{
		rule + "It looks like orte_init failed for some reason; your parallel process is\n\n  getting local rank failed\n  --> Returned value No permission (-17) instead of ORTE_SUCCESS\n" + rule,
		"Thread 3 (Thread 0x7f2bab462700 (LWP 2488)):\n#0  0x00007f2baec811f3 in epoll_wait ()\n#1  0x1 in a::b(int) ()\n   from /x/libx.so\n#2  c (x=1) at c.c:3\n",
		"2025-11-13T12:45:21.221971Z ERROR http-request: tower_http::trace::on_failure: response failed classification=Status code: 503 Service Unavailable latency=0 ms method=GET uri=/live\n",
		"Program received signal SIGSEGV, Segmentation fault.\n#0  0x1 in f () from /lib/x.so\n",
	} {
		f.Add(s)
	}
	m := defaultMatcher(f)
	f.Fuzz(func(t *testing.T, data string) {
		an := analysis.New(m)
		var st analysis.Stream
		a := entry.NewAssembler(entry.Options{Reuse: true})
		check := func(es []entry.Entry) {
			for i := range es {
				var d analysis.Diagnosis
				if !an.AnalyzeLentInto(&d, &st, &es[i]) {
					continue
				}
				if d.Key == "" || strings.Contains(d.Headline, "\n") {
					t.Fatalf("diagnosis key %q headline %q", d.Key, d.Headline)
				}
			}
		}
		for i, l := range strings.Split(data, "\n") {
			check(a.Push(entry.Line{Text: l, Offset: int64(i)}))
		}
		check(a.Flush())
	})
}
