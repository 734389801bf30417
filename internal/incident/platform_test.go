package incident_test

import (
	"fmt"
	"strings"
	"testing"
)

// An engine's refusal of the device it sees, followed in the same burst by
// the platform's own failure (torch's warning that CUDA could not
// initialise, which a launcher relays after its child's traceback), is one
// crash led by the platform: TGI's shard and vLLM's device check, with
// torch's wordings of a driver that does not fit the GPU and of a driver
// that does not start.

// torchDriverMismatch and torchNoDriver are torch's CUDA-initialization
// warnings, as relayed after a child's traceback.
var (
	torchDriverMismatch = []string{
		"/root/miniconda3/envs/trt/lib/python3.10/site-packages/torch/cuda/__init__.py:138: UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non supported HW (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:108.)",
		"  return torch._C._cuda_getDeviceCount() > 0",
	}
	torchNoDriver = []string{
		"/usr/local/lib/python3.12/dist-packages/torch/cuda/__init__.py:129: UserWarning: CUDA initialization: CUDA driver initialization failed, you might not have a CUDA gpu. (Triggered internally at /pytorch/c10/cuda/CUDAFunctions.cpp:109.)",
		"  return torch._C._cuda_getDeviceCount() > 0",
	}
)

var verdictThenPlatform = []struct {
	name     string
	verdict  []string
	platform []string
	want     string
	// refusal is the index of the verdict's exception line.
	refusal int
}{
	{name: "TGI shard refuses sharding, then a driver that does not fit the GPU",
		verdict: []string{
			`  File "/opt/conda/lib/python3.9/site-packages/text_generation_server/models/__init__.py", line 215, in get_model`,
			"    raise NotImplementedError(",
			"NotImplementedError: Sharded RefinedWeb requires Flash Attention CUDA kernels to be installed.",
			"Use the official Docker image (ghcr.io/huggingface/text-generation-inference:latest) or install flash attention with `cd server && make install install-flash-attention`",
			" rank=1",
			"2023-06-15T16:56:42.105200Z ERROR text_generation_launcher: Shard 1 failed to start:",
		},
		platform: torchDriverMismatch,
		want:     "cuda-driver-mismatch", refusal: 2},
	{name: "vLLM cannot infer its device, then a driver that does not start",
		verdict:  vllmCannotInferDevice,
		platform: torchNoDriver,
		want:     "no-cuda-gpus-available", refusal: 5},
	{name: "vLLM cannot infer its device, then a driver that does not fit the GPU",
		verdict:  vllmCannotInferDevice,
		platform: torchDriverMismatch,
		want:     "cuda-driver-mismatch", refusal: 5},
}

// vllmCannotInferDevice is vLLM's refusal of a device torch cannot see.
var vllmCannotInferDevice = []string{
	"Traceback (most recent call last):",
	`  File "/usr/local/lib/python3.12/dist-packages/vllm/engine/arg_utils.py", line 1102, in create_engine_config`,
	"    device_config = DeviceConfig(device=self.device)",
	`  File "/usr/local/lib/python3.12/dist-packages/vllm/config.py", line 1747, in __init__`,
	`    raise RuntimeError("Failed to infer device type")`,
	"RuntimeError: Failed to infer device type",
}

func TestAPlatformCauseLeadsTheEnginesVerdictPrintedBeforeIt(t *testing.T) {
	m := crashMatcher(t)
	for _, tc := range verdictThenPlatform {
		alone := scanLines(t, m, tc.verdict)
		if len(alone) != 1 || leadOf(alone[0]) == tc.want {
			t.Fatalf("%s: the engine's lines alone: want one incident not led by %s, got %d:%s", tc.name, tc.want, len(alone), describe(alone))
		}
		got := scanLines(t, m, append(append([]string{}, tc.verdict...), tc.platform...))
		if len(got) != 1 || leadOf(got[0]) != tc.want {
			t.Errorf("%s: want one incident led by %s, got %d:%s", tc.name, tc.want, len(got), describe(got))
			continue
		}
		engine := leadOf(alone[0])
		if !strings.Contains(fmt.Sprint(got[0].Context), engine) {
			t.Errorf("%s: the engine's %s is not listed in the incident's context: %v", tc.name, engine, got[0].Context)
		}
	}
}

// TestAPlatformCauseMinutesLaterIsAnotherFailure: the engine's refusal,
// then half an hour of serving, then the platform's failure (or the other
// way round) are two failures, each its own incident.
func TestAPlatformCauseMinutesLaterIsAnotherFailure(t *testing.T) {
	m := crashMatcher(t)
	for _, tc := range verdictThenPlatform {
		lines := []string{"[2025-06-01 12:00:00] " + tc.verdict[tc.refusal]}
		for k := 0; k < 30; k++ {
			lines = append(lines, strings.Replace(healthy[0], "2025-06-01 12:00:00", fmt.Sprintf("2025-06-01 12:%02d:00", 10+k), 1))
		}
		lines = append(lines, "[2025-06-01 12:45:00] "+tc.platform[0])
		if got := scanLines(t, m, lines); len(got) != 2 {
			t.Errorf("%s, half an hour apart: want two incidents, got %d:%s", tc.name, len(got), describe(got))
		}
		// The other way round: the platform's failure, serving, then
		// the engine's refusal.
		n := len(lines)
		lines[0], lines[n-1] = "[2025-06-01 12:00:00] "+tc.platform[0], "[2025-06-01 12:45:00] "+tc.verdict[tc.refusal]
		if got := scanLines(t, m, lines); len(got) != 2 {
			t.Errorf("%s, platform first, half an hour apart: want two incidents, got %d:%s", tc.name, len(got), describe(got))
		}
	}
}

// TestAPlatformCauseLeadsTheEnginesVerdictPrintedAfterIt: torch warns when
// the engine first asks for the device, and the engine refuses it next:
// one incident led by the platform, the verdict listed in it.
func TestAPlatformCauseLeadsTheEnginesVerdictPrintedAfterIt(t *testing.T) {
	m := crashMatcher(t)
	for _, tc := range verdictThenPlatform {
		engine := leadOf(scanLines(t, m, tc.verdict)[0])
		got := scanLines(t, m, append(append([]string{}, tc.platform...), tc.verdict...))
		if len(got) != 1 || leadOf(got[0]) != tc.want {
			t.Errorf("%s, platform first: want one incident led by %s, got %d:%s", tc.name, tc.want, len(got), describe(got))
			continue
		}
		if !strings.Contains(fmt.Sprint(got[0].Consequences), engine) {
			t.Errorf("%s, platform first: the engine's %s is not listed in the incident: %v", tc.name, engine, got[0].Consequences)
		}
	}
}

// TestAPlatformCauseLeadsTheWrapperPrintedBeforeIt: an engine's wrapper or
// consequence line (vLLM's engine core, TGI's launcher, sglang's
// scheduler) printed before the platform's failure it announces (a driver
// that does not fit, no GPU, out of memory) is context of it: one
// incident, led by the platform.
func TestAPlatformCauseLeadsTheWrapperPrintedBeforeIt(t *testing.T) {
	m := crashMatcher(t)
	announced := []string{
		"ERROR 02-06 10:00:01 [core.py:390] EngineCore failed to start.",
		"RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
		"2023-06-15T16:56:42.105200Z ERROR text_generation_launcher: Shard 0 failed to start:",
		"[2025-06-01 12:00:00] Rank 0 scheduler died during initialization (exit code: -9)",
	}
	platforms := []struct {
		lines []string
		want  string
	}{{torchDriverMismatch, "cuda-driver-mismatch"}, {torchNoDriver, "no-cuda-gpus-available"},
		{[]string{"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.96 GiB. GPU 0 has a total capacity of 23.64 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this process has 22.61 GiB memory in use."}, "cuda-out-of-memory"}}
	for _, a := range announced {
		for _, p := range platforms {
			got := scanLines(t, m, append([]string{a}, p.lines...))
			if len(got) != 1 || leadOf(got[0]) != p.want {
				t.Errorf("%q, then %s: want one incident led by %s, got %d:%s", a, p.want, p.want, len(got), describe(got))
			}
		}
	}
}
