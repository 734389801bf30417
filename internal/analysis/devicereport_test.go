package analysis_test

import (
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// TestRecordFreeDeviceAndMemoryReports scans, with no record at all,
// pastes of the kernel's and the memory checkers' reports composed from
// several writers, each with the lines around it that are no failure:
// the line that states the failure alerts as a native error of its
// family and leads; the driver's recovery and the checker's summary after
// it alert as its consequences; start-up, detail and clean-summary lines
// stay silent.
func TestRecordFreeDeviceAndMemoryReports(t *testing.T) {
	m, _ := matcher.Compile(nil, matcher.Options{})
	type want struct {
		headline string
		role     patterns.Role
		family   string
	}
	for name, c := range map[string]struct {
		log  string
		want []want
	}{
		"amdgpu on FreeBSD": {
			"[drm] amdgpu kernel modesetting enabled.\n" +
				"[drm ERROR :amdgpu_job_timedout] ring gfx_0.0.0 timeout, signaled seq=12, emitted seq=14\n" +
				"drmn0: GPU reset begin!\n" +
				"drmn0: GPU reset(2) succeeded!\n",
			[]want{
				{"[drm ERROR :amdgpu_job_timedout] ring gfx_0.0.0 timeout, signaled seq=12, emitted seq=14", patterns.RoleCause, analysis.FamilyDevice},
				{"drmn0: GPU reset begin!", patterns.RoleConsequence, analysis.FamilyDevice},
			},
		},
		"NVRM in dmesg": {
			"[    4.000001] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.54.15\n" +
				"[ 9000.000002] NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n",
			[]want{{"[ 9000.000002] NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.", patterns.RoleCause, analysis.FamilyDevice}},
		},
		"OOM killer in syslog": {
			"Aug 18 03:19:11 node7 kernel: [  518.053407] oom_reaper: reaped process 15784 (python3), now anon-rss:0kB\n" +
				"Aug 18 03:19:12 node7 kernel: [  519.050606] Out of memory: Killed process 15785 (python3) total-vm:11964kB, anon-rss:4288kB\n",
			[]want{{"[  519.050606] Out of memory: Killed process 15785 (python3) total-vm:11964kB, anon-rss:4288kB", patterns.RoleCause, analysis.FamilyKilled}},
		},
		"compute-sanitizer": {
			"========= COMPUTE-SANITIZER\n" +
				"========= Invalid __global__ write of size 4 bytes\n" +
				"=========     at 0x70 in /src/k.cu:12:kern(int *)\n" +
				"========= ERROR SUMMARY: 1 error\n",
			[]want{
				{"========= Invalid __global__ write of size 4 bytes", patterns.RoleCause, analysis.FamilyMemCheck},
				{"========= ERROR SUMMARY: 1 error", patterns.RoleConsequence, analysis.FamilyMemCheck},
			},
		},
		"glibc": {
			"loading weights\nfree(): invalid pointer\n",
			[]want{{"free(): invalid pointer", patterns.RoleCause, analysis.FamilyMemCheck}},
		},
		"clean runs": {
			"========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n" +
				"[ 99.3] pcieport 0000:00:01.0: AER: Corrected error received: 0000:01:00.0\n" +
				"[  563.230818] amdgpu 0000:44:00.0: amdgpu: ring comp_1.2.1 uses VM inv eng 9 on hub 0\n",
			nil,
		},
	} {
		got := analyzeText(m, c.log)
		if len(got) != len(c.want) {
			t.Errorf("%s: %d diagnoses, want %d", name, len(got), len(c.want))
			for _, d := range got {
				t.Logf("  %q", d.Headline)
			}
			continue
		}
		for i, d := range got {
			w := c.want[i]
			if d.Signal != analysis.SignalNative || d.Headline != w.headline || d.Role != w.role || d.Triage.Family != w.family {
				t.Errorf("%s: diagnosis %d = %s %q role %s family %q; want native %q role %s family %q",
					name, i, d.Signal, d.Headline, d.Role, d.Triage.Family, w.headline, w.role, w.family)
			}
		}
	}
}
