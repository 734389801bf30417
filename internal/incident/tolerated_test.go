package incident_test

import (
	"strings"
	"testing"
)

// An error that a notice quotes and the program goes on after (an info
// record reads the notice: sglang's model registry ignoring a module
// that does not import, GPUStack's worker giving up deriving an
// architecture) is no page alone, nor when every rank prints it; when
// the process then dies, it is what it died of and leads.
func TestAToleratedErrorPagesOnlyWithAFailureAfterIt(t *testing.T) {
	m := crashMatcher(t)
	notices := []string{
		"[2025-12-23 14:18:01] Ignore import error when loading sglang.srt.models.mindspore: name 'Tensor' is not defined",
		"2025-12-23T14:18:01.000Z WARNING gpustack.worker: Failed to derive model architecture: name 'Qwen3Config' is not defined",
	}
	for _, n := range notices {
		for _, l := range layouts {
			lines := []string{l.line(n)}
			if got := scanLines(t, m, lines); len(got) != 0 {
				t.Errorf("%s: the notice alone raises %d incidents:%s\n%s", l.name, len(got), describe(got), lines[0])
			}
		}
		var ranks []string
		for k := 0; k < 3; k++ {
			ranks = append(ranks, "[rank"+string(rune('0'+k))+"]:"+n)
		}
		if got := scanLines(t, m, ranks); len(got) != 0 {
			t.Errorf("every rank's notice raises %d incidents:%s", len(got), describe(got))
		}
	}
	gcc := "[2025-03-10 14:17:52 TP6] Ignore import error when loading sglang.srt.models.deepseek_v2. Command '['/usr/bin/gcc', '/tmp/tmp6x1f85tg/main.c', '-O3', '-shared', '-fPIC', '-o', '/tmp/tmp6x1f85tg/cuda_utils.cpython-311-x86_64-linux-gnu.so', '-lcuda']' returned non-zero exit status 1."
	alone := scanLines(t, m, []string{strings.Replace(gcc, "Ignore import error when loading sglang.srt.models.deepseek_v2. ", "", 1)})
	if len(alone) != 1 {
		t.Fatalf("the gcc failure alone gives %d incidents:%s", len(alone), describe(alone))
	}
	want := leadOf(alone[0])
	for _, gap := range []string{"14:17:52", "14:17:58", "14:18:20"} {
		lines := []string{gcc,
			"[2025-03-10 " + gap + " TP1] Scheduler hit an exception: Traceback (most recent call last):",
			`  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2300, in run_scheduler_process`,
			"    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)"}
		got := scanLines(t, m, lines)
		if len(got) != 1 || leadOf(got[0]) != want {
			t.Errorf("the scheduler dying at %s: want one incident led by %s, got %d:%s", gap, want, len(got), describe(got))
		}
	}
}
