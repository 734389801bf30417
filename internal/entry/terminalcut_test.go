package entry

import (
	"strings"
	"testing"
)

// TestAssemblerRejoinsTerminalCuts: a terminal's cut at a fixed width,
// before any break taught the width, is rejoined where the text around it
// tells a rest: the tail of a lower-case word an error's line ends in, a
// traceback's header after the record that announced it, and a native
// line's shape carried by a rest cut inside a token. What a line of its
// own opens with stays apart.
func TestAssemblerRejoinsTerminalCuts(t *testing.T) {
	const w80 = "(WorkerDict pid=859188) RuntimeError: CUDA error: an illegal memory access was e"
	tests := []struct {
		name    string
		in      string
		entries int    // 0: any number
		msg     string // the last entry's message holds it; after "!", holds it not; after "~", its text holds it
	}{
		{"word's tail after an exception line", w80 + "\nncountered\n", 1, "was encountered"},
		{"word's tail after an error's text", "Process group watchdog thread terminated with exception:\nHIP error: operation not permitted on an event last recorded in a capturing stre\nam\n", 2, "capturing stream"},
		{"header behind the space the cut left", "[2026-04-22 08:39:15 TP1] Tree speculative sampling kernel: Scheduler hit an exception:\n Traceback (most recent call last):\n", 1, "exception: Traceback (most recent call last):"},
		{"announcing word's tail and the header", "2025-06-18 13:43:34 ERROR 31423 [ TP6 PP0 scheduler.py:2547] Scheduler hit an ex\nception: Traceback (most recent call last):\n", 1, "Scheduler hit an exception: Traceback"},
		{"kernel assertion cut inside a word before its colon", "/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1500: indexSelectSmallIndex: bloc\nk: [32,0,0], thread: [63,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\n", 1, ""},
		{"a second wrap after a line rejoined whole", "[rank2]:[E424 01:17:25.031978332 ProcessGroupNCCL.cpp:1895] [PG ID 0 PG GUID 0(d\nefault_pg) Rank 2] Process group watchdog thread terminat\ned with exception: [Rank 2] Watchdog caught collective operation timeout: WorkNC\nCL(SeqNum=4, OpType=BROADCAST, NumelIn=112, NumelOut=112,\n", 1, "terminated with exception: [Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4,"},
		{"a constant's name cut before its colon", ":0:rocdevice.cpp            :3675: 2139490044663 us:  Callback: Queue 0x7ee7b4200000 abort with error : HSA_STATUS_ER\nROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond the largest legal address. code: 0x29\n", 1, "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent"},
		{"a camel-case call cut inside its name", "[rank1]: RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 HCCL function error: hcclComm\nInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 15\n", 1, "hcclCommInitRootInfoConfig(numRanks,"},
		{"an operator inside inline code before the cut's space", "../aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [1406,0,0], thread: [104,0,0] Assertion `-sizes[i] <=\n index && index < sizes[i] && \"index out of bounds\"` failed.\n", 1, "<= index && index"},
		{"a rest that looks like a failure behind a prefix", "RuntimeError: arange_out_op_api:build/CMakeFiles/torch_npu.dir/compiler_depend.t\ns:36 NPU function error: call aclnnArange failed, error code is 561103\n", 1, "compiler_depend.ts:36 NPU function error"},
		{"the words after the cut's space and the header", "2025-07-25T07:53:08.21748708+08:00 stdout F [2025-07-25 07:53:08 TP2] Scheduler \nhit an exception: Traceback (most recent call last):\n", 1, "Scheduler hit an exception: Traceback"},
		{"a path cut before its separator and a colon", "ImportError: /home/devuser/.local/lib/python3.10/site-packages/sgl_kernel/common\n_ops.abi3.so: undefined symbol: _ZN3c104cuda9SetDeviceEa\n", 1, "common_ops.abi3.so: undefined symbol"},
		{"the space before the word that closes a parenthesis", "(SGLangHttpServer pid=250977) [torch_memory_saver.cpp] CUresult error: 2 (out of\n memory)  file=csrc/utils.h func=cu_mem_create line=194\n", 1, "(out of memory)  file="},
		{"a comparison's operator cut in two", "RuntimeError: Failed: Assertion error /build/DeepEP/csrc/deep_ep.cpp:1233 'x.size(0) == topk_idx.size(0) and x.size(0) <\n= num_max_dispatch_tokens_per_rank'\n", 1, "x.size(0) <= num_max"},
		{"a hyphenated name going on", "Why I use sglang with  bash sglang_llava/sglang_server.sh, come with the error: OSError: CodeGoat24/UnifiedReward-7b\n-v1.5 does not appear to have a file named preprocessor_config.json.\n", 1, "UnifiedReward-7b-v1.5 does not appear"},
		{"a panic's location cut inside its path", "thread '<unnamed>' panicked at /home/router/.cargo/registry/src/index.crates.io-\n1949cf8c6b5b557f/tokio-1.45.1/src/runtime/blocking/shutdown.rs:51:21:\nCannot drop a runtime in a context where blocking is not allowed.\n", 1, "index.crates.io-1949cf8c6b5b557f/tokio-1.45.1/src/runtime/blocking/shutdown.rs:51:21:"},
		{"a faulthandler frame cut in its line number", "Thread 0x00007f7353fff640 (most recent call first):\n  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 218\n3 in watchdog_thread\n  File \"/usr/lib/python3.12/threading.py\", line 1012 in run\n", 1, "~line 2183 in watchdog_thread\n"},
		{"a faulthandler frame cut in its function's name", "Thread 0x00007f735dfff640 (most recent call first):\n  File \"/usr/local/lib/python3.12/dist-packages/torch/_ops.py\", line 829 in __ca\nll__\n  File \"/usr/lib/python3.12/threading.py\", line 1012 in run\n", 1, "~line 829 in __call__\n"},
		{"a quoted string cut inside a word", "/work/HIP/rocclr/hip_code_object.cpp:92: guarantee(false && \"hipErrorNoBinaryFor\nGpu: Coudn't find binary for current devices!\")\n", 1, "hipErrorNoBinaryForGpu: Coudn't find"},

		// Lines of their own.
		{"an exception line after a line whose quotes pair", "the launcher read the model path from \"config.json\" and the tokenizer from the hub now\nValueError: the tokenizer has no chat template\n", 2, ""},
		{"a word after a short faulthandler frame", "Thread 0x00007f735dfff640 (most recent call first):\n  File \"/usr/lib/python3.12/threading.py\", line 1012 in run\ndone\n", 0, "!rundone"},
		{"a table's row after a line that opens a parenthesis", "the scheduler reports its memory pool sizes as follows (in GiB, per rank and pool\n kv  12.5  3.1\n", 1, "!pool kv"},
		{"a command-line flag after a line", "the launcher passed these arguments to the server process without the model flag\n-v --port 30000\n", 2, ""},
		{"a level word after a constant", "the kernel returned an error code that names the status as HSA_STATUS_ERROR_OUT_OF\nERROR: the next step\n", 2, ""},
		{"a sentence after a camel-case name", "the attention backend chosen for this model by the server arguments is flashInfer\nLoading weights took 3.2 seconds\n", 2, ""},
		{"a word after a name in capitals", "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge\nnext\n", 2, ""},
		{"a word after a line that names no error", "Loading safetensors checkpoint shards from the local cache of the model direc\ndone\n", 2, ""},
		{"a traceback's header on its own line", "[2026-04-22 08:39:15 TP1] Tree speculative sampling kernel: Scheduler hit an exception:\nTraceback (most recent call last):\n  File \"x.py\", line 1, in f\n    f()\nValueError: x\n", 1, "Scheduler hit an exception:"},
		{"a compiler's line after a command", "/usr/local/cuda/bin/nvcc -O3 -gencode arch=compute_90,code=sm_90 -c csrc/kernels.cu -o kernels\nkernels.cu(12): error: identifier \"x\" is undefined\n", 2, ""},
	}
	for _, tt := range tests {
		es := assemble(t, Options{}, tt.in)
		if tt.entries > 0 && len(es) != tt.entries {
			t.Errorf("%s: %d entries, want %d: %+v", tt.name, len(es), tt.entries, views(es))
			continue
		}
		if text, ok := strings.CutPrefix(tt.msg, "~"); ok {
			if last := es[len(es)-1].Text; !strings.Contains(last, text) {
				t.Errorf("%s: text %q, want it to hold %q", tt.name, last, text)
			}
			continue
		}
		if not, ok := strings.CutPrefix(tt.msg, "!"); ok {
			if last := es[len(es)-1].Message; strings.Contains(last, not) {
				t.Errorf("%s: message %q holds %q", tt.name, last, not)
			}
			continue
		}
		if last := es[len(es)-1].Message; tt.msg != "" && !strings.Contains(last, tt.msg) {
			t.Errorf("%s: message %q, want it to hold %q", tt.name, last, tt.msg)
		}
	}
}

// TestAssemblerProseLabelBeforeFrames: a short label a person wrote in
// place of a traceback's header ("error msg:") ends before the frames
// under it, which open an entry of their own, a traceback's middle (its
// first frame, which the label's line took the indentation of, kept at
// the two spaces CPython printed it at: flushtb.go); a
// sentence ending in a colon, or an exception announcing its message,
// keeps what follows.
func TestAssemblerProseLabelBeforeFrames(t *testing.T) {
	const frames = "File \"/sgl/python/sglang/srt/managers/scheduler.py\", line 2071, in run_scheduler_process\n" +
		"    scheduler.event_loop_normal()\n" +
		"  File \"/sgl/python/sglang/srt/managers/scheduler.py\", line 617, in event_loop_normal\n" +
		"    result = self.run_batch(batch)\n"
	for _, label := range []string{"error msg:", "Error log:", "the full error:"} {
		es := assemble(t, Options{}, label+"\n"+frames)
		if len(es) != 2 || es[0].Message != label || !strings.HasPrefix(es[1].Message, `  File "`) || es[1].Traceback == nil {
			t.Errorf("%q: %+v, want the label, then the frames as a traceback of their own", label, views(es))
		}
	}
	for _, head := range []string{
		"I ran the server with the default arguments and after a minute got this:",
		"RuntimeError:",
	} {
		if es := assemble(t, Options{}, head+"\n"+frames); len(es) != 1 {
			t.Errorf("%q: %d entries, want 1: %+v", head, len(es), views(es))
		}
	}
	for _, s := range []string{"error msg:", "Error log:", "the full error:"} {
		if !isProseLabel(s) {
			t.Errorf("isProseLabel(%q) = false", s)
		}
	}
	for _, s := range []string{"ValueError:", "see /tmp/x.log:", "one two three four five:", "no colon", ":"} {
		if isProseLabel(s) {
			t.Errorf("isProseLabel(%q) = true", s)
		}
	}
}

// FuzzTerminalRests checks the rules that read a terminal's cut from the
// two lines around it on any pair: none panics, and each says yes only of
// the shape it names.
func FuzzTerminalRests(f *testing.F) {
	f.Add("Scheduler hit an ex", "ception: Traceback (most recent call last):")
	f.Add("error msg:", `File "x.py", line 1, in f`)
	f.Add("", "decorate_context (torch/utils/_contextlib.py:120)")
	f.Add(`guarantee(false && "hipErrorNoBinaryFor`, `Gpu: Coudn't find binary!")`)
	f.Add(`  File "/usr/lib/python3.12/threading.py", line 10`, "12 in run")
	f.Fuzz(func(t *testing.T, prev, next string) {
		if isTracebackHeaderRest(prev, next) && !strings.HasSuffix(next, pyTracebackHeader) {
			t.Fatalf("isTracebackHeaderRest(%q, %q): no traceback header ends the rest", prev, next)
		}
		if isLoneWordRest(prev, next) && (strings.IndexByte(next, ' ') >= 0 || len(next) > maxLoneWord+1) {
			t.Fatalf("isLoneWordRest(%q, %q): the rest is no lone word", prev, next)
		}
		if callOfCapitals(next) && strings.IndexByte(next, '(') < 0 {
			t.Fatalf("callOfCapitals(%q) without a parenthesis", next)
		}
		if camelCut(lastToken(prev), firstWord(next)) && (next == "" || !isUpper(next[0])) {
			t.Fatalf("camelCut(%q, %q): the rest opens in no capital", prev, next)
		}
		if spansQuote(prev, next) && !strings.ContainsAny(prev, "\"`") {
			t.Fatalf("spansQuote(%q, %q): prev opens no quote", prev, next)
		}
		if isConstantName(next) && strings.ToUpper(next) != next {
			t.Fatalf("isConstantName(%q) in lower case", next)
		}
		if closesParen(prev, firstWord(next)) && !strings.HasSuffix(firstWord(next), ")") {
			t.Fatalf("closesParen(%q, %q) closes nothing", prev, next)
		}
		if isProseLabel(prev) && !strings.HasSuffix(strings.TrimRight(prev, " \t"), ":") {
			t.Fatalf("isProseLabel(%q) without its colon", prev)
		}
		if isFaultFrameRest(prev, next, len(prev)) && !isFaultFrame(strings.TrimLeft(prev, " \t")+next) {
			t.Fatalf("isFaultFrameRest(%q, %q): no frame joined", prev, next)
		}
		if isPySpyFrame(next) && (!strings.HasSuffix(next, ")") || !strings.Contains(next, ".py:")) {
			t.Fatalf("isPySpyFrame(%q): no py-spy frame", next)
		}
		_ = isWrapBreak(prev, next, len(prev))
	})
}
