package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// A program that calls the CUDA runtime itself, not through a framework,
// prints a failed call's status in numbers and enum names, with no level:
// the CUDA samples' "cudaGetDeviceCount returned 35" (then "-> CUDA driver
// version is insufficient for CUDA runtime version"), their checkCudaErrors
// helper's "CUDA error at bandwidthTest.cu:255 code=35(cudaErrorInsufficientDriver)
// "cudaSetDevice(currentDevice)"", a tool's "cudaGetDeviceCount() ...
// Error 802: system not yet initialized", the driver API's
// "cuInit failed: CUDA_ERROR_NO_DEVICE". Two shapes are read:
//
//   - an error enum's name, the runtime's (cudaErrorNoDevice) or the
//     driver's (CUDA_ERROR_NO_DEVICE), other than the statuses a caller
//     polls or meets by design (not ready, already enabled or
//     registered);
//   - a runtime call's name (cuda and a capital: cudaMalloc,
//     cudaGetDeviceCount) followed by the status it returned: "returned
//     N" with N not zero, or "Error N: <text>".
//
// A line that says its writer carries on (a retry, a fallback) is none.
// Both shapes hold a capital after "cuda" or "CUDA_ERROR": the byte test
// looks for "cuda" and "CUDA_" at their third byte, 'd' and 'D'.

// cudaRoutineStatuses are error enums' words a caller meets by design.
var cudaRoutineStatuses = [...]string{"NotReady", "NOT_READY", "AlreadyEnabled", "ALREADY_ENABLED", "AlreadyRegistered", "ALREADY_REGISTERED", "AlreadyMapped", "ALREADY_MAPPED"}

// cudaCarriesOn are the words, besides a carry-on clause
// (carriesOnPast), of a line whose writer goes on after the status it
// prints ("... CUDA_ERROR_OUT_OF_MEMORY (may not be an issue e.g. torch
// allocator will free cache and retry)").
var cudaCarriesOn = [...]string{"not be an issue", "not an issue", "and retry"}

// cudaStatusCandidate is cudaStatusFailure's byte test: l holds "cuda" or
// "CUDA_".
func cudaStatusCandidate(l string) bool {
	return ascii.IndexByRare(l, "cuda", 2) >= 0 || ascii.IndexByRare(l, "CUDA_", 2) >= 0
}

// cudaStatusFailure reports whether l reports a CUDA call's failed status
// in one of the shapes above.
func cudaStatusFailure(l string) bool {
	if !cudaErrorName(l) && !cudaCallStatus(l) {
		return false
	}
	return !carriesOnPast(l, cudaCarriesOn[:])
}

// cudaErrorName reports whether l names a CUDA error enum (cudaErrorX,
// CUDA_ERROR_X) other than a routine one.
func cudaErrorName(l string) bool {
	for _, p := range [...]string{"cudaError", "CUDA_ERROR_"} {
		for from := 0; from < len(l); {
			i := strings.Index(l[from:], p)
			if i < 0 {
				break
			}
			at := from + i
			from = at + len(p)
			if at > 0 && isAlnum(l[at-1]) || from >= len(l) || !isUpperByte(l[from]) {
				// A longer name ("mycudaError"), the type's name
				// ("cudaError_t") or the enum without a member.
				continue
			}
			end := from
			for end < len(l) && (isAlnum(l[end]) || l[end] == '_') {
				end++
			}
			if !containsAnyOf(l[from:end], cudaRoutineStatuses[:]) {
				return true
			}
		}
	}
	return false
}

// maxCUDAStatusGap bounds the bytes between a runtime call's name and the
// status it returned.
const maxCUDAStatusGap = 64

// cudaCallStatus reports whether l names a runtime call (cuda and a
// capital) and, after it, the status it returned: "returned N" (N not
// zero) or "Error N: " and words.
func cudaCallStatus(l string) bool {
	for from := 0; from < len(l); {
		i := strings.Index(l[from:], "cuda")
		if i < 0 {
			return false
		}
		at := from + i
		from = at + len("cuda")
		if at > 0 && isAlnum(l[at-1]) || from >= len(l) || !isUpperByte(l[from]) {
			continue
		}
		end := from
		for end < len(l) && isAlnum(l[end]) {
			end++
		}
		rest := l[end:min(len(l), end+maxCUDAStatusGap)]
		if r, ok := strings.CutPrefix(rest, " returned "); ok && nonZeroNumber(r) {
			return true
		}
		if j := strings.Index(rest, "Error "); j >= 0 && nonZeroNumber(rest[j+len("Error "):]) {
			n := rest[j+len("Error "):]
			k := 0
			for k < len(n) && isDigitByte(n[k]) {
				k++
			}
			if strings.HasPrefix(n[k:], ": ") && hasLetter(l[end+j+len("Error ")+k:]) {
				return true
			}
		}
	}
	return false
}

// nonZeroNumber reports whether s opens with a decimal number other than
// zero, followed by the end, a space or punctuation.
func nonZeroNumber(s string) bool {
	k := 0
	for k < len(s) && k < 10 && isDigitByte(s[k]) {
		k++
	}
	if k == 0 || k < len(s) && (isAlnum(s[k]) || s[k] == '_') {
		return false
	}
	return strings.Trim(s[:k], "0") != ""
}
