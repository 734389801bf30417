package catalog_test

import (
	"strings"
	"testing"
)

// vllmWorkerTB is a worker's failure as vLLM V1's multiproc executor logs
// it: the header line, then the traceback, every line under the worker's
// prefix.
func vllmWorkerTB(header, exc string) string {
	var b strings.Builder
	for _, l := range append([]string{
		header,
		"Traceback (most recent call last):",
		`  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/executor/multiproc_executor.py", line 591, in worker_busy_loop`,
		"    output = func(*args, **kwargs)",
	}, strings.Split(exc, "\n")...) {
		b.WriteString("(VllmWorker rank=0 pid=2445155) ERROR 05-10 16:00:15 [multiproc_executor.py:470] " + l + "\n")
	}
	return b.String()
}

// engineWrappers are the lines with which vLLM V1 and TensorRT-LLM wrap a
// failure of one of their processes: the worker's own report, the engine
// core's or the executor's. The cause inside leads, and the operator of
// that engine must get that engine's options.
var engineWrappers = []struct {
	engine, name string
	// python says the wrapper prints the exception whole ("Type:
	// message"); otherwise it prints the message only.
	python bool
	wrap   func(exc string) string
}{
	{"vllm", "WorkerProc hit an exception", true, func(exc string) string {
		return vllmWorkerTB("WorkerProc hit an exception.", exc)
	}},
	{"vllm", "WorkerProc failed to start", true, func(exc string) string {
		return vllmWorkerTB("WorkerProc failed to start.", exc)
	}},
	{"vllm", "EngineCore failed to start, the worker's exception", true, func(exc string) string {
		return vllmWorkerTB("WorkerProc failed to start.", exc) + vllmTB("EngineCore failed to start.",
			"Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.")
	}},
	{"vllm", "EngineCore failed to start", true, func(exc string) string {
		return vllmCoreShapes(exc)[0]
	}},
	{"trtllm", "Failed to initialize executor on rank", false, func(msg string) string {
		return trtllmLog("E", "Failed to initialize executor on rank 0: "+msg)
	}},
}

// wrappedCauses are failures of records every engine shares that end
// inside those wrappers, with the record that must lead; python is the
// exception line, message what a C++ wrapper prints of it.
var wrappedCauses = []struct {
	want, python, message string
}{
	{"cuda-out-of-memory",
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.06 GiB is free.",
		"CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.06 GiB is free."},
	{"cuda-error-out-of-memory", "RuntimeError: CUDA error: out of memory",
		"[TensorRT-LLM][ERROR] CUDA runtime error in cudaMalloc: out of memory"},
	{"cuda-device-side-assert", "RuntimeError: CUDA error: device-side assert triggered", ""},
	{"cuda-illegal-memory-access", "RuntimeError: CUDA error: an illegal memory access was encountered",
		"[TensorRT-LLM][ERROR] CUDA runtime error in cudaMemcpyAsync: an illegal memory access was encountered"},
	{"cuda-no-kernel-image", "RuntimeError: CUDA error: no kernel image is available for execution on the device", ""},
	{"nccl-unhandled-system-error", "RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)", ""},
	{"npu-out-of-memory", "torch.OutOfMemoryError: map:../torch_npu/csrc/core/npu/NPUCachingAllocator.cpp:457 NPU function error: aclrtMallocPhysical, error code is 507899", ""},
	{"host-cannot-allocate-memory", "OSError: [Errno 12] Cannot allocate memory", ""},
}

// TestEngineWrapperAdvice checks, for every engine wrapper and every
// shared cause inside it, that the cause's record leads as that engine's
// log is read and that its advice to that engine's operator names no
// option only sglang takes.
func TestEngineWrapperAdvice(t *testing.T) {
	m := compileCatalog(t)
	for _, w := range engineWrappers {
		for _, c := range wrappedCauses {
			exc := c.python
			if !w.python {
				exc = c.message
			}
			if exc == "" {
				continue
			}
			text := w.wrap(exc)
			lead, context := engineLead(m, w.engine, text)
			if !leads(lead, context, c.want) {
				got := ""
				if lead != nil {
					got = lead.Slug
				}
				t.Errorf("%s %s around %s: %q leads, want %s\n%s", w.engine, w.name, c.want, got, c.want, text)
				continue
			}
			if lead.Slug != c.want {
				continue // the wrapper leads, its context names the cause
			}
			if word := sglangAdvice(lead, w.engine); word != "" {
				t.Errorf("%s %s around %s: the advice to a %s operator names %s", w.engine, w.name, c.want, w.engine, word)
			}
		}
	}
}
