package analysis_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/patterns"
)

// FuzzAnalyze feeds arbitrary logs through assembly and the analysis core
// with the default catalog: no input panics, and every failure has a key,
// a one-line headline, a known severity and role, and a cause that is not
// also listed as its context or alternative.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{
		schedTB + "ZeroDivisionError: division by zero\n",
		schedTB + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n",
		"Exception: Capture cuda graph failed: x\nKilled\nE0414 03:56:41.856248 77969 a.cpp:173] y",
		"2025-03-08 02:04:48,693 - r - ERROR - z\n[2026-05-28 00:11:10] Received sigquit from a child process.",
		"2025-08-28 01:22:58 [ERROR]\n [m] Failed to generate a tool call (this tool call will be omitted from the \nresponse):  x\n",
		"Traceback (most recent call last):\n  File \"a.py\", line 1, in f\n    g()\nValueError: bad 'x'\n\nThe above exception was the direct cause of the following exception:\n\nTraceback (most recent call last):\n  File \"b.py\", line 2, in h\n    f()\nRuntimeError: Failed to start the server\n",
		"ImportError: libx.so.1: cannot open shared object file: No such file or directory\nModuleNotFoundError: No module named 'x._C'\n",
		"",
	} {
		f.Add(s)
	}
	for _, glob := range []string{"../../examples/*.log", "../../testdata/logs/*.log"} {
		paths, _ := filepath.Glob(glob)
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(string(b))
			}
		}
	}
	m := defaultMatcher(f)
	f.Fuzz(func(t *testing.T, data string) {
		an := analysis.New(m)
		for _, e := range entries(data) {
			d, ok := an.Analyze(&e)
			if !ok {
				if d.Cause != nil || d.Key != "" {
					t.Fatalf("no failure, yet cause %v key %q", d.Cause, d.Key)
				}
				continue
			}
			if d.Key == "" || strings.Contains(d.Headline, "\n") || d.Severity.Rank() == 0 {
				t.Fatalf("diagnosis key %q headline %q severity %q", d.Key, d.Headline, d.Severity)
			}
			if _, err := patterns.ParseRole(string(d.Role)); err != nil || d.Role == "" {
				t.Fatalf("role %q", d.Role)
			}
			if (d.Cause == nil) != (d.Signal != analysis.SignalRecord) {
				t.Fatalf("cause %v with signal %q", d.Cause != nil, d.Signal)
			}
			for _, h := range d.Hits() {
				if d.Cause != nil && h.Record == d.Cause.Record {
					t.Fatalf("cause %s listed again among the other hits", h.Record.ID)
				}
			}
		}
	})
}
