package incident_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/sinks"
)

// A record that reads only the process's death ("Segmentation fault (core
// dumped)", faulthandler's "Fatal Python error: Segmentation fault")
// says how it ended, not what failed: a writer's error line no record
// names printed just before it, saying what failed, leads, and the death
// is listed in its incident, as when no record reads the death (lines of
// TensorRT's runtime loading an engine of another release, of its ONNX
// parser refusing a node, of a Python logger; TensorRT's records left
// out). An error line that only says something failed, a frame of the crash's
// own dump logged as an error line, and an error line printed long before
// keep the death's record leading.
func TestAnErrorLineLeadsTheDeathRecordAfterIt(t *testing.T) {
	m := matcherWithout(t, "trtllm-engine-deserialize-failed", "tensorrt-out-of-memory", "tensorrt-engine-build-failed")
	deaths := []string{"Segmentation fault (core dumped)", "Fatal Python error: Segmentation fault"}
	for _, c := range []struct {
		lines []string
		says  string
	}{
		{trtOtherReleaseLines, "Version tag does not match"},
		{[]string{
			"[03/14/2024-10:02:11] [E] [TRT] ModelImporter.cpp:731: ERROR: builtin_op_importers.cpp:3422 In function importResize: [8] Assertion failed: scales.is_weights() && \"Resize scales must be an initializer!\"",
		}, "Resize scales must be an initializer"},
		{[]string{
			"2024-05-02 11:20:07,115 - ERROR - Failed to map the weight file /models/llama-7b/model-00002.safetensors: invalid header length",
		}, "invalid header length"},
	} {
		for _, death := range deaths {
			if alone := scanLines(t, m, []string{death}); len(alone) != 1 || alone[0].Record.ID == "" {
				t.Fatalf("%q alone: want one classified incident, got %d:%s", death, len(alone), describe(alone))
			}
			got := scanLines(t, m, append(append([]string{}, c.lines...), death))
			if len(got) != 1 || got[0].Record.ID != "" || !strings.Contains(got[0].Match.Text, c.says) || len(got[0].Consequences) == 0 {
				t.Errorf("%s then %q: want one incident led by the error line, the death listed, got %d:%s", c.says, death, len(got), describe(got))
			}
		}
	}
	death := deaths[0]
	want := leadOf(scanLines(t, m, []string{death})[0])
	vague := "2024-05-02 11:20:07,115 - ERROR - failed"
	if got := scanLines(t, m, []string{vague, death}); len(got) == 0 || leadOf(got[0]) != want {
		t.Errorf("a vague error line: want the death's record leading, got %d:%s", len(got), describe(got))
	}
	for _, frame := range []string{
		"[2024-08-27 17:30:02,931 E 442885 442885] logging.cc:440: PC: @           0x5266a0  (unknown)  (unknown)",
		"[2024-08-27 17:30:02,931 E 442885 442885] [logging.cc:440](http://logging.cc:440/): PC: @ 0x5266a0 (unknown) (unknown)",
	} {
		if got := scanLines(t, m, []string{frame, deaths[1]}); len(got) == 0 || got[0].Record.ID == "" {
			t.Errorf("%q, a frame of the crash's own dump: want the death's record leading, got %d:%s", frame, len(got), describe(got))
		}
	}
	lines := []string{"2024-05-02 11:20:07,115 - ERROR - Failed to map the weight file /models/llama-7b/model-00002.safetensors: invalid header length"}
	for range 400 {
		lines = append(lines, "2024-05-02 11:20:08,000 - INFO - served request 200 OK in 35 ms for a chat completion of 512 tokens")
	}
	lines = append(lines, death)
	for _, a := range scanLines(t, m, lines) {
		if a.Record.ID == "" && len(a.Consequences) > 0 {
			t.Errorf("an error line long before the death took it as its own:%s", describe([]sinks.Alert{a}))
		}
	}
}
