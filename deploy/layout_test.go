package deploy

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The two Collector configurations do different jobs; each says, in its
// own header, which binary runs it and from which path, and the deploy
// README describes both, so neither is taken for the other.
func TestCollectorConfigsSayWhatTheyAre(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for dir, runs := range map[string]string{
		"otlp-gateway":     "otelcol-contrib --config deploy/otlp-gateway/config.yaml",
		"otelcol-logmatch": "otelcol-logmatch --config deploy/otelcol-logmatch/config.yaml",
	} {
		data, err := os.ReadFile(filepath.Join(dir, "config.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), runs) {
			t.Errorf("%s/config.yaml does not say how it is run (%q)", dir, runs)
		}
		if !strings.Contains(string(readme), "`"+dir+"/config.yaml`") {
			t.Errorf("deploy/README.md does not describe %s/config.yaml", dir)
		}
	}
	for _, old := range []string{"otelcol", "otel-collector"} {
		if _, err := os.Stat(old); err == nil {
			t.Errorf("deploy/%s is back: it was renamed because it was confused with its sibling", old)
		}
	}
}

// What the README tells people to build in the tree is ignored by git.
func TestBuiltBinariesAreIgnored(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("LOGMATCH_TEST_REQUIRE_TOOLS") != "" {
			t.Fatalf("git: %v", err)
		}
		t.Skip("git not installed")
	}
	if err := exec.Command(git, "-C", "..", "rev-parse", "--is-inside-work-tree").Run(); err != nil {
		t.Skip("not in a git work tree")
	}
	for _, p := range []string{"logmatch", "otelcol/cmd/otelcol-logmatch/otelcol-logmatch"} {
		if err := exec.Command(git, "-C", "..", "check-ignore", "-q", "--no-index", p).Run(); err != nil {
			t.Errorf("%s is not ignored by .gitignore: %v", p, err)
		}
	}
}
