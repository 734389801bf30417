package analysis

import "testing"

// TestExceptionQuoted reads a failure told with the exception that caused
// it, in the forms Python programs write it ({e!r}, the type and {e}), at
// no level and behind sglang's header, and leaves silent an optional
// import's notice, a retry, a line that names an exception without a
// failure, and a label that no exception type follows.
func TestExceptionQuoted(t *testing.T) {
	for l, want := range map[string]bool{
		"Decode transfer failed for request rank=1 decode_req.req.rid='3ce8' decode_req.req.bootstrap_room=16 with exception KVTransferError(bootstrap_room=16): Failed due to an unknown reason from another rank": true,
		"Request 12 failed with exception TimeoutError: the engine did not answer in 30s":  true,
		"Weight update failed with exception torch.OutOfMemoryError('CUDA out of memory')": true,
		"Unable to serve the batch, handler raised exception ValueError":                   true,

		"Failed to import deep_gemm with exception ModuleNotFoundError: No module named 'deep_gemm'": false,
		"Send failed with exception ConnectionResetError(104), retrying in 1s":                       false,
		"Caught exception ValueError('x') while parsing, falling back to the default template":       false,
		"The request finished with exception KVTransferError(room=1): none":                          false,
		"Scheduler hit an exception: Traceback (most recent call last):":                             false,
		"Prefill failed with exception handling disabled":                                            false,
		"Transfer failed with exception lowercaseerror(1)":                                           false,
		"": false,
	} {
		got := exceptionQuoted(l)
		if got != want {
			t.Errorf("exceptionQuoted(%q) = %v, want %v", l, got, want)
		}
		if got && !exceptionQuoteCandidate(l) {
			t.Errorf("exceptionQuoteCandidate(%q) = false", l)
		}
	}
}

// TestExceptionQuotedSignal checks that sglang's level-less line is a
// failure behind its header and a rank prefix.
func TestExceptionQuotedSignal(t *testing.T) {
	for text, want := range map[string]bool{
		"[2025-09-17 16:23:13 TP1] Decode transfer failed for request rank=1 decode_req.req.rid='3ce8' with exception KVTransferError(bootstrap_room=16): Aborted by AbortReq.": true,
		"[2025-09-17 16:23:13 TP1] Failed to import flashinfer with exception ImportError: libcuda.so.1: cannot open shared object file":                                        false,
	} {
		s, _ := signalledOne(t, text)
		if got := s != ""; got != want {
			t.Errorf("%q: signal %q, want %v", text, s, want)
		}
	}
}

// FuzzQuotedExceptionAt checks that quotedExceptionAt returns an index
// inside its line or -1, that the candidate test holds of every line
// exceptionQuoted says true of, and that neither panics.
func FuzzQuotedExceptionAt(f *testing.F) {
	for _, s := range []string{
		"transfer failed with exception KVTransferError(room=1): x",
		"failed with exception ",
		"failed: exception: A",
		"raised exception E.Error",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		at := quotedExceptionAt(s)
		if at < -1 || at >= len(s) {
			t.Fatalf("quotedExceptionAt(%q) = %d", s, at)
		}
		if exceptionQuoted(s) && !exceptionQuoteCandidate(s) {
			t.Fatalf("exceptionQuoted(%q) without its candidate test", s)
		}
	})
}
