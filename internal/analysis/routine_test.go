package analysis_test

import (
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/matcher"
)

// A glog ERROR line no record names is routine only right after an INFO
// line of its own thread, and only as a single line.
func TestRoutineNativeErrorLine(t *testing.T) {
	m := defaultMatcher(t)
	info := "I0925 00:24:39.140945  4418 store_client.cpp:214] Connecting to the master\n"
	errLine := "E0925 00:24:39.141773  4418 store_client.cpp:353] Failed to get the storage directory from the master\n"
	for _, tt := range []struct {
		name, in string
		want     bool
	}{
		{"after its thread's INFO line", info + errLine, true},
		{"after another thread's INFO line", "I0925 00:24:39.140945  4419 store_client.cpp:214] Connecting\n" + errLine, false},
		{"after a WARNING line of its thread", "W0925 00:24:39.140945  4418 store_client.cpp:214] Slow\n" + errLine, false},
		{"first of the stream", errLine, false},
		{"after another failure", "E0925 00:24:39.140945  4418 store_client.cpp:214] Failed to connect\n" + errLine, false},
		{"a FATAL line", info + "F0925 00:24:39.141773  4418 store_client.cpp:353] Check failed: x\n", false},
	} {
		an := analysis.New(m)
		var st analysis.Stream
		var last analysis.Diagnosis
		n := 0
		for _, e := range entries(tt.in) {
			if d, ok := an.AnalyzeStream(&st, &e); ok {
				last, n = d, n+1
			}
		}
		if n == 0 || last.Routine != tt.want {
			t.Errorf("%s: %d failures, last routine %v, want %v", tt.name, n, last.Routine, tt.want)
		}
	}
}

// An exception whose message says its root cause is elsewhere is a
// consequence; one that merely mentions a cause is not.
func TestExceptionPointingToItsRootCauseIsAConsequence(t *testing.T) {
	m := defaultMatcher(t)
	for in, want := range map[string]bool{
		"mypkg.EngineGoneError: The engine stopped. See stack trace (above) for the root cause.\n": true,
		"RuntimeError: worker failed; the root cause is logged above\n":                            true,
		"RuntimeError: could not determine the root cause of the mismatch\n":                       false,
		"ValueError: bad value\n": false,
	} {
		an := analysis.New(m)
		for _, e := range entries(in) {
			d, ok := an.Analyze(&e)
			if !ok {
				t.Errorf("%q: no failure", in)
				continue
			}
			if got := d.Role == "consequence"; got != want {
				t.Errorf("%q: role %q, want consequence %v", in, d.Role, want)
			}
		}
	}
}

// An exception a caller raises to carry a failure from another process (a
// pool's RemoteTraceback, a class named after the exception it wraps) says
// where the failure surfaced, not what it was: a consequence, which the
// carried exception's own traceback beside it leads. So is a traceback cut
// after the frame that re-raised such a failure. The exception it wraps,
// one that only resembles it, or a traceback cut elsewhere, is not.
func TestRemoteWrapperIsAConsequence(t *testing.T) {
	m := defaultMatcher(t)
	frames := "Traceback (most recent call last):\n" +
		"  File \"/srv/app/driver.py\", line 41, in run\n" +
		"    out = handle.result()\n"
	for in, want := range map[string]bool{
		frames + "ray.exceptions.RayTaskError(IndexError): ray::Shard.load() (pid=311, ip=10.1.2.3)\n":                                            true,
		frames + "mylib.remote.WorkerError(ZeroDivisionError): job 7 on worker-2\n":                                                               true,
		frames + "multiprocessing.pool.RemoteTraceback: worker 3 raised\n":                                                                        true,
		frames + "concurrent.futures.process._RemoteTraceback: the process pool's worker raised\n":                                                true,
		frames + "pebble.common.RemoteTraceback: the task's process raised\n":                                                                     true,
		frames + "IndexError: list index out of range\n":                                                                                          false,
		frames + "ValueError: expected a shape (4, 8) for the tensor\n":                                                                           false,
		frames + "mylib.errors.RemoteTracebackMissing: the worker sent no traceback for task 7\n":                                                 false,
		frames + "  File \"/usr/lib/python3/site-packages/ray/_private/worker.py\", line 2623, in get\n    raise value.as_instanceof_cause()\n":   true,
		frames + "  File \"/usr/lib/python3/site-packages/actorlib/context.py\", line 111, in _result\n    raise message.as_instanceof_cause()\n": true,
		frames + "  File \"/srv/app/shards.py\", line 17, in load\n    meta = index[shard_id]\n":                                                  false,
	} {
		checkConsequence(t, m, in, want)
	}
}

// An exception whose message says only where a native library reported an
// error (its name, "error in:", a source file and line) is a consequence:
// the library's own lines beside it say what failed. One that goes on to
// say what is the failure itself.
func TestExceptionSayingOnlyWhereIsAConsequence(t *testing.T) {
	m := defaultMatcher(t)
	frames := "Traceback (most recent call last):\n" +
		"  File \"/srv/app/dist.py\", line 12, in sync\n" +
		"    group.barrier()\n"
	for in, want := range map[string]bool{
		frames + "RuntimeError: [ERROR] HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64\n":             true,
		frames + "RuntimeError: XCCL error in: csrc/xccl/process_group_xccl.cc:211\n":                                    true,
		frames + "mylib.CommError: MCCL error in: /src/comm/init.cpp:90\n":                                               true,
		frames + "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error\n": false,
		frames + "RuntimeError: parse error in: config.yaml:12 expected a mapping\n":                                     false,
		frames + "RuntimeError: [ERROR] HCCL error in the barrier of group 3\n":                                          false,
	} {
		checkConsequence(t, m, in, want)
	}
}

// checkConsequence analyses in and checks that it holds a failure, and
// that each of its failures is a consequence exactly when want is.
func checkConsequence(t *testing.T, m *matcher.Matcher, in string, want bool) {
	t.Helper()
	an := analysis.New(m)
	n := 0
	for _, e := range entries(in) {
		d, ok := an.Analyze(&e)
		if !ok {
			continue
		}
		n++
		if got := d.Role == "consequence"; got != want {
			t.Errorf("%q: role %q, want consequence %v", in, d.Role, want)
		}
	}
	if n == 0 {
		t.Errorf("%q: no failure", in)
	}
}

// TestROCmTraceLevels: the ROCm runtime's trace lines (AMD_LOG_LEVEL)
// carry their level in front: a warning, info or debug line of its
// start-up is no failure without a record reading it, whatever its file
// or message; an always-printed or error line is, and so are a memory
// fault and a HIP error, which have no level of their own.
func TestROCmTraceLevels(t *testing.T) {
	m := defaultMatcher(t)
	for text, alerts := range map[string]bool{
		":3:rocdevice.cpp            :480 : 277859969612 us: [pid:20423 tid: 0x7cd396980f80] Initalizing runtime stack, Enumerated GPU agents = 1":                 false,
		":3:comgrctx.cpp             :127 : 277859977901 us: [pid:20423 tid: 0x7cd396980f80] Loaded COMGR library version 3.0.":                                    false,
		":4:rocdevice.cpp            :2113: 277859979466 us: [pid:20423 tid: 0x7cd396980f80] Allocate hsa host memory 0x7cd294e00000, size 0x400000":               false,
		":4:rocvirtual.cpp           :1081: 277860010293 us: [pid:20423 tid: 0x7cd396980f80] Set Handler: handle(0x7cd2ac405e80), timestamp(0x1)":                  false,
		":2:rocdevice.cpp            :3102: 277860010477 us: [pid:20423 tid: 0x7cd396980f80] Ignoring an unsupported option":                                       false,
		":3:hip_platform.cpp         :225 : 277860010512 us: [pid:20423 tid: 0x7cd396980f80]  __hipPushCallConfiguration ( {1,1,1}, {256,1,1}, 0, stream:<null> )": false,
		":1:rocdevice.cpp            :2001: 277860010999 us: [pid:20423 tid: 0x7cd396980f80] Device lost: out of device memory":                                    true,
		":0:rocdevice.cpp            :3675: 2139490044663 us: Callback: Queue 0x7ee7b4200000 aborting with error : HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION":     true,
		"Memory access fault by GPU node-2 (Agent handle: 0x55d0c5a0e2c0) on address 0x7f2a1c000000. Reason: Page not present or supervisor privilege.":            true,
		"HIP error: invalid device function": true,
		// A trace line a record reads decides by the record.
		":3:hip_module.cpp           :84  : 2386447154 us: [pid:1234 tid: 0x7f00] hipModuleLoadData: Returned hipErrorNoBinaryForGpu : ": true,
		":3:hip_device_runtime.cpp   :609 : 2386447154 us: [pid:1234 tid: 0x7f00] hipGetDeviceCount: Returned hipSuccess : ":             false,
	} {
		ds, _ := analyzeAll(t, m, text+"\n")
		if got := len(ds) > 0; got != alerts {
			t.Errorf("%q: alerts %v, want %v (%+v)", text, got, alerts, ds)
		}
	}
}
