package entry

import (
	"fmt"
	"strings"
	"testing"
)

// TestViewerColumnBeforeTracebackRecord: behind a log viewer's time column
// ("2026-01-02 03:04:05.000 | "), a record whose traceback's first line is
// too long a relay prefix to learn ("... | (Worker pid=865) ERROR ...
// [nixl_connector.py:1263] Traceback ...") still shows the column, so the
// record's first line is read without it, as posted, and the traceback
// under it is the record's.
func TestViewerColumnBeforeTracebackRecord(t *testing.T) {
	for _, tt := range []struct {
		name  string
		lines []string
	}{
		{
			// vllm-project/vllm#41863.
			name: "vllm worker record",
			lines: []string{
				"(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263] NIXL transfer failure: handshake_setup_failed | Context: {'failure_type': 'handshake_setup_failed', 'request_id': None}",
				"(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263] Traceback (most recent call last):",
				`(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263]   File "/opt/dynamo/venv/lib/python3.12/site-packages/vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py", line 1261, in done_callback`,
				"(Worker_TP0_EP0 pid=865) ERROR 05-01 15:00:23 [nixl_connector.py:1263]     self._remote_agents[eid] = f.result()",
			},
		},
		{
			// sgl-project/sglang#3423.
			name: "sglang worker client",
			lines: []string{
				"ERROR 02-09 16:43:26 tp_worker_overlap_thread.py:112] TpModelWorkerClient hit an exception: Traceback (most recent call last):",
				`ERROR 02-09 16:43:26 tp_worker_overlap_thread.py:112]   File "/data/private/sglang-dev/sglang/python/sglang/srt/managers/tp_worker_overlap_thread.py", line 109, in forward_thread_func`,
			},
		},
	} {
		var b strings.Builder
		for i, l := range tt.lines {
			fmt.Fprintf(&b, "2026-01-02 03:04:05.%03d | %s\n", 10*i, l)
		}
		es := assemble(t, Options{}, strings.TrimSuffix(b.String(), "\n"))
		if len(es) != 1 || es[0].Format == FormatNone || !strings.HasPrefix(es[0].Prefix, "2026-01-02 03:04:05.000 | ") || es[0].Traceback == nil {
			t.Errorf("%s: %d entries %+v, first prefix %q; want one record, its viewer column taken off", tt.name, len(es), views(es), es[0].Prefix)
		}
	}
}
