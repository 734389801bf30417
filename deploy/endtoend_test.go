package deploy

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/internal/catalog"
	"github.com/logmatch/logmatch/internal/scan"
)

// TestSidecarFindsCrash runs the sidecar manifest's wrapper with a stand-in
// sglang that crashes the way sglang does, then matches the file the
// wrapper wrote with logmatch's own scanner, the built-in catalog and the
// site catalog of the manifest's ConfigMap: both failures are found, in
// the file logmatch's configuration points at, and the sigquit line of the
// parent process after them.
func TestSidecarFindsCrash(t *testing.T) {
	script := wrapperScript(t)
	cmd, logDir, _, _ := runWrapper(t, script, `
cat >&2 <<'LOG'
[2026-05-28 00:10:58] Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/safetensors/torch.py", line 313, in load_file
    with safe_open(filename, framework="pt", device=device) as f:
OSError: [Errno 116] Stale file handle
[2026-05-28 00:11:00 TP0] Ascend Transfer Engine initialization failed.
[2026-05-28 00:11:01 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/disaggregation/ascend/transfer_engine.py", line 16, in initialize
    raise RuntimeError("Ascend Transfer Engine initialization failed.")
RuntimeError: Ascend Transfer Engine initialization failed.

[2026-05-28 00:11:01] Received sigquit from a child process. It usually means the child failed.
LOG
exit 1
`)
	if code := exitCode(t, cmd.Wait()); code != 1 {
		t.Fatalf("exit status %d, want 1", code)
	}

	b := build(t, "kubernetes/sidecar")
	catDir := t.TempDir()
	site := b.configMap("logmatch").Data["site.jsonl"]
	if err := os.WriteFile(filepath.Join(catDir, "site.jsonl"), []byte(site), 0o600); err != nil {
		t.Fatal(err)
	}
	m, probs, err := catalog.Load(catalog.Spec{Paths: []string{catDir}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probs {
		t.Errorf("catalog: %v", p)
	}
	f, err := os.Open(filepath.Join(logDir, "stderr.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := scan.New(m, scan.Options{Format: "raw"}).Scan(context.Background(), []scan.Input{{Name: "stderr.log", R: f}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range res.Alerts {
		got = append(got, a.Record.ID)
		// The parent's SIGQUIT line is a consequence, folded into the
		// incident of the crash it follows.
		for _, c := range a.Consequences {
			got = append(got, c.ID)
		}
	}
	slices.Sort(got)
	got = slices.Compact(got)
	want := []string{"904467efe359c359", "a4a00f79b8728e30", "site-nfs-stale-file-handle"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records found in stderr.log (-want +got):\n%s", diff)
	}
}
