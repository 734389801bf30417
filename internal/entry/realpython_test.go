package entry

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRealPythonTracebacks runs CPython (testdata/realpython/crash.py) to
// write real tracebacks in sglang's record format, through logger.exception
// and as bare uncaught-exception prints, and checks that every one becomes
// one entry whose parsed chain is the one CPython reports for itself.
func TestRealPythonTracebacks(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("LOGMATCH_TEST_REQUIRE_TOOLS") != "" {
			t.Fatal("python3 not found and LOGMATCH_TEST_REQUIRE_TOOLS is set")
		}
		t.Skip("python3 not found")
	}
	dir := t.TempDir()
	logPath, wantPath := filepath.Join(dir, "sglang.log"), filepath.Join(dir, "want.json")
	cmd := exec.Command(python, filepath.Join("testdata", "realpython", "crash.py"), logPath, wantPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("crash.py: %v\n%s", err, out)
	}
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	var want []struct {
		How   string `json:"how"`
		Chain []struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"chain"`
	}
	wb, err := os.ReadFile(wantPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(wb, &want); err != nil {
		t.Fatal(err)
	}

	got := assemble(t, Options{}, strings.TrimSuffix(string(b), "\n"))
	type link struct{ Type, Message string }
	var gotChains, wantChains [][]link
	for _, e := range got {
		if e.Traceback == nil {
			continue
		}
		var c []link
		for _, l := range e.Traceback.Links {
			c = append(c, link{l.Type, l.Message})
		}
		gotChains = append(gotChains, c)
		if e.Format == FormatSRT && (e.Ranks.TP != 1 || e.Ranks.EP != 1) {
			t.Errorf("entry %d-%d: ranks %v, want TP1 EP1", e.FirstOffset, e.LastOffset, e.Ranks)
		}
	}
	for _, w := range want {
		var c []link
		for _, l := range w.Chain {
			c = append(c, link{l.Type, l.Message})
		}
		wantChains = append(wantChains, c)
	}
	if diff := cmp.Diff(wantChains, gotChains); diff != "" {
		t.Errorf("exception chains (-CPython +parsed):\n%s", diff)
	}
	if last := got[len(got)-1]; last.Native != NativeShell {
		t.Errorf("last entry %q, want the shell's Killed", last.Message)
	}
}

// TestRealFaulthandler crashes CPython with faulthandler enabled and checks
// that its whole dump, every thread included, is one native entry.
func TestRealFaulthandler(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("LOGMATCH_TEST_REQUIRE_TOOLS") != "" {
			t.Fatal("python3 not found and LOGMATCH_TEST_REQUIRE_TOOLS is set")
		}
		t.Skip("python3 not found")
	}
	script := `import faulthandler, ctypes, threading, time
faulthandler.enable()
threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
time.sleep(0.2)
ctypes.string_at(0)
`
	cmd := exec.Command(python, "-c", script)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil {
		t.Fatal("python3 did not crash")
	}
	text := strings.TrimSuffix(stderr.String(), "\n")
	got := assemble(t, Options{}, text)
	if len(got) != 1 {
		t.Fatalf("got %d entries, want 1:\n%s", len(got), text)
	}
	e := got[0]
	if e.Native != NativeFaulthandler || e.Message != "Fatal Python error: Segmentation fault" {
		t.Errorf("entry %s %q", e.Native, e.Message)
	}
	if !strings.Contains(e.Text, "Current thread 0x") || !strings.Contains(e.Text, "in string_at") {
		t.Errorf("dump incomplete:\n%s", e.Text)
	}
}
