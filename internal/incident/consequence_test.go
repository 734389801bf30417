package incident

import (
	"testing"

	"github.com/logmatch/logmatch/patterns"
)

// Occurrence.consequence is isConsequence read through the pointer.
func TestConsequenceIsIsConsequence(t *testing.T) {
	for _, role := range []string{"", string(patterns.RoleCause), string(patterns.RoleConsequence), string(patterns.RoleWrapper),
		string(patterns.RoleConsequence) + " ", "Consequence"} {
		var o Occurrence
		o.Alert.Record.Role = role
		if o.consequence() != isConsequence(o) {
			t.Errorf("role %q: consequence() %v, isConsequence %v", role, o.consequence(), isConsequence(o))
		}
	}
}
