package entry

import (
	"strings"
	"testing"
)

// foldS breaks s as "fold -s -w width" does: after the last space before
// the width, the space kept at the end of the piece.
func foldS(s string, width int) string {
	var b strings.Builder
	for len(s) > width {
		cut := strings.LastIndexByte(s[:width], ' ')
		if cut <= 0 {
			break
		}
		b.WriteString(s[:cut+1])
		b.WriteByte('\n')
		s = s[cut+1:]
	}
	b.WriteString(s)
	return b.String()
}

func TestIsFoldFitRest(t *testing.T) {
	for _, tt := range []struct {
		prev, next string
		foldWidth  int
		want       bool
	}{
		{"[11/10/2023-21:47:10] [TRT] [E] 4: Internal error: plugin node ", "LLaMAForCausalLM/layers/0/attention/PLUGIN_V2_GPTAttention_0 requires 56405524864 bytes of scratch ", 0, true},
		{"HcclException, what: hccl_one_sided_service.cc:515,BatchGet, Error: hccl special error, ret=1 ", "[BatchGet] AICPU launch failed, code: 1", 100, true},
		{"ERROR:vllm_omni.entrypoints.omni_llm:Stage 0 error on request ", "0_3846ea5f-1ef6-4e13-abd6-82e83dc5f269: list index out of range", 0, true},
		// The word would have fit: no wrap broke there.
		{"ERROR:vllm_omni.entrypoints.omni_llm:Stage 0 error on request ", "done", 0, false},
		// A rest longer than any width the piece allows.
		{"the scheduler reports the memory pool it allocated for the cache of every rank as ", "[2025-11-11 04:06:29 TP0] Decode batch, #running-req: 1, #token: 4096, token usage: 0.01, cuda graph: True, gen throughput (token/s): 1447.08", 0, false},
		// A table's border after a record's header, a rule after a line.
		{"I0609 11:05:39.787889 697 server.cc:527] ", "+-------------+------------------------------------------------------------------+", 0, false},
		{"-e [rqpn 0x17db rlid 1037] [inl len 61] [inl len 61] [inl len 61] [inl len 61] ", "==== backtrace (tid:2330856) ====", 0, false},
		// A JSON value of its own after a label.
		{"2026-12-06 18:42:43,046 INFO sending the request to the router with body: ", `{"model":"x","messages":[]}`, 0, false},
		{"2026-12-06 18:42:43,046 INFO the router answered the health check with list: ", `["worker-0","worker-1"]`, 0, false},
		// Two spaces end a column, not a wrap's piece.
		{"Capturing batches (bs=8 avail_mem=10.19 GB):  50%|█████      | 2/6 [00:23<00:43]  ", "Capturing batches (bs=4 avail_mem=10.18 GB):  67%", 0, false},
		// A line that opens as prev did, an exception line, a frame.
		{"Capturing batches (bs=8 avail_mem=10.19 GB):  50%|█████      | 2/6 [00:23<00:43] ", "Capturing batches (bs=4 avail_mem=10.18 GB):  67%", 0, false},
		{"the engine gave up after it tried to allocate the whole cache for the model ", "ValueError: No available memory for the cache blocks.", 0, false},
		{"the engine gave up after it tried to allocate the whole cache for the model ", `  File "/usr/lib/python3.12/threading.py", line 1012, in run`, 0, false},
		// A piece shorter than the widest one before was no fold's.
		{"HcclException, what: hccl_one_sided_service.cc:515,BatchGet, Error: hccl ", "[BatchGet] AICPU launch failed, code: 1", 120, false},
	} {
		if got := isFoldFitRest(tt.prev, tt.next, len(tt.prev), len(tt.next), tt.foldWidth); got != tt.want {
			t.Errorf("isFoldFitRest(%q, %q, %d) = %v, want %v", tt.prev, tt.next, tt.foldWidth, got, tt.want)
		}
	}
}

// TestAssemblerRejoinsFoldFitRests: a long line fold -s broke before a
// word too long for what was left of the width is one line again,
// whatever the word opens with (a layer path, a request id, a bracketed
// tag, a "#0:", "Reason:"); lines of their own after a line that ends in
// a space stay apart.
func TestAssemblerRejoinsFoldFitRests(t *testing.T) {
	trt := "[11/10/2023-21:47:10] [TRT] [E] 4: Internal error: plugin node LLaMAForCausalLM/layers/0/attention/PLUGIN_V2_GPTAttention_0 requires 56405524864 bytes of scratch space, but only 47590277120 is available. Try increasing the workspace size with IBuilderConfig::setMemoryPoolLimit()."
	hccl := "  [ERROR] HCCL(893240,):2026-08-11-07:03:46.026.970 [exception_handler.cc:23] [904211]HcclBatchGet: HcclException, what: hccl_one_sided_service.cc:515,BatchGet, Error: hccl special error, ret=1 [BatchGet] AICPU launch failed, code: 1"
	docker := "docker: Error response from daemon: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'"
	cann := "[PID: 749] 2025-12-29-03:16:15.787.356 Get_Socket_Timeout(EI0006): Getting socket times out. Reason: 1. The remote does not initiate a connect request. some NPUs in the cluster are abnormal."
	tests := []struct {
		name    string
		in      string
		entries int
		msg     string // the last entry's text holds it
	}{
		{"TensorRT's layer path", foldS(trt, 100), 1, "plugin node LLaMAForCausalLM/layers/0/attention/PLUGIN_V2_GPTAttention_0 requires"},
		{"HCCL's bracketed tag", foldS(hccl, 100), 1, "ret=1 [BatchGet] AICPU launch failed"},
		{"docker's hook number", foldS(docker, 100), 1, "error running hook #0: error running hook"},
		{"CANN's reason", foldS(cann, 100), 1, "times out. Reason: 1. The remote"},
		{"TensorRT's layer path at 80", foldS(trt, 80), 1, "plugin node LLaMAForCausalLM/layers/0/attention/PLUGIN_V2_GPTAttention_0 requires"},
		// Lines of their own.
		{"Triton's table after its header", "I0609 11:05:39.787889 697 server.cc:527] \n+-------------+------------------------------------------------------------------+\n| Backend     | Path                                                             |\n", 0, "!server.cc:527] +--"},
		{"a short line after a line that ends in a space", "Loading safetensors checkpoint shards from the local cache: \ndone\n", 2, ""},
		{"a long line after a line that ends in a space", "Loading safetensors checkpoint shards from the local cache of the model: \nLoading safetensors checkpoint shards took 3.2 seconds and used 14.5 GiB of memory on every rank of the group\n", 2, ""},
	}
	for _, tt := range tests {
		es := assemble(t, Options{}, tt.in)
		if tt.entries > 0 && len(es) != tt.entries {
			t.Errorf("%s: %d entries, want %d: %+v", tt.name, len(es), tt.entries, views(es))
			continue
		}
		var all strings.Builder
		for _, e := range es {
			all.WriteString(e.Text)
			all.WriteByte('\n')
		}
		if not, ok := strings.CutPrefix(tt.msg, "!"); ok {
			if strings.Contains(all.String(), not) {
				t.Errorf("%s: text %q holds %q", tt.name, all.String(), not)
			}
			continue
		}
		if !strings.Contains(es[len(es)-1].Text, tt.msg) {
			t.Errorf("%s: text %q, want it to hold %q", tt.name, es[len(es)-1].Text, tt.msg)
		}
	}
}

// FuzzIsFoldFitRest checks the rule's promises: prev ends in one space
// and is at least minFoldPiece long, next opens with a word that holds a
// letter or a digit and is no traceback, frame or exception line.
func FuzzIsFoldFitRest(f *testing.F) {
	f.Add("[11/10/2023-21:47:10] [TRT] [E] 4: Internal error: plugin node ", "LLaMAForCausalLM/layers/0/attention/PLUGIN_V2_GPTAttention_0 requires", 0)
	f.Add("HcclException, what: hccl_one_sided_service.cc:515,BatchGet, Error: hccl special error, ret=1 ", "[BatchGet] AICPU launch failed, code: 1", 100)
	f.Fuzz(func(t *testing.T, prev, next string, foldWidth int) {
		if !isFoldFitRest(prev, next, len(prev), len(next), foldWidth) {
			return
		}
		if len(prev) < minFoldPiece || !endsInFoldSpace(prev) || !hasAlnum(firstWord(next)) || isIndented(next) ||
			isTracebackLine(next) || isFrameLine(next) || isFrameLine(prev) {
			t.Fatalf("isFoldFitRest(%q, %q, %d): no fold's piece and rest", prev, next, foldWidth)
		}
		if _, _, ok := parseExceptionAnyQuote(next); ok {
			t.Fatalf("isFoldFitRest(%q, %q, %d): an exception line", prev, next, foldWidth)
		}
	})
}
