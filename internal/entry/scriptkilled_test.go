package entry

import (
	"strings"
	"testing"
)

// TestScriptKilledBehindLabels: a shell's report that a script's command
// was killed ("./entrypoint.sh: line 28:     7 Killed  ...") behind a
// label no rule strips at once (grep -n's line number before a compose
// service column) is read from the script's relative path, not from the
// "28: " inside the report, which only looks like a task label.
func TestScriptKilledBehindLabels(t *testing.T) {
	for _, tt := range []struct{ name, line, want string }{
		// vectorch-ai/ScaleLLM#38, behind compose's service column.
		{"compose", "1812:scalellm          | ./entrypoint.sh: line 28:     7 Killed                  LD_LIBRARY_PATH=/app/lib:$LD_LIBRARY_PATH /app/bin/scalellm $ARGS \"$@\"",
			"./entrypoint.sh: line 28:     7 Killed"},
		// sgl-project/sglang#8513's, behind grep -n's number and a
		// compose service column.
		{"script", "1812:sglang          | ./sglang_run.sh: line 19: 867080 Killed                  python -m sglang.launch_server --model-path $MODEL_PATH --tp-size $GPU_NUM",
			"./sglang_run.sh: line 19: 867080 Killed"},
	} {
		es := assemble(t, Options{}, tt.line)
		if len(es) != 1 || !strings.HasPrefix(es[0].Text, tt.want) {
			t.Errorf("%s: %+v, first prefix %q; want its text to open with %q", tt.name, views(es), es[0].Prefix, tt.want)
		}
	}
}
