package analysis

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// TestSignalUnchangedByDecide holds decide's late reading of the entry's
// signal (a record's hit reads it only where the record that leads is an
// info one or names no remedy) to the reading it made first, before the
// hits were chosen: for every entry of the example, test and corpus logs,
// readSignal gives the same answer twice, leaves the entry as it was, and
// gives after the analysis what it gave before it. readSignal reads the
// entry alone, so the answer decide reads late is the one it read early.
func TestSignalUnchangedByDecide(t *testing.T) {
	recs, probs := patterns.Default()
	for _, p := range probs {
		if p.Level == patterns.LevelError {
			t.Fatalf("default catalog: %v", p)
		}
	}
	m, _ := matcher.Compile(recs, matcher.Options{})
	paths := repoLogs(t)
	type answer struct {
		sig   Signal
		sev   patterns.Severity
		death bool
	}
	read := func(e *entry.Entry) answer {
		s, v, d := readSignal(e)
		return answer{s, v, d}
	}
	n, hit, failed := 0, 0, 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		an := New(m)
		as := entry.NewAssembler(entry.Options{})
		var es []entry.Entry
		for i, l := range strings.Split(string(b), "\n") {
			es = append(es, as.Push(entry.Line{Text: l, Offset: int64(i)})...)
		}
		for _, e := range append(es, as.Flush()...) {
			n++
			kept := e
			before := read(&e)
			if again := read(&e); again != before || !reflect.DeepEqual(kept, e) {
				failed++
				continue
			}
			var d Diagnosis
			an.AnalyzeInto(&d, &e)
			if d.Cause != nil {
				hit++
			}
			if after := read(&e); after != before {
				failed++
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d entries: readSignal's answer changed within the analysis", failed, n)
	}
	t.Logf("%d entries of %d logs, %d with a record's hit", n, len(paths), hit)
}
