package analysis

import "testing"

// TestCANNCodedError reads CANN's coded error lines from vllm-ascend and
// sglang's NPU runs, alone and behind a process's prefix, and leaves
// other bracketed PID lines, a warning's code and prose silent.
func TestCANNCodedError(t *testing.T) {
	for l, want := range map[string]bool{
		"[PID: 749] 2025-12-29-03:16:15.787.356 Get_Socket_Timeout(EI0006): Getting socket times out. Reason: 1. The remote does not initiate a connect request.": true,
		"[PID: 78673] 2026-05-25-14:42:34.874.080 AclNN_Parameter_Error(EZ1001): dim 2 of tensor 1 is [32], should be equal to tensor 0 [96].":                    true,
		"(EngineCore pid=471424) [PID: 471424] 2026-05-08-17:31:28.781.490 Invalid_Argument(EL0003): The argument is invalid.":                                    true,
		"EZ9999[PID: 28568] 2026-01-16-12:48:43.268.275 AclNN_Inner_Error(EZ9999):  Op MoeDistributeDispatchV2 not support soc version ascend91":                  true,

		"[PID: 749] 2025-12-29-03:16:15.787.356 Some_Notice(W11001): the setting is deprecated": false,
		"[PID: 749] started the worker":                                    false,
		"[PID: 749] 2025-12-29-03:16:15.787.356 see (EI0006): for details": false,
		"the [PID: 12] column shows Get_Socket_Timeout(EI0006) codes":      false,
		"[PID: 749] ready Name(EI0006): x":                                 false,
		"[PID: ":                                                           false,
		"":                                                                 false,
	} {
		if got := cannCodedError(l); got != want {
			t.Errorf("cannCodedError(%q) = %v, want %v", l, got, want)
		}
	}
}

// FuzzCANNCodedError checks that cannCodedError never panics and reads
// only a line with the error manager's header.
func FuzzCANNCodedError(f *testing.F) {
	f.Fuzz(func(t *testing.T, l string) {
		if cannCodedError(l) && !containsAnyOf(l, []string{"[PID: "}) {
			t.Fatalf("cannCodedError(%q) without its header", l)
		}
	})
}
