package deploy

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// wrapperScript returns the bash script the sglang container of the plain
// sidecar manifest runs, and wants the chart's copy to be the same.
func wrapperScript(t *testing.T) string {
	t.Helper()
	b := build(t, "kubernetes/sidecar")
	sg := findContainer(&b.deployments[0].Spec.Template.Spec, "sglang")
	if sg == nil || len(sg.Args) == 0 || !cmp.Equal(sg.Command, []string{"/bin/bash", "-c"}) {
		t.Fatalf("sglang container does not run a bash -c script: command %q", sg.Command)
	}
	chart, err := os.ReadFile(filepath.Join(chartDir, "files", "sglang-wrapper.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(chart), sg.Args[0]); diff != "" {
		t.Errorf("the chart's files/sglang-wrapper.sh and the manifest's script differ (-chart +manifest):\n%s", diff)
	}
	return sg.Args[0]
}

// runWrapper starts the wrapper script under bash with a fake python3 (a
// bash script standing for sglang) first on PATH.
func runWrapper(t *testing.T, script, fakePython string, env ...string) (cmd *exec.Cmd, logDir string, stdout *bufio.Reader, stderr *bytes.Buffer) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	logDir = filepath.Join(dir, "logs")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "python3"), []byte("#!/bin/bash\n"+fakePython), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command("bash", "-c", script, "sglang", "--tp", "1")
	cmd.Env = append([]string{
		"PATH=" + bin + ":" + os.Getenv("PATH"),
		"TMPDIR=" + dir,
		"LOG_DIR=" + logDir,
		"LOG_MAX_BYTES=67108864",
		"MODEL_PATH=/models/test",
		"SERVER_PORT=30000",
	}, env...)
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr = &bytes.Buffer{}
	cmd.Stderr = stderr
	// Its own process group, so that whatever a failing test leaves
	// running (the fake server, the tees) is killed with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	return cmd, logDir, bufio.NewReader(pipe), stderr
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readUntil reads the wrapper's stdout up to and including a line.
func readUntil(t *testing.T, r *bufio.Reader, line string) string {
	t.Helper()
	var got strings.Builder
	for {
		l, err := r.ReadString('\n')
		got.WriteString(l)
		if l == line+"\n" {
			return got.String()
		}
		if err != nil {
			t.Fatalf("stdout ended before %q: %v; got %q", line, err, got.String())
		}
	}
}

func exitCode(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 0
	}
	ee, ok := err.(*exec.ExitError)
	if !ok {
		t.Fatalf("wait: %v", err)
	}
	return ee.ExitCode()
}

// TestWrapperCrash: sglang's exit status is the container's, and both
// streams reach their own file and the container's own stream, the
// traceback included.
func TestWrapperCrash(t *testing.T) {
	script := wrapperScript(t)
	cmd, logDir, stdout, stderr := runWrapper(t, script, `
echo "args: $*"
echo "[2026-05-28 00:11:01 TP0] Scheduler hit an exception: Traceback (most recent call last):" >&2
echo "RuntimeError: Ascend Transfer Engine initialization failed." >&2
exit 3
`)
	out := readUntil(t, stdout, "args: -m sglang.launch_server --model-path /models/test --host 0.0.0.0 --port 30000 --tp 1")
	if code := exitCode(t, cmd.Wait()); code != 3 {
		t.Errorf("exit status %d, want sglang's 3", code)
	}
	wantErr := "[2026-05-28 00:11:01 TP0] Scheduler hit an exception: Traceback (most recent call last):\nRuntimeError: Ascend Transfer Engine initialization failed.\n"
	tests := []struct{ name, got, want string }{
		{"stdout.log", readFile(t, filepath.Join(logDir, "stdout.log")), out},
		{"stderr.log", readFile(t, filepath.Join(logDir, "stderr.log")), wantErr},
		{"container stderr", stderr.String(), wantErr},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tt.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestWrapperForwardsSIGTERM: the kubelet's SIGTERM reaches sglang, whose
// shutdown output still reaches the file before the wrapper exits with
// sglang's status.
func TestWrapperForwardsSIGTERM(t *testing.T) {
	script := wrapperScript(t)
	cmd, logDir, stdout, _ := runWrapper(t, script, `
trap 'echo "shutting down" >&2; exit 0' TERM
echo ready
while :; do sleep 0.05; done
`)
	readUntil(t, stdout, "ready")
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := exitCode(t, cmd.Wait()); code != 0 {
		t.Errorf("exit status %d, want 0 (sglang stopped cleanly)", code)
	}
	if got := readFile(t, filepath.Join(logDir, "stderr.log")); got != "shutting down\n" {
		t.Errorf("stderr.log = %q, want the shutdown line", got)
	}
}

// TestWrapperRotates: a file past LOG_MAX_BYTES is copied to .1 and
// truncated, and writing goes on in the truncated file.
func TestWrapperRotates(t *testing.T) {
	script := wrapperScript(t)
	// The fake server writes past the bound in one write (under PIPE_BUF,
	// so tee copies it whole), waits until the copy is complete and the
	// file truncated (the test's own deadline bounds the wait), then
	// writes one more line.
	cmd, logDir, _, _ := runWrapper(t, script, `
printf 'line %d\n' $(seq 1 200)
until [ -s "$LOG_DIR/stdout.log.1" ] && [ ! -s "$LOG_DIR/stdout.log" ]; do sleep 0.05; done
echo "after rotation"
`, "LOG_MAX_BYTES=1000", "LOG_ROTATE_SECONDS=0.05")
	if code := exitCode(t, cmd.Wait()); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	var want strings.Builder
	for i := 1; i <= 200; i++ {
		want.WriteString("line " + strconv.Itoa(i) + "\n")
	}
	if diff := cmp.Diff(want.String(), readFile(t, filepath.Join(logDir, "stdout.log.1"))); diff != "" {
		t.Errorf("stdout.log.1 (-want +got):\n%s", diff)
	}
	if got := readFile(t, filepath.Join(logDir, "stdout.log")); got != "after rotation\n" {
		t.Errorf("stdout.log = %q, want only the line after rotation", got)
	}
}
