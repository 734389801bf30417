package incident_test

import "testing"

// A DataLoader worker that meets a bus error says so in its own line
// ("ERROR: Unexpected bus error encountered in worker. This might be
// caused by insufficient shared memory (shm)."), and the parent that
// waited on it then raises that the worker was killed by a signal. With
// no record for either (left out of the catalog), the worker's line leads
// and the parent's exception is listed in its incident, as it leads a
// paste cut before that exception; the parent's exception alone still
// alerts.
func TestAWorkersOwnLineLeadsItsKill(t *testing.T) {
	m := matcherWithout(t, "shared-memory-bus-error")
	worker := "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm)."
	for _, lines := range [][]string{
		{
			"Epoch 0: 6843.771 seconds",
			worker, worker, worker,
			"Traceback (most recent call last):",
			`  File "/opt/conda/lib/python3.6/site-packages/torch/utils/data/dataloader.py", line 480, in _try_get_batch`,
			"    data = self.data_queue.get(timeout=timeout)",
			`  File "/opt/conda/lib/python3.6/site-packages/torch/utils/data/_utils/signal_handling.py", line 63, in handler`,
			"    _error_if_any_worker_fails()",
			"RuntimeError: DataLoader worker (pid 325) is killed by signal: Bus error.",
		},
	} {
		got := scanLines(t, m, lines)
		if len(got) != 1 || got[0].Record.ID != "" || !leadsWith(got[0], "Unexpected bus error encountered in worker") {
			t.Errorf("want one incident led by the worker's line, got %d:%s", len(got), describe(got))
		}
	}
	// Cut before the parent's exception line: the worker's line leads.
	cut := []string{
		worker, worker, worker, worker,
		"Traceback (most recent call last):",
		`  File "train_pre.py", line 52, in <module>`,
		"    for i, (images, labels) in enumerate(train_loader):",
		`  File "/usr/local/lib/python3.5/dist-packages/torch/utils/data/dataloader.py", line 275, in __next__`,
		"    idx, batch = self._get_batch()",
		`  File "/usr/local/lib/python3.5/dist-packages/torch/utils/data/dataloader.py", line 254, in _get_batch`,
		"    return self.data_queue.get()",
	}
	if got := scanLines(t, m, cut); len(got) != 1 || !leadsWith(got[0], "Unexpected bus error encountered in worker") {
		t.Errorf("cut before the parent's exception: want one incident led by the worker's line, got %d:%s", len(got), describe(got))
	}
	alone := []string{
		`  File "/mnt/lustre/liudonghui/anaconda3/envs/venv_mmdet/lib/python3.6/site-packages/torch/utils/data/dataloader.py", line 227, in handler`,
		"    _error_if_any_worker_fails()",
		"RuntimeError: DataLoader worker (pid 34569) is killed by signal: Bus error. Details are lost due to multiprocessing. Rerunning with num_workers=0 may give better error trace.",
	}
	if got := scanLines(t, m, alone); len(got) != 1 || !leadsWith(got[0], "is killed by signal: Bus error") {
		t.Errorf("the parent's exception alone: want it alerted, got %d:%s", len(got), describe(got))
	}
}
