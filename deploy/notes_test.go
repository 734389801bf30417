package deploy

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// notesWrapper renders NOTES.txt (which helm template leaves out, and
// helm install only renders against a cluster) into a ConfigMap of a
// temporary copy of the chart, so its template errors show up here.
const notesWrapper = `apiVersion: v1
kind: ConfigMap
metadata:
  name: notes
data:
  notes: {{ tpl (.Files.Get "files/NOTES.txt") . | quote }}
`

// chartWithNotes copies the chart into a temporary directory with the
// notes wrapper added.
func chartWithNotes(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "logmatch")
	err := filepath.WalkDir(chartDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(chartDir, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	notes, err := os.ReadFile(filepath.Join(chartDir, "templates", "NOTES.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dst, "files", "NOTES.txt"), notes, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dst, "templates", "zz-notes.yaml"), []byte(notesWrapper), 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestHelmNotes(t *testing.T) {
	helm := helmPath(t)
	chart := chartWithNotes(t)
	tests := []struct {
		name string
		sets []string
		want []string
	}{
		{
			name: "sidecar",
			sets: []string{"mode=sidecar", "sinks.slack.enabled=true", "sinks.slack.existingSecret=team-slack", "serviceMonitor.enabled=true"},
			want: []string{
				"logmatch is deployed in sidecar mode as lm-logmatch in namespace inference.",
				"logs deploy/lm-logmatch -c sglang -f",
				"port-forward svc/lm-logmatch 9464",
				"A ServiceMonitor scrapes them every 30s.",
				"Slack alerts use the webhook URL in Secret team-slack.",
				"Health gating is on: sglang's livenessProbe is logmatch's /livez",
			},
		},
		{
			name: "daemonset",
			sets: []string{"mode=daemonset"},
			want: []string{
				"logmatch is deployed in daemonset mode as lm-logmatch in namespace inference.",
				"  /var/log/pods/*/sglang/*.log\n",
				"Pods are selected by the names in these globs",
				"A node agent cannot restart the pods it reads",
				"logmatch_gate_state{namespace,pod,container}",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := helmArgs(tt.sets)
			args[2] = chart
			args = append(args, "--show-only", "templates/zz-notes.yaml")
			out, err := execOutput(helm, args...)
			if err != nil {
				t.Fatalf("helm %s: %v\n%s", strings.Join(args, " "), err, out)
			}
			objs, err := DecodeStrict("notes", out)
			if err != nil {
				t.Fatal(err)
			}
			b := newBundle(objs)
			cm := b.configMap("notes")
			if cm == nil {
				t.Fatalf("no notes in\n%s", out)
			}
			for _, w := range tt.want {
				if !strings.Contains(cm.Data["notes"], w) {
					t.Errorf("NOTES.txt lacks %q:\n%s", w, cm.Data["notes"])
				}
			}
		})
	}
}
