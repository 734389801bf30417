package incident_test

import "testing"

// A shared library the dynamic loader could not load makes every import
// of the extension that needs it fail, and the package's loader sums up
// that it gave up, each in a line a record reads. With no record for the
// loader's own error (left out of the catalog), its line still leads,
// printed before the summary (sgl_kernel's "CRITICAL: Could not load any
// common_ops library!" after a missing libnuma) or before the plain
// import failure of its list ("No module named 'common_ops'" after a
// missing libnvrtc, a build missing a torch symbol), and the record's
// line is listed in its incident. A library's line beside a failure that
// is no import (a CUDA out of memory) leads nothing; the import failure
// alone keeps its record's lead.
func TestAnUnreadLibraryLeadsTheImportFailureItExplains(t *testing.T) {
	m := matcherWithout(t, "shared-library-not-found", "cuda-shared-library-missing", "sgl-kernel-undefined-symbol", "torch-extension-undefined-symbol")
	for _, c := range []struct {
		lines  []string
		says   string
		record string
	}{
		{[]string{
			"ImportError: libnuma.so.1: cannot open shared object file",
			"[sgl_kernel] CRITICAL: Could not load any common_ops library!",
		}, "libnuma.so.1", "sgl-kernel-common-ops-load-failed"},
		{[]string{
			"- ImportError: libnvrtc.so.12: cannot open shared object file: No such file or directory",
			"- ModuleNotFoundError: No module named 'common_ops'",
		}, "libnvrtc.so.12", "python-module-not-found"},
		{[]string{
			"- ImportError: /usr/local/lib/python3.10/dist-packages/sgl_kernel/sm100/common_ops.abi3.so: undefined symbol: _ZNK3c106SymInt6sym_neERKS0_",
			"- ModuleNotFoundError: No module named 'common_ops'",
		}, "undefined symbol: _ZNK3c106SymInt6sym_neERKS0_", "python-module-not-found"},
	} {
		got := scanLines(t, m, c.lines)
		if len(got) != 1 || got[0].Record.ID != "" || !leadsWith(got[0], c.says) || len(got[0].Consequences) == 0 {
			t.Errorf("%s: want one incident led by the loader's error with the record listed, got %d:%s", c.says, len(got), describe(got))
		}
		if alone := scanLines(t, m, c.lines[1:]); len(alone) != 1 || alone[0].Record.Slug != c.record {
			t.Errorf("%q alone: want its record leading, got %d:%s", c.lines[1], len(alone), describe(alone))
		}
	}
	got := scanLines(t, m, []string{
		"ImportError: libnuma.so.1: cannot open shared object file",
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.06 GiB is free.",
	})
	if len(got) == 0 || got[0].Record.Slug != "cuda-out-of-memory" {
		t.Errorf("a library's line beside an out of memory: want the record leading, got %d:%s", len(got), describe(got))
	}
}
