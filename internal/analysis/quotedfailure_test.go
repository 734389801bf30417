package analysis

import "testing"

// TestQuotedFailure reads a program's diagnostic or a native library's
// error line after a reporter's own words (a sentence, a quotation, a
// banner, emphasis, another script glued to it), composed from argparse,
// Slurm, docker's client, the dynamic loader, make, CUDA, HIP and NCCL,
// and leaves silent prose that only names an error, a diagnostic at a
// line's start (read elsewhere), warnings, figures and a name glued to
// other words.
func TestQuotedFailure(t *testing.T) {
	for l, want := range map[string]bool{
		`when I start it, it says "serve.py: error: unrecognized arguments: --tp-size 2"`:                                             true,
		"运行后出现docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].":                    true,
		"**docker: Error response from daemon: failed to create task for container: unknown.**":                                       true,
		"the job dies with slurmstepd: error: Detected 1 oom_kill event in StepId=42.0. Some of the step tasks have been OOM Killed.": true,
		"after the upgrade python3: error while loading shared libraries: libpython3.10.so.1.0: cannot open shared object file":       true,
		`the error "CUDA error: an illegal memory access was encountered`:                                                             true,
		"!!! Exception during processing !!! HIP error: invalid device function":                                                      true,
		"(rank 3) NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)":                                            true,
		"make: *** [Makefile:2: all] Error 1":                                                                                         false,
		"serve.py: error: unrecognized arguments: --tp-size 2":                                                                        false,
		"CUDA error: out of memory":                             false,
		"I looked for the error but found nothing":              false,
		"the tool prints serve.py: warning: flag is deprecated": false,
		"mean error: 0.02, max error: 0.1":                      false,
		"the RMSE error: 0.02 on the held-out set":              false,
		"see the docs: errors are retried":                      false,
		"prefixCUDA error: x":                                   false,
		"":                                                      false,
	} {
		if got := quotedFailure(l); got != want {
			t.Errorf("quotedFailure(%q) = %v, want %v", l, got, want)
		}
	}
}

// FuzzQuotedFailure checks that quotedFailure never panics and reads
// only lines its byte test lets through.
func FuzzQuotedFailure(f *testing.F) {
	for _, s := range []string{
		`it says "a.py: error: bad"`,
		"!!! x !!! CUDA error: y",
		": error",
		"rror",
		" Error",
		"\xe4\xbc\x9adocker: Error response from daemon: x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if quotedFailure(l) && !quotedFailureCandidate(l) {
			t.Fatalf("quotedFailure(%q) without its byte test", l)
		}
	})
}
