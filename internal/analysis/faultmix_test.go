package analysis_test

import (
	"os"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

// TestFaultFramesInterleaved alerts several processes' faulthandler frame
// lines written at once, their pieces interleaved (eight sglang scheduler
// ranks segfaulting together, sgl-project/sglang#38849; two vLLM workers'
// frames of vllm-project/vllm#6252 written piece by piece as two
// processes' faulthandlers interleave them) as one native crash,
// critical, a fragment of the crash's report, headed by the files and
// names its pieces show; and leaves silent whole frame lines, frames a
// reader rejoined on one line, a traceback's frames and prose that names
// files and lines.
func TestFaultFramesInterleaved(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"sglang's scheduler ranks", "```\n" + `/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py  File ", line  in , line   File run_event_loop"""/sgl-workspace/sglang/python/sglang/srt/utils/nvtx_utils.py17631812"
, line 3933/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py, line "1763 in  in  in /sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py  File  in "", line pop_and_processevent_loop_overlappop_and_process"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.pyprocess_batch_result", line
, line 109
`, []string{"in scheduler.py, nvtx_utils.py", "process_batch_result"}},
		{"two vLLM workers", `  File "  File "/usr/local/lib/python3.10/dist-packages/flashinfer/decode.py/usr/local/lib/python3.10/dist-packages/vllm/attention/backends/flashinfer.py", line ", line 514149 in  in begin_forwardbegin_forward

  File "  File "/usr/local/lib/python3.10/dist-packages/vllm/attention/backends/flashinfer.py/usr/local/lib/python3.10/dist-packages/vllm/worker/model_runner.py", line ", line 1491005 in  in begin_forwardprepare_model_input
`, []string{"in decode.py, flashinfer.py, model_runner.py", "prepare_model_input"}},
		{"whole frame lines", `  File "/usr/local/lib/python3.10/dist-packages/flashinfer/decode.py", line 514 in begin_forward
  File "/usr/local/lib/python3.10/dist-packages/vllm/attention/backends/flashinfer.py", line 149 in begin_forward
`, nil},
		{"frames rejoined on one line", `[1,3]<stderr>:  File "/a/sglang/srt/managers/scheduler.py", line 510 in event_loop_overlap  File "/usr/lib/python3.10/multiprocessing/process.py", line 108 in run  File "<string>", line 1 in <module>
[1,3]<stderr>:  File "/a/sglang/srt/managers/scheduler.py", line 510 in event_loop_overlap  File "/usr/lib/python3.10/multiprocessing/process.py", line 108 in run  File "<string>", line 1 in <module>
`, nil},
		{"prose naming files and lines", `See File a.py, line 3 and File b.py, line 9 for the two call sites.
Then File c.py, line 12 and File d.py, line 40 hold the rest.
`, nil},
	} {
		got := analyzeStream(defaultMatcher(t), c.text)
		var mix []analysis.Diagnosis
		for _, d := range got {
			if strings.Contains(d.Headline, "interleaved") {
				mix = append(mix, d)
			}
		}
		if c.want == nil {
			if len(mix) != 0 {
				t.Errorf("%s: %q", c.name, mix[0].Headline)
			}
			continue
		}
		if len(mix) != 1 || mix[0].Signal != analysis.SignalNative || mix[0].Severity != "critical" || !mix[0].Fragment {
			t.Errorf("%s: %d interleaved crashes of %d failures, want one native crash", c.name, len(mix), len(got))
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(mix[0].Headline, w) {
				t.Errorf("%s: headline %q lacks %q", c.name, mix[0].Headline, w)
			}
		}
	}
}

// TestFaultFramesInterleavedCorpusExcerpt reads the sglang excerpt whole:
// one incident-worthy diagnosis.
func TestFaultFramesInterleavedCorpusExcerpt(t *testing.T) {
	text, err := os.ReadFile("../../testdata/corpus/1860-sglang-glm53-mi300-interleaved-faulthandler-frames-all-ranks-garbled.log")
	if err != nil {
		t.Skip(err)
	}
	if got := analyzeStream(defaultMatcher(t), string(text)); len(got) != 1 {
		t.Errorf("%d failures, want 1", len(got))
	}
}
