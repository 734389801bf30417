package analysis_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

// A traceback cut before its exception line, logged under a record whose
// message is the exception's repr (a logger given the exception itself),
// has that exception: its type and message, and the phase its frames name.
func TestACutTracebackUnderItsExceptionsRepr(t *testing.T) {
	hdr := "ERROR 04-23 02:30:31 [engine.py:160] "
	tb := hdr + "Traceback (most recent call last):\n" +
		hdr + "  File \"/opt/vllm/lib/python3.11/site-packages/vllm/engine/multiprocessing/engine.py\", line 158, in start\n" +
		hdr + "    self.run_engine_loop()\n" +
		hdr + "  File \"/opt/vllm/lib/python3.11/site-packages/vllm/engine/multiprocessing/engine.py\", line 221, in run_engine_loop\n" +
		hdr + "    request_outputs = self.engine_step()\n"
	tests := []struct {
		name, first     string
		typ, msg, phase string
		fragment        bool
	}{
		{"a quoted message", "ValueError('Sampling parameters are missing for a CompletionRequest.')",
			"ValueError", "Sampling parameters are missing for a CompletionRequest.", "serving requests", false},
		{"a qualified type, double quotes", `plugin.errors.ShapeTableException("no compiled shape holds 306 tokens")`,
			"plugin.errors.ShapeTableException", "no compiled shape holds 306 tokens", "serving requests", false},
		{"an unquoted argument", "KeyError(0)", "KeyError", "0", "serving requests", false},
		// Near misses: a call that names no exception class, prose
		// around the repr: the traceback stays cut.
		{"a call, no exception class", "step(batch)", "", "", "serving requests", true},
		{"prose around it", "engine failed: ValueError('x') while stepping", "", "", "serving requests", true},
	}
	an := analysis.New(defaultMatcher(t))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []analysis.Diagnosis
			for _, e := range entries(hdr + tt.first + "\n" + tb) {
				if d, ok := an.Analyze(&e); ok {
					got = append(got, d)
				}
			}
			if len(got) != 1 {
				t.Fatalf("%d failures, want 1: %+v", len(got), got)
			}
			d := got[0]
			typ, msg := "", ""
			if d.Exception != nil {
				typ, msg = d.Exception.Type, d.Exception.Message
			}
			if typ != tt.typ || msg != tt.msg || d.Fragment != tt.fragment || d.Triage.Phase != tt.phase {
				t.Errorf("exception %q %q, fragment %v, phase %q; want %q %q, %v, %q", typ, msg, d.Fragment, d.Triage.Phase, tt.typ, tt.msg, tt.fragment, tt.phase)
			}
		})
	}
}

// FuzzReprException: no line panics, and what reads as a repr has a type
// of the identifier alphabet that names an error or exception class, and a
// message that is part of the line.
func FuzzReprException(f *testing.F) {
	for _, s := range []string{"ValueError('x')", `a.b.CustomException("y")`, "KeyError(0)", "f(x)", "Error()", "(", "ValueError('", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		typ, msg, ok := analysis.ReprException(line)
		if !ok {
			return
		}
		if typ == "" || strings.Trim(typ, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") != "" {
			t.Fatalf("type %q of %q is not a dotted name", typ, line)
		}
		if !strings.HasSuffix(typ, "Error") && !strings.HasSuffix(typ, "Exception") {
			t.Fatalf("type %q names no error class", typ)
		}
		if !strings.Contains(line, msg) {
			t.Fatalf("message %q is not part of %q", msg, line)
		}
	})
}
