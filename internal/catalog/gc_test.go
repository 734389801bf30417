package catalog

import (
	"runtime/debug"
	"testing"
)

// A load raises the GC target for its own duration only, and never turns
// on a collector the operator turned off or lowers a higher target.
func TestLoadGCTargetIsRestored(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, tt := range []struct {
		operator, during int
	}{{100, loadGCPercent}, {50, loadGCPercent}, {-1, -1}, {0, 0}, {800, 800}} {
		debug.SetGCPercent(tt.operator)
		var during int
		withLoadGC(func() {
			during = debug.SetGCPercent(-1)
			debug.SetGCPercent(during)
		})
		if during != tt.during {
			t.Errorf("operator's target %d: %d during the load, want %d", tt.operator, during, tt.during)
		}
		if after := debug.SetGCPercent(tt.operator); after != tt.operator {
			t.Errorf("operator's target %d: %d after the load", tt.operator, after)
		}
	}
}

// Load goes through withLoadGC: the target is back afterwards.
func TestLoadRestoresTheGCTarget(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(70))
	if _, _, err := Load(Spec{}); err != nil {
		t.Fatal(err)
	}
	if got := debug.SetGCPercent(70); got != 70 {
		t.Errorf("GC target %d after a load, want 70", got)
	}
}
