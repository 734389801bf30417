package analysis

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// TestCrashBanner reads the announcement of a fatal signal as crash
// handlers of several programs print it, and leaves alone the routine
// lines that name a signal: handlers installed, a termination asked for,
// prose about a crash.
func TestCrashBanner(t *testing.T) {
	for l, want := range map[string]bool{
		"[host-1:12796:1:13303] Caught signal 11 (Segmentation fault: invalid permissions for mapped object at address 0x7f)": true,
		"*** SIGSEGV (@0x0) received by PID 1234 (TID 0x7f00) from PID 0; stack trace: ***":                                   true,
		"*** Aborted at 1700000000 (unix time) try \"date -d @1700000000\" if you are using GNU date ***":                     true,
		"[node1:01234] Signal: Segmentation fault (11)":                                                                       true,
		"# SIGSEGV (0xb) at pc=0x00007f3a2b, pid=1234, tid=5678":                                                              true,
		"SIGSEGV: segmentation violation":                                                                                     true,
		"SIGBUS: bus error":                                                                                                   true,
		"!!!!!!! Segfault encountered !!!!!!!":                                                                                true,
		"Caught SIGSEGV (Segmentation Fault)":                                                                                 true,
		"CRASH: Caught 11 (Segmentation fault)":                                                                               true,
		"Received signal 6, aborting":                                                                                         true,
		"Program received signal SIGSEGV, Segmentation fault.":                                                                true,
		`Thread 22 "lmp" received signal SIGSEGV, Segmentation fault.`:                                                        true,
		`Thread 12 "pt_main_thread" received signal SIGABRT, Aborted.`:                                                        true,
		`Thread 3 "python" received signal SIGINT, Interrupt.`:                                                                false,
		"Thread 3 (Thread 0x7f2bab462700 (LWP 2488)):":                                                                        false,
		" 12%|####   | 59/473 [00:19<00:10, 39.09it/s]Segmentation fault (core dumped)":                                       true,
		"100%|##########| 8/8 [00:01<00:00]Aborted (core dumped)":                                                             true,
		"Bus error (core dumped)":                                                                                             true,
		// The HIP runtime's fault into a tqdm bar: ROCm/legacy-rocm-build#4021
		// (inside the bar, its tail after the report), ComfyUI threads (after
		// the bar's rate).
		" 33%|███████████████████Memory access fault by GPU node-3 (Agent handle: 0x5a5c587a51c0) on address 0x709843600000. Reason: Write access to a read-only page.:54:01, 26.24s/it]":          true,
		" 41%|████▏     | 12/29 [00:05<00:07,  2.25it/s]Memory access fault by GPU node-1 (Agent handle: 0x3158d740) on address 0x731276071000. Reason: Page not present or supervisor privilege.": true,
		"  0%|          | 0/6 [00:00<?, ?it/s]Memory access fault by GPU node-1 (Agent handle: 0x452c6810) on address 0x7c8d48246000. Reason: Page not present or supervisor privilege.":           true,
		" 41%|████▏     | 12/29 [00:05<00:07,  2.25it/s]":                                                                                           false,
		" 41%|████▏     | 12/29 [00:05<00:07,  2.25it/s] checking Memory access patterns":                                                           false,
		"Unhandled exception caught in c10/util/AbortHandler.h":                                                                                     true,
		"Unhandled exception. System.InvalidOperationException: Sequence contains no elements":                                                      true,
		"Unhandled Exception: System.IO.FileNotFoundException: Could not find file 'model.onnx'.":                                                   true,
		"Unhandled exception at 0x00007FFB1C2D3E4F (nvcuda64.dll) in python.exe: 0xC0000005: Access violation reading location 0x0000000000000000.": true,
		"fatal runtime error: stack overflow":                                                                                                       true,
		"fatal runtime error: Rust cannot catch foreign exceptions":                                                                                 true,
		"PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/ and include the crash backtrace.":                               true,

		"Caught signal 15 (Terminated), shutting down":          false,
		"Received signal SIGTERM, exiting gracefully":           false,
		"Received SIGINT, stopping workers":                     false,
		"Caught signal 110 in test":                             false,
		"Installed SIGSEGV handler for stack dumps":             false,
		"[faulthandler] registered SIGSEGV, SIGABRT":            false,
		"*** SIGTERM received by PID 12 ***":                    false,
		"*** SIGSEGV handler installed ***":                     false,
		"Signal: Terminated (15)":                               false,
		"SIGSEGV handler installed":                             false,
		"SIGSEGVS: x":                                           false,
		"# SIGSEGV is handled by the runtime":                   false,
		"the job died with Segmentation fault (core dumped)":    false,
		"Segfault handler enabled":                              false,
		"Got 11 requests":                                       false,
		"Received 4 (four) replies":                             false,
		"[a b] Caught signal 11":                                false,
		"Unhandled exception in request handler, returning 500": false,
		"Unhandled exceptions are logged to stderr":             false,
		"Unhandled exception. Retrying the request":             false,
		"Unhandled exception caught in ":                        false,
		"fatal runtime error: ":                                 false,
		"what():  ":                                             false,
		"what(): returns the message":                           false,
		"  what():  hipMemcpyToSymbol( HIP_SYMBOL(::Kokkos::Impl::g_device_hip_lock_arrays), ": false,
		"Fatal runtime errors are reported below":                                              false,
		"PLEASE submit a bug report to the maintainers":                                        false,
		"Please submit a bug report to https://x and include the crash backtrace":              false,
		"": false,
	} {
		if got := crashBanner(l); got != want {
			t.Errorf("crashBanner(%q) = %v, want %v", l, got, want)
		}
		if crashBanner(l) && !crashBannerStart(l) {
			t.Errorf("crashBannerStart(%q) = false for a banner", l)
		}
	}
}

// TestWindowsAbortHandlerCrash reads c10's abort handler's banner before
// the Windows frames its backtrace prints ("ADDR module.dll!symbol [file
// @ line]") as a native crash, and leaves the frames alone.
func TestWindowsAbortHandlerCrash(t *testing.T) {
	if !crashBanner("Unhandled exception caught in c10/util/AbortHandler.h") {
		t.Error("c10's abort handler banner is not a crash banner")
	}
	for _, frame := range []string{
		"00007FFE12AE1DE400007FFE12AC2070 torch_python.dll!THPGenerator_initDefaultGenerator [<unknown file> @ <unknown line number>]",
		"00007FFF923640D900007FFF92364030 VCRUNTIME140_1.dll!_CxxFrameHandler4 [<unknown file> @ <unknown line number>]",
	} {
		if crashBanner(frame) {
			t.Errorf("crashBanner(%q) = true for a frame", frame)
		}
	}
}

// FuzzCrashBanner checks that crashBanner never panics and that its byte
// test (crashBannerStart) never turns away a banner.
func FuzzCrashBanner(f *testing.F) {
	for _, s := range []string{"Caught signal 11 (Segmentation fault)", "*** SIGSEGV (@0x0) received by PID 1 ***", "Unhandled exception caught in c10/util/AbortHandler.h",
		"Unhandled exception. System.Exception: x", "fatal runtime error: x", "PLEASE submit a bug report to x and include the crash backtrace.", "Segmentation fault (core dumped)", "[a] "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if crashBanner(l) && l != "" && l == strings.TrimLeft(l, " \t\r\n\v\f") && !crashBannerStart(l) {
			t.Fatalf("crashBannerStart(%q) = false for a banner", l)
		}
	})
}

// TestContinuedCrash alerts a native crash that a routine record's
// continuation holds (UCX's caught signal under an access line, ggml's
// assertion as a DEBUG record's message on its own line, glog's banner
// under an INFO record), as a critical native failure headed by that
// line, and leaves silent routine records whose continuation lines only
// mention signals.
func TestContinuedCrash(t *testing.T) {
	m, _ := matcher.Compile(nil, matcher.Options{})
	for _, c := range []struct{ text, want string }{
		{"[2025-05-28 09:43:43] 127.0.0.1 [28/May/2025:09:43:43 +0000] \"GET /route?engine_rank=0 HTTP/1.1\" 200 262 \"-\" \"python-requests/2.32.3\"\n" +
			"[ubuntu-GPU-L40S-4802111:12796:1:13303] Caught signal 11 (Segmentation fault: invalid permissions for mapped object at address 0x7fbd60001400)\n",
			"[ubuntu-GPU-L40S-4802111:12796:1:13303] Caught signal 11 (Segmentation fault: invalid permissions for mapped object at address 0x7fbd60001400)"},
		{"2026-04-15 03:14:05 [DEBUG]\n llama.cpp abort:1966: GGML_ASSERT(!src0 || get_misalign_bytes(ctx, src0) == 0) failed\n",
			"llama.cpp abort:1966: GGML_ASSERT(!src0 || get_misalign_bytes(ctx, src0) == 0) failed"},
		{"[2026-01-02 10:00:00] Load weight end.\n*** SIGSEGV (@0x0) received by PID 1234 (TID 0x7f00) from PID 0; stack trace: ***\n",
			"*** SIGSEGV (@0x0) received by PID 1234 (TID 0x7f00) from PID 0; stack trace: ***"},
		{"[2026-01-02 10:00:00] Server args: handle_signals=True\n  graceful shutdown on SIGTERM, received signal handlers installed\n", ""},
	} {
		var got []Diagnosis
		an := New(m)
		for _, e := range assembleAll(c.text) {
			if d, ok := an.Analyze(&e); ok {
				got = append(got, d)
			}
		}
		switch {
		case c.want == "" && len(got) > 0:
			t.Errorf("%q: %d failures, first %q", c.text, len(got), got[0].Headline)
		case c.want != "" && (len(got) != 1 || got[0].Headline != c.want || got[0].Severity != patterns.SeverityCritical):
			t.Errorf("%q: got %d failures %+v, want one critical headed %q", c.text, len(got), got, c.want)
		}
	}
}
