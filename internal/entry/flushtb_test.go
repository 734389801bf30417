package entry

import (
	"strings"
	"testing"
)

// TestFlushLeftTraceback: a traceback pasted with its indentation
// stripped (every frame, source and caret line at the first column, as an
// issue form or a chat tool leaves it) is one entry whose lines are kept
// as CPython printed them, a frame at two spaces and its source and caret
// lines at four, and whose exception line stays at the first column.
func TestFlushLeftTraceback(t *testing.T) {
	cases := []struct {
		name, text string
		want       string // the entry's Raw
		frames     int
		exc        string
	}{
		{
			// sgl-project/sglang#12190: cut before its exception, after a
			// code fence.
			name: "headerless cut",
			text: "```\n" +
				"File \"/tmp/hlu/sglang/python/sglang/srt/managers/scheduler.py\", line 2777, in run_scheduler_process\n" +
				"scheduler.event_loop_normal()\n" +
				"File \"/usr/local/lib/python3.12/dist-packages/torch/utils/_contextlib.py\", line 120, in decorate_context\n" +
				"return func(*args, **kwargs)\n" +
				"^^^^^^^^^^^^^^^^^^^^^\n" +
				"File \"/tmp/hlu/sglang/python/sglang/srt/managers/scheduler.py\", line 1624, in get_next_batch_to_run\n" +
				"new_batch = self.prepare_mlp_sync_batch(new_batch)\n" +
				"^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
			want: "  File \"/tmp/hlu/sglang/python/sglang/srt/managers/scheduler.py\", line 2777, in run_scheduler_process\n" +
				"    scheduler.event_loop_normal()\n" +
				"  File \"/usr/local/lib/python3.12/dist-packages/torch/utils/_contextlib.py\", line 120, in decorate_context\n" +
				"    return func(*args, **kwargs)\n" +
				"    ^^^^^^^^^^^^^^^^^^^^^\n" +
				"  File \"/tmp/hlu/sglang/python/sglang/srt/managers/scheduler.py\", line 1624, in get_next_batch_to_run\n" +
				"    new_batch = self.prepare_mlp_sync_batch(new_batch)\n" +
				"    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
			frames: 3,
		},
		{
			// sgl-project/sglang#14464: header-less, with its exception.
			name: "headerless with exception",
			text: "File \"/home/weigong/workspace/tgl/python/sglang/srt/constrained/xgrammar_backend.py\", line 100, in fill_vocab_mask\n" +
				"self.matcher.fill_next_token_bitmask(vocab_mask, idx)\n" +
				"File \"/usr/local/lib/python3.12/dist-packages/xgrammar/matcher.py\", line 308, in fill_next_token_bitmask\n" +
				"return self._handle.fill_next_token_bitmask(bitmask, index, debug_print)\n" +
				"^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" +
				"RuntimeError: [23:42:39] /project/cpp/grammar_matcher.cc:556: Check failed: (!IsStopTokenAccepted()) is false",
			want: "  File \"/home/weigong/workspace/tgl/python/sglang/srt/constrained/xgrammar_backend.py\", line 100, in fill_vocab_mask\n" +
				"    self.matcher.fill_next_token_bitmask(vocab_mask, idx)\n" +
				"  File \"/usr/local/lib/python3.12/dist-packages/xgrammar/matcher.py\", line 308, in fill_next_token_bitmask\n" +
				"    return self._handle.fill_next_token_bitmask(bitmask, index, debug_print)\n" +
				"    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" +
				"RuntimeError: [23:42:39] /project/cpp/grammar_matcher.cc:556: Check failed: (!IsStopTokenAccepted()) is false",
			frames: 2,
			exc:    "RuntimeError",
		},
		{
			// flashinfer-ai/flashinfer#1799: behind sglang's wrapper
			// record, its "Traceback" line on the record's line.
			name: "under a record",
			text: "[2025-09-29 06:28:31 TP0] TpModelWorkerClient hit an exception: Traceback (most recent call last):\n" +
				"File \"/sgl-workspace/sglang/python/sglang/srt/managers/tp_worker_overlap_thread.py\", line 135, in forward_thread_func\n" +
				"self.forward_thread_func_()\n" +
				"File \"/usr/local/lib/python3.10/dist-packages/torch/utils/contextlib.py\", line 116, in decorate_context",
			want: "[2025-09-29 06:28:31 TP0] TpModelWorkerClient hit an exception: Traceback (most recent call last):\n" +
				"  File \"/sgl-workspace/sglang/python/sglang/srt/managers/tp_worker_overlap_thread.py\", line 135, in forward_thread_func\n" +
				"    self.forward_thread_func_()\n" +
				"  File \"/usr/local/lib/python3.10/dist-packages/torch/utils/contextlib.py\", line 116, in decorate_context",
			frames: 2,
		},
		{
			// Tencent/AngelSlim#39: frames flush left, their source
			// lines still indented: the frames alone move.
			name: "sources kept their indentation",
			text: "File \"/opt/miniconda/envs/sglang/lib/python3.12/site-packages/sglang/srt/models/qwen3.py\", line 493, in load_weights\n" +
				"    param = params_dict[name]\n" +
				"            ~~~~~~~~~~~^^^^^^\n" +
				"KeyError: 'midlayer.self_attn.qkv_proj.weight'",
			want: "  File \"/opt/miniconda/envs/sglang/lib/python3.12/site-packages/sglang/srt/models/qwen3.py\", line 493, in load_weights\n" +
				"    param = params_dict[name]\n" +
				"            ~~~~~~~~~~~^^^^^^\n" +
				"KeyError: 'midlayer.self_attn.qkv_proj.weight'",
			frames: 1,
			exc:    "KeyError",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got *Entry
			for _, e := range assemble(t, Options{}, c.text) {
				if e.Traceback != nil {
					if got != nil {
						t.Fatalf("two traceback entries: %q and %q", got.Raw, e.Raw)
					}
					got = &e
				}
			}
			if got == nil {
				t.Fatal("no traceback entry")
			}
			if got.Raw != c.want {
				t.Errorf("Raw:\n%s\nwant:\n%s", got.Raw, c.want)
			}
			o := got.Traceback.Outermost()
			if len(o.Frames) != c.frames || o.Type != c.exc {
				t.Errorf("outermost: %d frames, type %q; want %d, %q", len(o.Frames), o.Type, c.frames, c.exc)
			}
		})
	}
}

// TestFlushLeftTracebackEnds: the lines around a flush-left traceback stay
// their own: the next record after its exception line, and a frame's
// exception line right under it (no source printed) is the exception, not
// a source line.
func TestFlushLeftTracebackEnds(t *testing.T) {
	// sgl-project/sglang#14464's last frame, its source missing, then the
	// exception and an sglang record (sgl-project/sglang#12190's).
	text := "Traceback (most recent call last):\n" +
		"File \"/usr/local/lib/python3.12/dist-packages/xgrammar/matcher.py\", line 308, in fill_next_token_bitmask\n" +
		"RuntimeError: [23:42:39] /project/cpp/grammar_matcher.cc:556: Check failed: (!IsStopTokenAccepted()) is false\n" +
		"[2025-10-27 08:01:12] Received sigquit from a child process. It usually means the child failed."
	es := assemble(t, Options{}, text)
	if len(es) != 2 {
		t.Fatalf("%d entries, want 2: %+v", len(es), views(es))
	}
	lines := strings.Split(es[0].Raw, "\n")
	if len(lines) != 3 || lines[1][:2] != "  " || lines[2][0] != 'R' {
		t.Errorf("Raw %q: want the frame at two spaces and the exception at the first column", es[0].Raw)
	}
	if o := es[0].Traceback.Outermost(); o.Type != "RuntimeError" || len(o.Frames) != 1 {
		t.Errorf("outermost %+v", o)
	}
}

// TestCurlyQuotedFrames: a traceback pasted through a tool that curls
// straight quotes ('File “/x/worker_base.py”, line 311, in f') and strips
// the indentation is read as CPython printed it: its frames are frames,
// each source line stays under its frame instead of joining it as a cut's
// rest, and the lines are one traceback.
func TestCurlyQuotedFrames(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		frames     int
		exc        string
	}{
		{
			// vllm-project/vllm-ascend#13974: cut in the worker.
			name: "vllm worker",
			text: "Traceback (most recent call last):\n" +
				"File “/vllm-workspace/vllm/vllm/v1/executor/multiproc_executor.py”, line 957, in worker_busy_loop\n" +
				"output = func(*args, **kwargs)\n" +
				"File “/vllm-workspace/vllm/vllm/v1/worker/worker_base.py”, line 311, in initialize_from_config\n" +
				"self.worker.initialize_from_config(kv_cache_config) # type: ignore",
			frames: 2,
		},
		{
			// A ShotGrid support article quoting Nuke 10.5's traceback.
			name: "nuke ssl",
			text: "File “/usr/local/Nuke10.5v7/lib/python2.7/ssl.py”, line 143, in init\n" +
				"self.do_handshake()\n" +
				"File “/usr/local/Nuke10.5v7/lib/python2.7/ssl.py”, line 305, in do_handshake\n" +
				"self._sslobj.do_handshake()\n" +
				"SSLError: [Errno 8] _ssl.c:504: EOF occurred in violation of protocol",
			frames: 2,
			exc:    "SSLError",
		},
	} {
		es := assemble(t, Options{}, tt.text)
		if len(es) != 1 || es[0].Traceback == nil {
			t.Errorf("%s: %+v, want one traceback entry", tt.name, views(es))
			continue
		}
		o := es[0].Traceback.Outermost()
		if len(o.Frames) != tt.frames || o.Type != tt.exc || !strings.Contains(es[0].Raw, "\n  File \"/") {
			t.Errorf("%s: %d frames, type %q, raw %q", tt.name, len(o.Frames), o.Type, es[0].Raw)
		}
	}
	// Curled quotes in prose stay as they are.
	const prose = "After the installation, open the configuration file “/usr/local/nagios/etc/nagios.cfg” and edit it"
	if es := assemble(t, Options{}, prose); len(es) != 1 || es[0].Raw != prose {
		t.Errorf("prose: %+v", views(es))
	}
}

// TestGlogClockIsNoRest: a line that opens with a glog header's level,
// date and clock is a record of its own, never the rest of a long line
// before it, even when the header's source part is one no reader takes (a
// file name whose underscores a page's emphasis ate) and the line before
// ends where a cut inside a hexadecimal number could go on with its 'E'.
func TestGlogClockIsNoRest(t *testing.T) {
	for _, pair := range [][2]string{
		// vllm-project/vllm-ascend#13974.
		{"I0805 09:42:09.763325 80495 ascend direct transport.cpp:444 AscendDirectTransport register mem addr:0x12da7ea00000, length:183369728, location:, mem type:0",
			"E0805 09:42:09.763501 80495 ascend direct transport.cpp:460 Register mem ret:103900."},
		// vllm-project/vllm-ascend#5044.
		{"E1215 11:46:28.725462   298 transfer_task.cpp:247] Transfer failed for batch 187651611544208 task 38 with status 6",
			"E1215 11:46:28.725466   298 transfer_task.cpp:247] Transfer failed for batch 187651611544208 task 39 with status 6"},
	} {
		// The first line three times, as the stream's longest that
		// shorter lines follow, a terminal's width by its lengths.
		text := pair[0] + "\n" + pair[0] + "\n" + pair[0] + "\n" + pair[1]
		es := assemble(t, Options{}, text)
		if last := es[len(es)-1]; last.Raw != pair[1] {
			t.Errorf("%q: last entry %q, want the glog line alone", pair[1], last.Raw)
		}
	}
}

// FuzzStraightFrameQuotes: straightFrameQuotes changes only a frame's two
// curled quotes, each to one straight one, and never panics.
func FuzzStraightFrameQuotes(f *testing.F) {
	f.Add("File “/vllm-workspace/vllm/vllm/v1/worker/worker_base.py”, line 311, in initialize_from_config")
	f.Add("open the file “/usr/local/nagios/etc/nagios.cfg”")
	f.Add("File “”, line 1, in f")
	f.Fuzz(func(t *testing.T, s string) {
		i := strings.Index(s, openCurly)
		if i < 0 {
			return
		}
		got := straightFrameQuotes(s, i)
		if got == s {
			return
		}
		// Two three-byte quotes became one byte each, after "File ",
		// the closing one right before ", line ".
		if len(got) != len(s)-2*(len(openCurly)-1) || !strings.HasPrefix(got, s[:i]+`"`) || !strings.HasSuffix(s[:i], "File ") || !strings.Contains(got[i+1:], `", line `) {
			t.Fatalf("straightFrameQuotes(%q) = %q", s, got)
		}
	})
}

// TestFlushFrameWholeOrLogged: a flush-left traceback's frame that opens a
// logger's record as its message (vllm-ascend's EngineCore logging every
// line of the traceback, folded after "File "), or that a terminal's cut
// made whole again (sglang#12190's pasted frames cut at 60 columns), has
// its source and caret lines kept indented under it, as every other
// flush-left frame's: no reader needs to tell a flush-left source line
// from a line of its own.
func TestFlushFrameWholeOrLogged(t *testing.T) {
	const logged = "(EngineCore_0 pid=702) ERROR 09-04 09:50:12 [core.py:702] File \n" +
		"\"/vllm-workspace/vllm/vllm/v1/executor/multiproc_executor.py\", line 173, in execute_model\n" +
		"(EngineCore_0 pid=702) ERROR 09-04 09:50:12 [core.py:702] (output, ) = self.collective_rpc(\n" +
		"(EngineCore_0 pid=702) ERROR 09-04 09:50:12 [core.py:702] ^^^^^^^^^^^^^^^^^^^^"
	const pasted = "```\n" +
		"File \"/tmp/hlu/sglang/python/sglang/srt/managers/scheduler.py\", line 2777, in run_scheduler_process\n" +
		"scheduler.event_loop_normal()\n" +
		"File \"/usr/local/lib/python3.12/dist-packages/torch/utils/_contextlib.py\", line 120, in decorate_context\n" +
		"return func(*args, **kwargs)\n" +
		"^^^^^^^^^^^^^^^^^^^^^"
	for name, in := range map[string]string{"logged, folded": logged, "pasted, cut at 60": termCut(pasted, 60)} {
		es := assemble(t, Options{}, in)
		found := false
		for _, e := range es {
			lines := strings.Split(e.Text, "\n")
			for i := 1; i < len(lines); i++ {
				if isFrameLine(lines[i-1]) && !isFrameLine(lines[i]) {
					found = true
					if !strings.HasPrefix(lines[i], sourceIndent) {
						t.Errorf("%s: the line under a frame is not indented: %q", name, lines[i])
					}
				}
			}
		}
		if !found {
			t.Errorf("%s: no frame with a line under it: %+v", name, es)
		}
	}
}
