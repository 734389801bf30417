package analysis_test

import (
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

// A thread's exception header cut from its traceback is a failure shown in
// part: it says a background thread died, not what killed it.
func TestThreadHeaderAloneIsAFragment(t *testing.T) {
	m := defaultMatcher(t)
	for _, in := range []string{
		"[2025-08-17 19:34:27 TP0] Prefill batch. #new-seq: 1, #queue-req: 0,\nException in thread Thread-13 (backup_thread_func):\n",
		"Exception in thread Thread-1:\n",
		"Exception in thread prefetch (prefetch_thread_func):   \n",
	} {
		an := analysis.New(m)
		var got []analysis.Diagnosis
		for _, e := range entries(in) {
			if d, ok := an.Analyze(&e); ok {
				d.Triage = analysis.TriageOf(&e, d.Exception)
				got = append(got, d)
			}
		}
		if len(got) != 1 {
			t.Errorf("%q: %d failures, want 1", in, len(got))
			continue
		}
		if d := got[0]; !d.Fragment || d.Signal != analysis.SignalException || d.Triage.Process != analysis.ProcessThread {
			t.Errorf("%q: fragment %v, signal %q, process %q; want a fragment of an exception in a background thread", in, d.Fragment, d.Signal, d.Triage.Process)
		}
	}
	for _, in := range []string{
		"Exception in thread pool worker, retrying:\n",
		"[2025-08-17 19:34:27] Exception in thread handling was improved in this release\n",
	} {
		an := analysis.New(m)
		for _, e := range entries(in) {
			if d, ok := an.Analyze(&e); ok {
				t.Errorf("%q: alerted (%s), want silent", in, d.Headline)
			}
		}
	}
}
