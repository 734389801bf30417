package analysis_test

import (
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/patterns"
)

func TestCodeErrorIsTheLanguagesOwn(t *testing.T) {
	for _, c := range []struct {
		typ, repo, class string
		want             bool
	}{
		{"NameError", "", "", true},
		{"builtins.AttributeError", "", "", true},
		{"NameError", "python/cpython", "NameError", true},
		{"KeyError", "sgl-project/sglang", "KeyError", false}, // a weight's missing key: the engine's record says which
		{"RuntimeError", "", "", false},
		{"torch.OutOfMemoryError", "", "", false},
		{"ValueError", "", "", false},
		{"AssertionError", "sgl-project/sglang", "AssertionError", false},
	} {
		if got := analysis.CodeError(c.typ, c.repo, c.class); got != c.want {
			t.Errorf("CodeError(%q, %q, %q) = %v, want %v", c.typ, c.repo, c.class, got, c.want)
		}
	}
	if !analysis.RemedyWrapper(patterns.RoleWrapper, "reconfigure", 2) {
		t.Error("a reconfigure wrapper with solutions names its remedy")
	}
	for _, c := range []struct {
		role     patterns.Role
		handling string
		n        int
	}{{patterns.RoleWrapper, "fail-fast", 2}, {patterns.RoleWrapper, "reconfigure", 0}, {patterns.RoleCause, "reconfigure", 2}} {
		if analysis.RemedyWrapper(c.role, c.handling, c.n) {
			t.Errorf("RemedyWrapper(%q, %q, %d) = true", c.role, c.handling, c.n)
		}
	}
}
