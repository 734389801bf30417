package incident_test

import (
	"strings"
	"testing"
)

// An import that failed at start-up, logged at any level, and the code
// error that later names what it should have defined are one incident, led
// by the import failure, whether the use fails seconds or minutes later.
// Composed after a server's optional attention kernel logged as a
// fallback warning, a kernel package's bare ModuleNotFoundError, and a
// warning about a shared library its fused kernels need; the uses as a
// bare NameError, a scheduler's traceback and a module AttributeError.
func TestAFailedImportLeadsTheNamesItShouldHaveDefined(t *testing.T) {
	m := crashMatcher(t)
	sched := func(last string) []string {
		return []string{"[2025-06-01 12:03:00 TP0] Scheduler hit an exception: Traceback (most recent call last):",
			`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2300, in run_scheduler_process`,
			"    scheduler.event_loop_overlap()",
			`  File "/sgl-workspace/sglang/python/sglang/srt/layers/layernorm.py", line 80, in forward_cuda`,
			"    return fused_add_rmsnorm(x, residual, self.weight.data, self.variance_epsilon)",
			last}
	}
	cases := []struct {
		name     string
		imp, use []string
	}{
		{"a fallback warning, then a bare NameError",
			[]string{"2025-06-01 12:00:00 | WARNING | flashinfer not found, falling back to triton attention: No module named 'flashinfer'"},
			[]string{"2025-06-01 12:00:03 | ERROR | NameError: name 'flashinfer' is not defined"}},
		{"a kernel package's ModuleNotFoundError, then a scheduler's NameError",
			[]string{"ModuleNotFoundError: No module named 'sgl_kernel'"},
			sched("NameError: name 'sgl_kernel' is not defined")},
		{"a fallback warning, then a module's missing attribute",
			[]string{"2025-06-01 12:00:00 | WARNING | flashinfer not found, falling back to triton attention: No module named 'flashinfer'"},
			sched("AttributeError: 'NoneType' object has no attribute 'flashinfer_rmsnorm'")},
	}
	for _, c := range cases {
		alone := scanLines(t, m, c.imp)
		if len(alone) != 1 {
			t.Fatalf("%s: the import failure alone gives %d incidents:%s", c.name, len(alone), describe(alone))
		}
		want := leadOf(alone[0])
		for _, gap := range []int{0, 30} {
			for _, l := range layouts {
				var lines []string
				for _, s := range c.imp {
					lines = append(lines, l.line(s))
				}
				for i := 0; i < gap; i++ {
					lines = append(lines, l.line(healthy[i%len(healthy)]))
				}
				for _, s := range c.use {
					lines = append(lines, l.line(s))
				}
				got := scanLines(t, m, lines)
				if len(got) != 1 || leadOf(got[0]) != want {
					t.Errorf("%s, %d lines apart, %s: want one incident led by %s, got %d:%s\n%s", c.name, gap, l.name, want, len(got), describe(got), strings.Join(lines, "\n"))
				}
			}
		}
	}
}

// A code error that names something the failed import did not provide is
// its own failure.
func TestAFailedImportDoesNotLeadAnotherName(t *testing.T) {
	m := crashMatcher(t)
	lines := []string{
		"2025-06-01 12:00:00 | WARNING | flashinfer not found, falling back to triton attention: No module named 'flashinfer'",
		"2025-06-01 12:00:03 | ERROR | NameError: name 'tokenizer' is not defined",
	}
	if got := scanLines(t, m, lines); len(got) != 2 {
		t.Errorf("want 2 incidents, got %d:%s", len(got), describe(got))
	}
	// Past the correlation window: another failure of the same name.
	lines = []string{
		"[2025-06-01 12:00:00] WARNING server.py:40: flashinfer not found, falling back to triton attention: No module named 'flashinfer'",
		"[2025-06-01 12:40:03] ERROR server.py:90: NameError: name 'flashinfer' is not defined",
	}
	if got := scanLines(t, m, lines); len(got) != 2 {
		t.Errorf("an hour later: want 2 incidents, got %d:%s", len(got), describe(got))
	}
}
