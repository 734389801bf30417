package entry

import (
	"strings"
	"testing"
)

// TestAssemblerRejoinsURLCut: a hard wrap inside a URL whose rest ends
// at the colon the message goes on after is rejoined, for three writers
// (the Hub's client, Go's HTTP client under kubectl and under Docker's
// daemon), at the width the cut fell at; a writer's name after a line of
// its own stays apart.
func TestAssemblerRejoinsURLCut(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		whole string // an entry's text holds it; after "!", none does
	}{
		{"the Hub's offline mode", []string{
			"huggingface_hub.errors.OfflineModeIsEnabled: Cannot reach https://huggingface.co/api/models/meta-llama/Meta-Llama-3.1-8B",
			"-Instruct/tree/main?recursive=True&expand=False: offline mode is enabled. To disable it, please unset the `HF_HUB_OFFLIN",
			"E` environment variable.",
		}, "Meta-Llama-3.1-8B-Instruct/tree/main?recursive=True&expand=False: offline mode is enabled"},
		{"kubectl's API call", []string{
			`E1206 18:42:43.123456   12345 memcache.go:265] couldn't get current server API group list: Get "https://10.96.0.1:443/api/v1/na`,
			`mespaces/default/pods?limit=500": dial tcp 10.96.0.1:443: i/o timeout`,
		}, `Get "https://10.96.0.1:443/api/v1/namespaces/default/pods?limit=500": dial tcp`},
		{"Docker's registry", []string{
			`docker: Error response from daemon: Get "https://registry-1.docker.io/v2/library/lmsysorg/sglang/manifests/latest/v`,
			`2/": net/http: request canceled while waiting for connection (Client.Timeout exceeded while awaiting headers).`,
		}, `manifests/latest/v2/": net/http: request canceled`},
		// Near misses: no URL cut.
		{"a writer's name after a URL that ended", []string{
			"INFO 12-06 18:42:43 Downloading the model's files from https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct",
			"ninja: build stopped: subcommand failed.",
		}, "!Instructninja"},
		{"a writer's name after a URL line", []string{
			"See the documentation at https://docs.sglang.ai/backend/server_arguments.html for the arguments of the server xx",
			"error: the argument --tp-size takes an integer",
		}, "!xxerror"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			es := assemble(t, Options{}, strings.Join(tc.lines, "\n"))
			want, not := strings.CutPrefix(tc.whole, "!")
			for _, e := range es {
				if strings.Contains(e.Text, want) {
					if not {
						t.Fatalf("entry %q holds %q", e.Text, want)
					}
					return
				}
			}
			if !not {
				var got []string
				for _, e := range es {
					got = append(got, e.Text)
				}
				t.Errorf("no entry holds %q:\n%s", want, strings.Join(got, "\n---\n"))
			}
		})
	}
}

func TestURLGoesOn(t *testing.T) {
	for _, tc := range []struct {
		tok, w string
		want   bool
	}{
		{"https://huggingface.co/api/models/meta-llama/Meta-Llama-3.1-8B", "-Instruct/tree/main?recursive=True&expand=False:", true},
		{`"https://10.96.0.1:443/api/v1/na`, `mespaces/default/pods?limit=500":`, true},
		{`url='http://127.0.0.1:30`, `000/generate':`, true},
		{"https://x.io/a", "ninja:", false}, // a writer's name
		{"https://x.io/a", "b/c:", true},
		{"https://x.io/a", "build stopped:", false},
		{"see://", "x.y:", true},
		{"://x", "y:", false},
		{`"://x`, "y:", false},
		{"C:\\path", "x:", false},
		{"https://x.io/a", "https://y.io:", false},
		{"error", "x:", false},
	} {
		if got := urlGoesOn(tc.tok, tc.w); got != tc.want {
			t.Errorf("urlGoesOn(%q, %q) = %v, want %v", tc.tok, tc.w, got, tc.want)
		}
	}
}
