package source

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// requireTool returns the path of an external program the test runs. A
// missing program skips the test, unless LOGMATCH_TEST_REQUIRE_TOOLS=1 (set
// by CI), where it fails it.
func requireTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("LOGMATCH_TEST_REQUIRE_TOOLS") == "1" {
		t.Fatalf("%s is required (LOGMATCH_TEST_REQUIRE_TOOLS=1): %v", name, err)
	}
	t.Skipf("%s not found (install it, e.g. apt-get install -y %s): %v", name, name, err)
	return ""
}

var python struct {
	once sync.Once
	path string
	err  error
}

// requirePython returns the real python3 interpreter: version-manager shims
// (pyenv) take seconds per start, which the tests would pay for every child.
func requirePython(t *testing.T) string {
	t.Helper()
	shim := requireTool(t, "python3")
	python.once.Do(func() {
		out, err := exec.Command(shim, "-c", "import sys; print(sys.executable)").Output()
		python.path, python.err = strings.TrimSpace(string(out)), err
	})
	if python.err != nil || python.path == "" {
		t.Fatalf("python3 -c sys.executable: %v", python.err)
	}
	return python.path
}
