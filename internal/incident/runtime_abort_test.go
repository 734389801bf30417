package incident_test

import (
	"strings"
	"testing"
)

// A runtime's own abort banner before the frames of its platform is one
// incident, led by the banner: c10's abort handler before Windows
// "ADDR module.dll!symbol [file @ line]" frames, CPython's faulthandler's
// Windows fatal exception before its thread dump, a .NET unhandled
// exception before its "at" frames, Rust's fatal runtime error, and
// libstdc++'s what() line whose first line was lost.
func TestRuntimeAbortBannerLeadsItsFrames(t *testing.T) {
	m := crashMatcher(t)
	for _, tt := range []struct {
		name  string
		lines []string
		lead  string
	}{
		{"c10's abort handler, Windows frames", []string{
			"Loading Model: [2/2]\tBuilding TRT-LLM engine",
			"Unhandled exception caught in c10/util/AbortHandler.h",
			"00007FFE12AE1DE400007FFE12AC2070 torch_python.dll!THPGenerator_initDefaultGenerator [<unknown file> @ <unknown line number>]",
			"00007FFFBA3BEE1200007FFFBA3BEDF0 ucrtbase.dll!terminate [<unknown file> @ <unknown line number>]",
			"00007FFF923640D900007FFF92364030 VCRUNTIME140_1.dll!_CxxFrameHandler4 [<unknown file> @ <unknown line number>]",
		}, "AbortHandler"},
		{"faulthandler on Windows", []string{
			"Loading checkpoint shards: 100%",
			"Windows fatal exception: access violation",
			"",
			"Current thread 0x00002a1c (most recent call first):",
			`  File "C:\Python311\Lib\site-packages\torch\cuda\__init__.py", line 293 in _lazy_init`,
			`  File "C:\app\serve.py", line 12 in main`,
		}, "access violation"},
		{".NET's unhandled exception", []string{
			"Unhandled exception. System.InvalidOperationException: The model session could not be created",
			"   at Runner.Program.Main(String[] args) in C:\\src\\Program.cs:line 14",
		}, "InvalidOperationException"},
		{"Rust's fatal runtime error", []string{
			"Serving on 0.0.0.0:8080",
			"fatal runtime error: stack overflow",
		}, "stack overflow"},
		{"a lone what() line", []string{
			"  what():  CUDA error: an illegal memory access was encountered",
		}, "illegal memory access"},
	} {
		got := scanLines(t, m, tt.lines)
		if len(got) != 1 {
			t.Errorf("%s: %d incidents, want one:%s", tt.name, len(got), describe(got))
			continue
		}
		if lead := leadOf(got[0]) + " " + got[0].Headline; !strings.Contains(lead, tt.lead) {
			t.Errorf("%s: lead %q, want one naming %q", tt.name, lead, tt.lead)
		}
	}
}
