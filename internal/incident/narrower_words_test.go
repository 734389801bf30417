package incident

import "testing"

func TestNamesComponentAsAWord(t *testing.T) {
	for _, tc := range []struct {
		line, comp string
		want       bool
	}{
		{"node-1:2288:2597 [0] misc/shmutils.cc:93 NCCL WARN Call to open failed", "nccl", true},
		{"error while attaching to /dev/shm/nccl-AbC123", "nccl", true},
		{"dlopen libnccl.so.2 failed", "nccl", false},
		{"[TensorRT-LLM][ERROR] Assertion failed", "tensorrt-llm", true},
		{"ncclx: something", "nccl", false},
		{"", "nccl", false},
	} {
		if got := namesComponent(tc.line, tc.comp); got != tc.want {
			t.Errorf("namesComponent(%q, %q) = %v, want %v", tc.line, tc.comp, got, tc.want)
		}
	}
}

func TestWaitAndKillWordings(t *testing.T) {
	for _, tc := range []struct {
		line       string
		wait, kill bool
	}{
		{`msg="error loading llama server" error="timed out waiting for llama runner to start: context canceled"`, true, false},
		{"TimeoutError: Timed out waiting for engine core processes to start", true, false},
		{"wait for workers timed out after 600s", true, false},
		{"Waiting for the server to start", false, false},
		{"ollama.service: A process of this unit has been killed by the OOM killer.", false, true},
		{"Out of memory: Killed process 4242 (python3) total-vm:1kB", false, true},
		{"slurmstepd: error: Detected 1 oom-kill event(s) in StepId=12.batch", false, true},
		{"llama runner process has terminated: signal: killed", false, false},
	} {
		if got := waitTimedOut(tc.line); got != tc.wait {
			t.Errorf("waitTimedOut(%q) = %v, want %v", tc.line, got, tc.wait)
		}
		if got := kernelKill(tc.line); got != tc.kill {
			t.Errorf("kernelKill(%q) = %v, want %v", tc.line, got, tc.kill)
		}
	}
}
