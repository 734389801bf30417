package incident_test

import (
	"strings"
	"testing"
)

// The NVIDIA driver reports one GPU's failure in several kernel lines: the
// Xid that states it, then the Xid codes of what it did next (43 after a
// fault in the channel, 63 after an uncorrectable ECC error), or, in newer
// drivers, a second "GPU <bus>: GPU has fallen off the bus." line after
// the Xid 79 one. With the driver's records left out, the lines are one
// event led by the first (lines of an sglang node's dmesg, a desktop's
// journal, the open kernel modules' tracker); a follow-up code alone is
// still a report, and two Xids that each state a failure stay two.
func TestOneGPUsDriverLinesAreOneEvent(t *testing.T) {
	m := matcherWithout(t, "nvidia-xid-error", "nvidia-gpu-fallen-off-bus")
	for _, c := range []struct {
		lines []string
		says  string
	}{
		{[]string{
			"[ 8812.412345] NVRM: Xid (PCI:0000:3b:00): 13, pid=4242, name=python3, Graphics SM Warp Exception on (GPC 0, TPC 1, SM 0): Out Of Range Address",
			"[ 8812.412399] NVRM: Xid (PCI:0000:3b:00): 43, pid=4242, name=python3, Ch 00000008",
		}, "13, pid=4242"},
		{[]string{
			"[Mon Jun 10 12:01:02 2024] NVRM: Xid (PCI:0000:b1:00): 48, pid='<unknown>', name=<unknown>, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 6, subpartition 0.",
			"[Mon Jun 10 12:01:02 2024] NVRM: Xid (PCI:0000:b1:00): 63, pid='<unknown>', name=<unknown>, Row Remapper: New row marked for remapping, reset gpu to activate.",
		}, "48, pid="},
		{[]string{
			"Apr 29 19:24:11 EVE kernel: NVRM: GPU at PCI:0000:01:00: GPU-ccdb674e-0f5b-c678-9099-59940ccd0641",
			"Apr 29 19:24:11 EVE kernel: NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus.",
			"Apr 29 19:24:11 EVE kernel: NVRM: GPU 0000:01:00.0: GPU has fallen off the bus.",
		}, "79, GPU has fallen off the bus"},
		{[]string{
			"NVRM: Xid (PCI:0000:06:00): 79, GPU has fallen off the bus.",
			"NVRM: GPU 0000:06:00.0: GPU has fallen off the bus.",
			"NVRM: GPU 0000:06:00.0: GPU serial number is 0.",
		}, "79, GPU has fallen off the bus"},
	} {
		got := scanLines(t, m, c.lines)
		if len(got) != 1 || !strings.Contains(got[0].Match.Text, c.says) {
			t.Errorf("%s: want one incident led by the first Xid, got %d:%s", c.says, len(got), describe(got))
		}
	}
	alone := []string{"[ 8812.412399] NVRM: Xid (PCI:0000:3b:00): 43, pid=4242, name=python3, Ch 00000008"}
	if got := scanLines(t, m, alone); len(got) != 1 {
		t.Errorf("a follow-up Xid alone: want it alerted, got %d:%s", len(got), describe(got))
	}
	two := []string{
		"[ 8812.412345] NVRM: Xid (PCI:0000:3b:00): 13, pid=4242, name=python3, Graphics SM Warp Exception on (GPC 0, TPC 1, SM 0): Out Of Range Address",
		"[ 8812.512345] NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.",
	}
	if got := scanLines(t, m, two); len(got) != 2 {
		t.Errorf("two Xids that each state a failure: want two incidents, got %d:%s", len(got), describe(got))
	}
}
