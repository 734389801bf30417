package analysis

import "testing"

// MIOpen's logger lines at its Error level, with and without its backend
// (its Linux and Windows builds, from two users' reports), are a
// library's failures and name MIOpen as their writer; its Warning lines,
// and a word before a colon that is no library's name, are not.
func TestLibraryLoggerErrorLines(t *testing.T) {
	for _, c := range []struct {
		line string
		lib  string
	}{
		{"MIOpen(HIP): Error [SetIsaName] 'amd_comgr_action_info_set_isa_name(handle, isa.c_str())' amdgcn-amd-amdhsa--gfx900:sramecc-:xnack-: INVALID_ARGUMENT (2)", "MIOpen"},
		{"MIOpen(HIP): Error [BuildOcl] comgr status = INVALID_ARGUMENT (2)", "MIOpen"},
		{"MIOpen: Error [Compile] 'hiprtcCompileProgram(prog.get(), c_options.size(), c_options.data())' MIOpenBatchNormFwdTrainSpatial.cpp: HIPRTC_ERROR_COMPILATION (6)", "MIOpen"},
		{"MIOpen: Error [BuildHip] HIPRTC status = HIPRTC_ERROR_COMPILATION (6), source file: MIOpenBatchNormFwdTrainSpatial.cpp", "MIOpen"},
		{"MIOpen Error: /MIOpen/src/hipoc/hipoc_program.cpp:286: Code object build failed. Source: MIOpenIm2d2Col.cl", "MIOpen"},
		{"MIOpen(HIP): Warning [SQLiteBase] Unable to read system database file:/opt/rocm/miopen/share/miopen/db/gfx1030_30.kdb Performance may degrade. Please follow instructions to install: https://github.com/ROCmSoftwarePlatform/MIOpen#installing-miopen-kernels-package", ""},
		{"MIOpen(HIP): Warning [BuildOcl] amdgcn-amd-amdhsa--gfx900:sramecc-:xnack-", ""},
		{"MIOpen(HIP): Info [ForwardBackwardDataGetWorkSpaceSize]", ""},
		{"Note: Error [x] means the run stopped", ""},
		{"MIOpen(HIP): Error [] nothing", ""},
		{"MIOpen(HIP): Error [Set Isa] x", ""},
		{"MIOpen(HIP x): Error [SetIsaName] x", ""},
	} {
		if got := LibraryOf(c.line); got != c.lib {
			t.Errorf("%q: LibraryOf %q, want %q", c.line, got, c.lib)
		}
		if got, want := libraryErrorLine(c.line), c.lib != ""; got != want {
			t.Errorf("%q: libraryErrorLine %v, want %v", c.line, got, want)
		}
	}
}

// FuzzLibraryOf checks that LibraryOf never panics and names a library
// only for a line libraryError reads.
func FuzzLibraryOf(f *testing.F) {
	for _, s := range []string{"MIOpen(HIP): Error [SetIsaName] x (2)", "MIOpen: Error [Compile] 'x' y: Z (6)", "MIOpen Error: a.cpp:1: failed", "A(: Error [", "MIOpen(HIP): Warning [a] b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if LibraryOf(s) != "" && !libraryError(s) {
			t.Fatalf("LibraryOf(%q) names a library libraryError does not read", s)
		}
	})
}
