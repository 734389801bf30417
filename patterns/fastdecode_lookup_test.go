package patterns

import "testing"

// TestLookupField checks the field table against fastFields: every name
// is found as its field, and names that are not fields (other cases, one
// byte more or less, empty) are not.
func TestLookupField(t *testing.T) {
	for name, want := range fastFields {
		if f, ok := lookupField([]byte(name)); !ok || f != want {
			t.Errorf("lookupField(%q) = %v, %t; want %v", name, f, ok, want)
		}
		for _, other := range []string{name[:len(name)-1], name + "s", "x" + name, name[:1] + "X" + name[2:]} {
			if _, in := fastFields[other]; in {
				continue
			}
			if f, ok := lookupField([]byte(other)); ok {
				t.Errorf("lookupField(%q) = %v; want no field", other, f)
			}
		}
	}
	if _, ok := lookupField(nil); ok {
		t.Error("lookupField of an empty name found a field")
	}
}
