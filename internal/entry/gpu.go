package entry

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// GPU runtime error lines that C++ code and kernel libraries print outside
// any Python traceback. Each is one line; torch's epilogue lines follow some.

// parseCUDALine matches CUDA runtime failures as kernel libraries print
// them: "CUDA error: ...", "Cuda failure 1 'invalid argument'" (NCCL's
// "Last error:"), "Failed: Cuda error /x/custom_all_reduce.cuh:307 'invalid
// argument'" and "Failed: /x/custom_all_reduce.cuh:310 'invalid argument'"
// (the custom all-reduce CUDACHECK), "GPUassert: ...", and a line that
// starts with a cudaError name ("cudaErrorIllegalAddress: ...").
func parseCUDALine(s string) bool {
	switch s[0] {
	case 'C', 'c':
		if ascii.HasPrefixFold(s, "CUDA error: ") || ascii.HasPrefixFold(s, "CUDA failure ") || ascii.HasPrefixFold(s, "CUDA failure: ") {
			return true
		}
		return startsWithErrorName(s, "cudaError")
	case 'G':
		return strings.HasPrefix(s, "GPUassert: ")
	case 'F':
		if !strings.HasPrefix(s, "Failed: ") {
			return false
		}
		r := s[len("Failed: "):]
		if ascii.HasPrefixFold(r, "CUDA error ") {
			return true
		}
		// "Failed: <file>.cu[h]:<line> '<reason>'"
		sp := strings.Index(r, " '")
		if sp <= 0 || sp > 512 || !strings.HasSuffix(r, "'") {
			return false
		}
		return isCUDASourceRef(r[:sp])
	}
	return false
}

// isCUDASourceRef matches "path/file.cu:123" (also .cuh, .cc, .cpp).
func isCUDASourceRef(r string) bool {
	c := strings.LastIndexByte(r, ':')
	if c <= 0 || !ascii.Digits(r[c+1:]) || strings.IndexByte(r[:c], ' ') >= 0 {
		return false
	}
	f := r[:c]
	for _, ext := range [...]string{".cu", ".cuh", ".cc", ".cpp", ".h", ".hpp"} {
		if strings.HasSuffix(f, ext) {
			return true
		}
	}
	return false
}

// startsWithErrorName reports whether s starts with prefix followed by an
// upper-case name ("cudaErrorIllegalAddress", "hipErrorNoDevice") that ends
// the line or is followed by a space, ':' or a quote.
func startsWithErrorName(s, prefix string) bool {
	if !strings.HasPrefix(s, prefix) || len(s) == len(prefix) || !isUpper(s[len(prefix)]) {
		return false
	}
	i := len(prefix)
	for i < len(s) && isWordByte(s[i]) {
		i++
	}
	return i == len(s) || s[i] == ' ' || s[i] == ':' || s[i] == '\'' || s[i] == ','
}

// parseHIPLine matches HIP runtime failures: "HIP error: ...", a line that
// starts with a hipError name, AITER's failed HIP calls ("[AITER] x.cpp:141
// fail to call hipModuleLaunchKernel(...) ---> [HIP error](invalid resource
// handle)"), and the ROCclr runtime's own log lines
// ":0:rocdevice.cpp            :2992: 4026031038 us:  Callback: Queue ...
// aborting with error : HSA_STATUS_ERROR_...". ROCclr's leading number is
// its log level (0 always printed, 1 error, 2 warning, 3 info, 4 debug);
// an always-printed line is an error report, and one that says the queue is
// aborting ends the process.
func parseHIPLine(s string) (level string, ok bool) {
	switch s[0] {
	case 'H':
		if strings.HasPrefix(s, "HIP error: ") {
			return LevelError, true
		}
	case 'h':
		if startsWithErrorName(s, "hipError") {
			return LevelError, true
		}
	case '[':
		// AITER's HIP_CALL check: "[AITER] /path/x.cpp:141 fail to call
		// hipModuleLaunchKernel(...) ---> [HIP error](invalid resource handle)".
		if (strings.HasPrefix(s, "[AITER] ") || strings.HasPrefix(s, "[aiter] ")) && strings.Contains(s, "---> [HIP error](") {
			return LevelError, true
		}
	case ':':
		if len(s) < 4 || !isDigit(s[1]) || s[2] != ':' {
			return "", false
		}
		r := s[3:]
		sp := strings.IndexAny(r, " :")
		if sp <= 0 || sp > 128 || !strings.HasSuffix(r[:sp], ".cpp") {
			return "", false
		}
		r = strings.TrimLeft(r[sp:], " ")
		if len(r) < 2 || r[0] != ':' || !isDigit(r[1]) {
			return "", false
		}
		switch s[1] {
		case '0', '1':
			if strings.Contains(s, " aborting with error") {
				return LevelFatal, true
			}
			return LevelError, true
		case '2':
			return LevelWarning, true
		case '3':
			return LevelInfo, true
		}
		return LevelDebug, true
	}
	return "", false
}

// parseACLLine matches Ascend runtime failures outside CANN's timestamped
// block: a CANN error code line ("EZ9999: Inner Error!", "E30006: ...
// Failed to verify the OPP", "EE1001: ...") and an ACL call that failed
// ("aclrtSetDevice: open device 0 failed, runtime result = 507033",
// "[ERROR] aclrtSetDevice(deviceId) failed: 507033 (...)").
func parseACLLine(s string) bool {
	if isAscendCode(s) {
		return true
	}
	s = strings.TrimPrefix(s, "[ERROR] ")
	if !strings.HasPrefix(s, "acl") || len(s) < 5 || !(s[3] >= 'a' && s[3] <= 'z') {
		return false
	}
	i := 3
	for i < len(s) && isWordByte(s[i]) {
		i++
	}
	if i == len(s) || (s[i] != ':' && s[i] != '(' && s[i] != ' ') {
		return false
	}
	r := s[i:]
	return strings.Contains(r, "failed") || strings.Contains(r, "error")
}
