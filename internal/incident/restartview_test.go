package incident_test

import (
	"strings"
	"testing"
)

// kubectl describe shows a crash-looping container's state
// ("CrashLoopBackOff") and its last state, whose message is the end of
// what the container printed before it exited: a traceback, often cut by
// the message's size limit. The restart policy's state says only that the
// container keeps exiting; the container's own lines say what failed, so
// they lead the incident, cut as they are, with the pod's rows folded in.
// Without such lines the crash loop still leads; a state that names the
// reason itself (OOMKilled) is no mere restart.
func TestTheContainersLastMessageLeadsItsCrashLoop(t *testing.T) {
	m := matcherWithout(t)
	kserve := []string{ // kserve/kserve#5303
		"      State:       Waiting",
		"        Reason:    CrashLoopBackOff",
		"      Last State:  Terminated",
		"        Reason:    Error",
		"        Message:    361, in start",
		"      asyncio.run(self._serve())",
		`    File "/usr/lib/python3.10/asyncio/runners.py", line 44, in run`,
		"      return loop.run_until_complete(main)",
		`    File "/prod_venv/lib/python3.10/site-packages/kserve/model_server.py", line 316, in _serve`,
		"      await asyncio.gather(*self.servers)",
		`    File "/prod_venv/lib/python3.10/site-packages/vllm/v1/engine/async_llm.py", line 155, in __init__`,
		"      self.engine_core = EngineCoreClient.make_async_mp_client(",
	}
	got := scanLines(t, m, kserve)
	if len(got) != 1 || got[0].Record.ID != "" || !strings.Contains(got[0].Match.Text, "async_llm.py") {
		t.Errorf("kserve: want one incident led by the last state's traceback, got %d:%s", len(got), describe(got))
	}
	killed := []string{ // kserve/kserve#2290
		"NAME                                                            READY   STATUS             RESTARTS   AGE",
		"bert-v2-predictor-default-00003-deployment-7d97bb994c-mvllp     0/2     CrashLoopBackOff   6          10m",
		"```",
		"",
		"```",
		"      lastFailureInfo:",
		"        exitCode: 137",
		"        message: |",
		"          ow.cc:1876] TRITONBACKEND_Initialize: tensorflow",
		"          I0730 13:42:15.149528 1 tensorflow.cc:1889] Triton TRITONBACKEND API version: 1.0",
	}
	if got := scanLines(t, m, killed); len(got) != 1 || got[0].Record.Slug != "process-killed-sigkill" {
		t.Errorf("kserve exit 137: want one incident led by the last failure's exit code, got %d:%s", len(got), describe(got))
	}
	alone := kserve[:4]
	if got := scanLines(t, m, alone); len(got) != 1 || got[0].Record.Slug != "k8s-container-crashloop" {
		t.Errorf("the rows alone: want the crash loop leading, got %d:%s", len(got), describe(got))
	}
}
