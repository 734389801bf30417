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
