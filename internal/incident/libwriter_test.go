package incident_test

import "testing"

// A native library's logger reports one failure in several lines: MIOpen
// prints the call that failed ("MIOpen(HIP): Error [SetIsaName] ..."),
// then each caller's status after it ("Error [BuildOcl] comgr status =
// ...") and its own summary ("MIOpen Error: ...: Code object build
// failed"). One library's error lines of a burst are one event led by
// the first; its warnings stay silent, and a compiler's diagnostic the
// library's compile step printed still leads the library's status lines.
func TestOneLibrarysLoggerLinesAreOneEvent(t *testing.T) {
	m := matcherWithout(t)
	isa := []string{
		"Benchmarking Training float precision type mnasnet0_5 ",
		"MIOpen(HIP): Warning [SQLiteBase] Unable to read system database file:/opt/rocm/miopen/share/miopen/db/gfx900_64.kdb Performance may degrade",
		"MIOpen(HIP): Error [SetIsaName] 'amd_comgr_action_info_set_isa_name(handle, isa.c_str())' amdgcn-amd-amdhsa--gfx900:sramecc-:xnack-: INVALID_ARGUMENT (2)",
		"MIOpen(HIP): Error [BuildOcl] comgr status = INVALID_ARGUMENT (2)",
		"MIOpen(HIP): Warning [BuildOcl] amdgcn-amd-amdhsa--gfx900:sramecc-:xnack-",
		"MIOpen Error: /MIOpen/src/hipoc/hipoc_program.cpp:286: Code object build failed. Source: MIOpenIm2d2Col.cl",
	}
	if got := scanLines(t, m, isa); len(got) != 1 || !leadsWith(got[0], "Error [SetIsaName]") {
		t.Errorf("MIOpen's lines: want one incident led by SetIsaName, got %d:%s", len(got), describe(got))
	}
	hiprtc := []string{
		"MIOpen: Error [Compile] 'hiprtcCompileProgram(prog.get(), c_options.size(), c_options.data())' MIOpenBatchNormFwdTrainSpatial.cpp: HIPRTC_ERROR_COMPILATION (6)",
		"MIOpen: Error [BuildHip] HIPRTC status = HIPRTC_ERROR_COMPILATION (6), source file: MIOpenBatchNormFwdTrainSpatial.cpp",
		`MIOpen: Warning [BuildHip] In file included from C:\Users\me\AppData\Local\Temp\comgr-9004-512-cc9f7f\input\MIOpenBatchNormFwdTrainSpatial.cpp:8:`,
		`C:\Users\me\AppData\Local\Temp\comgr-9004-512-cc9f7f\include\miopen_type_traits.hpp:151:10: fatal error: 'type_traits' file not found`,
		"  151 | #include <type_traits>",
		"      |          ^~~~~~~~~~~~~",
		"1 error generated when compiling for gfx1151.",
	}
	if got := scanLines(t, m, hiprtc); len(got) != 1 || !leadsWith(got[0], "fatal error: 'type_traits' file not found") {
		t.Errorf("MIOpen's compile: want one incident led by the compiler's error, got %d:%s", len(got), describe(got))
	}
	if got := scanLines(t, m, isa[1:2]); len(got) != 0 {
		t.Errorf("MIOpen's warning alone: want silence, got %d:%s", len(got), describe(got))
	}
}
