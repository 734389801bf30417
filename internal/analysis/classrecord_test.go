package analysis_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// An exception of a library's own class that only one record names is led
// by that record, whatever its message; built-in classes, classes several
// records share and wrappers of those stay unclassified.
func TestExceptionClassNamesItsOneRecord(t *testing.T) {
	m := defaultMatcher(t)
	tests := []struct{ in, slug string }{
		{tbHead + frame("/w/ray/_private/worker.py", "get", "raise value.as_instanceof_cause()") +
			"ray.exceptions.RayTaskError(OutOfMemoryError): ray::main_task() (pid=5102, ip=10.0.0.3)\n", "cuda-out-of-memory"},
		{tbHead + frame("/w/trainer.py", "step", "loss.backward()") + "torch.OutOfMemoryError: Allocation on device 0 would exceed allowed memory\n", "cuda-out-of-memory"},
		{"huggingface_hub.errors.GatedRepoError: 403 Forbidden: Please enable access to public gated repositories in your fine-grained token settings.\n", "hf-gated-repo"},
		// Near misses.
		{"RuntimeError: the worker stopped\n", ""},
		{"MemoryError: cannot allocate the buffer\n", ""},
		{tbHead + frame("/w/ray/_private/worker.py", "get", "raise value.as_instanceof_cause()") +
			"ray.exceptions.RayTaskError(KeyError): ray::f() (pid=1, ip=10.0.0.1)\n", ""},
		{"torch.distributed.DistNetworkError: the store went away\n", ""},
		{"mylib.DeviceOutOfMemoryError: pool exhausted\n", ""},
	}
	for _, tt := range tests {
		ds, _ := analyzeAll(t, m, tt.in)
		if len(ds) != 1 {
			t.Errorf("%q: %d failures, want 1", tt.in, len(ds))
			continue
		}
		if ds[0].slug != tt.slug {
			t.Errorf("%q: led by %q, want %q", tt.in, ds[0].slug, tt.slug)
		}
	}
}

// A traceback cut right after a raise statement says what was raised:
// the class in the statement leads with its one record, with or without
// the traceback's header; a cut at another line, a re-raise, or a class
// no single record names stays what it was.
func TestACutAtARaiseNamesTheRaisedClass(t *testing.T) {
	m := defaultMatcher(t)
	triton := frame("/usr/lib/python3/dist-packages/triton/runtime/jit.py", "run", "kernel.run(grid_0, grid_1, grid_2, stream)") +
		frame("/usr/lib/python3/dist-packages/triton/compiler/compiler.py", "__getattribute__", "self._init_handles()")
	tests := []struct {
		name string
		in   string
		n    int
		slug string
	}{
		{"headless, in triton's compiler", frame("/w/sglang/srt/layers/moe/fused_moe.py", "invoke_kernel", "kernel[grid](a, b)") + triton +
			frame("/usr/lib/python3/dist-packages/triton/compiler/compiler.py", "_init_handles", `raise OutOfResources(self.metadata.shared, max_shared, "shared memory")`), 1, "triton-out-of-resources"},
		{"with its header, a dotted class", tbHead + triton +
			frame("/usr/lib/python3/dist-packages/triton/compiler/compiler.py", "_init_handles", `raise triton.runtime.errors.OutOfResources(n, limit, "shared memory")`), 1, "triton-out-of-resources"},
		{"behind a Ray prefix", "(SGLangEngine pid=17) " + strings.ReplaceAll(strings.TrimSuffix(tbHead+
			frame("/w/huggingface_hub/utils/_http.py", "hf_raise_for_status", "raise _format(GatedRepoError, message, response) from e")+
			frame("/w/huggingface_hub/utils/_http.py", "_format", "raise GatedRepoError(message, response=response)"), "\n"), "\n", "\n(SGLangEngine pid=17) ") + "\n", 1, "hf-gated-repo"},
		// Near misses.
		{"headless, a built-in class", triton + frame("/w/x.py", "f", `raise RuntimeError("stop")`), 1, ""},
		// Frames alone with their source lines are still a failure
		// (framesAlone), unclassified.
		{"headless, cut at a call", triton + frame("/w/x.py", "f", "compile_kernel(src)"), 1, ""},
		{"headless, a bare re-raise", triton + frame("/w/x.py", "f", "raise"), 1, ""},
		{"with its header, cut at a call", tbHead + triton, 1, ""},
		{"a raise in a message, not a frame", "INFO the handler will raise OutOfResources(...) when the pool is full\n", 0, ""},
	}
	for _, tt := range tests {
		ds, _ := analyzeAll(t, m, tt.in)
		if len(ds) != tt.n {
			t.Errorf("%s: %d failures, want %d", tt.name, len(ds), tt.n)
			continue
		}
		if tt.n > 0 && ds[0].slug != tt.slug {
			t.Errorf("%s: led by %q, want %q", tt.name, ds[0].slug, tt.slug)
		}
	}
}

// A library's base class, named after its package, names no failure of
// its own, even when one record's errorClass is it: every failure of the
// library raises it. A class of the library's that names one failure
// still leads with its record.
func TestALibrarysBaseClassNamesNoRecord(t *testing.T) {
	rec := func(slug, pat, class string) patterns.Record {
		return patterns.Record{ID: slug, Slug: slug, MessagePattern: pat, ErrorClass: class,
			Severity: patterns.SeverityError, Solutions: []string{"fix " + slug}}
	}
	m, _ := matcher.Compile([]patterns.Record{
		rec("vocab-download", `error downloading vocab file`, "TokParseError"),
		rec("vocab-missing", `vocab file \S+ not found`, "tok_parse.errors.VocabMissingError"),
		rec("queue-gone", `queue \S+ was deleted`, "msgq.error.MsgQError"),
	}, matcher.Options{})
	for _, tt := range []struct{ in, slug string }{
		{"tok_parse.TokParseError: unexpected tokens remaining in message header\n", ""},
		{"tok_parse.TokParseError: error downloading vocab file o200k\n", "vocab-download"},
		{"msgq.error.MsgQError: Resource temporarily unavailable\n", ""},
		{"tok_parse.errors.VocabMissingError: o200k\n", "vocab-missing"},
		{"tok_parse.errors.VocabMissingError\n", "vocab-missing"},
	} {
		ds, _ := analyzeAll(t, m, tt.in)
		if len(ds) != 1 || ds[0].slug != tt.slug {
			t.Errorf("%q: %+v, want one led by %q", tt.in, ds, tt.slug)
		}
	}
}
