package incident_test

import (
	"strings"
	"testing"
)

// A server that fails to start stops its event loop, and every task the
// loop cancels ends its traceback in asyncio's CancelledError (uvicorn's
// lifespan task waiting on its queue, anyio's cancel scope). The
// cancellation says that the process stopped, not why: the start failure
// printed after it (KServe's "Failed to start model server", uvicorn's
// "Application startup failed") or before it leads the one incident, and
// the cancellation is its consequence. A CancelledError alone is still
// alerted, and a real failure before one still leads.
func TestACancelledTaskNeverLeadsTheStartFailure(t *testing.T) {
	m := matcherWithout(t)
	lifespan := []string{ // kserve/kserve#5056
		"```",
		`  File "/kserve-workspace/prod_venv/lib/python3.12/site-packages/starlette/routing.py", line 699, in lifespan`,
		"    await receive()",
		`  File "/kserve-workspace/prod_venv/lib/python3.12/site-packages/uvicorn/lifespan/on.py", line 137, in receive`,
		"    return await self.receive_queue.get()",
		"           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
		`  File "/usr/lib/python3.12/asyncio/queues.py", line 158, in get`,
		"    await getter",
		"asyncio.exceptions.CancelledError",
	}
	kserve := append(append([]string{}, lifespan...),
		"",
		"2026-02-11 02:15:04.629 1 kserve ERROR [__main__.py:<module>():337] Failed to start model server: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
		"Traceback (most recent call last):",
		`  File "/kserve-workspace/huggingfaceserver/huggingfaceserver/__main__.py", line 333, in <module>`,
		"    model_server.start([model])",
		`  File "/kserve-workspace/prod_venv/lib/python3.12/site-packages/kserve/model_server.py", line 344, in start`,
		"    asyncio.run(self._serve())",
	)
	scope := []string{ // agentscope-ai/QwenPaw#718
		`  File "C:\Users\houmingze\AppData\Local\Programs\Python\Python312\Lib\site-packages\anyio\_backends\_asyncio.py", line 1789, in wait`,
		"    await self._event.wait()",
		`  File "C:\Users\houmingze\AppData\Local\Programs\Python\Python312\Lib\asyncio\locks.py", line 212, in wait`,
		"    await fut",
		"asyncio.exceptions.CancelledError: Cancelled via cancel scope 1464411d9d0",
		"",
		"ERROR:    Application startup failed. Exiting.",
	}
	for _, c := range []struct {
		name  string
		lines []string
		lead  string
	}{
		{"kserve", kserve, "Failed to start model server"},
		{"uvicorn", scope, "Application startup failed"},
	} {
		got := scanLines(t, m, c.lines)
		if len(got) != 1 || !strings.Contains(got[0].Match.Text, c.lead) {
			t.Errorf("%s: want one incident led by %q, got %d:%s", c.name, c.lead, len(got), describe(got))
			continue
		}
		if ex := got[0].Match.Exception; ex != nil && strings.HasSuffix(ex.Type, "CancelledError") {
			t.Errorf("%s: the lead carries the cancellation: %+v", c.name, ex)
		}
	}
	// Alone, the cancellation is still alerted.
	if got := scanLines(t, m, lifespan); len(got) != 1 || got[0].Match.Exception == nil || !strings.HasSuffix(got[0].Match.Exception.Type, "CancelledError") {
		t.Errorf("a CancelledError alone: want one incident, got %d:%s", len(got), describe(got))
	}
	// A real failure before the cancellation leads it.
	failed := append([]string{
		"Traceback (most recent call last):",
		`  File "/usr/local/lib/python3.10/dist-packages/vllm/config.py", line 412, in _verify_quantization`,
		"    raise ValueError(",
		"ValueError: Unknown quantization method: fp9. Must be one of ['aqlm', 'awq', 'fp8'].",
	}, lifespan...)
	if got := scanLines(t, m, failed); len(got) == 0 || got[0].Match.Exception == nil || got[0].Match.Exception.Type != "ValueError" {
		t.Errorf("a ValueError, then the cancellation: want the ValueError leading, got %d:%s", len(got), describe(got))
	}
}
