package incident

import (
	"testing"
	"unsafe"
)

// TestGroupLayout keeps what a repeat of an incident reads of its group
// in the group's first two cache lines (with the kinds of incident every
// pass tests, in the first), what a burst is read from in the third, and
// the alert's start on the fourth (see group): a field added before
// Alert, or one of these moved past it, fails here rather than slowing
// every repeat unseen.
func TestGroupLayout(t *testing.T) {
	var gr group
	if off := unsafe.Offsetof(gr.Alert); off != 192 {
		t.Errorf("group.Alert at %d bytes, want 192", off)
	}
	for name, end := range map[string]uintptr{
		"id":          unsafe.Offsetof(gr.id) + unsafe.Sizeof(gr.id),
		"slot":        unsafe.Offsetof(gr.slot) + unsafe.Sizeof(gr.slot),
		"busy":        unsafe.Offsetof(gr.busy) + 1,
		"Settling":    unsafe.Offsetof(gr.Settling) + 1,
		"LateContext": unsafe.Offsetof(gr.LateContext) + 1,
		"Consequence": unsafe.Offsetof(gr.Consequence) + 1,
		"Generic":     unsafe.Offsetof(gr.Generic) + 1,
		"Fragment":    unsafe.Offsetof(gr.Fragment) + 1,
		"Native":      unsafe.Offsetof(gr.Native) + 1,
		"Routine":     unsafe.Offsetof(gr.Routine) + 1,
		"seen":        unsafe.Offsetof(gr.seen) + unsafe.Sizeof(gr.seen),
		"owner":       unsafe.Offsetof(gr.owner) + unsafe.Sizeof(gr.owner),
		"Off":         unsafe.Offsetof(gr.Off) + unsafe.Sizeof(gr.Off),
		"End":         unsafe.Offsetof(gr.End) + unsafe.Sizeof(gr.End),
		"LastSeen":    unsafe.Offsetof(gr.LastSeen) + unsafe.Sizeof(gr.LastSeen),
		"Last":        unsafe.Offsetof(gr.Last) + unsafe.Sizeof(gr.Last),
	} {
		if end > 128 || name != "Off" && name != "End" && name != "LastSeen" && name != "Last" && end > 64 {
			t.Errorf("group.%s ends at %d bytes, past its cache line", name, end)
		}
	}
	for name, field := range map[string][2]uintptr{
		"At":       {unsafe.Offsetof(gr.At), unsafe.Sizeof(gr.At)},
		"Scope":    {unsafe.Offsetof(gr.Scope), unsafe.Sizeof(gr.Scope)},
		"Source":   {unsafe.Offsetof(gr.Source), unsafe.Sizeof(gr.Source)},
		"Borrowed": {unsafe.Offsetof(gr.Borrowed), 1},
	} {
		if field[0] < 128 || field[0]+field[1] > 192 {
			t.Errorf("group.%s at %d bytes, outside the third cache line", name, field[0])
		}
	}
}
