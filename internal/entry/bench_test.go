package entry

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/benchdata"
)

// benchLines are typical sglang scheduler INFO lines (SGLANG-LOGS.md §5).
func benchLines() []string {
	var lines []string
	for i := 0; i < 1024; i++ {
		h := fmt.Sprintf("[2026-07-01 09:31:%02d DP%d TP%d EP%d] ", i%60, i%8, i%8, i%8)
		if i%4 == 0 {
			lines = append(lines, h+fmt.Sprintf("Prefill batch, #new-seq: %d, #new-token: %d, #cached-token: 0, token usage: 0.%02d, #running-req: %d, #queue-req: 0", i%7+1, 512*(i%9+1), i%100, i%31))
		} else {
			lines = append(lines, h+fmt.Sprintf("Decode batch, #running-req: %d, #token: %d, token usage: 0.%02d, cuda graph: True, gen throughput (token/s): %d.%02d, #queue-req: 0", i%31, 8000+i, i%100, 1000+i, i%100))
		}
	}
	return lines
}

// BenchmarkAssemble measures one Push per op: ns/op is ns per line and
// allocs/op allocations per line.
func BenchmarkAssemble(b *testing.B) {
	b.Run("batch-lines", func(b *testing.B) {
		benchPush(b, benchLines())
	})
	b.Run("with-crash-every-1000", func(b *testing.B) {
		lines := benchLines()
		crash := strings.Split(`[2026-07-01 09:31:38 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl/scheduler.py", line 4128, in run_scheduler_process
    scheduler.event_loop_overlap()
  File "/sgl/pynccl_wrapper.py", line 378, in NCCL_CHECK
    raise RuntimeError(f"NCCL error: {error_str}")
RuntimeError: NCCL error: unhandled system error
`, "\n")
		lines = append(lines[:1000:1000], crash...)
		benchPush(b, lines)
	})
	b.Run("vllm-records", func(b *testing.B) {
		// vLLM's INFO lines, and a logged traceback that repeats the
		// record's header on every line.
		var lines []string
		for i := 0; i < 1000; i++ {
			lines = append(lines, fmt.Sprintf("(APIServer pid=1) INFO 07-01 09:31:%02d [loggers.py:123] Engine 000: Avg prompt throughput: %d.0 tokens/s, Avg generation throughput: %d.%d tokens/s, Running: %d reqs, Waiting: 0 reqs, GPU KV cache usage: 0.%d%%", i%60, i%700, 1000+i, i%10, i%31, i%100))
		}
		for _, l := range []string{"EngineCore hit an exception.", "Traceback (most recent call last):",
			`  File "/vllm/v1/engine/core.py", line 705, in run_engine_core`, "    engine_core.run_busy_loop()",
			"RuntimeError: CUDA error: an illegal memory access was encountered"} {
			lines = append(lines, "(EngineCore_DP0 pid=9) ERROR 07-01 09:31:38 [core.py:718] "+l)
		}
		benchPush(b, lines)
	})
	b.Run("generated", func(b *testing.B) {
		// The lines BenchmarkScanLines scans (internal/benchdata): srt
		// batch lines with and without ranks, uvicorn access lines,
		// request dumps, a rare error line.
		g := benchdata.New(benchdata.Config{Seed: 1, ErrorRate: 0.001, ErrorMessages: []string{"RuntimeError: CUDA error: an illegal memory access was encountered"}})
		lines := make([]string, 4096)
		for i := range lines {
			lines[i] = g.Line()
		}
		benchPush(b, lines)
	})
	b.Run("error-lines", func(b *testing.B) {
		// BenchmarkScanErrorLines's error lines, one in two: half bare
		// ("RuntimeError: ..."), half behind an sglang header.
		g := benchdata.New(benchdata.Config{Seed: 1, ErrorRate: 0.5, ErrorMessages: []string{
			"CUDA error: an illegal memory access was encountered",
			"Not enough memory. Please try to increase --mem-fraction-static.",
			"Failed to load the model config from {path}: {e}",
			"The server is not ready after {n} seconds",
			"Prefill out of memory. Try to lower your batch size.",
			"KV cache pool is full. Retract requests.",
			"expected all tensors to be on the same device, but found at least two devices",
			"Detokenizer manager hit an exception: {e}",
		}})
		lines := make([]string, 4096)
		for i := range lines {
			lines[i] = g.Line()
		}
		benchPush(b, lines)
	})
	b.Run("headerless", func(b *testing.B) {
		// A healthy server's lines without a header of their own, among
		// its records: progress bars, a library's prints, each after a
		// record (the lines a failure behind a prefix and a wrap's rest
		// are looked for in).
		var lines []string
		for i := 0; i < 1000; i++ {
			lines = append(lines, fmt.Sprintf("[2026-07-01 09:31:%02d TP0] Load weight end. type=Qwen2ForCausalLM, dtype=torch.bfloat16, avail mem=%d.12 GB", i%60, 20+i%40),
				fmt.Sprintf("Capturing batches (bs=%d avail_mem=20.%02d GB):  45%%|####5     | 9/20 [00:01<00:01,  6.21it/s]", 8*(i%20+1), i%100),
				fmt.Sprintf("Loading safetensors checkpoint shards:  50%% Completed | %d/4 [00:01<00:01,  1.53it/s]", i%4+1),
				"NCCL version 2.21.5+cuda12.4")
		}
		benchPush(b, lines)
	})
	b.Run("learned-prefix", func(b *testing.B) {
		// A CI runner's timestamp on every line: learned from the crash's
		// frames, then stripped from every batch line.
		lines := benchLines()
		crash := rankTraceback(0)
		lines = append(lines[:1000:1000], crash...)
		for i, l := range lines {
			lines[i] = fmt.Sprintf("> [2025-11-06T02:10:%02d.%03dZ] %s", i%60, i%1000, l)
		}
		benchPush(b, lines)
	})
}

func benchPush(b *testing.B, lines []string) {
	a := NewAssembler(Options{})
	var bytes int64
	for _, l := range lines {
		bytes += int64(len(l)) + 1
	}
	b.SetBytes(bytes / int64(len(lines)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime(b)
	n := 0
	for i := 0; i < b.N; i++ {
		n += len(a.Push(Line{Text: lines[i%len(lines)], Source: "s", Offset: int64(i)}))
	}
	n += len(a.Flush())
	b.ReportMetric(float64((cpuTime(b)-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/line")
	if n == 0 && b.N > 1 {
		b.Fatal("no entries")
	}
}

// cpuTime is the user plus system time the process has used so far: on a
// loaded machine a line's CPU time varies less than its wall time.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
