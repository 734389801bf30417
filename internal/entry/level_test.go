package entry

import (
	"testing"
	"time"
)

// TestEntryLevels checks Entry.Level, normalised, for every header and
// native family that carries a level, on lines as posted in public issues
// (or, where noted, as the family's formatter writes them).
func TestEntryLevels(t *testing.T) {
	tests := []struct {
		name, in string
		format   Format
		level    string
	}{
		{"uvicorn error", "[2025-06-11 06:19:30] ERROR:    Exception in ASGI application", FormatUvicorn, LevelError},
		{"uvicorn warning", "[2025-11-05 16:38:03] WARNING:  Invalid HTTP request received.", FormatUvicorn, LevelWarning},
		{"uvicorn old", `INFO:     127.0.0.1:40192 - "POST /generate HTTP/1.1" 200 OK`, FormatUvicorn, LevelInfo},
		// allenai/olmocr#105: logging's default-like "%(asctime)s - %(name)s - %(levelname)s - %(message)s".
		{"python default", "2025-03-07 23:50:27,532 - __main__ - WARNING - Attempt 13: Please wait for sglang server to become ready...", FormatPython, LevelWarning},
		// flashinfer-ai/flashinfer#995.
		{"python level second", "2025-04-02 18:40:58,096 - INFO - flashinfer.jit: Prebuilt kernels not found, using JIT backend", FormatPython, LevelInfo},
		{"basicConfig", "ERROR:root:basicConfig line", FormatPython, LevelError},
		{"loguru", "2024-01-01 12:00:00.123 | ERROR    | app.main:run:12 - loguru default format", FormatPython, LevelError},
		{"loguru success", "2024-01-01 12:00:00.123 | SUCCESS  | app.main:run:12 - done", FormatPython, LevelInfo},
		{"router python", "[Router (Python)] 2024-11-25 21:28:33 - INFO - Launching DP server process 0 on port 31000", FormatRouter, LevelInfo},
		{"router rust debug", "2025-11-04 10:05:37 DEBUG sglang_router_rs::core::job_queue: src/core/job_queue.rs:228: Worker job queue worker 0 started", FormatPython, LevelDebug},
		{"dynamo tracing error", "2025-05-30T00:35:01.153Z ERROR chat_completions: dynamo_llm::http::service::openai: Internal server error: Failed to generate completions: no instances found for endpoint \"insta", FormatDynamo, LevelError},
		// tracing_subscriber's ANSI output; the message is invented.
		{"tracing ansi warn", "\x1b[2m2025-11-05T01:56:54.243403Z\x1b[0m \x1b[33m WARN\x1b[0m \x1b[2msgl_model_gateway::core::circuit_breaker\x1b[0m\x1b[2m:\x1b[0m circuit open", FormatDynamo, LevelWarning},
		{"vllm", "INFO 10-14 02:11:06 __init__.py:190] Automatically detected platform cuda.", FormatPython, LevelInfo},
		{"glog error", "E0414 03:56:41.856248 77969 transfer_metadata_plugin.cpp:173] Failed to get metadata from etcd", FormatNative, LevelError},
		{"glog info", "I0820 02:41:20.446154   710 transfer_engine.cpp:422] Transfer engine started on 10.0.0.7", FormatNative, LevelInfo},
		// sgl-project/sglang#6309.
		{"c10d error", "[rank0]:[E519 06:08:25.815896403 ProcessGroupNCCL.cpp:1484] [PG ID 2 PG GUID 3 Rank 0] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives.", FormatNative, LevelError},
		// flashinfer-ai/flashinfer#4164.
		{"c10d warning", "[W726 04:33:44.008204649 CUDAEvent.h:57] Warning: CUDA warning: an illegal memory access was encountered (function ~CUDAEvent)", FormatNative, LevelWarning},
		// NVIDIA/TensorRT-LLM#448, vllm-project/vllm#19890.
		{"nccl info", "archimedes-open-api-70b-1325343-5875b79c44-lzlpt:6859:6969 [0] NCCL INFO Bootstrap : Using eth0:10.156.28.90<0>", FormatNative, LevelInfo},
		{"nccl warn", "node-7:1234:5679 [1] transport/net_ib.cc:123 NCCL WARN NET/IB : Got completion with error 12, opcode 0, len 0, vendor err 129", FormatNative, LevelWarning},
		{"ascend error", "[ERROR] 2025-09-19-14:34:08 (PID:5625, Device:0, RankID:-1) ERR00100 PTA call acl api failed.", FormatNative, LevelError},
		{"faulthandler", "Fatal Python error: Segmentation fault", FormatNative, LevelFatal},
		{"shell", "Segmentation fault (core dumped)", FormatNative, LevelFatal},
		{"compiler", "/usr/bin/ld: cannot find -lcuda: No such file or directory", FormatNative, LevelError},
		{"srt has none", "[2026-07-01 09:31:38 TP0] Decode batch", FormatSRT, ""},
		{"plain has none", "Loading safetensors checkpoint shards:   0% Completed | 0/4 [00:00<?, ?it/s]", FormatNone, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := assemble(t, Options{Reference: time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)}, tt.in)
			if len(got) != 1 {
				t.Fatalf("%d entries", len(got))
			}
			if got[0].Format != tt.format || got[0].Level != tt.level {
				t.Errorf("format %q level %q, want %q %q", got[0].Format, got[0].Level, tt.format, tt.level)
			}
		})
	}
}

func TestNormLevel(t *testing.T) {
	for in, want := range map[string]string{
		"TRACE": LevelTrace, "DEBUG": LevelDebug, "INFO": LevelInfo, "NOTICE": LevelInfo, "SUCCESS": LevelInfo,
		"EVENT": LevelInfo, "WARN": LevelWarning, "WARNING": LevelWarning, "ERROR": LevelError, "ABORT": LevelError,
		"CRITICAL": LevelCritical, "FATAL": LevelFatal, "": "", "VERSION": "",
	} {
		if got := normLevel(in); got != want {
			t.Errorf("normLevel(%q) = %q, want %q", in, got, want)
		}
	}
}
