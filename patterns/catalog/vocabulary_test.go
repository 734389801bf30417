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
// returns the record that leads the last diagnosis, an unclassified
// consequence after a record's failure aside (nil when no entry is a
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
		if d.Cause == nil && d.Role == patterns.RoleConsequence && lead != nil {
			// An unclassified consequence after the failure (uv's
			// "╰─▶ ... failed (exit status: 1)" under its "× "
			// summary) folds into that failure's incident.
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
	cannCodes,
	npuDeviceErrors,
	cublasStatus,
	cudnnStatus,
	zmqErrors,
	tlsErrors,
	resolverErrors,
	shellSignals,
	faulthandlerSignals,
	hfHubErrors,
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
		// The CUDACHECK of the custom all-reduce kernels of vLLM and
		// sglang (and of NCCL's examples), which prints the file, the line
		// and cudaGetErrorString, then exits.
		{Field: fieldText, Format: "Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:364 '%s'"},
		{Field: fieldText, Format: "(VllmWorker rank=2 pid=8812) Failed: Cuda error /sgl-workspace/sglang/sgl-kernel/csrc/allreduce/custom_all_reduce.cuh:307 '%s'"},
		// vLLM's later CUDACHECK drops the words "Cuda error".
		{Field: fieldText, Format: "Failed: /home/runner/work/vllm/vllm/csrc/custom_all_reduce.cuh:310 '%s'"},
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
// CUDACHECK: "Cuda failure [<code>] '<cudaGetErrorString>'", RCCL's "HIP
// failure") for every text of the CUDA and HIP vocabularies. A CUDA error
// with a record of its own is read by that record in NCCL's words too
// (ncclOwnRecord lists them; nccl-cuda-failure's pattern leaves exactly
// these out); nccl-cuda-failure reads the rest.
func ncclCudaFailures() vocabulary {
	v := vocabulary{
		name: "NCCL Cuda failure",
		shapes: []vocabShape{
			{Field: fieldText, Format: "gpu-node-3:2210:2391 [4] enqueue.cc:1529 NCCL WARN Cuda failure '%s'"},
			{Field: fieldText, Format: "host-a:90:412 [0] init.cc:1861 NCCL WARN Cuda failure 700 '%s'"},
			// RCCL, NCCL's ROCm build, says HIP for its hipified checks.
			{Field: fieldText, Format: "mi300-2:3311:3390 [3] NCCL WARN HIP failure '%s' at /rccl/src/init.cc:1702"},
		},
	}
	seen := map[string]bool{}
	for _, t := range append(slices.Clone(cudaRuntime.terms), hipRuntime.terms...) {
		if t.text == "" || seen[t.text] || t.want == "" && t.text != "no error" {
			continue
		}
		seen[t.text] = true
		want := "nccl-cuda-failure"
		if ncclOwnRecord[t.text] {
			want = t.want
		}
		v.terms = append(v.terms, vocabTerm{text: t.text, want: want})
	}
	return v
}

// ncclOwnRecord are the CUDA and HIP error texts whose own record reads
// them in NCCL's report too.
var ncclOwnRecord = map[string]bool{
	"API call is not supported in the installed CUDA driver":                       true,
	"CUDA driver is a stub library":                                                true,
	"CUDA driver version is insufficient for CUDA runtime version":                 true,
	"CUDA-capable device(s) is/are busy or unavailable":                            true,
	"MPS client failed to connect to the MPS control daemon or the MPS server":     true,
	"MPS server is not ready to accept new MPS client requests":                    true,
	"OS call failed or operation not supported on this OS":                         true,
	"PTX JIT compilation was disabled":                                             true,
	"PTX JIT compiler library not found":                                           true,
	"a PTX JIT compilation failed":                                                 true,
	"an illegal instruction was encountered":                                       true,
	"an illegal memory access was encountered":                                     true,
	"attempt to terminate a thread-local capture sequence from another thread":     true,
	"capture was not ended in the same stream as it began":                         true,
	"capturing stream has unjoined work":                                           true,
	"dependency created on uncaptured work in another stream":                      true,
	"device doesn't have valid Grid license":                                       true,
	"device kernel image is invalid":                                               true,
	"device-side assert triggered":                                                 true,
	"driver version is insufficient for runtime version":                           true,
	"exclusive-thread device already in use by a different thread":                 true,
	"forward compatibility was attempted on non supported HW":                      true,
	"initialization error":                                                         true,
	"invalid configuration argument":                                               true,
	"invalid device function":                                                      true,
	"invalid device ordinal":                                                       true,
	"invalid resource handle":                                                      true,
	"no CUDA-capable device is detected":                                           true,
	"no ROCm-capable device is detected":                                           true,
	"no kernel image is available for execution on the device":                     true,
	"operation failed due to a previous error during capture":                      true,
	"operation not permitted on an event last recorded in a capturing stream":      true,
	"operation not permitted when stream is capturing":                             true,
	"operation not permitted":                                                      true,
	"operation not supported":                                                      true,
	"operation would make the legacy stream depend on a capturing blocking stream": true,
	"operation would result in a merge of separate capture sequences":              true,
	"out of memory": true,
	"peer access is not supported between these two devices":          true,
	"runtime call other than memory returned error":                   true,
	"runtime memory call returned error":                              true,
	"system has unsupported display driver / cuda driver combination": true,
	"system not yet initialized":                                      true,
	"the MPS client has been terminated by the server":                true,
	"the graph update was not performed because it included changes which violated constraints specific to instantiated graph update": true,
	"the hardware resources required to create MPS client have been exhausted":                                                        true,
	"the hardware resources required to support device connections have been exhausted":                                               true,
	"the launch timed out and was terminated":                                                                                         true,
	"the provided PTX was compiled with an unsupported toolchain.":                                                                    true,
	"the remote procedural call between the MPS server and the MPS client failed":                                                     true,
	"too many blocks in cooperative launch":                                                                                           true,
	"too many resources requested for launch":                                                                                         true,
	"uncorrectable ECC error encountered":                                                                                             true,
	"uncorrectable NVLink error was detected during the execution":                                                                    true,
	"unknown error": true,
	"unspecified launch failure in prior launch": true,
	"unspecified launch failure":                 true,
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
		{Field: fieldText, Format: "gpu-3:4012:4190 [0] misc/socket.cc:431 NCCL WARN Call to bind failed : %s"},
		// Go's lower-case texts of a missing path, a refused permission or a
		// busy device are left to the line's level: Go servers (Ollama's GPU
		// and library discovery) print them in routine lines too.
		{Field: fieldAlt, Format: `time=2026-05-28T00:11:09.418Z level=ERROR source=server.go:412 msg="request failed" error="%s"`, Override: map[string]string{
			"open /root/.ollama/models/manifests: permission denied":    "",
			"mkdir /models/.cache: read-only file system":               "",
			"open /models/llama/config.json: no such file or directory": "",
			"open /dev/nvidia3: no such device":                         "",
			"open /dev/infiniband/uverbs0: no such device or address":   "",
			"unlinkat /dev/shm/nccl-KqQ7oV: device or resource busy":    "",
		}},
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
		// UCP's endpoint error callback, in the wording of UCX's
		// client-server example that its users keep.
		{Field: fieldText, Format: "error handling callback was invoked with status -3 (%s)"},
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

// cannCodes are the CANN error codes of the Ascend stack ("E", the module,
// four digits; 9000-9999 are a module's inner errors) with their messages,
// arguments filled: HCCL's and HCCP's user errors (hcomm's error_code
// table: EI0001-EI0017, EJ0001-EJ0004), the runtime's named codes, and
// every module's inner error, as torch_npu and the CANN runtime print them.
var cannCodes = vocabulary{
	name: "CANN error codes",
	shapes: []vocabShape{
		{Field: fieldText, All: true, Format: tb("RuntimeError: [ERROR] HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64\n[ERROR] 2025-05-21-11:57:54 (PID:927000, Device:3, RankID:3) ERR02200 DIST call hccl api failed.\n%[2]s: 2025-05-21-11:57:54.167.645 %[1]s")},
		{Field: fieldText, All: true, Format: "%[2]s: [PID: 1162] 2025-02-20-02:16:03.427.598 %[1]s"},
	},
	terms: []vocabTerm{
		{"Environment variable [HCCL_BUFFSIZE] is invalid. Reason: value must be at least 1.", "EI0001", "", "hccl-config-invalid"},
		{"The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank: [3]. base information: [streamID:[2]]. task information: []. group information: [group:[hccl_world_group]]", "EI0002", "", "npu-stream-sync-timeout"},
		{"In [AllReduce], value [0] for parameter [count] is invalid. Reason: The collective communication operator has an invalid argument. Reason[count is 0]", "EI0003", "", "hccl-config-invalid"},
		{"The ranktable or rank is invalid,Reason:[The ranktable file does not exist]. Please check the configured ranktable. [/etc/hccl.json]", "EI0004", "", "hccl-config-invalid"},
		{"The arguments for collective communication are inconsistent between ranks: tag [AllReduce_1], parameter [count], local [4096], remote [2048]", "EI0005", "", "hccl-config-invalid"},
		{"Getting socket times out. Reason: 1. The remote does not initiate a connect request.", "EI0006", "", "hccl-connect-failed"},
		{"Failed to allocate resource[HCCL_BUFFER] with info [size 209715200]. Reason: Memory resources are exhausted.", "EI0007", "", "npu-out-of-memory"},
		{"The HCCL versions are inconsistent: tag [AllReduce_1], local_version [8.0.RC3], remote_version [8.0.RC2]", "EI0008", "", "hccl-config-invalid"},
		{"Device 3 transport init error. Reason: The network port is down.", "EI0009", "", "hccl-connect-failed"},
		{"P2P communication failed. Reason: peer device 3 is not reachable", "EI0010", "", "hccl-config-invalid"},
		{"Failed to allocate [209715200] bytes of NPU memory.", "EI0011", "", "npu-out-of-memory"},
		{"SDMA memory copy task exception occurred. Remote rank: [5]. Base information: [streamID:[4]]. Task information: []. Communicator information: [group:[tp]].", "EI0012", "", "ascend-sdma-copy-failed"},
		{"An error CQE occurred during operator execution. Local information: server 10.0.0.1, device ID 3, device IP 29.0.0.3. Peer information: server 10.0.0.2, device ID 3, device IP 29.0.1.3.", "EI0013", "", "rdma-work-completion-error"},
		{"The ranktable information check failed, Reason:[device ip 29.0.0.3 does not match the device].", "EI0014", "", "hccl-config-invalid"},
		{"Failed to collect cluster information of the communicator based on rootInfo detection. Reason: wait for all ranks timeout.", "EI0015", "", "hccl-connect-failed"},
		{"Value 0 for config HCCL_CONNECT_TIMEOUT is invalid. Expected value: [120, 7200].", "EI0016", "", "hccl-config-invalid"},
		{"Config server_count is missing in the ranktable file.", "EI0017", "", "hccl-config-invalid"},
		{"Failed to initialize the HCCP process. Reason: Maybe the last training process is running.", "EJ0001", "", "hccp-init-failed"},
		{"The network port is down.Suggest: check the link of device 3 with hccn_tool -i 3 -link -g", "EJ0002", "", "hccp-network-error"},
		{"Failed to bind the IP port. Reason: the port 16666 is in use", "EJ0003", "", "hccp-network-error"},
		{"Check ip fail. Reason: device ip 29.0.0.3 is not configured", "EJ0004", "", "hccp-network-error"},
		{"Stream synchronize timeout. rtDeviceSynchronize execute failed, reason=[stream sync timeout]", "EE1002", "", "npu-stream-sync-timeout"},
		{"Inner Error!", "EE9999", "", "ascend-cann-inner-error"},
		{"Inner Error!", "EI9999", "", "ascend-cann-inner-error"},
		{"Inner Error!", "EH9999", "", "ascend-cann-inner-error"},
		{"Inner Error!", "EZ9999", "", "ascend-cann-inner-error"},
		{"Inner Error!", "EL9999", "", "ascend-cann-inner-error"},
		{"Inner Error!", "EK9999", "", "ascend-cann-inner-error"},
		{"Inner Error!", "E19999", "", "ascend-cann-inner-error"},
		{"Inner Error!", "E29999", "", "ascend-cann-inner-error"},
		{"Inner Error!", "E39999", "", "ascend-cann-inner-error"},
	},
}

// npuDeviceErrors are torch_npu's device errors (NPUQueue's deviceErrorMap,
// and the ProcessGroupHCCL list of the same labels): the task queue raises
// "<label>, <CANN message>" and logs "<label> happened"; and its exit on an
// inner error, which points at the CANN error printed above it.
var npuDeviceErrors = vocabulary{
	name: "torch_npu device errors",
	shapes: []vocabShape{
		{Field: fieldText, Format: tb("RuntimeError: %s, [ERROR] 2025-05-21-11:57:54 (PID:927000, Device:3, RankID:3) ERR00100 PTA call acl api failed")},
		{Field: fieldText, Format: "[ERROR] 2025-05-21-11:57:54.167.645 [NPUQueue.cpp:262]927000 MakeSureQueueEmpty: %s happened."},
	},
	terms: []vocabTerm{
		{"UCE ERROR", "", "", "npu-memory-hardware-error"},
		{"HBM MULTI BIT ECC ERROR", "", "", "npu-memory-hardware-error"},
		{"SUSPECT MEM ERROR", "", "", "npu-memory-hardware-error"},
		{"HCCS LINK ERROR", "", "", "npu-link-error"},
		{"HCCL OP RETRY FAILED", "", "", "npu-link-error"},
		{"SUSPECT REMOTE ERROR", "", "", "npu-link-error"},
		{"FORCE STOP", "", "", "npu-force-stop"},
	},
}

// cublasStatus is cuBLAS's cublasStatus_t (the cuBLAS library reference),
// as torch's cuBLAS and cuBLASLt checks and cupy raise it.
var cublasStatus = vocabulary{
	name: "cuBLAS cublasStatus_t",
	shapes: []vocabShape{
		{Field: fieldName, Format: tb("RuntimeError: CUDA error: %s when calling `cublasGemmEx( handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16BF, lda, b, CUDA_R_16BF, ldb, &fbeta, c, CUDA_R_16BF, ldc, compute_type, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`")},
		{Field: fieldName, Format: "cupy_backends.cuda.libs.cublas.CUBLASError: %s"},
	},
	terms: []vocabTerm{
		{"", "CUBLAS_STATUS_SUCCESS", "", ""},
		{"", "CUBLAS_STATUS_NOT_INITIALIZED", "", "cublas-status-error"},
		{"", "CUBLAS_STATUS_ALLOC_FAILED", "", "cublas-status-error"},
		{"", "CUBLAS_STATUS_INVALID_VALUE", "", "cublas-status-error"},
		{"", "CUBLAS_STATUS_ARCH_MISMATCH", "", "cublas-status-error"},
		{"", "CUBLAS_STATUS_MAPPING_ERROR", "", "cublas-status-error"},
		{"", "CUBLAS_STATUS_EXECUTION_FAILED", "", "cublas-status-error"},
		{"", "CUBLAS_STATUS_INTERNAL_ERROR", "", "cublas-status-error"},
		{"", "CUBLAS_STATUS_NOT_SUPPORTED", "", "cublas-status-error"},
		{"", "CUBLAS_STATUS_LICENSE_ERROR", "", "cublas-status-error"},
	},
}

// cudnnStatus is cuDNN's cudnnStatus_t (the cuDNN API reference), as
// torch's cuDNN checks print it.
var cudnnStatus = vocabulary{
	name: "cuDNN cudnnStatus_t",
	shapes: []vocabShape{
		{Field: fieldName, Format: tb("RuntimeError: cuDNN error: %s")},
		{Field: fieldName, Format: "E0528 00:11:09.418211 4021 conv.cc:88] cudnnConvolutionForward returned %s"},
	},
	terms: []vocabTerm{
		{"", "CUDNN_STATUS_SUCCESS", "", ""},
		{"", "CUDNN_STATUS_NOT_INITIALIZED", "", "cudnn-status-error"},
		{"", "CUDNN_STATUS_ALLOC_FAILED", "", "cudnn-status-error"},
		{"", "CUDNN_STATUS_BAD_PARAM", "", "cudnn-status-error"},
		{"", "CUDNN_STATUS_INTERNAL_ERROR", "", "cudnn-status-error"},
		{"", "CUDNN_STATUS_INVALID_VALUE", "", "cudnn-status-error"},
		{"", "CUDNN_STATUS_ARCH_MISMATCH", "", "cudnn-status-error"},
		{"", "CUDNN_STATUS_MAPPING_ERROR", "", "cudnn-status-error"},
		{"", "CUDNN_STATUS_EXECUTION_FAILED", "", "cudnn-status-error"},
		{"", "CUDNN_STATUS_NOT_SUPPORTED", "", "cudnn-status-error"},
		{"", "CUDNN_STATUS_LICENSE_ERROR", "", "cudnn-status-error"},
		{"", "CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING", "", "cudnn-status-error"},
		{"", "CUDNN_STATUS_VERSION_MISMATCH", "", "cudnn-status-error"},
		{"", "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH", "", "cudnn-status-error"},
		{"", "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED", "", "cudnn-status-error"},
	},
}

// zmqErrors are the errors pyzmq raises from libzmq (zmq_strerror: the
// system's strerror for system errnos, libzmq's own texts for its EFSM,
// ENOCOMPATPROTO and ETERM), with the exception class pyzmq picks, as the
// processes of a serving engine meet them on their IPC sockets.
var zmqErrors = vocabulary{
	name: "pyzmq ZMQError",
	shapes: []vocabShape{
		{Field: fieldText, All: true, Format: tb("zmq.error.%[2]s: %[1]s")},
		{Field: fieldText, All: true, Format: "zmq.error.%[2]s: %[1]s (addr='tcp://10.0.0.5:5757')"},
	},
	terms: []vocabTerm{
		{"Address already in use", "ZMQError", "", "address-already-in-use"},
		{"Cannot assign requested address", "ZMQError", "", "network-address-not-available"},
		{"No such device", "ZMQError", "", "path-not-found"},
		{"No such file or directory", "ZMQError", "", "path-not-found"},
		{"Permission denied", "ZMQError", "", "filesystem-access-denied"},
		{"Too many open files", "ZMQError", "", "too-many-open-files"},
		{"Resource temporarily unavailable", "Again", "", "zmq-resource-temporarily-unavailable"},
		{"Operation cannot be accomplished in current state", "ZMQError", "", "zmq-socket-state-error"},
		{"The protocol is not compatible with the socket type", "ZMQError", "", "zmq-socket-state-error"},
		{"Context was terminated", "ContextTerminated", "", "zmq-context-terminated"},
	},
}

// tlsErrors are the TLS failures a server's clients meet (to a model hub,
// a peer server, a gateway): OpenSSL's reason codes and texts as Python's
// ssl module prints them ("[SSL: <REASON>] <text>"), and the words of Go's
// crypto/tls and x509 and of rustls for the same failures.
var tlsErrors = vocabulary{
	name: "TLS (OpenSSL reasons, Go x509/tls, rustls)",
	shapes: []vocabShape{
		{Field: fieldText, All: true, Format: tb("ssl.SSLError: [SSL: %[2]s] %[1]s (_ssl.c:1006)")},
		{Field: fieldText, All: true, Format: "requests.exceptions.SSLError: HTTPSConnectionPool(host='api.internal.example', port=443): Max retries exceeded with url: /v1/models (Caused by SSLError(SSLError(1, '[SSL: %[2]s] %[1]s (_ssl.c:1006)')))"},
		// To the model hub too, a certificate or protocol failure is the
		// cause to fix; a dropped connection is the hub's record's.
		{Field: fieldText, All: true, Format: "requests.exceptions.SSLError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /api/models/Qwen/Qwen3-8B (Caused by SSLError(SSLError(1, '[SSL: %[2]s] %[1]s (_ssl.c:1006)')))", Override: map[string]string{
			"EOF occurred in violation of protocol": "hf-hub-unreachable",
			"decryption failed or bad record mac":   "hf-hub-unreachable",
		}},
		{Field: fieldAlt, Format: `Error: Get "https://api.internal.example/v1/models": %s`},
	},
	terms: []vocabTerm{
		{"certificate verify failed: unable to get local issuer certificate", "CERTIFICATE_VERIFY_FAILED", "tls: failed to verify certificate: x509: certificate signed by unknown authority", "tls-certificate-untrusted"},
		{"certificate verify failed: certificate has expired", "CERTIFICATE_VERIFY_FAILED", "tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time 2026-05-28T00:11:09Z is after 2026-01-01T00:00:00Z", "tls-certificate-untrusted"},
		{"certificate verify failed: Hostname mismatch, certificate is not valid for 'api.internal.example'.", "CERTIFICATE_VERIFY_FAILED", "tls: failed to verify certificate: x509: certificate is valid for gateway.internal.example, not api.internal.example", "tls-certificate-untrusted"},
		{"tlsv1 alert unknown ca", "TLSV1_ALERT_UNKNOWN_CA", "remote error: tls: unknown certificate authority", "tls-certificate-untrusted"},
		{"sslv3 alert bad certificate", "SSLV3_ALERT_BAD_CERTIFICATE", "remote error: tls: bad certificate", "tls-certificate-untrusted"},
		{"tlsv13 alert certificate required", "TLSV13_ALERT_CERTIFICATE_REQUIRED", "remote error: tls: certificate required", "tls-certificate-untrusted"},
		{"wrong version number", "WRONG_VERSION_NUMBER", "http: server gave HTTP response to HTTPS client", "tls-protocol-mismatch"},
		{"http request", "HTTP_REQUEST", "tls: first record does not look like a TLS handshake", "tls-protocol-mismatch"},
		{"tlsv1 alert protocol version", "TLSV1_ALERT_PROTOCOL_VERSION", "remote error: tls: protocol version not supported", "tls-protocol-mismatch"},
		{"sslv3 alert handshake failure", "SSLV3_ALERT_HANDSHAKE_FAILURE", "remote error: tls: handshake failure", "tls-protocol-mismatch"},
		{"no shared cipher", "NO_SHARED_CIPHER", "", "tls-protocol-mismatch"},
		{"unsafe legacy renegotiation disabled", "UNSAFE_LEGACY_RENEGOTIATION_DISABLED", "", "tls-protocol-mismatch"},
		{"no protocols available", "NO_PROTOCOLS_AVAILABLE", "", "tls-protocol-mismatch"},
		{"EOF occurred in violation of protocol", "UNEXPECTED_EOF_WHILE_READING", "", "tls-connection-dropped"},
		{"decryption failed or bad record mac", "DECRYPTION_FAILED_OR_BAD_RECORD_MAC", "", "tls-connection-dropped"},
	},
}

// resolverErrors are the name-resolution failures: glibc's gai_strerror
// texts for getaddrinfo's EAI codes (the number is Python's errno for
// them), as Python's socket.gaierror, urllib3's NameResolutionError and
// Rust's lookup print them, and Go's resolver's own words.
var resolverErrors = vocabulary{
	name: "resolver gai_strerror",
	shapes: []vocabShape{
		{Field: fieldText, All: true, Format: tb("socket.gaierror: [Errno %[2]s] %[1]s")},
		{Field: fieldText, All: true, Format: "requests.exceptions.ConnectionError: HTTPConnectionPool(host='prefill-0.prefill', port=8000): Max retries exceeded with url: /health (Caused by NameResolutionError(\"<urllib3.connection.HTTPConnection object at 0x7f3a2c0b8d10>: Failed to resolve 'prefill-0.prefill' ([Errno %[2]s] %[1]s)\"))"},
		{Field: fieldText, Format: "2026-05-28T00:11:09.418211Z ERROR sgl_model_gateway::core::worker: error sending request for url (http://prefill-0.prefill:8000/health): client error (Connect): dns error: failed to lookup address information: %s"},
		{Field: fieldAlt, Format: `Error: Get "http://prefill-0.prefill:8000/health": %s`},
	},
	terms: []vocabTerm{
		{"Name or service not known", "-2", "dial tcp: lookup prefill-0.prefill on 10.96.0.10:53: no such host", "dns-resolution-failed"},
		{"Temporary failure in name resolution", "-3", "dial tcp: lookup prefill-0.prefill on 10.96.0.10:53: server misbehaving", "dns-resolution-failed"},
		{"No address associated with hostname", "-5", "dial tcp: lookup prefill-0.prefill on 10.96.0.10:53: read udp 10.1.2.3:53124->10.96.0.10:53: i/o timeout", "dns-resolution-failed"},
		{"Non-recoverable failure in name resolution", "-4", "", "dns-resolution-failed"},
	},
}

// shellSignals are the signal texts (glibc's strsignal) a shell prints when
// a child it ran dies of a signal: in its job report ("line N: PID
// <text> <command>") and alone, with "(core dumped)" for the signals that
// dump core. A SIGTERM is a stop, not a failure.
var shellSignals = vocabulary{
	name: "shell signal reports (strsignal)",
	shapes: []vocabShape{
		{Field: fieldText, Format: "./run_server.sh: line 3:  4021 %s python3 -m sglang.launch_server --model-path /models/Qwen3-8B"},
		// A bare "Killed" line is read by the analysis itself, as a native
		// failure with no record; a bare "Aborted (core dumped)" is the
		// abort's record, as the shell's job report is.
		{Field: fieldText, Format: "%s", Override: map[string]string{"Killed": ""}},
	},
	terms: []vocabTerm{
		{"Segmentation fault      (core dumped)", "", "", "process-segfault-core-dumped"},
		{"Aborted                 (core dumped)", "", "", "process-aborted-core-dumped"},
		{"Bus error               (core dumped)", "", "", "shared-memory-bus-error"},
		{"Illegal instruction     (core dumped)", "", "", "cpu-illegal-instruction"},
		{"Floating point exception(core dumped)", "", "", "process-floating-point-exception"},
		{"Killed", "", "", "process-killed-sigkill"},
		{"Terminated", "", "", ""},
	},
}

// faulthandlerSignals are the fatal signals Python's faulthandler names
// when it catches one ("Fatal Python error: <signal>").
var faulthandlerSignals = vocabulary{
	name: "faulthandler fatal signals",
	shapes: []vocabShape{
		{Field: fieldText, Format: "Fatal Python error: %s\n\nThread 0x00007f3a2c0b8740 (most recent call first):\n  File \"/usr/local/lib/python3.12/dist-packages/sglang/srt/managers/scheduler.py\", line 3120 in run_scheduler_process"},
	},
	terms: []vocabTerm{
		{"Segmentation fault", "", "", "fatal-python-error-segfault"},
		{"Aborted", "", "", "fatal-python-error-aborted"},
		{"Bus error", "", "", "shared-memory-bus-error"},
		{"Illegal instruction", "", "", "cpu-illegal-instruction"},
		{"Floating point exception", "", "", "process-floating-point-exception"},
	},
}

// hfHubErrors are huggingface_hub's exception classes (huggingface_hub.errors)
// with the messages it raises them with, as a server that downloads its
// model prints them in a traceback.
var hfHubErrors = vocabulary{
	name: "huggingface_hub errors",
	shapes: []vocabShape{
		{Field: fieldText, All: true, Format: rawTB("huggingface_hub.errors.%[2]s: %[1]s")},
	},
	terms: []vocabTerm{
		{"404 Client Error. (Request ID: Root=1-6650)\n\nRepository Not Found for url: https://huggingface.co/api/models/org/missing.", "RepositoryNotFoundError", "", "hf-repository-not-found"},
		{"403 Client Error. (Request ID: Root=1-6650)\n\nCannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json.", "GatedRepoError", "", "hf-gated-repo"},
		{"404 Client Error. (Request ID: Root=1-6650)\n\nRevision Not Found for url: https://huggingface.co/api/models/org/model/revision/v2.", "RevisionNotFoundError", "", "hf-repository-not-found"},
		{"404 Client Error. (Request ID: Root=1-6650)\n\nEntry Not Found for url: https://huggingface.co/org/model/resolve/main/tokenizer.model.", "EntryNotFoundError", "", "hf-repository-not-found"},
		{"403 Client Error. (Request ID: Root=1-6650)\n\nAccess to this resource is disabled.", "DisabledRepoError", "", "hf-repository-not-found"},
		{"Cannot find the requested files in the disk cache and outgoing traffic has been disabled. To enable hf.co look-ups and downloads online, set 'local_files_only' to False.", "LocalEntryNotFoundError", "", "hf-offline-cache-miss"},
		{"Cannot reach https://huggingface.co/api/models/org/model: offline mode is enabled. To disable it, please unset the `HF_HUB_OFFLINE` environment variable.", "OfflineModeIsEnabled", "", "hf-offline-cache-miss"},
		{"401 Client Error. (Request ID: Root=1-6650)\n\nInvalid credentials in Authorization header", "HfHubHTTPError", "", "hf-unauthorized-401"},
		{"429 Client Error: Too Many Requests for url: https://huggingface.co/api/models/org/model", "HfHubHTTPError", "", "hf-rate-limited"},
		{"500 Server Error: Internal Server Error for url: https://huggingface.co/api/models/org/model", "HfHubHTTPError", "", "hf-hub-unreachable"},
		{"503 Server Error: Service Unavailable for url: https://huggingface.co/org/model/resolve/main/model-00001-of-00004.safetensors", "HfHubHTTPError", "", "hf-hub-unreachable"},
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
			"ConnectionRefusedError: [Errno 111] Connect call failed ('127.0.0.1', 30000)",
			`Error: Head "http://127.0.0.1:11434/": dial tcp 127.0.0.1:11434: connect: connection refused`,
		},
		miss: []string{
			"gpu-3:4012:4190 [0] NCCL INFO Call to connect returned Connection refused, retrying",
			"Failed to connect to 10.0.0.5:8000: Connection refused (os error 111), retrying in 1s",
			"[W528 00:11:09.000000000 socket.cpp:752] [c10d] The client socket has failed to connect to [node-0]:29500 (errno: 111 - Connection refused).",
		},
	},
	"filesystem-access-denied": {
		match: []string{
			tb("PermissionError: [Errno 13] Permission denied: '/root/.cache/huggingface/hub'"),
			"OSError: [Errno 30] Read-only file system: '/models/.triton'",
			"E0528 00:11:09.418211 4021 hccn.cpp:88] open /dev/davinci_manager failed: Permission denied",
		},
		miss: []string{
			"RuntimeError: CUDA error: operation not permitted",
			"set_mempolicy: Operation not permitted",
			"W0528 00:11:09.418211 4021 cache.cpp:31] mkdir /models/.cache failed: Read-only file system",
		},
	},
	"path-not-found": {
		match: []string{
			tb("FileNotFoundError: [Errno 2] No such file or directory: '/models/Llama-3.1-8B/config.json'"),
			"OSError: [Errno 19] No such device",
			"Error: No such file or directory (os error 2)",
		},
		miss: []string{
			"/tmp/x.cu:3:10: fatal error: cutlass/cutlass.h: No such file or directory",
			"ImportError: libcudart.so.12: cannot open shared object file: No such file or directory",
			// A routine warning at exit, and a message that only quotes a handled error.
			"/usr/lib/python3.10/multiprocessing/resource_tracker.py:237: UserWarning: resource_tracker: '/psm_abc': [Errno 2] No such file or directory: '/psm_abc'",
			"could not open /proc/driver/nvidia/version: [Errno 2] No such file or directory",
			`time=2026-05-28T00:11:09.418Z level=INFO source=gpu.go:221 msg="unable to load library" error="open /usr/lib/libcuda.so.1: no such file or directory"`,
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
	"hccl-config-invalid": {
		match: []string{
			"EI0004: [PID: 1162] 2025-02-20-02:16:03.427.598 The ranktable or rank is invalid,Reason:[The ranktable file does not exist]. Please check the configured ranktable. [/etc/hccl.json]",
			"EI0008: The HCCL versions are inconsistent: tag [AllReduce_1], local_version [8.0.RC3], remote_version [8.0.RC2]",
		},
		miss: []string{
			"EI0006: Getting socket times out. Reason: 1. The remote does not initiate a connect request.",
			"[INFO] HCCL(8812,python3): ranktable loaded from /etc/hccl.json",
		},
	},
	"hccp-init-failed": {
		match: []string{
			"EJ0001: 2024-05-21-11:57:54.167.645 Failed to initialize the HCCP process. Reason: Maybe the last training process is running.",
			tb("RuntimeError: Failed to initialize the HCCP process. Reason: Maybe the last training process is running."),
		},
		miss: []string{
			"EJ0002: The network port is down.Suggest: check the link",
			"HCCP process initialized on device 3",
		},
	},
	"hccp-network-error": {
		match: []string{
			"EJ0002: [PID: 1162] 2025-02-20-02:16:03.427.598 The network port is down.Suggest: check the link of device 3 with hccn_tool -i 3 -link -g",
			"EJ0003: Failed to bind the IP port. Reason: the port 16666 is in use",
		},
		miss: []string{
			"EJ0001: Failed to initialize the HCCP process. Reason: Maybe the last training process is running.",
			"network port 3 is up",
		},
	},
	"ascend-cann-inner-error": {
		match: []string{
			"EE9999: Inner Error!",
			"EZ9999: [PID: 5625] 2025-09-19-14:34:08.166.059 Parse dynamic kernel config fail.",
			rawTB("RuntimeError: E19999: Inner Error!"),
		},
		miss: []string{
			"EE1002: Stream synchronize timeout.",
			"ticket EE99990: closed",
		},
	},
	"npu-memory-hardware-error": {
		match: []string{
			tb("RuntimeError: UCE ERROR, [ERROR] 2025-05-21-11:57:54 (PID:927000, Device:3, RankID:3) ERR00100 PTA call acl api failed"),
			"[ERROR] 2025-05-21-11:57:54.167.645 [NPUQueue.cpp:262]927000 MakeSureQueueEmpty: HBM MULTI BIT ECC ERROR happened.",
		},
		miss: []string{
			"all_err = [\"UCE ERROR\", \"HBM MULTI BIT ECC ERROR\"]",
			"RuntimeError: HCCS LINK ERROR, link down",
		},
	},
	"npu-link-error": {
		match: []string{
			tb("RuntimeError: HCCS LINK ERROR, EI0013: An error CQE occurred during operator execution."),
			"[ERROR] 2025-05-21-11:57:54.167.645 [NPUQueue.cpp:262]927000 MakeSureQueueEmpty: HCCL OP RETRY FAILED happened.",
		},
		miss: []string{
			"network_error = [\"SUSPECT REMOTE ERROR\", \"HCCL OP RETRY FAILED\"]",
			"RuntimeError: UCE ERROR, memory fault",
		},
	},
	"npu-force-stop": {
		match: []string{
			tb("RuntimeError: FORCE STOP, [ERROR] 2025-05-21-11:57:54 (PID:927000, Device:3, RankID:3) ERR00100 PTA call acl api failed"),
			"[ERROR] 2025-05-21-11:57:54.167.645 [NPUQueue.cpp:262]927000 MakeSureQueueEmpty: FORCE STOP happened.",
		},
		miss: []string{
			"force_stop_error = [\"FORCE STOP\"]",
			"stopping the server: force stop requested by the operator",
		},
	},
	"zmq-socket-state-error": {
		match: []string{
			tb("zmq.error.ZMQError: Operation cannot be accomplished in current state"),
			"zmq.error.ZMQError: The protocol is not compatible with the socket type",
		},
		miss: []string{
			"zmq.error.Again: Resource temporarily unavailable",
			"socket state: idle",
		},
	},
	"zmq-context-terminated": {
		match: []string{
			tb("zmq.error.ContextTerminated: Context was terminated"),
			"zmq.error.ZMQError: Context was terminated",
		},
		miss: []string{
			"zmq.error.ZMQError: Operation cannot be accomplished in current state",
			"context terminated cleanly",
		},
	},
	"tls-certificate-untrusted": {
		match: []string{
			"httpx.ConnectError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1006)",
			`Error: Get "https://gateway.internal.example/v1/models": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
			"Error: error sending request: invalid peer certificate: UnknownIssuer",
		},
		miss: []string{
			"ssl.SSLError: [SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1006)",
			"loaded 142 CA certificates from /etc/ssl/certs/ca-certificates.crt",
		},
	},
	"tls-protocol-mismatch": {
		match: []string{
			"ssl.SSLError: [SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1006)",
			`Error: Get "https://10.0.0.5:30000/health": http: server gave HTTP response to HTTPS client`,
		},
		miss: []string{
			"httpx.ConnectError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed",
			"TLS handshake completed with TLSv1.3",
		},
	},
	"tls-connection-dropped": {
		match: []string{
			"ssl.SSLEOFError: [SSL: UNEXPECTED_EOF_WHILE_READING] EOF occurred in violation of protocol (_ssl.c:1006)",
			"urllib3.exceptions.SSLError: EOF occurred in violation of protocol (_ssl.c:2427)",
		},
		miss: []string{
			"ssl.SSLError: [SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1006)",
			"EOFError: Ran out of input",
		},
	},
	"process-floating-point-exception": {
		match: []string{
			"Fatal Python error: Floating point exception",
			"./run_server.sh: line 3:  4021 Floating point exception(core dumped) python3 -m sglang.launch_server --model-path /models/x",
			"Floating point exception (core dumped)",
		},
		miss: []string{
			"ZeroDivisionError: division by zero",
			"FloatingPointError: overflow encountered in exp",
		},
	},
	"process-aborted-core-dumped": {
		match: []string{
			"./run_server.sh: line 3:  4021 Aborted                 (core dumped) python3 -m sglang.launch_server",
			"bash: line 1:   811 Aborted                 /usr/bin/python3 -m vllm.entrypoints.openai.api_server",
			// The shell's report of a foreground command, alone on its
			// line and after the abort's reason, and without a core file.
			// (ROCm/hip#2166, onnx/onnx-tensorrt#518, InternLM/lmdeploy#2048)
			"Aborted (core dumped)",
			"terminate called after throwing an instance of 'std::runtime_error'\n  what():  Failed to create object\nAborted (core dumped)",
			"Aborted (core dumped) ",
			"用internlm2.5-7b-chat 使用 serve 的时候 ，调用API 报错： Aborted (core dumped)",
			"Aborted",
		},
		miss: []string{
			"Fatal Python error: Aborted", "request aborted by the client",
			"INFO 05-12 10:41:13 [async_llm.py:389] Aborted request chatcmpl-3f2a9c.",
			"[2025-11-05 16:39:09 TP0] abort_request rid='78fde411d57a4d7791b63963eac74968'",
			"Aborted!", "Aborted by user", "Task was aborted",
		},
	},
	"process-killed-sigkill": {
		match: []string{
			"./run_server.sh: line 3:  4021 Killed                  python3 -m sglang.launch_server --model-path /models/x",
			"bash: line 1:   811 Killed                  /usr/bin/python3 -m vllm.entrypoints.openai.api_server",
		},
		miss: []string{
			"Killed process 4021 (python3) total-vm:123456kB",
			"[2026-05-28 00:11:09] Killed 3 idle connections",
		},
	},
}

var vocabWidenedExamples = map[string]example{
	"hf-repository-not-found": {
		match: []string{rawTB("huggingface_hub.errors.DisabledRepoError: 403 Client Error. (Request ID: Root=1-6650)\n\nAccess to this resource is disabled.")},
		miss:  []string{"Access to this resource is enabled for your organization."},
	},
	"shared-memory-bus-error": {
		match: []string{"Fatal Python error: Bus error"},
	},
	"dns-resolution-failed": {
		match: []string{
			`Error: Get "http://prefill-0.prefill:8000/health": dial tcp: lookup prefill-0.prefill on 10.96.0.10:53: no such host`,
			"Caused by NameResolutionError(\"<urllib3.connection.HTTPConnection object at 0x7f3a2c0b8d10>: Failed to resolve 'prefill-0.prefill' ([Errno -3] Temporary failure in name resolution)\"))",
		},
		miss: []string{"lookup of prefill-0.prefill succeeded: 10.1.2.3"},
	},
	"path-not-found": {
		match: []string{"zmq.error.ZMQError: No such file or directory (addr='ipc:///tmp/sglang_ipc/tokenizer')"},
	},
	"cublas-status-error": {
		match: []string{"cupy_backends.cuda.libs.cublas.CUBLASError: CUBLAS_STATUS_NOT_INITIALIZED"},
		miss:  []string{"cupy_backends.cuda.libs.cublas.CUBLASError: CUBLAS_STATUS_SUCCESS"},
	},
	"ascend-cann-inner-error": {
		match: []string{
			"RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is MatMulV2.",
		},
	},
	"ucx-endpoint-error-unhandled": {
		match: []string{
			"[1752044541.372091] [gpu-3:4012 :1]        ucp_ep.c:1661 UCX  ERROR ep 0x7f3a2c0b8000: error 'Shared memory error' will not be handled since no error callback is installed",
		},
	},
}

func init() { addExamples(vocabExamples, vocabWidenedExamples) }

// TestVocabularyRoutineLinesDoNotAlert feeds routine lines that carry a
// vocabulary's words without a failure (a retry in progress, a warning
// that quotes a handled error, a query's expected answer, a debug line)
// through the analysis with the whole catalog: none alerts.
func TestVocabularyRoutineLinesDoNotAlert(t *testing.T) {
	checkRoutineSilent(t, compileCatalog(t), []string{
		"gpu-3:4012:4190 [0] NCCL INFO Call to connect returned Connection refused, retrying",
		"[W528 00:11:09.000000000 socket.cpp:752] [c10d] The client socket has failed to connect to [node-0]:29500 (errno: 111 - Connection refused).",
		"/usr/lib/python3.10/multiprocessing/resource_tracker.py:237: UserWarning: resource_tracker: '/psm_abc': [Errno 2] No such file or directory: '/psm_abc'",
		"W0528 00:11:09.418211 4021 rdma_context.cpp:88] ibv_open_device failed: No such device",
		`time=2026-05-28T00:11:09.418Z level=INFO source=gpu.go:221 msg="unable to load library" error="open /usr/lib/libcuda.so.1: no such file or directory"`,
		"[1752044541.372091] [gpu-3:4012 :1]        ucp_worker.c:1200 UCX  DEBUG endpoint timeout set to 30s",
		"gpu-node-3:2210:2210 [4] NCCL INFO cudaDriverVersion 12040",
		"[2026-05-28 00:11:09] Found 8 CUDA devices; peer access enabled between all pairs",
		"INFO:     Shutting down",
	})
}
