package scan_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/redact"
)

// TestCANNBlockIsOneIncident: an Ascend failure prints one block of
// several lines (CANN's error codes and their texts, the runtime's
// "TraceBack" lines, "[ERROR]" lines, then Python's traceback ending in
// torch_npu's RuntimeError) and it is one incident, whatever the module
// and version that printed it and however many ranks printed it. It is led
// by the documented code's record; under an internal x9999 code that says
// only "Inner Error!", by the detail line that names the cause.
func TestCANNBlockIsOneIncident(t *testing.T) {
	m := corpusMatcher(t)
	red, err := redact.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	const pyTail = "Traceback (most recent call last):\n" +
		`  File "/usr/local/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3439, in barrier` + "\n" +
		"    work = default_pg.barrier(opts=opts)\n"
	hccp := func(pfx string) string {
		return pfx + "[ERROR] 2025-06-11-08:01:02 (PID:4200, Device:0, RankID:0) ERR02200 DIST call hccl api failed.\n" +
			pfx + "EJ0001: 2025-06-11-08:01:02.111.222 Failed to initialize the HCCP process. Reason: Maybe the last training process is running.\n" +
			pfx + "        Solution: Wait for 10s after killing the last training process and try again.\n" +
			pfx + "        TraceBack (most recent call last):\n" +
			pfx + "        tsd client wait response fail, device response code[1]. unknown device error.[FUNC:WaitRsp][FILE:process_mode_manager.cpp][LINE:290]\n" +
			pfx + "        rtGetDevMsg execute failed, reason=[driver error:internal error][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n"
	}
	for _, tt := range []struct {
		name, log string
		slug      string // the lead's record; "" for any
		headline  string // what the lead's headline holds
	}{
		{"an inner error then its detail",
			"EZ9999: Inner Error!\n" +
				"EZ9999  [Init][Env]init env failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n" +
				"        TraceBack (most recent call last):\n" +
				"        build op model failed, result = 500001[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n",
			"", "init env failed"},
		{"an inner error with a time then its detail",
			"E19999: 2025-06-11-08:01:02.333.444 Inner Error!\n" +
				"E19999  [Init][Env]init env failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n" +
				"        TraceBack (most recent call last):\n" +
				"        build op model failed, result = 500001[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n",
			"", "init env failed"},
		{"a documented code then the Python RuntimeError",
			pyTail + "RuntimeError: [ERROR] HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64\n" + hccp(""),
			"hccp-init-failed", "EJ0001"},
		{"an HCCL block then the torch_npu consequence",
			hccp("") + pyTail + "RuntimeError: [ERROR] HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64\n",
			"hccp-init-failed", "EJ0001"},
		{"the same block printed by two ranks",
			hccp("[rank0]: ") + hccp("[rank1]: "),
			"hccp-init-failed", "EJ0001"},
		// torch_npu's record for the failed call is the earlier cause,
		// but the code says why the call failed: the code's record leads.
		{"a documented code under torch_npu's HCCL function error",
			"RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 4\n" +
				"[ERROR] 2025-06-11-08:01:02 (PID:4200, Device:1, RankID:1) ERR02200 DIST call hccl api failed.\n" +
				"EJ0001: 2025-06-11-08:01:02.111.222 Failed to initialize the HCCP process. Reason: Maybe the last training process is running.\n" +
				"        Solution: Wait for 10s after killing the last training process and try again.\n",
			"hccp-init-failed", "EJ0001"},
		{"a documented code under torch_npu's RuntimeError, from two ranks",
			"[rank0]: RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 4\n" +
				hccp("[rank0]: ") +
				"[rank1]: RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 4\n" +
				hccp("[rank1]: "),
			"hccp-init-failed", "EJ0001"},
		{"an inner error from two ranks",
			"[rank0]: EZ9999: Inner Error!\n" +
				"[rank0]: EZ9999  [Init][Env]init env failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n" +
				"[rank1]: EZ9999: Inner Error!\n" +
				"[rank1]: EZ9999  [Init][Env]init env failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n",
			"", "init env failed"},
		{"an inner error then torch_npu's RuntimeError",
			"EZ9999: Inner Error!\n" +
				"EZ9999  [Init][Env]init env failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n" +
				"        TraceBack (most recent call last):\n" +
				"        build op model failed, result = 500001[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n" +
				pyTail + "RuntimeError: ACL stream synchronize failed, error code:507053\n",
			"", "init env failed"},
		// torch_npu's RuntimeError names the fault by its code (507035,
		// a vector core exception), so its record leads the block.
		{"torch_npu's RuntimeError then an inner error with its reason",
			pyTail + "RuntimeError: ACL stream synchronize failed, error code:507035\n" +
				"[ERROR] 2025-06-11-08:01:02 (PID:4200, Device:0, RankID:-1) ERR00100 PTA call acl api failed\n" +
				"EE9999: Inner Error!\n" +
				"EE9999: 2025-06-11-08:01:02.333.444 wait for compute device to finish failed, runtime result = 507035.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]\n" +
				"        TraceBack (most recent call last):\n" +
				"        rtStreamSynchronize execute failed, reason=[vector core exception][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n",
			"npu-aicore-exception", "error code:507035"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := scanText(t, m, red, "npu.log", tt.log)
			if len(res.Alerts) != 1 {
				t.Fatalf("%d incidents, want 1: %q", len(res.Alerts), headlines(res))
			}
			l := lead(res.Alerts)
			if tt.slug != "" && l.Record.Slug != tt.slug {
				t.Errorf("lead %q (%q), want %s", l.Record.Slug, headline(l), tt.slug)
			}
			if tt.slug == "" {
				// Under an inner error no record reads the detail: it
				// leads unclassified, the inner error's record its
				// context.
				inner := false
				for _, c := range l.Context {
					inner = inner || c.Slug == "ascend-cann-inner-error"
				}
				if l.Record.ID != "" || !inner {
					t.Errorf("lead %q with context %v, want the detail unclassified under ascend-cann-inner-error", l.Record.Slug, l.Context)
				}
			}
			if h := l.Headline; !strings.Contains(h, tt.headline) {
				t.Errorf("lead headline %q, want it to hold %q", h, tt.headline)
			}
		})
	}
}
