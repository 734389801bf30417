package analysis

import (
	"strings"
	"testing"
)

// TestFaultFrame reads faulthandler's frame lines, with a line number or
// "???", and turns away a traceback's frame, prose and a cut line.
func TestFaultFrame(t *testing.T) {
	for l, want := range map[string]string{
		`File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 510 in event_loop_overlap`: "event_loop_overlap (sglang/srt/managers/scheduler.py:510)",
		`File "<string>", line 1 in <module>`:                       "<module> (<string>:1)",
		`File "/usr/lib/python3.10/threading.py", line ??? in wait`: "wait (/usr/lib/python3.10/threading.py:???)",
		`File "/a/b.py", line 12, in f`:                             "",
		`File "/a/b.py", line 12 in the middle`:                     "",
		`File "/a/b.py", line 12`:                                   "",
		`File "/a/b.py", line in f`:                                 "",
		`File "", line 1 in f`:                                      "",
	} {
		got, ok := faultFrame(l)
		if ok != (want != "") || got != want {
			t.Errorf("faultFrame(%q) = %q, %v, want %q", l, got, ok, want)
		}
	}
}

// FuzzFaultFrame checks that faultFrame never panics and that a frame it
// reads came from a `File "` line and ends with its place.
func FuzzFaultFrame(f *testing.F) {
	f.Add(`File "/a/sglang/srt/managers/scheduler.py", line 510 in event_loop_overlap`)
	f.Add(`File "<string>", line ??? in <module>`)
	f.Fuzz(func(t *testing.T, l string) {
		if fr, ok := faultFrame(l); ok && (!strings.HasPrefix(l, `File "`) || !strings.HasSuffix(fr, ")")) {
			t.Fatalf("faultFrame(%q) = %q", l, fr)
		}
	})
}

// FuzzExtensionModules checks that extensionModules never panics and
// reads only lines that open with its marker.
func FuzzExtensionModules(f *testing.F) {
	f.Add("Extension modules: numpy.core._multiarray_umath, torch._C (total: 2)")
	f.Add("Extension modules: a.b, c.")
	f.Fuzz(func(t *testing.T, l string) {
		if extensionModules(l) && !strings.HasPrefix(strings.TrimSpace(l), extensionModulesMarker) {
			t.Fatalf("extensionModules(%q) = true", l)
		}
	})
}
