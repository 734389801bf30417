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

func TestACutLineIsNoEventsFirstLine(t *testing.T) {
	for _, tc := range []struct {
		first, later string
		open, goesOn bool
	}{
		{":1:hip_fatbin.cpp :117 : 8802962845 us: [pid:19349] Missing CO for these ISAs -", "", true, false},
		{":1:hip_fatbin.cpp :117 : 8802962845 us: [pid:19349] Missing CO for", "", true, false},
		{"E0326 rdma_transport.cpp:529] Memory region not registered by any active devic", "E0326 rdma_transport.cpp:529] Memory region not registered by any active device(s): 0x12c1", false, true},
		{"node-1:2288:2597 [0] enqueue.cc:43 NCCL WARN Cuda failure 'out of memory'", "node-1:2288:2597 [0] enqueue.cc:54 NCCL WARN Cuda failure 'invalid resource handle'", false, false},
		{"E0115 rdma_context.cpp:81] Failed to open device mlx5_8 on port 1 with GID 0", "E0115 rdma_transport.cpp:106] RdmaTransport: cannot initialize RDMA resources", false, false},
	} {
		if got := endsOpen(tc.first); got != tc.open {
			t.Errorf("endsOpen(%q) = %v, want %v", tc.first, got, tc.open)
		}
		if got := goesOnIn(tc.first, tc.later); got != tc.goesOn {
			t.Errorf("goesOnIn(%q, %q) = %v, want %v", tc.first, tc.later, got, tc.goesOn)
		}
	}
}
