package analysis_test

import (
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

// TestCutCallNamesWhereTheTracebackWasCut: a traceback cut before its
// exception line is named by the call its program was making, past a
// library's dispatch frames (with the function it was in when those
// follow), and by its deepest frame's File line, whole.
func TestCutCallNamesWhereTheTracebackWasCut(t *testing.T) {
	const head = "Traceback (most recent call last):\n"
	app := frame("/app/train.py", "train", "ray.get(actor.init_connections(manager))")
	tests := []struct {
		name, in, want string
	}{
		{"the innermost frame's own statement", head + frame("/app/loop.py", "event_loop", "result = self.run_batch(batch)"),
			"result = self.run_batch(batch) … File \"/app/loop.py\", line 10, in event_loop"},
		{"past a library's private dispatch", head + app +
			frame("/venv/ray/_private/client_mode_hook.py", "wrapper", "return func(*args, **kwargs)") +
			frame("/venv/ray/_private/worker.py", "get_objects", "raise value.as_instanceof_cause()"),
			"ray.get(actor.init_connections(manager)) (in train) … File \"/venv/ray/_private/worker.py\", line 10, in get_objects"},
		{"past a frame that forwards its arguments", head +
			frame("/app/worker.py", "<module>", "runtime = sgl.Runtime(") +
			frame("/venv/sglang/api.py", "Runtime", "return Runtime(*args, **kwargs)"),
			"runtime = sgl.Runtime( (in <module>) … File \"/venv/sglang/api.py\", line 10, in Runtime"},
		{"an innermost frame that printed no line: its caller's call, then the frame", head +
			frame("/app/runner.py", "__init__", "self.initialize(mem)") +
			`  File "/app/runner.py", line 9, in initialize` + "\n",
			"self.initialize(mem) … File \"/app/runner.py\", line 9, in initialize"},
		{"carets and unindented interleaved lines are not source lines", head +
			`  File "/app/args.py", line 3, in from_cli_args` + "\n    return cls(**kw)\n           ^^^^^^^^^\n2026-03-18 05:25:03\n" +
			`  File "/app/args.py", line 7, in __post_init__` + "\n2026-03-18 05:25:03\npod-1a2b\n",
			"return cls(**kw) … File \"/app/args.py\", line 7, in __post_init__"},
		{"a copy that kept one space of indentation", head +
			" File \"/app/loop.py\", line 5, in event_loop\n   result = self.run_batch(batch)\n",
			"result = self.run_batch(batch) … File \"/app/loop.py\", line 5, in event_loop"},
		{"the call that entered the phase the frames name, then the call running in it", head +
			frame("/sgl/python/sglang/srt/model_executor/model_runner.py", "initialize", "self.init_memory_pool(mem)") +
			frame("/sgl/python/sglang/srt/model_executor/model_runner.py", "init_memory_pool", "n = self.profile_max_num_token(mem)"),
			"self.init_memory_pool(mem) … n = self.profile_max_num_token(mem) … File \"/sgl/python/sglang/srt/model_executor/model_runner.py\", line 10, in init_memory_pool"},
		{"a deepest frame behind a pane's border, quoted from its File", head +
			"│ │   File \"/app/tok.py\", line 4, in load\n│ │     tok = cls(*args)\n",
			"File \"/app/tok.py\", line 4, in load"},
		{"no frame", head, ""},
	}
	for _, tt := range tests {
		if got := analysis.CutCall(tt.in); got != tt.want {
			t.Errorf("%s: CutCall = %q, want %q", tt.name, got, tt.want)
		}
	}
}
