package entry

import (
	"strings"
	"testing"
)

// TestRecordFrameCutByTerminal: a vLLM record whose every line repeats
// its header and whose first line's message is a traceback's frame, cut
// by a terminal at its width inside the frame's path, is the record's
// traceback as posted: the frame made whole opens the traceback, the
// lines after it that repeat the header go on with it, and its exception
// line is the traceback's.
func TestRecordFrameCutByTerminal(t *testing.T) {
	for _, tt := range []struct {
		name   string
		lines  []string
		exc    string
		frames int
	}{
		{
			// vllm-project/vllm#44411.
			name: "engine core",
			lines: []string{
				`(EngineCore pid=395145) ERROR 06-03 12:30:47 [core.py:1165]   File "/home/yalihupokn/Repositories/vM/.venv/lib/python3.13/site-packages/vllm/v1/executor/multiproc_executor.py", line 747, in wait_for_ready`,
				`(EngineCore pid=395145) ERROR 06-03 12:30:47 [core.py:1165]     raise e from None`,
				`(EngineCore pid=395145) ERROR 06-03 12:30:47 [core.py:1165] Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.`,
			},
			exc:    "Exception",
			frames: 1,
		},
		{
			// vllm-project/vllm#14095, its frames flush after the
			// header, cut before its exception.
			name: "worker process",
			lines: []string{
				`(VllmWorkerProcess pid=195296) ERROR 03-02 19:49:43 [multiproc_worker_utils.py:242] File "/home/uefi/vllm/source/vllm/vllm/executor/multiproc_worker_utils.py", line 236, in _run_worker_process`,
				`(VllmWorkerProcess pid=195296) ERROR 03-02 19:49:43 [multiproc_worker_utils.py:242] output = run_method(worker, method, args, kwargs)`,
				`(VllmWorkerProcess pid=195296) ERROR 03-02 19:49:43 [multiproc_worker_utils.py:242] ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^`,
				`(VllmWorkerProcess pid=195296) ERROR 03-02 19:49:43 [multiproc_worker_utils.py:242] File "/home/uefi/vllm/source/vllm/vllm/utils.py", line 2232, in run_method`,
				`(VllmWorkerProcess pid=195296) ERROR 03-02 19:49:43 [multiproc_worker_utils.py:242] return func(*args, **kwargs)`,
			},
			frames: 2,
		},
	} {
		for _, w := range []int{1000, 80, 100, 120} {
			var cut []string
			for _, l := range tt.lines {
				for len(l) > w {
					cut = append(cut, l[:w])
					l = l[w:]
				}
				cut = append(cut, l)
			}
			es := assemble(t, Options{}, strings.Join(cut, "\n"))
			if len(es) != 1 {
				t.Errorf("%s at %d: %d entries, want 1: %+v", tt.name, w, len(es), views(es))
				continue
			}
			o := es[0].Traceback.Outermost()
			if o == nil || o.Type != tt.exc || len(o.Frames) != tt.frames {
				t.Errorf("%s at %d: outermost %+v, want %q after %d frames", tt.name, w, o, tt.exc, tt.frames)
			}
		}
	}
}
