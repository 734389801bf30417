package analysis_test

import (
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/matcher"
)

// A CANN error block no record names is headed by what names its cause: a
// documented error code's own line (with its "Solution:" after it), or,
// under an internal x9999 code that says only "Inner Error!", the
// runtime's reason.
func TestCANNBlockHeadline(t *testing.T) {
	m, err := matcher.Compile(nil, matcher.Options{})
	if err != nil {
		t.Fatal(err)
	}
	head := "[ERROR] 2025-03-02-10:11:12 (PID:4100, Device:1, RankID:1) ERR01100 OPS call acl api failed\n"
	for _, tt := range []struct{ name, in, want string }{
		{"a documented code",
			head + "EL0004: 2025-03-02-10:11:12.345.678 Failed to allocate memory. Possible Cause: Available memory is insufficient.\n" +
				"        Solution: Close applications not in use.\n" +
				"        TraceBack (most recent call last):\n" +
				"        rtMalloc execute failed, reason=[driver error:out of memory][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n",
			"EL0004: 2025-03-02-10:11:12.345.678 Failed to allocate memory. Possible Cause: Available memory is insufficient."},
		{"an internal code",
			head + "EZ9999: Inner Error!\n" +
				"        TraceBack (most recent call last):\n" +
				"        rtKernelLaunch execute failed, reason=[vector core exception][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n",
			"rtKernelLaunch execute failed, reason=[vector core exception][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]"},
		{"an internal code with a message",
			head + "EE9999: 2025-03-02-10:11:12.345.678 get error: phyid:0 is err:0x7010003[FUNC:GetDeviceIndexByPhyId][FILE:api_error.cc][LINE:1918]\n" +
				"        rtGetDeviceIndexByPhyId execute failed, reason=[device id error][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n",
			"rtGetDeviceIndexByPhyId execute failed, reason=[device id error][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]"},
		{"an internal code then the code's detail line",
			"EH9999: Inner Error!\n" +
				"EH9999  [Init][Env]init env failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n" +
				"        TraceBack (most recent call last):\n" +
				"        build op model failed, result = 500001[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n",
			"EH9999  [Init][Env]init env failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]"},
		{"an internal code then a detail cut by the terminal, rejoined",
			"EZ9999: Inner Error!\n" +
				"EZ9999  [Init][Env]init env failed![FUNC:ReportInnerError][FILE:log_inner.cpp][L\n" +
				"INE:145]\n",
			"EZ9999  [Init][Env]init env failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]"},
	} {
		an := analysis.New(m)
		var got []string
		for _, e := range entries(tt.in) {
			if d, ok := an.Analyze(&e); ok {
				got = append(got, d.Headline)
			}
		}
		if len(got) != 1 || got[0] != tt.want {
			t.Errorf("%s: headlines %q, want [%q]", tt.name, got, tt.want)
		}
	}
}
