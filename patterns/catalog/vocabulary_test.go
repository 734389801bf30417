package catalog_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// A vocabulary is the finite set of error strings one layer under a serving
// engine can print (a runtime's error names and texts, a library's result
// strings, the C library's strerror texts), with the shapes in which the
// layer's callers log them. Every string that means a failure names the
// record that must lead on each composed line; a string that is no failure
// must be claimed by no failure record. The tables are written from the
// libraries' own lists, so the catalog's cover of a whole vocabulary is
// measured, and cannot shrink without a test failing.
type vocabulary struct {
	name   string
	shapes []vocabShape
	terms  []vocabTerm
}

// A vocabShape is how a caller prints one form of a term: Format holds one
// %s, filled with the term's field Field.
type vocabShape struct {
	Field  termField
	Format string
	// All, when set, makes Format take every form at once (%[1]s the
	// text, %[2]s the name, %[3]s the alternative name), and the shape
	// prints only the terms that have all the forms it uses.
	All bool
	// Want, when set, is the record that leads on this shape for every
	// failure term: a caller's record that reads the whole vocabulary in
	// its own context. Such a shape prints only failure terms: the caller
	// prints it only when the call failed.
	Want string
	// Override names, by form, the record that leads on this shape
	// instead of the term's own: a caller's record that reads the same
	// string in its own context.
	Override map[string]string
}

type termField int

// The forms of a term a shape prints.
const (
	fieldText termField = iota // the human text (cudaGetErrorString, strerror, ...)
	fieldName                  // the enum name (cudaErrorIllegalAddress, NVML_ERROR_GPU_IS_LOST, ...)
	fieldAlt                   // a second name (the driver API's CUDA_ERROR_*, the errno symbol, ...)
)

// A vocabTerm is one string of a vocabulary in its forms, and the slug of
// the record that must lead on every line composed from it ("" when it is
// no failure: then no failure record may claim it).
type vocabTerm struct {
	text, name, alt string
	want            string
}

func (t vocabTerm) field(f termField) string {
	switch f {
	case fieldName:
		return t.name
	case fieldAlt:
		return t.alt
	}
	return t.text
}

// hasForms reports whether t has every form format uses.
func (t vocabTerm) hasForms(format string) bool {
	for i, f := range []string{t.text, t.name, t.alt} {
		if f == "" && strings.Contains(format, fmt.Sprintf("%%[%d]s", i+1)) {
			return false
		}
	}
	return true
}

// vocabLead feeds text through the entry assembler and the analysis and
// returns the record that leads the last diagnosis (nil when no entry is a
// failure, when the failure is unclassified, or when its record is an info
// record: a routine line) and the slugs of the wrappers around it (with,
// when a wrapper leads, the other wrappers that read the same line).
func vocabLead(m *matcher.Matcher, text string) (*patterns.Record, []string) {
	a := entry.NewAssembler(entry.Options{})
	var ents []entry.Entry
	for i, line := range strings.Split(text, "\n") {
		ents = append(ents, a.Push(entry.Line{Text: line, Source: "vocabulary", Stream: "stderr", Offset: int64(i)})...)
	}
	ents = append(ents, a.Flush()...)
	an := analysis.New(m)
	var lead *patterns.Record
	var context []string
	for i := range ents {
		d, ok := an.Analyze(&ents[i])
		if !ok {
			continue
		}
		lead, context = nil, context[:0]
		if d.Cause != nil && d.Cause.Record.Severity != patterns.SeverityInfo {
			lead = d.Cause.Record
		}
		for _, h := range d.Context {
			context = append(context, h.Record.Slug)
		}
		if lead != nil && lead.Role.Is(patterns.RoleWrapper) {
			for _, h := range d.Alternatives {
				if h.Record.Role.Is(patterns.RoleWrapper) {
					context = append(context, h.Record.Slug)
				}
			}
		}
	}
	return lead, context
}

// leads reports whether a diagnosis led by lead with the wrappers context
// is what want asks for: the record of that slug leads, or, for a wrapper
// record (a generic failure whose cause is printed elsewhere), it leads or
// stands among the wrappers; for "" no record leads but a wrapper (the
// process that carried the line, which says nothing of the string itself).
func leads(lead *patterns.Record, context []string, want string) bool {
	if want == "" {
		return lead == nil || lead.Role.Is(patterns.RoleWrapper)
	}
	return lead != nil && lead.Slug == want || slices.Contains(context, want)
}

// vocabCount is what checkVocabulary counted: failure terms claimed as
// wanted on all their lines, of all failure terms; lines of failure terms
// claimed as wanted, of all such lines.
type vocabCount struct{ claimed, failures, claimedLines, failureLines int }

// checkVocabulary composes every term of v in every shape that prints one
// of its forms and checks the record that leads.
func checkVocabulary(t *testing.T, m *matcher.Matcher, v vocabulary) (n vocabCount) {
	t.Helper()
	for _, term := range v.terms {
		if term.want != "" {
			n.failures++
		}
		ok, lines := true, 0
		for _, s := range v.shapes {
			form := term.field(s.Field)
			if form == "" || s.All && !term.hasForms(s.Format) || s.Want != "" && term.want == "" {
				continue
			}
			lines++
			line := fmt.Sprintf(s.Format, form)
			if s.All {
				line = fmt.Sprintf(s.Format, term.text, term.name, term.alt)
			}
			want := term.want
			if s.Want != "" && want != "" {
				want = s.Want
			}
			if o, ok := s.Override[form]; ok {
				want = o
			}
			if term.want != "" {
				n.failureLines++
			}
			lead, context := vocabLead(m, line)
			if leads(lead, context, want) && term.want != "" {
				n.claimedLines++
			}
			if !leads(lead, context, want) {
				ok = false
				got := ""
				if lead != nil {
					got = lead.Slug
				}
				if want == "" {
					want = "no failure record"
				}
				t.Errorf("%s: %q leads with %q, want %s\n%s", v.name, form, got, want, line)
			}
		}
		if lines == 0 {
			t.Errorf("%s: term %+v has no shape that prints it", v.name, term)
		}
		if ok && term.want != "" {
			n.claimed++
		}
	}
	return n
}

// TestVocabularies checks every vocabulary and logs its count of failure
// strings claimed.
func TestVocabularies(t *testing.T) {
	m := compileCatalog(t)
	for _, v := range vocabularies {
		t.Run(v.name, func(t *testing.T) {
			n := checkVocabulary(t, m, v)
			t.Logf("%s: %d of %d failure strings claimed (%d of %d lines)", v.name, n.claimed, n.failures, n.claimedLines, n.failureLines)
		})
	}
}

// torchCUDA is the multi-line error torch raises from a failed CUDA check,
// inside a scheduler's traceback.
func torchCUDA(prefix string) string {
	return tb("RuntimeError: "+prefix+"%s\n"+
		"CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\n"+
		"For debugging consider passing CUDA_LAUNCH_BLOCKING=1") +
		"Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n"
}

var vocabularies = []vocabulary{
	cudaRuntime,
	hipRuntime,
	ncclResults,
	ncclCudaFailures(),
	errnos,
	grpcCodes,
	nvmlReturns,
	rocmSMI,
	ibvWCStatus,
	ucsStatus,
}

// cudaRuntime is the CUDA runtime's cudaError_t (names and the texts of
// cudaGetErrorString) with the driver API's CUresult names, as the CUDA
// runtime API reference lists them. The query results (cudaErrorNotReady)
// and the profiler and graphics-interop codes a server does not reach are
// left out or silent.
var cudaRuntime = vocabulary{
	name: "CUDA runtime cudaError_t",
	shapes: []vocabShape{
		{Field: fieldText, Format: torchCUDA("CUDA error: ")},
		{Field: fieldText, Format: "torch.AcceleratorError: CUDA error: %s"},
		{Field: fieldText, Format: "RuntimeError: CUDA driver error: %s"},
		{Field: fieldText, Format: "[TensorRT-LLM][ERROR] CUDA runtime error in cudaStreamSynchronize(stream): %s (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/bufferManager.cpp:214)"},
		{Field: fieldText, Format: "[rank3]: RuntimeError: Triton Error [CUDA]: %s", Override: map[string]string{"invalid argument": "triton-launch-invalid-argument"}},
		{Field: fieldName, Format: "cupy_backends.cuda.api.runtime.CUDARuntimeError: %s"},
		{Field: fieldName, Format: "custom_all_reduce.cuh:368 'cudaIpcOpenMemHandle(&ipc_ptr, handle, cudaIpcMemLazyEnablePeerAccess)' failed: %s"},
		{Field: fieldAlt, Format: "RuntimeError: cuMemCreate failed with CUresult %s"},
	},
	terms: []vocabTerm{
		{"no error", "cudaSuccess", "CUDA_SUCCESS", ""},
		{"invalid argument", "cudaErrorInvalidValue", "CUDA_ERROR_INVALID_VALUE", "cuda-invalid-argument"},
		{"out of memory", "cudaErrorMemoryAllocation", "CUDA_ERROR_OUT_OF_MEMORY", "cuda-error-out-of-memory"},
		{"initialization error", "cudaErrorInitializationError", "CUDA_ERROR_NOT_INITIALIZED", "cuda-initialization-error"},
		{"driver shutting down", "cudaErrorCudartUnloading", "CUDA_ERROR_DEINITIALIZED", "cuda-driver-shutting-down"},
		{"invalid configuration argument", "cudaErrorInvalidConfiguration", "", "cuda-invalid-configuration"},
		{"invalid pitch argument", "cudaErrorInvalidPitchValue", "", "cuda-api-misuse"},
		{"invalid device symbol", "cudaErrorInvalidSymbol", "", "cuda-api-misuse"},
		{"invalid device pointer", "cudaErrorInvalidDevicePointer", "", "cuda-invalid-argument"},
		{"invalid copy direction for memcpy", "cudaErrorInvalidMemcpyDirection", "", "cuda-api-misuse"},
		{"CUDA driver version is insufficient for CUDA runtime version", "cudaErrorInsufficientDriver", "", "cuda-driver-version-insufficient"},
		{"__global__ function call is not configured", "cudaErrorMissingConfiguration", "", "cuda-api-misuse"},
		{"API call is not supported in the installed CUDA driver", "cudaErrorCallRequiresNewerDriver", "", "cuda-driver-version-insufficient"},
		{"CUDA driver is a stub library", "cudaErrorStubLibrary", "CUDA_ERROR_STUB_LIBRARY", "cuda-driver-mismatch"},
		{"CUDA-capable device(s) is/are busy or unavailable", "cudaErrorDevicesUnavailable", "CUDA_ERROR_DEVICE_UNAVAILABLE", "cuda-devices-busy-or-unavailable"},
		{"invalid device function", "cudaErrorInvalidDeviceFunction", "", "cuda-no-kernel-image"},
		{"no CUDA-capable device is detected", "cudaErrorNoDevice", "CUDA_ERROR_NO_DEVICE", "no-cuda-gpus-available"},
		{"invalid device ordinal", "cudaErrorInvalidDevice", "CUDA_ERROR_INVALID_DEVICE", "cuda-invalid-device-ordinal"},
		{"device doesn't have valid Grid license", "cudaErrorDeviceNotLicensed", "CUDA_ERROR_DEVICE_NOT_LICENSED", "cuda-devices-busy-or-unavailable"},
		{"startup failure in cuda runtime", "cudaErrorStartupFailure", "", "cuda-initialization-error"},
		{"device kernel image is invalid", "cudaErrorInvalidKernelImage", "CUDA_ERROR_INVALID_IMAGE", "cuda-no-kernel-image"},
		{"invalid device context", "cudaErrorDeviceUninitialized", "CUDA_ERROR_INVALID_CONTEXT", "cuda-api-misuse"},
		{"mapping of buffer object failed", "cudaErrorMapBufferObjectFailed", "CUDA_ERROR_MAP_FAILED", "cuda-api-misuse"},
		{"resource already mapped", "cudaErrorAlreadyMapped", "CUDA_ERROR_ALREADY_MAPPED", "cuda-api-misuse"},
		{"no kernel image is available for execution on the device", "cudaErrorNoKernelImageForDevice", "CUDA_ERROR_NO_BINARY_FOR_GPU", "cuda-no-kernel-image"},
		{"uncorrectable ECC error encountered", "cudaErrorECCUncorrectable", "CUDA_ERROR_ECC_UNCORRECTABLE", "cuda-uncorrectable-ecc-error"},
		{"limit is not supported on this architecture", "cudaErrorUnsupportedLimit", "CUDA_ERROR_UNSUPPORTED_LIMIT", "cuda-api-misuse"},
		{"exclusive-thread device already in use by a different thread", "cudaErrorDeviceAlreadyInUse", "CUDA_ERROR_CONTEXT_ALREADY_IN_USE", "cuda-devices-busy-or-unavailable"},
		{"peer access is not supported between these two devices", "cudaErrorPeerAccessUnsupported", "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", "cuda-peer-access-unsupported"},
		{"a PTX JIT compilation failed", "cudaErrorInvalidPtx", "CUDA_ERROR_INVALID_PTX", "cuda-ptx-unsupported-toolchain"},
		{"uncorrectable NVLink error was detected during the execution", "cudaErrorNvlinkUncorrectable", "CUDA_ERROR_NVLINK_UNCORRECTABLE", "cuda-uncorrectable-ecc-error"},
		{"PTX JIT compiler library not found", "cudaErrorJitCompilerNotFound", "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "cuda-ptx-unsupported-toolchain"},
		{"the provided PTX was compiled with an unsupported toolchain.", "cudaErrorUnsupportedPtxVersion", "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "cuda-ptx-unsupported-toolchain"},
		{"PTX JIT compilation was disabled", "cudaErrorJitCompilationDisabled", "CUDA_ERROR_JIT_COMPILATION_DISABLED", "cuda-ptx-unsupported-toolchain"},
		{"shared object symbol not found", "cudaErrorSharedObjectSymbolNotFound", "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND", "cuda-no-kernel-image"},
		{"shared object initialization failed", "cudaErrorSharedObjectInitFailed", "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED", "cuda-no-kernel-image"},
		{"OS call failed or operation not supported on this OS", "cudaErrorOperatingSystem", "CUDA_ERROR_OPERATING_SYSTEM", "cuda-operation-not-supported"},
		{"invalid resource handle", "cudaErrorInvalidResourceHandle", "CUDA_ERROR_INVALID_HANDLE", "cuda-invalid-resource-handle"},
		{"the operation cannot be performed in the present state", "cudaErrorIllegalState", "CUDA_ERROR_ILLEGAL_STATE", "cuda-api-misuse"},
		{"named symbol not found", "cudaErrorSymbolNotFound", "CUDA_ERROR_NOT_FOUND", "cuda-no-kernel-image"},
		{"device not ready", "cudaErrorNotReady", "CUDA_ERROR_NOT_READY", ""},
		{"an illegal memory access was encountered", "cudaErrorIllegalAddress", "CUDA_ERROR_ILLEGAL_ADDRESS", "cuda-illegal-memory-access"},
		{"too many resources requested for launch", "cudaErrorLaunchOutOfResources", "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "cuda-launch-out-of-resources"},
		{"the launch timed out and was terminated", "cudaErrorLaunchTimeout", "CUDA_ERROR_LAUNCH_TIMEOUT", "cuda-kernel-fault"},
		{"peer access has not been enabled", "cudaErrorPeerAccessNotEnabled", "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", "cuda-peer-access-unsupported"},
		{"cannot set while device is active in this process", "cudaErrorSetOnActiveProcess", "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE", "cuda-api-misuse"},
		{"context is destroyed", "cudaErrorContextIsDestroyed", "CUDA_ERROR_CONTEXT_IS_DESTROYED", "cuda-api-misuse"},
		{"device-side assert triggered", "cudaErrorAssert", "CUDA_ERROR_ASSERT", "cuda-device-side-assert"},
		{"peer mapping resources exhausted", "cudaErrorTooManyPeers", "CUDA_ERROR_TOO_MANY_PEERS", "cuda-peer-access-unsupported"},
		{"part or all of the requested memory range is already mapped", "cudaErrorHostMemoryAlreadyRegistered", "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED", "cuda-api-misuse"},
		{"pointer does not correspond to a registered memory region", "cudaErrorHostMemoryNotRegistered", "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED", "cuda-api-misuse"},
		{"hardware stack error", "cudaErrorHardwareStackError", "CUDA_ERROR_HARDWARE_STACK_ERROR", "cuda-kernel-fault"},
		{"an illegal instruction was encountered", "cudaErrorIllegalInstruction", "CUDA_ERROR_ILLEGAL_INSTRUCTION", "cuda-kernel-fault"},
		{"misaligned address", "cudaErrorMisalignedAddress", "CUDA_ERROR_MISALIGNED_ADDRESS", "cuda-misaligned-address"},
		{"operation not supported on global/shared address space", "cudaErrorInvalidAddressSpace", "CUDA_ERROR_INVALID_ADDRESS_SPACE", "cuda-kernel-fault"},
		{"invalid program counter", "cudaErrorInvalidPc", "CUDA_ERROR_INVALID_PC", "cuda-kernel-fault"},
		{"unspecified launch failure", "cudaErrorLaunchFailure", "CUDA_ERROR_LAUNCH_FAILED", "cuda-unspecified-launch-failure"},
		{"too many blocks in cooperative launch", "cudaErrorCooperativeLaunchTooLarge", "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", "cuda-launch-out-of-resources"},
		{"operation not permitted", "cudaErrorNotPermitted", "CUDA_ERROR_NOT_PERMITTED", "cuda-operation-not-permitted"},
		{"operation not supported", "cudaErrorNotSupported", "CUDA_ERROR_NOT_SUPPORTED", "cuda-operation-not-supported"},
		{"system not yet initialized", "cudaErrorSystemNotReady", "CUDA_ERROR_SYSTEM_NOT_READY", "cuda-system-not-ready"},
		{"system has unsupported display driver / cuda driver combination", "cudaErrorSystemDriverMismatch", "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "cuda-driver-mismatch"},
		{"forward compatibility was attempted on non supported HW", "cudaErrorCompatNotSupportedOnDevice", "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", "cuda-driver-mismatch"},
		{"MPS client failed to connect to the MPS control daemon or the MPS server", "cudaErrorMpsConnectionFailed", "CUDA_ERROR_MPS_CONNECTION_FAILED", "cuda-mps-error"},
		{"the remote procedural call between the MPS server and the MPS client failed", "cudaErrorMpsRpcFailure", "CUDA_ERROR_MPS_RPC_FAILURE", "cuda-mps-error"},
		{"MPS server is not ready to accept new MPS client requests", "cudaErrorMpsServerNotReady", "CUDA_ERROR_MPS_SERVER_NOT_READY", "cuda-mps-error"},
		{"the hardware resources required to create MPS client have been exhausted", "cudaErrorMpsMaxClientsReached", "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED", "cuda-mps-error"},
		{"the hardware resources required to support device connections have been exhausted", "cudaErrorMpsMaxConnectionsReached", "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED", "cuda-mps-error"},
		{"the MPS client has been terminated by the server", "cudaErrorMpsClientTerminated", "CUDA_ERROR_MPS_CLIENT_TERMINATED", "cuda-mps-error"},
		{"operation not permitted when stream is capturing", "cudaErrorStreamCaptureUnsupported", "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED", "cuda-operation-not-permitted-when-capturing"},
		{"operation failed due to a previous error during capture", "cudaErrorStreamCaptureInvalidated", "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED", "cuda-operation-not-permitted-when-capturing"},
		{"operation would result in a merge of separate capture sequences", "cudaErrorStreamCaptureMerge", "CUDA_ERROR_STREAM_CAPTURE_MERGE", "cuda-operation-not-permitted-when-capturing"},
		{"capture was not ended in the same stream as it began", "cudaErrorStreamCaptureUnmatched", "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED", "cuda-operation-not-permitted-when-capturing"},
		{"capturing stream has unjoined work", "cudaErrorStreamCaptureUnjoined", "CUDA_ERROR_STREAM_CAPTURE_UNJOINED", "cuda-operation-not-permitted-when-capturing"},
		{"dependency created on uncaptured work in another stream", "cudaErrorStreamCaptureIsolation", "CUDA_ERROR_STREAM_CAPTURE_ISOLATION", "cuda-operation-not-permitted-when-capturing"},
		{"operation would make the legacy stream depend on a capturing blocking stream", "cudaErrorStreamCaptureImplicit", "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT", "cuda-operation-not-permitted-when-capturing"},
		{"operation not permitted on an event last recorded in a capturing stream", "cudaErrorCapturedEvent", "CUDA_ERROR_CAPTURED_EVENT", "cuda-operation-not-permitted-when-capturing"},
		{"attempt to terminate a thread-local capture sequence from another thread", "cudaErrorStreamCaptureWrongThread", "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD", "cuda-operation-not-permitted-when-capturing"},
		{"the graph update was not performed because it included changes which violated constraints specific to instantiated graph update", "cudaErrorGraphExecUpdateFailure", "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE", "cuda-operation-not-permitted-when-capturing"},
		{"unknown error", "cudaErrorUnknown", "CUDA_ERROR_UNKNOWN", "cuda-unknown-error"},
	},
}

// hipRuntime is HIP's hipError_t: the names of hipGetErrorName and the
// texts of hipGetErrorString (ROCm clr, hipamd/src/hip_error.cpp), as torch
// on ROCm and the ROCm libraries print them. The profiler and graphics
// codes are left out; hipErrorNotReady is a query result.
var hipRuntime = vocabulary{
	name: "HIP runtime hipError_t",
	shapes: []vocabShape{
		{Field: fieldText, Format: torchCUDA("HIP error: ")},
		{Field: fieldText, Format: "torch.AcceleratorError: HIP error: %s"},
		{Field: fieldName, Format: "RuntimeError: hipMemcpyAsync(dst, src, bytes, hipMemcpyDeviceToDevice, stream) returned %s"},
		{Field: fieldName, Format: ":0:rocdevice.cpp            :2984: 5120366830 us: [pid:1234  tid:0x7f] HIP call failed with %s"},
	},
	terms: []vocabTerm{
		{"no error", "hipSuccess", "", ""},
		{"invalid argument", "hipErrorInvalidValue", "", "cuda-invalid-argument"},
		{"out of memory", "hipErrorOutOfMemory", "", "cuda-error-out-of-memory"},
		{"initialization error", "hipErrorNotInitialized", "", "cuda-initialization-error"},
		{"driver shutting down", "hipErrorDeinitialized", "", "cuda-driver-shutting-down"},
		{"invalid configuration argument", "hipErrorInvalidConfiguration", "", "cuda-invalid-configuration"},
		{"invalid pitch argument", "hipErrorInvalidPitchValue", "", "cuda-api-misuse"},
		{"invalid device symbol", "hipErrorInvalidSymbol", "", "cuda-api-misuse"},
		{"invalid device pointer", "hipErrorInvalidDevicePointer", "", "cuda-invalid-argument"},
		{"invalid copy direction for memcpy", "hipErrorInvalidMemcpyDirection", "", "cuda-api-misuse"},
		{"driver version is insufficient for runtime version", "hipErrorInsufficientDriver", "", "cuda-driver-version-insufficient"},
		{"__global__ function call is not configured", "hipErrorMissingConfiguration", "", "cuda-api-misuse"},
		{"unspecified launch failure in prior launch", "hipErrorPriorLaunchFailure", "", "cuda-unspecified-launch-failure"},
		{"invalid device function", "hipErrorInvalidDeviceFunction", "", "hip-no-binary-for-gpu"},
		{"no ROCm-capable device is detected", "hipErrorNoDevice", "", "no-cuda-gpus-available"},
		{"invalid device ordinal", "hipErrorInvalidDevice", "", "cuda-invalid-device-ordinal"},
		{"device kernel image is invalid", "", "", "cuda-no-kernel-image"},
		{"", "hipErrorInvalidImage", "", "hip-no-binary-for-gpu"},
		{"invalid device context", "hipErrorInvalidContext", "", "cuda-api-misuse"},
		{"mapping of buffer object failed", "hipErrorMapFailed", "", "cuda-api-misuse"},
		{"no kernel image is available for execution on the device", "", "", "cuda-no-kernel-image"},
		{"", "hipErrorNoBinaryForGpu", "", "hip-no-binary-for-gpu"},
		{"uncorrectable ECC error encountered", "hipErrorECCNotCorrectable", "", "cuda-uncorrectable-ecc-error"},
		{"exclusive-thread device already in use by a different thread", "hipErrorContextAlreadyInUse", "", "cuda-devices-busy-or-unavailable"},
		{"peer access is not supported between these two devices", "hipErrorPeerAccessUnsupported", "", "cuda-peer-access-unsupported"},
		{"invalid kernel file", "hipErrorInvalidKernelFile", "", "hip-no-binary-for-gpu"},
		{"shared object symbol not found", "hipErrorSharedObjectSymbolNotFound", "", "hip-no-binary-for-gpu"},
		{"shared object initialization failed", "hipErrorSharedObjectInitFailed", "", "hip-no-binary-for-gpu"},
		{"OS call failed or operation not supported on this OS", "hipErrorOperatingSystem", "", "cuda-operation-not-supported"},
		{"invalid resource handle", "hipErrorInvalidHandle", "", "cuda-invalid-resource-handle"},
		{"the operation cannot be performed in the present state", "hipErrorIllegalState", "", "cuda-api-misuse"},
		{"named symbol not found", "hipErrorNotFound", "", "hip-no-binary-for-gpu"},
		{"device not ready", "hipErrorNotReady", "", ""},
		{"an illegal memory access was encountered", "hipErrorIllegalAddress", "", "cuda-illegal-memory-access"},
		{"too many resources requested for launch", "hipErrorLaunchOutOfResources", "", "cuda-launch-out-of-resources"},
		{"the launch timed out and was terminated", "hipErrorLaunchTimeOut", "", "cuda-kernel-fault"},
		{"peer access has not been enabled", "hipErrorPeerAccessNotEnabled", "", "cuda-peer-access-unsupported"},
		{"cannot set while device is active in this process", "hipErrorSetOnActiveProcess", "", "cuda-api-misuse"},
		{"context is destroyed", "hipErrorContextIsDestroyed", "", "cuda-api-misuse"},
		{"device-side assert triggered", "hipErrorAssert", "", "cuda-device-side-assert"},
		{"part or all of the requested memory range is already mapped", "hipErrorHostMemoryAlreadyRegistered", "", "cuda-api-misuse"},
		{"pointer does not correspond to a registered memory region", "hipErrorHostMemoryNotRegistered", "", "cuda-api-misuse"},
		{"unspecified launch failure", "hipErrorLaunchFailure", "", "cuda-unspecified-launch-failure"},
		{"too many blocks in cooperative launch", "hipErrorCooperativeLaunchTooLarge", "", "cuda-launch-out-of-resources"},
		{"operation not supported", "hipErrorNotSupported", "", "cuda-operation-not-supported"},
		{"operation not permitted when stream is capturing", "hipErrorStreamCaptureUnsupported", "", "cuda-operation-not-permitted-when-capturing"},
		{"operation failed due to a previous error during capture", "hipErrorStreamCaptureInvalidated", "", "cuda-operation-not-permitted-when-capturing"},
		{"capturing stream has unjoined work", "hipErrorStreamCaptureUnjoined", "", "cuda-operation-not-permitted-when-capturing"},
		{"operation not permitted on an event last recorded in a capturing stream", "hipErrorCapturedEvent", "", "cuda-operation-not-permitted-when-capturing"},
		{"the graph update was not performed because it included changes which violated constraints specific to instantiated graph update", "hipErrorGraphExecUpdateFailure", "", "cuda-operation-not-permitted-when-capturing"},
		{"runtime memory call returned error", "hipErrorRuntimeMemory", "", "cuda-unknown-error"},
		{"runtime call other than memory returned error", "hipErrorRuntimeOther", "", "cuda-unknown-error"},
		{"unknown error", "hipErrorUnknown", "", "cuda-unknown-error"},
	},
}

// ncclResults is NCCL's ncclResult_t: the texts of ncclGetErrorString
// (src/init.cc) as torch's ProcessGroupNCCL and sglang's pynccl raise them,
// and the names with the detail torch adds after them.
var ncclResults = vocabulary{
	name: "NCCL ncclResult_t",
	shapes: []vocabShape{
		{Field: fieldText, Format: tb("torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, %s, NCCL version 2.21.5")},
		{Field: fieldText, Format: tb("RuntimeError: NCCL error: %s")},
		{Field: fieldText, Format: "[rank1]:[E1205 11:40:31.116102 4242 ProcessGroupNCCL.cpp:1895] [PG ID 0 PG GUID 0(default_pg) Rank 1] Process group watchdog thread terminated with exception: NCCL error: %s"},
		{Field: fieldName, Format: "%s: Call to a library function failed.\nLast error:\nsome detail"},
	},
	terms: []vocabTerm{
		{"no error", "ncclSuccess", "", ""},
		{"unhandled cuda error (run with NCCL_DEBUG=INFO for details)", "ncclUnhandledCudaError", "", "nccl-unhandled-cuda-error"},
		{"unhandled system error (run with NCCL_DEBUG=INFO for details)", "ncclSystemError", "", "nccl-unhandled-system-error"},
		{"internal error - please report this issue to the NCCL developers", "ncclInternalError", "", "nccl-internal-error"},
		{"invalid argument (run with NCCL_DEBUG=WARN for details)", "ncclInvalidArgument", "", "nccl-invalid-usage"},
		{"invalid usage (run with NCCL_DEBUG=WARN for details)", "ncclInvalidUsage", "", "nccl-invalid-usage"},
		{"remote process exited or there was a network error", "ncclRemoteError", "", "nccl-remote-process-exited"},
		{"NCCL operation in progress", "ncclInProgress", "", ""},
	},
}

// ncclCudaFailures is NCCL's own report of a failed CUDA call (its
// CUDACHECK: "Cuda failure [<code>] '<cudaGetErrorString>'") for every
// text of the CUDA vocabulary: nccl-cuda-failure reads them, except the
// CUDA errors whose own record says more in NCCL's words too (memory, a
// busy or failing device, a launch the GPU cannot hold, a CUDA context
// lost to a fork).
func ncclCudaFailures() vocabulary {
	own := map[string]bool{
		"out of memory": true, "initialization error": true, "invalid configuration argument": true,
		"uncorrectable ECC error encountered": true, "uncorrectable NVLink error was detected during the execution": true,
		"CUDA-capable device(s) is/are busy or unavailable": true, "exclusive-thread device already in use by a different thread": true,
		"device doesn't have valid Grid license":  true,
		"too many resources requested for launch": true, "too many blocks in cooperative launch": true,
	}
	v := vocabulary{
		name: "NCCL Cuda failure",
		shapes: []vocabShape{
			{Field: fieldText, Format: "gpu-node-3:2210:2391 [4] enqueue.cc:1529 NCCL WARN Cuda failure '%s'"},
			{Field: fieldText, Format: "host-a:90:412 [0] init.cc:1861 NCCL WARN Cuda failure 700 '%s'"},
		},
	}
	for _, t := range cudaRuntime.terms {
		if t.text == "" || t.want == "" && t.text != "no error" {
			continue
		}
		want := "nccl-cuda-failure"
		if own[t.text] {
			want = t.want
		}
		v.terms = append(v.terms, vocabTerm{text: t.text, want: want})
	}
	return v
}

// errnos are the C library's error texts (glibc's strerror, which Python's
// OSError, Rust's io::Error and C/C++ libraries print; Go's syscall package
// prints them in lower case) for the errnos a serving process meets on its
// sockets, files and devices. The text is the term, the name its number on
// Linux, the alternative a Go error that ends in it.
var errnos = vocabulary{
	name: "errno strerror",
	shapes: []vocabShape{
		{Field: fieldText, All: true, Format: tb("OSError: [Errno %[2]s] %[1]s")},
		{Field: fieldText, All: true, Format: "2026-05-28T00:11:09.418211Z ERROR sgl_model_gateway::server: request to worker failed: %[1]s (os error %[2]s)"},
		{Field: fieldText, Format: "E0528 00:11:09.418211 4021 transfer_engine.cpp:188] socket call failed: %s"},
		{Field: fieldAlt, Format: `time=2026-05-28T00:11:09.418Z level=ERROR source=server.go:412 msg="request failed" error="%s"`},
	},
	terms: []vocabTerm{
		{"Address already in use", "98", "listen tcp 0.0.0.0:11434: bind: address already in use", "address-already-in-use"},
		{"Cannot assign requested address", "99", "listen tcp 10.9.0.7:11434: bind: cannot assign requested address", "network-address-not-available"},
		{"Connection refused", "111", "dial tcp 10.0.0.5:11434: connect: connection refused", "network-connection-failed"},
		{"Connection timed out", "110", "dial tcp 10.0.0.5:11434: connect: connection timed out", "network-connection-failed"},
		{"No route to host", "113", "dial tcp 10.0.0.5:11434: connect: no route to host", "network-connection-failed"},
		{"Network is unreachable", "101", "dial tcp 10.0.0.5:11434: connect: network is unreachable", "network-connection-failed"},
		{"Software caused connection abort", "103", "", "network-connection-failed"},
		{"Connection reset by peer", "104", "read tcp 10.0.0.4:51234->10.0.0.5:11434: read: connection reset by peer", "ipc-peer-process-gone"},
		{"Broken pipe", "32", "write tcp 10.0.0.4:51234->10.0.0.5:11434: write: broken pipe", "ipc-peer-process-gone"},
		{"No space left on device", "28", "write /root/.ollama/models/blobs/sha256-partial: no space left on device", "no-space-left-on-device"},
		{"Disk quota exceeded", "122", "write /root/.ollama/models/blobs/sha256-partial: disk quota exceeded", "no-space-left-on-device"},
		{"Too many open files", "24", "accept tcp [::]:11434: accept4: too many open files", "too-many-open-files"},
		{"Too many open files in system", "23", "open /proc/self/fd: too many open files in system", "too-many-open-files"},
		{"Cannot allocate memory", "12", "fork/exec /usr/lib/ollama/runner: cannot allocate memory", "host-cannot-allocate-memory"},
		{"Permission denied", "13", "open /root/.ollama/models/manifests: permission denied", "filesystem-access-denied"},
		{"Operation not permitted", "1", "", "filesystem-access-denied"},
		{"Read-only file system", "30", "mkdir /models/.cache: read-only file system", "filesystem-access-denied"},
		{"No such file or directory", "2", "open /models/llama/config.json: no such file or directory", "path-not-found"},
		{"No such device", "19", "open /dev/nvidia3: no such device", "path-not-found"},
		{"No such device or address", "6", "open /dev/infiniband/uverbs0: no such device or address", "path-not-found"},
		{"Device or resource busy", "16", "unlinkat /dev/shm/nccl-KqQ7oV: device or resource busy", "device-or-resource-busy"},
		{"Input/output error", "5", "read /models/llama/model-00001-of-00030.safetensors: input/output error", "os-input-output-error"},
		{"Interrupted system call", "4", "", ""},
	},
}

// grpcCodes are gRPC's status codes (grpc/doc/statuscodes.md): the name is
// Python's StatusCode member as an _InactiveRpcError or AioRpcError prints
// it, the alternative the code as grpc-go ("rpc error: code = ...") and
// tonic ("status: ...") print it. A code a server answers a bad request
// with (invalid argument, not found, out of range...) or a caller's own
// cancellation is no failure of the serving process.
var grpcCodes = vocabulary{
	name: "gRPC status codes",
	shapes: []vocabShape{
		{Field: fieldName, Format: tb("grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.%s\n\tdetails = \"call failed\"\n\tdebug_error_string = \"UNKNOWN:Error received from peer ipv4:10.0.0.5:30001\"\n>")},
		{Field: fieldName, Format: "grpc.aio._call.AioRpcError: <AioRpcError of RPC that terminated with:\n\tstatus = StatusCode.%s\n\tdetails = \"call failed\"\n>"},
		{Field: fieldAlt, Format: `time="2026-05-28T00:11:09Z" level=error msg="generate failed" error="rpc error: code = %s desc = call failed"`},
		{Field: fieldAlt, Format: `2026-05-28T00:11:09.418211Z ERROR sgl_model_gateway::routers::grpc: worker call failed: status: %s, message: "call failed", details: [], metadata: MetadataMap { headers: {} }`},
	},
	terms: []vocabTerm{
		{"", "OK", "OK", ""},
		{"", "CANCELLED", "Canceled", ""},
		{"", "UNKNOWN", "Unknown", "grpc-server-error"},
		{"", "INVALID_ARGUMENT", "InvalidArgument", ""},
		{"", "DEADLINE_EXCEEDED", "DeadlineExceeded", "grpc-deadline-exceeded"},
		{"", "NOT_FOUND", "NotFound", ""},
		{"", "ALREADY_EXISTS", "AlreadyExists", ""},
		{"", "PERMISSION_DENIED", "PermissionDenied", "grpc-auth-failed"},
		{"", "RESOURCE_EXHAUSTED", "ResourceExhausted", "grpc-resource-exhausted"},
		{"", "FAILED_PRECONDITION", "FailedPrecondition", ""},
		{"", "ABORTED", "Aborted", ""},
		{"", "OUT_OF_RANGE", "OutOfRange", ""},
		{"", "UNIMPLEMENTED", "Unimplemented", "grpc-unimplemented"},
		{"", "INTERNAL", "Internal", "grpc-server-error"},
		{"", "UNAVAILABLE", "Unavailable", "grpc-unavailable"},
		{"", "DATA_LOSS", "DataLoss", "grpc-server-error"},
		{"", "UNAUTHENTICATED", "Unauthenticated", "grpc-auth-failed"},
	},
}

// nvmlReturns is NVML's nvmlReturn_t: the texts of nvmlErrorString, the
// pynvml exception class each becomes (NVMLError_ and the code's words), and
// the C name, as pynvml tracebacks, C and C++ monitors and Go device
// plugins print them. The codes a query answers with on a healthy GPU (not
// supported, not found, no data...) are no failure.
var nvmlReturns = vocabulary{
	name: "NVML nvmlReturn_t",
	shapes: []vocabShape{
		{Field: fieldText, All: true, Format: tb("pynvml.NVMLError_%[2]s: %[1]s")},
		{Field: fieldAlt, Format: "E0528 00:11:09.418211 4021 gpu_monitor.cc:88] nvmlDeviceGetMemoryInfo failed: %s"},
		{Field: fieldText, Format: `time="2026-05-28T00:11:09Z" level=warning msg="failed to query GPU 0" error="nvml: %s"`},
	},
	terms: []vocabTerm{
		{"Success", "", "NVML_SUCCESS", ""},
		{"Uninitialized", "Uninitialized", "NVML_ERROR_UNINITIALIZED", "nvml-query-failed"},
		{"Invalid Argument", "InvalidArgument", "NVML_ERROR_INVALID_ARGUMENT", ""},
		{"Not Supported", "NotSupported", "NVML_ERROR_NOT_SUPPORTED", ""},
		{"Insufficient Permissions", "NoPermission", "NVML_ERROR_NO_PERMISSION", "nvml-query-failed"},
		{"Already Initialized", "AlreadyInitialized", "NVML_ERROR_ALREADY_INITIALIZED", ""},
		{"Not Found", "NotFound", "NVML_ERROR_NOT_FOUND", ""},
		{"Insufficient Size", "InsufficientSize", "NVML_ERROR_INSUFFICIENT_SIZE", ""},
		{"Insufficient External Power", "InsufficientPower", "NVML_ERROR_INSUFFICIENT_POWER", "nvml-gpu-hardware-error"},
		{"Driver Not Loaded", "DriverNotLoaded", "NVML_ERROR_DRIVER_NOT_LOADED", "nvidia-driver-not-loaded"},
		{"Timeout", "Timeout", "NVML_ERROR_TIMEOUT", "nvml-query-failed"},
		{"Interrupt Request Issue", "IrqIssue", "NVML_ERROR_IRQ_ISSUE", "nvml-gpu-hardware-error"},
		{"NVML Shared Library Not Found", "LibraryNotFound", "NVML_ERROR_LIBRARY_NOT_FOUND", "nvidia-driver-not-loaded"},
		{"Function Not Found", "FunctionNotFound", "NVML_ERROR_FUNCTION_NOT_FOUND", "nvml-query-failed"},
		{"Corrupted infoROM", "CorruptedInforom", "NVML_ERROR_CORRUPTED_INFOROM", "nvml-gpu-hardware-error"},
		{"GPU is lost", "GpuIsLost", "NVML_ERROR_GPU_IS_LOST", "nvidia-gpu-fallen-off-bus"},
		{"GPU requires restart", "ResetRequired", "NVML_ERROR_RESET_REQUIRED", "nvidia-gpu-fallen-off-bus"},
		{"The operating system has blocked the request.", "OperatingSystem", "NVML_ERROR_OPERATING_SYSTEM", "nvml-query-failed"},
		{"RM has detected an NVML/RM version mismatch.", "LibRmVersionMismatch", "NVML_ERROR_LIB_RM_VERSION_MISMATCH", "nvml-driver-library-mismatch"},
		{"Insufficient Memory", "Memory", "NVML_ERROR_MEMORY", "nvml-query-failed"},
		{"No data", "NoData", "NVML_ERROR_NO_DATA", ""},
		{"Unknown Error", "Unknown", "NVML_ERROR_UNKNOWN", "nvml-unknown-error"},
	},
}

// rocmSMI is ROCm SMI's rsmi_status_t (rocm_smi_lib) and amdsmi's
// amdsmi_status_t (amdsmi), by name: the ROCm counterpart of NVML, which
// torch, vLLM and monitors on AMD GPUs query. Codes a healthy query answers
// with (not supported, not found, no data, out of bounds) are no failure.
var rocmSMI = vocabulary{
	name: "ROCm SMI rsmi_status_t / amdsmi_status_t",
	shapes: []vocabShape{
		{Field: fieldName, Format: "ERROR: GPU[0]\t: rsmi_dev_memory_usage_get failed: %s"},
		{Field: fieldName, Format: tb("RuntimeError: rsmi_init() returned %s")},
		{Field: fieldAlt, Format: tb("amdsmi.amdsmi_exception.AmdSmiLibraryException: Error code:\n\t%s")},
	},
	terms: []vocabTerm{
		{"", "RSMI_STATUS_SUCCESS", "AMDSMI_STATUS_SUCCESS", ""},
		{"", "RSMI_STATUS_INVALID_ARGS", "AMDSMI_STATUS_INVAL", ""},
		{"", "RSMI_STATUS_NOT_SUPPORTED", "AMDSMI_STATUS_NOT_SUPPORTED", ""},
		{"", "RSMI_STATUS_FILE_ERROR", "AMDSMI_STATUS_FILE_ERROR", "rocm-smi-query-failed"},
		{"", "RSMI_STATUS_PERMISSION", "AMDSMI_STATUS_NO_PERM", "rocm-smi-query-failed"},
		{"", "RSMI_STATUS_OUT_OF_RESOURCES", "AMDSMI_STATUS_OUT_OF_RESOURCES", "rocm-smi-query-failed"},
		{"", "RSMI_STATUS_INTERNAL_EXCEPTION", "AMDSMI_STATUS_INTERNAL_EXCEPTION", "rocm-smi-query-failed"},
		{"", "RSMI_STATUS_INPUT_OUT_OF_BOUNDS", "AMDSMI_STATUS_INPUT_OUT_OF_BOUNDS", ""},
		{"", "RSMI_STATUS_INIT_ERROR", "AMDSMI_STATUS_INIT_ERROR", "rocm-smi-query-failed"},
		{"", "RSMI_INITIALIZATION_ERROR", "AMDSMI_STATUS_NOT_INIT", "rocm-smi-query-failed"},
		{"", "RSMI_STATUS_NOT_YET_IMPLEMENTED", "AMDSMI_STATUS_NOT_YET_IMPLEMENTED", ""},
		{"", "RSMI_STATUS_NOT_FOUND", "AMDSMI_STATUS_NOT_FOUND", ""},
		{"", "RSMI_STATUS_INSUFFICIENT_SIZE", "AMDSMI_STATUS_INSUFFICIENT_SIZE", ""},
		{"", "RSMI_STATUS_INTERRUPT", "AMDSMI_STATUS_INTERRUPT", "rocm-smi-query-failed"},
		{"", "RSMI_STATUS_UNEXPECTED_SIZE", "AMDSMI_STATUS_UNEXPECTED_SIZE", "rocm-smi-query-failed"},
		{"", "RSMI_STATUS_NO_DATA", "AMDSMI_STATUS_NO_DATA", ""},
		{"", "RSMI_STATUS_UNEXPECTED_DATA", "AMDSMI_STATUS_UNEXPECTED_DATA", "rocm-smi-query-failed"},
		{"", "RSMI_STATUS_BUSY", "AMDSMI_STATUS_BUSY", "rocm-smi-query-failed"},
		{"", "RSMI_STATUS_REFCOUNT_OVERFLOW", "AMDSMI_STATUS_REFCOUNT_OVERFLOW", "rocm-smi-query-failed"},
		{"", "RSMI_STATUS_SETTING_UNAVAILABLE", "AMDSMI_STATUS_SETTING_UNAVAILABLE", ""},
		{"", "RSMI_STATUS_AMDGPU_RESTART_ERR", "AMDSMI_STATUS_AMDGPU_RESTART_ERR", "rocm-smi-query-failed"},
		{"", "RSMI_STATUS_DRM_ERROR", "AMDSMI_STATUS_DRM_ERROR", "rocm-smi-query-failed"},
		{"", "RSMI_STATUS_FAIL_LOAD_MODULE", "AMDSMI_STATUS_FAIL_LOAD_MODULE", "rocm-smi-query-failed"},
		{"", "RSMI_STATUS_FAIL_LOAD_SYMBOL", "AMDSMI_STATUS_FAIL_LOAD_SYMBOL", "rocm-smi-query-failed"},
		{"", "", "AMDSMI_STATUS_DRIVER_NOT_LOADED", "rocm-smi-query-failed"},
		{"", "", "AMDSMI_STATUS_TIMEOUT", "rocm-smi-query-failed"},
		{"", "", "AMDSMI_STATUS_IO", "rocm-smi-query-failed"},
		{"", "RSMI_STATUS_UNKNOWN_ERROR", "AMDSMI_STATUS_UNKNOWN_ERROR", "rocm-smi-query-failed"},
	},
}

// ibvWCStatus is libibverbs' ibv_wc_status: the texts of
// ibv_wc_status_str (rdma-core, libibverbs/enum_strs.c) that RDMA users
// print for a failed work completion (Mooncake's transfer workers, MoRI,
// gloo's ibverbs pairs).
var ibvWCStatus = vocabulary{
	name: "ibverbs ibv_wc_status",
	shapes: []vocabShape{
		{Field: fieldText, Format: "E0528 00:11:09.418211 4021 rdma_context.cpp:412] Work completion error, status: %s, vendor_err: 0x81"},
		{Field: fieldText, Want: "mooncake-transfer-slice-failed", Format: "E0528 00:11:09.418211 4021 worker_pool.cpp:245] Worker: Process failed for slice (opcode: 1, source_addr: 0x7f2c00000000, length: 65536, dest_addr: 0x7f3a00000000, local_nic: mlx5_0, peer_nic: 10.0.0.5:16001@mlx5_2, dest_rpc_port: 16001, target_id: 2, retry_cnt: 0): %s"},
		{Field: fieldName, Format: "E0528 00:11:09.418211 4021 rdma_context.cpp:418] ibv_poll_cq: completion failed with %s"},
	},
	terms: []vocabTerm{
		{"success", "IBV_WC_SUCCESS", "", ""},
		{"local length error", "IBV_WC_LOC_LEN_ERR", "", "rdma-work-completion-error"},
		{"local QP operation error", "IBV_WC_LOC_QP_OP_ERR", "", "rdma-work-completion-error"},
		{"local EE context operation error", "IBV_WC_LOC_EEC_OP_ERR", "", "rdma-work-completion-error"},
		{"local protection error", "IBV_WC_LOC_PROT_ERR", "", "rdma-work-completion-error"},
		{"Work Request Flushed Error", "IBV_WC_WR_FLUSH_ERR", "", "rdma-work-completion-error"},
		{"memory management operation error", "IBV_WC_MW_BIND_ERR", "", "rdma-work-completion-error"},
		{"bad response error", "IBV_WC_BAD_RESP_ERR", "", "rdma-work-completion-error"},
		{"local access error", "IBV_WC_LOC_ACCESS_ERR", "", "rdma-work-completion-error"},
		{"remote invalid request error", "IBV_WC_REM_INV_REQ_ERR", "", "rdma-work-completion-error"},
		{"remote access error", "IBV_WC_REM_ACCESS_ERR", "", "rdma-work-completion-error"},
		{"remote operation error", "IBV_WC_REM_OP_ERR", "", "rdma-work-completion-error"},
		{"transport retry counter exceeded", "IBV_WC_RETRY_EXC_ERR", "", "rdma-work-completion-error"},
		{"RNR retry counter exceeded", "IBV_WC_RNR_RETRY_EXC_ERR", "", "rdma-work-completion-error"},
		{"local RDD violation error", "IBV_WC_LOC_RDD_VIOL_ERR", "", "rdma-work-completion-error"},
		{"remote invalid RD request", "IBV_WC_REM_INV_RD_REQ_ERR", "", "rdma-work-completion-error"},
		{"aborted error", "IBV_WC_REM_ABORT_ERR", "", "rdma-work-completion-error"},
		{"invalid EE context number", "IBV_WC_INV_EECN_ERR", "", "rdma-work-completion-error"},
		{"invalid EE context state", "IBV_WC_INV_EEC_STATE_ERR", "", "rdma-work-completion-error"},
		{"fatal error", "IBV_WC_FATAL_ERR", "", "rdma-work-completion-error"},
		{"response timeout error", "IBV_WC_RESP_TIMEOUT_ERR", "", "rdma-work-completion-error"},
		{"general error", "IBV_WC_GENERAL_ERR", "", "rdma-work-completion-error"},
	},
}

// ucsStatus is UCX's ucs_status_t: the texts of ucs_status_string
// (src/ucs/type/status.c) as UCX's own log, NIXL's UCX backend and UCX's
// unhandled-error report print them. The statuses of an operation still
// running, a cancelled request or a lookup that found nothing are no
// failure.
var ucsStatus = vocabulary{
	name: "UCX ucs_status_t",
	shapes: []vocabShape{
		{Field: fieldText, Format: "[1752044541.372091] [gpu-3:4012 :1]        ucp_worker.c:1789 UCX  ERROR ucp_ep_create() failed: %s"},
		{Field: fieldText, Format: "W0528 00:11:09.418211 4021 ucx_utils.cpp:102] Unexpected UCX error: %s"},
		{Field: fieldText, Want: "ucx-endpoint-error-unhandled", Format: "[1752044541.372091] [gpu-3:4012 :1]        ucp_ep.c:1661 UCX  ERROR ep 0x7f3a2c0b8000: error '%s' on rc_mlx5/mlx5_0:1 will not be handled since no error callback is installed"},
	},
	terms: []vocabTerm{
		{"Success", "", "", ""},
		{"Operation in progress", "", "", ""},
		{"No pending message", "", "", ""},
		{"No resources are available to initiate the operation", "", "", "ucx-operation-failed"},
		{"Input/output error", "", "", "ucx-operation-failed"},
		{"Out of memory", "", "", "ucx-operation-failed"},
		{"Invalid parameter", "", "", "ucx-operation-failed"},
		{"Destination is unreachable", "", "", "ucx-peer-failure"},
		{"Address not valid", "", "", "ucx-operation-failed"},
		{"Function not implemented", "", "", "ucx-operation-failed"},
		{"Message truncated", "", "", "ucx-operation-failed"},
		{"No progress", "", "", "ucx-operation-failed"},
		{"Provided buffer is too small", "", "", "ucx-operation-failed"},
		{"No such element", "", "", ""},
		{"Failed to connect some of the requested endpoints", "", "", "ucx-peer-failure"},
		{"No such device", "", "", "ucx-operation-failed"},
		{"Device is busy", "", "", "ucx-operation-failed"},
		{"Request canceled", "", "", ""},
		{"Shared memory error", "", "", "ucx-operation-failed"},
		{"Element already exists", "", "", ""},
		{"Index out of range", "", "", "ucx-operation-failed"},
		{"Operation timed out", "", "", "ucx-peer-failure"},
		{"User-defined limit was reached", "", "", "ucx-operation-failed"},
		{"Unsupported operation", "", "", "ucx-operation-failed"},
		{"Operation rejected by remote peer", "", "", "ucx-peer-failure"},
		{"Endpoint is not connected", "", "", "ucx-peer-failure"},
		{"Connection reset by remote peer", "", "", "ucx-peer-failure"},
		{"Endpoint timeout", "", "", "ucx-peer-failure"},
	},
}

// vocabExamples are the examples of the records the vocabularies added.
var vocabExamples = map[string]example{
	"cuda-driver-shutting-down": {
		match: []string{
			"torch.AcceleratorError: CUDA error: driver shutting down",
			"Exception ignored in: <function CudaIPCMemory.__del__>\nRuntimeError: CUDA driver error: driver shutting down",
			"cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorCudartUnloading: driver shutting down",
		},
		miss: []string{
			hdr("Shutting down the scheduler."),
			"INFO:     Shutting down",
		},
	},
	"cuda-api-misuse": {
		match: []string{
			tb("RuntimeError: CUDA error: invalid device symbol"),
			"RuntimeError: CUDA error: context is destroyed",
			"RuntimeError: HIP error: the operation cannot be performed in the present state",
			"cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorHostMemoryAlreadyRegistered: part or all of the requested memory range is already mapped",
		},
		miss: []string{
			"RuntimeError: CUDA error: invalid argument",
			"ValueError: invalid device symbol table in the config",
		},
	},
	"cuda-mps-error": {
		match: []string{
			"RuntimeError: CUDA error: MPS client failed to connect to the MPS control daemon or the MPS server",
			"torch.AcceleratorError: CUDA error: the MPS client has been terminated by the server",
			"RuntimeError: cuInit failed with CUresult CUDA_ERROR_MPS_SERVER_NOT_READY",
		},
		miss: []string{
			"nvidia-cuda-mps-control -d started",
			"RuntimeError: CUDA error: unknown error",
		},
	},
	"network-connection-failed": {
		match: []string{
			tb("ConnectionRefusedError: [Errno 111] Connection refused"),
			"E0528 00:11:09.418211 4021 client.cpp:188] connect() failed: No route to host",
			"Error: error sending request: Connection timed out (os error 110)",
			`Error: Head "http://127.0.0.1:11434/": dial tcp 127.0.0.1:11434: connect: connection refused`,
		},
		miss: []string{
			"gpu-3:4012:4190 [0] NCCL INFO Call to connect returned Connection refused, retrying",
			"[W528 00:11:09.000000000 socket.cpp:752] [c10d] The client socket has failed to connect to [node-0]:29500 (errno: 111 - Connection refused).",
		},
	},
	"filesystem-access-denied": {
		match: []string{
			tb("PermissionError: [Errno 13] Permission denied: '/root/.cache/huggingface/hub'"),
			"OSError: [Errno 30] Read-only file system: '/models/.triton'",
			"Error: open /root/.ollama/id_ed25519: permission denied",
		},
		miss: []string{
			"RuntimeError: CUDA error: operation not permitted",
			"set_mempolicy: Operation not permitted",
		},
	},
	"path-not-found": {
		match: []string{
			tb("FileNotFoundError: [Errno 2] No such file or directory: '/models/Llama-3.1-8B/config.json'"),
			"OSError: [Errno 19] No such device",
			"Error: open /models/llama.gguf: no such file or directory",
		},
		miss: []string{
			"/tmp/x.cu:3:10: fatal error: cutlass/cutlass.h: No such file or directory",
			"ImportError: libcudart.so.12: cannot open shared object file: No such file or directory",
		},
	},
	"device-or-resource-busy": {
		match: []string{
			tb("OSError: [Errno 16] Device or resource busy: '/dev/shm/sglang_shm_0'"),
			"E0528 00:11:09.418211 4021 shm.cpp:88] shm_unlink failed: Device or resource busy",
		},
		miss: []string{
			"RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable",
			"Device busy, retrying in 1s",
		},
	},
	"os-input-output-error": {
		match: []string{
			tb("OSError: [Errno 5] Input/output error: '/mnt/models/model-00003-of-00030.safetensors'"),
			"Error: read /mnt/models/blobs/sha256-3f1c: input/output error",
		},
		miss: []string{
			"[1716880269.123456] [node-2:4012:0] ucp_worker.c:1789 UCX ERROR error 'Input/output error' will not be handled for ep 0x7f",
			"Input/output stats: 12 MB read",
		},
	},
	"grpc-server-error": {
		match: []string{
			"grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.UNKNOWN\n\tdetails = \"Exception calling application: list index out of range\"",
			`level=error msg="infer failed" error="rpc error: code = Internal desc = stream terminated by RST_STREAM with error code: INTERNAL_ERROR"`,
			`Error: status: DataLoss, message: "checksum mismatch"`,
		},
		miss: []string{"\tstatus = StatusCode.INVALID_ARGUMENT", "grpc server started, internal port 30001"},
	},
	"grpc-resource-exhausted": {
		match: []string{
			"grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.RESOURCE_EXHAUSTED\n\tdetails = \"Received message larger than max (8388608 vs. 4194304)\"",
			`rpc error: code = ResourceExhausted desc = grpc: received message larger than max (8388608 vs. 4194304)`,
		},
		miss: []string{"\tstatus = StatusCode.UNAVAILABLE", "max_receive_message_length set to 4194304"},
	},
	"grpc-unimplemented": {
		match: []string{
			"grpc.aio._call.AioRpcError: <AioRpcError of RPC that terminated with:\n\tstatus = StatusCode.UNIMPLEMENTED\n\tdetails = \"Method not found!\"",
			`Error: status: Unimplemented, message: "unknown service sglang.grpc.scheduler.SglangScheduler"`,
		},
		miss: []string{"NotImplementedError: not implemented for this backend", "\tstatus = StatusCode.OK"},
	},
	"grpc-auth-failed": {
		match: []string{
			"\tstatus = StatusCode.UNAUTHENTICATED\n\tdetails = \"Invalid API key\"",
			`rpc error: code = PermissionDenied desc = RBAC: access denied`,
		},
		miss: []string{"\tstatus = StatusCode.NOT_FOUND", "authentication enabled for the gRPC server"},
	},
	"nvml-gpu-hardware-error": {
		match: []string{
			tb("pynvml.NVMLError_CorruptedInforom: Corrupted infoROM"),
			"WARNING: infoROM is corrupted at gpu 0000:3B:00.0",
			"nvmlDeviceGetPowerUsage failed: NVML_ERROR_INSUFFICIENT_POWER",
		},
		miss: []string{
			"Power draw 312.45 W of 700.00 W",
			"pynvml.NVMLError_NotSupported: Not Supported",
		},
	},
	"nvml-query-failed": {
		match: []string{
			tb("pynvml.NVMLError_NoPermission: Insufficient Permissions"),
			"Failed to initialize NVML: Insufficient Permissions",
			`level=warning msg="failed to query GPU 0" error="nvml: Timeout"`,
		},
		miss: []string{
			"pynvml.NVMLError_NotFound: Not Found",
			"request Timeout: 30s",
		},
	},
	"rocm-smi-query-failed": {
		match: []string{
			tb("amdsmi.amdsmi_exception.AmdSmiLibraryException: Error code:\n\t10 | AMDSMI_STATUS_NO_PERM - Permission Denied"),
			"ERROR: GPU[3]\t: rsmi_dev_busy_percent_get failed: RSMI_STATUS_FILE_ERROR",
		},
		miss: []string{
			"ERROR: GPU[3]\t: rsmi_dev_power_cap_get failed: RSMI_STATUS_NOT_SUPPORTED",
			"amdsmi.amdsmi_exception.AmdSmiLibraryException: Error code:\n\t2 | AMDSMI_STATUS_NOT_SUPPORTED - Feature not supported",
		},
	},
	"rdma-work-completion-error": {
		match: []string{
			"E0528 00:11:09.418211 4021 rdma_context.cpp:412] Work completion error, status: transport retry counter exceeded, vendor_err: 0x81",
			"gloo::EnforceNotMet: [enforce fail at gloo/transport/ibverbs/pair.cc:470] wc->status == IBV_WC_SUCCESS. 12 vs 0. Send for slot 0: remote access error",
			"ibv_poll_cq: completion failed with IBV_WC_WR_FLUSH_ERR",
		},
		miss: []string{
			"E0528 00:11:09.418211 4021 rdma_context.cpp:412] Work completion, status: success",
			"/tmp/x.cu:3:10: fatal error: cutlass/cutlass.h: No such file or directory",
		},
	},
	"ucx-peer-failure": {
		match: []string{
			"[1752044541.372091] [gpu-3:4012 :1]        ucp_worker.c:1789 UCX  ERROR ucp_ep_create() failed: Destination is unreachable",
			"W0528 00:11:09.418211 4021 ucx_utils.cpp:102] Unexpected UCX error: Connection reset by remote peer",
		},
		miss: []string{
			"[1752044541.372091] [gpu-3:4012 :1]        ucp_ep.c:1661 UCX  ERROR ep 0x7f3a2c0b8000: error 'Endpoint timeout' will not be handled since no error callback is installed",
			"[1752044541.372091] [gpu-3:4012 :1]        ucp_worker.c:1789 UCX  DEBUG endpoint timeout set to 30s",
		},
	},
	"ucx-operation-failed": {
		match: []string{
			"[1752044541.372091] [gpu-3:4012 :1]        ucp_mm.c:72   UCX  ERROR ucp_mem_map() failed: Out of memory",
			"W0528 00:11:09.418211 4021 ucx_utils.cpp:102] Unexpected UCX error: Shared memory error",
		},
		miss: []string{
			"[1752044541.372091] [gpu-3:4012 :1]        ucp_ep.c:1661 UCX  ERROR ep 0x7f3a2c0b8000: error 'Out of memory' will not be handled since no error callback is installed",
			"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
			// A verbs call's failure is the errno of the call, not a UCX status.
			"[1745499308.854013] [node-7:760  :0]       ib_device.c:1332 UCX  ERROR   ibv_create_ah(dlid=49152 sl=0 port=1) for UD mlx5 connect on mlx5_0 failed: No such device",
		},
	},
}

var vocabWidenedExamples = map[string]example{
	"ucx-endpoint-error-unhandled": {
		match: []string{
			"[1752044541.372091] [gpu-3:4012 :1]        ucp_ep.c:1661 UCX  ERROR ep 0x7f3a2c0b8000: error 'Shared memory error' will not be handled since no error callback is installed",
		},
	},
}

func init() { addExamples(vocabExamples, vocabWidenedExamples) }
