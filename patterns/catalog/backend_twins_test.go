package catalog_test

import (
	"fmt"
	"testing"
)

// torch's c10d process groups print one set of messages per communication
// backend, with the backend's name spliced in: ProcessGroupNCCL (also under
// ROCm, where RCCL answers to the NCCL name), torch_npu's ProcessGroupHCCL
// on Ascend, torch_musa's ProcessGroupMCCL, torch_mlu's ProcessGroupCNCL,
// Intel's ProcessGroupXCCL, and gloo on the CPU. A family is one event of
// that watchdog machinery (a collective timed out, the watchdog thread died,
// the process is taken down, the heartbeat monitor found the watchdog
// stuck, a rank cannot fetch the communicator's unique id, a dump signal);
// each is composed in every backend's wording, the way that backend's
// sources log it, and names the record that must lead. Where the advice is
// the same the twins share a record; where it differs (an HCCL collective
// timeout is chased through the CANN plog and HCCL's own variables; the
// MCCL and CNCL ones through their vendors' tools) the twin has its own.

// c10dLine writes msg the way a c10d backend logs an error with glog: the
// rank prefix torch adds, then the glog header with the backend's source
// file (torch_npu's builds name compiler_depend.ts).
func c10dLine(file, msg string) string {
	return "[rank1]:[E324 13:00:25.428029551 " + file + "] " + msg
}

// c10dTwin is one family in one backend's wording.
type c10dTwin struct {
	backend string
	text    string
	want    string // "" when no failure record may lead (a routine line)
}

// c10dBackendFile is the source file each backend's glog lines name.
var c10dBackendFile = map[string]string{
	"NCCL": "ProcessGroupNCCL.cpp:632",
	"RCCL": "ProcessGroupNCCL.cpp:632",
	"HCCL": "compiler_depend.ts:574",
	"MCCL": "ProcessGroupMCCL.cpp:1043",
	"CNCL": "ProcessGroupCNCL.cpp:688",
	"XCCL": "ProcessGroupXCCL.cpp:433",
}

// c10dFamilies composes each family in each backend's wording. The name
// the backend splices in is %[1]s (NCCL, HCCL, ...), the device its kernels
// run on %[2]s (CUDA, ASCEND, MUSA, MLU).
func c10dFamilies() map[string][]c10dTwin {
	work := func(backend string) string {
		name := backend
		if backend == "RCCL" {
			name = "NCCL"
		}
		return fmt.Sprintf("[Rank 1] Watchdog caught collective operation timeout: Work%s(SeqNum=196, OpType=ALLREDUCE, NumelIn=4096, NumelOut=4096, Timeout(ms)=600000) ran for 600185 milliseconds before timing out.", name)
	}
	return map[string][]c10dTwin{
		"a collective timed out in the watchdog": {
			{"NCCL", c10dLine(c10dBackendFile["NCCL"], work("NCCL")), "nccl-watchdog-collective-timeout"},
			{"RCCL", c10dLine(c10dBackendFile["RCCL"], work("RCCL")), "nccl-watchdog-collective-timeout"},
			{"HCCL", c10dLine(c10dBackendFile["HCCL"], work("HCCL")), "hccl-watchdog-collective-timeout"},
			// The Ascend timeout in the process's what() line, behind the
			// watchdog thread's own wrapper.
			{"HCCL", "terminate called after throwing an instance of 'std::runtime_error'\n  what():  [Rank 1] HCCL watchdog thread terminated with exception: " + work("HCCL"), "hccl-watchdog-collective-timeout"},
			{"HCCL", "[PG ID 0 PG GUID 0(default_pg) Rank 3] Watchdog caught collective operation timeout: WorkHCCL(OpType=BROADCAST, Timeout(ms)=1800000) ran for 1800439 milliseconds before timing out.", "hccl-watchdog-collective-timeout"},
			// A paste or terminal that wraps the line just after the work's name.
			{"HCCL", c10dLine(c10dBackendFile["HCCL"], "[Rank 1] Watchdog caught collective operation timeout: WorkHCCL\n(SeqNum=196, OpType=ALLREDUCE, Timeout(ms)=3600000) ran for 3600185 milliseconds before timing out."), "hccl-watchdog-collective-timeout"},
			{"NCCL", c10dLine(c10dBackendFile["NCCL"], "[Rank 1] Watchdog caught collective operation timeout: WorkNCCL\n(SeqNum=4565, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600021 milliseconds before timing out."), "nccl-watchdog-collective-timeout"},
			{"MCCL", c10dLine(c10dBackendFile["MCCL"], work("MCCL")), "vendor-ccl-watchdog-collective-timeout"},
			{"CNCL", c10dLine(c10dBackendFile["CNCL"], work("CNCL")), "vendor-ccl-watchdog-collective-timeout"},
			// gloo has no watchdog: its transport times out the pair.
			{"Gloo", tb("RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 1800000ms for recv operation to complete"), "gloo-transport-timeout"},
		},
		"the watchdog thread died": {
			{"NCCL", c10dLine(c10dBackendFile["NCCL"], "[Rank 1] NCCL watchdog thread terminated with exception: unknown"), "c10d-watchdog-thread-terminated"},
			{"HCCL", c10dLine(c10dBackendFile["HCCL"], "[Rank 1] HCCL watchdog thread terminated with exception: unknown"), "c10d-watchdog-thread-terminated"},
			{"MCCL", c10dLine(c10dBackendFile["MCCL"], "[Rank 1] MCCL watchdog thread terminated with exception: unknown"), "c10d-watchdog-thread-terminated"},
			{"CNCL", c10dLine(c10dBackendFile["CNCL"], "[Rank 1] CNCL watchdog thread terminated with exception: unknown"), "c10d-watchdog-thread-terminated"},
		},
		"the process is taken down": {
			{"NCCL", c10dLine(c10dBackendFile["NCCL"], "[Rank 1] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data."), "c10d-nccl-work-failed-process-down"},
			{"HCCL", c10dLine(c10dBackendFile["HCCL"], "Some HCCL operations have failed or timed out. Due to the asynchronous nature of ASCEND kernels, subsequent NPU operations might run on corrupted/incomplete data."), "c10d-nccl-work-failed-process-down"},
			{"MCCL", c10dLine(c10dBackendFile["MCCL"], "[PG ID 0 PG GUID 0 Rank 1] Some MCCL operations have failed or timed out. Due to the asynchronous nature of MUSA kernels, subsequent GPU operations might run on corrupted/incomplete data."), "c10d-nccl-work-failed-process-down"},
			{"CNCL", c10dLine(c10dBackendFile["CNCL"], "[Rank 1] Some CNCL operations have failed or timed out. Due to the asynchronous nature of MLU kernels, subsequent MLU operations might run on corrupted/incomplete data."), "c10d-nccl-work-failed-process-down"},
			{"HCCL", c10dLine(c10dBackendFile["HCCL"], "To avoid data inconsistency, we are taking the entire process down."), "c10d-nccl-work-failed-process-down"},
		},
		"the heartbeat monitor found the watchdog stuck": {
			{"NCCL", c10dLine(c10dBackendFile["NCCL"], "[PG ID 0 PG GUID 0 Rank 1] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives."), "c10d-heartbeat-monitor-timeout"},
			{"HCCL", c10dLine(c10dBackendFile["HCCL"], "ProcessGroupHCCL's watchdog got stuck for 600 seconds without making progress in monitoring enqueued collectives. This typically indicates a HCCL/CUDA API hang blocking the watchdog."), "c10d-heartbeat-monitor-timeout"},
			{"MCCL", "heartbeatMonitorProcessGroupMCCL's watchdog got stuck for 600 seconds without making progress in monitoring enqueued collectives.", "c10d-heartbeat-monitor-timeout"},
			{"CNCL", c10dLine(c10dBackendFile["CNCL"], "[Rank 1] Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=1"), "c10d-heartbeat-monitor-timeout"},
		},
		"a rank cannot fetch the communicator's unique id": {
			{"NCCL", "torch.distributed.DistBackendError: [3] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Socket Timeout", "c10d-nccl-unique-id-exchange-failed"},
			{"HCCL", "RuntimeError: [3] is setting up HCCL communicator and retrieving hcclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Socket Timeout", "c10d-nccl-unique-id-exchange-failed"},
			{"MCCL", "RuntimeError: [3] is setting up MCCL communicator and retrieving mcclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Socket Timeout", "c10d-nccl-unique-id-exchange-failed"},
		},
		"this rank found a collective timeout and dumps": {
			{"NCCL", c10dLine(c10dBackendFile["NCCL"], "[PG ID 0 PG GUID 0(default_pg) Rank 1] Received a dump signal due to a collective timeout from this local rank and we will try our best to dump the debug info. Last enqueued NCCL work: 196, last completed NCCL work: 195."), "c10d-collective-timeout-dump-signal"},
			{"HCCL", c10dLine(c10dBackendFile["HCCL"], "[PG 0 Rank 1] Received a dump signal from this local rank and will start to dump the debug info. Last enqueued HCCL work: 196, last completed HCCL work: 195."), "c10d-collective-timeout-dump-signal"},
			{"CNCL", c10dLine(c10dBackendFile["CNCL"], "[Rank 1] Received a timeout signal from this local rank and will start to dump the debug info. Last enstreamd CNCL work: 196, last completed CNCL work: 195."), "c10d-collective-timeout-dump-signal"},
		},
		"another rank signalled a dump": {
			{"NCCL", c10dLine(c10dBackendFile["NCCL"], "[PG ID 0 PG GUID 0(default_pg) Rank 1] Received a dump signal due to a collective timeout from  rank 3 and we will try our best to dump the debug info."), "c10d-dump-signal-from-other-rank"},
			{"HCCL", c10dLine(c10dBackendFile["HCCL"], "[PG 0 Rank 1] Received a global dump signal from rank 3, and will start to dump the debug info. Last enqueued HCCL work: 196, last completed HCCL work: 195."), "c10d-dump-signal-from-other-rank"},
			{"CNCL", c10dLine(c10dBackendFile["CNCL"], "[Rank 1] Received a global timeout from another rank and will start to dump the debug info. Last enstreamd CNCL work: 196, last completed CNCL work: 195."), "c10d-dump-signal-from-other-rank"},
		},
		"the flight recorder dumps (routine)": {
			{"NCCL", c10dLine(c10dBackendFile["NCCL"], "[PG ID 0 PG GUID 0 Rank 1] ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1"), ""},
			{"HCCL", c10dLine(c10dBackendFile["HCCL"], "[PG 0 Rank 1] ProcessGroupHCCL preparing to dump debug info."), ""},
			{"XCCL", c10dLine(c10dBackendFile["XCCL"], "[PG ID 0 PG GUID 0 Rank 1] ProcessGroupXCCL preparing to dump debug info. Include stack trace: 1"), ""},
		},
		"the watchdog starts and stops (routine)": {
			{"NCCL", "[rank1]:[I324 13:00:25.428029551 ProcessGroupNCCL.cpp:1828] [PG ID 0 PG GUID 0 Rank 1] Watchdog thread started", ""},
			{"HCCL", "[rank1]:[I324 13:00:25.428029551 compiler_depend.ts:1895] [Rank 1] HCCL watchdog thread started!", ""},
			{"HCCL", "[rank1]:[I324 13:00:25.428029551 compiler_depend.ts:1902] [Rank 1] HCCL watchdog thread terminated normally", ""},
			{"HCCL", "[rank1]:[I324 13:00:25.428029551 compiler_depend.ts:1446] [PG 0 Rank 1] Watchdog joined, destroying HCCL communicators.", ""},
			{"MCCL", "[Rank 1] MCCL watchdog thread terminated normally", ""},
			{"CNCL", "[Rank 1] ProcessGroupCNCL watchdog thread joined.", ""},
		},
	}
}

// TestC10dBackendTwins checks every family in every backend's wording.
func TestC10dBackendTwins(t *testing.T) {
	m := compileCatalog(t)
	for family, twins := range c10dFamilies() {
		claimed := 0
		for _, tw := range twins {
			lead, context := vocabLead(m, tw.text)
			if leads(lead, context, tw.want) {
				claimed++
				continue
			}
			got := "nothing"
			if lead != nil {
				got = lead.Slug
			}
			t.Errorf("%s, %s wording: want %q to lead, got %s (wrappers %v):\n%s", family, tw.backend, tw.want, got, context, tw.text)
		}
		t.Logf("%s: %d of %d backend wordings claimed", family, claimed, len(twins))
	}
}

var backendTwinExamples = map[string]example{
	"hccl-watchdog-collective-timeout": {
		match: []string{
			"[rank1]:[E324 13:00:25.428029551 compiler_depend.ts:574] [Rank 1] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=196, OpType=ALLREDUCE, NumelIn=4096, NumelOut=4096, Timeout(ms)=3600000) ran for 3600185 milliseconds before timing out.",
			"[E ProcessGroupHCCL.cpp:566] [Rank 0] Watchdog caught collective operation timeout: WorkHCCL(OpType=BROADCAST, Timeout(ms)=1800000) ran for 1800439 milliseconds before timing out.",
		},
		miss: []string{
			"[rank1]:[W324 13:00:25.428029551 compiler_depend.ts:935] Process group work ALLREDUCE, seq_num 196 dispatch success. This warning log can be ignored.",
			"[rank1]:[E324 13:00:25.428029551 ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600008 milliseconds before timing out.",
		},
	},
	"vendor-ccl-watchdog-collective-timeout": {
		match: []string{
			"[Rank 1] Watchdog caught collective operation timeout: WorkMCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600100 milliseconds before timing out.",
			"[Rank 3] Watchdog caught collective operation timeout: WorkCNCL(SeqNum=40, OpType=BROADCAST, Timeout(ms)=1800000) ran for 1800200 milliseconds before timing out.",
		},
		miss: []string{"[Rank 1] MCCL watchdog thread started!"},
	},
}

var backendTwinWidened = map[string]example{
	"c10d-watchdog-thread-terminated": {
		match: []string{"[rank1]:[E324 13:00:25.429344265 compiler_depend.ts:1020] [Rank 1] HCCL watchdog thread terminated with exception: unknown"},
		miss:  []string{"[Rank 1] HCCL watchdog thread terminated normally"},
	},
	"c10d-nccl-work-failed-process-down": {
		match: []string{"[rank1]:[E324 13:00:25.428092542 compiler_depend.ts:628] Some HCCL operations have failed or timed out. Due to the asynchronous nature of ASCEND kernels, subsequent NPU operations might run on corrupted/incomplete data."},
	},
	"c10d-heartbeat-monitor-timeout": {
		match: []string{"ProcessGroupHCCL's watchdog got stuck for 600 seconds without making progress in monitoring enqueued collectives."},
	},
	"c10d-dump-debug-info": {
		match: []string{"[PG 0 Rank 1] ProcessGroupHCCL preparing to dump debug info."},
	},
	"c10d-nccl-unique-id-exchange-failed": {
		match: []string{"RuntimeError: [3] is setting up HCCL communicator and retrieving hcclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Socket Timeout"},
	},
	"c10d-collective-timeout-dump-signal": {
		match: []string{"[PG 0 Rank 1] Received a dump signal from this local rank and will start to dump the debug info. Last enqueued HCCL work: 196, last completed HCCL work: 195."},
	},
	"c10d-dump-signal-from-other-rank": {
		match: []string{"[PG 0 Rank 1] Received a global dump signal from rank 3, and will start to dump the debug info."},
	},
}

func init() { addExamples(backendTwinExamples, backendTwinWidened) }
