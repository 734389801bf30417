package analysis_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

// headlineOf is the headline of the first entry of text that diagnoses.
func headlineOf(t *testing.T, text string) string {
	t.Helper()
	a := analysis.New(defaultMatcher(t))
	for _, e := range entries(text) {
		if d, ok := a.Analyze(&e); ok {
			return d.Headline
		}
	}
	return ""
}

// TestBareAssertionErrorNamesItsStatement: an assert without a message
// says only "AssertionError"; the headline quotes the statement Python
// printed under the raising frame, and an AssertionError with a message,
// or whose source line is not an assert, keeps its own line.
func TestBareAssertionErrorNamesItsStatement(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{
			name: "python 3.10 scheduler assert",
			in: "Traceback (most recent call last):\n" +
				"  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 2001, in run_scheduler_process\n" +
				"    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)\n" +
				"  File \"/sgl-workspace/sglang/python/sglang/srt/mem_cache/radix_cache.py\", line 87, in __init__\n" +
				"    assert page_size == 1\n" +
				"AssertionError\n",
			want: "AssertionError (assert page_size == 1)",
		},
		{
			name: "python 3.11 location line under the statement",
			in: "Traceback (most recent call last):\n" +
				"  File \"/x/sglang/srt/layers/attention/flashinfer_backend.py\", line 120, in __init__\n" +
				"    assert not model_runner.use_mla_backend, \"unsupported\"\n" +
				"           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" +
				"AssertionError\n",
			want: "AssertionError (assert not model_runner.use_mla_backend, \"unsupported\")",
		},
		{
			name: "a message of its own is the headline",
			in: "Traceback (most recent call last):\n" +
				"  File \"/x/sglang/srt/server_args.py\", line 400, in check\n" +
				"    assert self.tp_size % self.dp_size == 0, \"tp must divide dp\"\n" +
				"AssertionError: tp must divide dp\n",
			want: "AssertionError: tp must divide dp",
		},
		{
			name: "raised explicitly, no assert statement",
			in: "Traceback (most recent call last):\n" +
				"  File \"/x/app.py\", line 3, in f\n" +
				"    raise AssertionError\n" +
				"AssertionError\n",
			want: "AssertionError",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := headlineOf(t, tc.in); got != tc.want {
				t.Errorf("headline = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestBareAssertionErrorFromRealPython reads the traceback a real python3
// prints for a failed bare assert.
func TestBareAssertionErrorFromRealPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	script := filepath.Join(t.TempDir(), "radix_cache.py")
	src := "def init(page_size):\n    assert page_size == 1\n\ninit(16)\n"
	if err := os.WriteFile(script, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, script).CombinedOutput()
	if err == nil {
		t.Fatalf("python3 %s succeeded; want a failed assert", script)
	}
	got := headlineOf(t, string(out))
	if !strings.HasPrefix(got, "AssertionError") || !strings.Contains(got, "(assert page_size == 1)") {
		t.Errorf("headline = %q, want the assert statement; python printed:\n%s", got, out)
	}
}
