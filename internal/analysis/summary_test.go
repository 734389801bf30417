package analysis

import "testing"

// torch elastic's exit code field, in the shapes its summary prints it
// (indented under "[N]:", a signal's negative code, alone on a line a
// collector cut from its block), and lines that only look like it.
func TestElasticExit(t *testing.T) {
	for _, tc := range []struct {
		text, want string
	}{
		{"[0]:\n  time      : 2024-03-05_07:01:51\n  host      : node-1\n  rank      : 0 (local_rank: 0)\n  exitcode  : 1 (pid: 69811)\n  error_file: <N/A>", "exitcode  : 1 (pid: 69811)"},
		{"exitcode  : -9 (pid: 4242)", "exitcode  : -9 (pid: 4242)"},
		{"  exitcode  : 134 (pid: 17)\n  traceback : Signal 6 (SIGABRT) received by PID 17", "exitcode  : 134 (pid: 17)"},
		{"exitcode  : 0 (pid: 12)", ""},
		{"exitcode: 1", ""},
		{"exitcode  : one (pid: 12)", ""},
		{"exitcode  : 1 (pid: x)", ""},
		{"the exitcode  : 1 (pid: 12) was seen", ""},
		{"", ""},
	} {
		if got := elasticExit(tc.text); got != tc.want {
			t.Errorf("elasticExit(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func FuzzElasticExit(f *testing.F) {
	for _, s := range []string{"exitcode  : 1 (pid: 69811)", "  exitcode  : -9 (pid: 4242)\n", "exitcode : (pid: )"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		elasticExit(s)
	})
}
