package entry

import (
	"strings"
	"testing"
)

// huggingface_hub's messages run over several unindented lines after the
// OSError transformers chains them into: the lines of the message stay in
// the exception's entry, a blank line or an unrelated line still ends it.
func TestHubMessageLinesStayWithTheirException(t *testing.T) {
	tb := "Traceback (most recent call last):\n  File \"/usr/lib/python3/dist-packages/transformers/utils/hub.py\", line 543, in cached_files\n    raise OSError(\n"
	tests := []struct {
		name, in string
		entries  int
	}{
		{"gated repo", tb + "OSError: You are trying to access a gated repo.\nMake sure to have access to it at https://huggingface.co/meta-llama/Llama-3.2-1B-Instruct.\n" +
			"401 Client Error. (Request ID: Root=1-695139c1-20c276683bbfa05022511a7b)", 1},
		{"repository not found", tb + "OSError: org/model is not a local folder and is not a valid model identifier\n" +
			"Repository Not Found for url: https://huggingface.co/api/models/org/model/revision/main.\n" +
			"Please make sure you specified the correct `repo_id` and `repo_type`.\nIf you are trying to access a private or gated repo, make sure you are authenticated.\n" +
			"Invalid username or password.", 1},
		{"a blank line ends it", tb + "OSError: You are trying to access a gated repo.\n\nAccess to model meta-llama/x is restricted.", 2},
		{"a status line without the Hub's request id is not the message", tb + "OSError: x\n401 Client Error for the metrics push", 2},
		{"other prose is not the message", tb + "OSError: x\nMake sure the volume is mounted", 2},
	}
	for _, tt := range tests {
		es := assemble(t, Options{}, tt.in)
		if len(es) != tt.entries {
			var got []string
			for _, e := range es {
				got = append(got, e.Text)
			}
			t.Errorf("%s: %d entries, want %d: %q", tt.name, len(es), tt.entries, strings.Join(got, " | "))
		}
	}
}
