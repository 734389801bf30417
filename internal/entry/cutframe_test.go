package entry

import (
	"strings"
	"testing"
)

// termCut breaks every line of s longer than width at width, as a terminal
// of that width shows it and a copy pastes it.
func termCut(s string, width int) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		for len(l) > width {
			out = append(out, l[:width])
			l = l[width:]
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// TestCutFrameOpensTraceback: a header-less traceback's first frame line,
// cut by a terminal or a word wrap inside its path or right after its
// line number, opens the traceback's entry as the whole frame line does
// after a code fence's line (lmdeploy's rank-prefixed frames, LMCache's
// vLLM frames, sglang's scheduler frames), and its rest makes it the
// frame it is; a frame's start after an exception line ends that entry
// as the whole frame does.
func TestCutFrameOpensTraceback(t *testing.T) {
	for _, tt := range []struct {
		name, in  string
		width     int
		wantFirst string // the traceback's first frame's file
		wantFunc  string
	}{
		{"lmdeploy, rank-prefixed, cut at 80", "```Shell\n" +
			"[rank0]:   File \"/media/sde1/qianyuan/miniconda3/envs/aishenhe/lib/python3.10/site-packages/lmdeploy/api.py\", line 85, in pipeline\n" +
			"[rank0]:     return pipeline_class(model_path,\n" +
			"[rank0]:   File \"/media/sde1/qianyuan/miniconda3/envs/aishenhe/lib/python3.10/site-packages/lmdeploy/serve/vl_async_engine.py\", line 27, in __init__\n" +
			"[rank0]:     super().__init__(model_path, **kwargs)",
			80, "/media/sde1/qianyuan/miniconda3/envs/aishenhe/lib/python3.10/site-packages/lmdeploy/api.py", "pipeline"},
		{"LMCache's vLLM frames, cut at 120", "```bash\n" +
			"  File \"/usr/local/lib/python3.12/dist-packages/vllm/distributed/parallel_state.py\", line 979, in ensure_kv_transfer_initialized\n" +
			"    _KV_TRANSFER = kv_transfer.KVTransferAgent(\n" +
			"  File \"/usr/local/lib/python3.12/dist-packages/vllm/distributed/kv_transfer/kv_transfer_agent.py\", line 49, in __init__\n" +
			"    self.connector = KVConnectorFactory.create_connector(",
			120, "/usr/local/lib/python3.12/dist-packages/vllm/distributed/parallel_state.py", "ensure_kv_transfer_initialized"},
		{"sglang's scheduler, cut after the line number", "```\n" +
			"  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 260, in __init__\n" +
			"    self.tp_worker = TpWorkerClass(\n" +
			"  File \"/sgl-workspace/sglang/python/sglang/srt/managers/tp_worker.py\", line 75, in __init__\n" +
			"    self.model_runner = ModelRunner(",
			80, "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", "__init__"},
	} {
		es := assemble(t, Options{}, termCut(tt.in, tt.width))
		if len(es) != 2 || es[1].Traceback == nil || len(es[1].Traceback.Links) == 0 || len(es[1].Traceback.Links[0].Frames) < 2 {
			t.Errorf("%s: %d entries, want the fence's line and a traceback of two frames: %+v", tt.name, len(es), es)
			continue
		}
		f := es[1].Traceback.Links[0].Frames[0]
		if f.File != tt.wantFirst || f.Func != tt.wantFunc {
			t.Errorf("%s: first frame %+v, want %s in %s", tt.name, f, tt.wantFirst, tt.wantFunc)
		}
	}
	// Two real lines that stay two entries: an exception line, then a
	// new traceback's first frame cut by the terminal.
	in := "RuntimeError: CUDA error: an illegal memory access was encountered\n" +
		termCut("  File \"/usr/local/lib/python3.12/dist-packages/vllm/distributed/parallel_state.py\", line 979, in ensure_kv_transfer_initialized", 80)
	if es := assemble(t, Options{}, in); len(es) != 2 {
		t.Errorf("exception line and a cut frame after it: %d entries, want 2", len(es))
	}
}

func TestIsCutFrameStart(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"  File ", true},
		{`  File "/media/sde1/qianyuan/miniconda3/envs/aishenhe/lib/python3.10/si`, true},
		{`File "/mnt/new_pfs/liming_team/wyq/sglang/python/sglang/srt/managers/scheduler.p`, true},
		{`  File "/usr/local/lib/python3.12/dist-packages/vllm/worker/worker.py", line `, true},
		{`  File "/x.py", line 3, in f`, false},                   // whole
		{`  File "config.yaml" not found, using defaults`, false}, // prose
		{"  File a report", false},
		{"Filesystem full", false},
		{"", false},
	} {
		if got := isCutFrameStart(tt.s); got != tt.want {
			t.Errorf("isCutFrameStart(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

// FuzzIsCutFrameStart checks the rule's promise: a cut frame's start is
// no whole frame line and opens as one ("File ").
func FuzzIsCutFrameStart(f *testing.F) {
	f.Add(`  File "/media/sde1/qianyuan/miniconda3/envs/aishenhe/lib/python3.10/si`)
	f.Add("  File ")
	f.Fuzz(func(t *testing.T, s string) {
		if !isCutFrameStart(s) {
			return
		}
		if isFrameLine(s) || !strings.HasPrefix(strings.TrimLeft(s, " \t"), "File ") {
			t.Fatalf("isCutFrameStart(%q): a whole frame line or no frame's start", s)
		}
	})
}
