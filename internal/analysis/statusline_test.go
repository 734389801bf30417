package analysis

import "testing"

// TestStatusFailure reads a failed call shown only by its status, as
// transfer libraries' callbacks (UCX's and NIXL's statuses with their
// text) and gRPC Python's status block print it, and leaves alone a
// status of zero or OK, a status without its text, and prose about
// statuses.
func TestStatusFailure(t *testing.T) {
	for text, want := range map[string]bool{
		"handling callback was invoked with status -3 (Input/output error)":                                                                                           true,
		"ucp_ep_flush failed with status: -80 (Endpoint timeout)":                                                                                                     true,
		"transfer 12 failed with status=-25 (Connection reset by remote peer)":                                                                                        true,
		"xfer request completed (status -5 (Destination is unreachable))":                                                                                             true,
		"grpc._channel._Rendezvous: <_Rendezvous of RPC that terminated with:\n\tstatus = StatusCode.UNAVAILABLE\n\tdetails = \"failed to connect to all addresses\"": true,
		"<_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.DEADLINE_EXCEEDED\n\tdetails = \"Deadline Exceeded\"":                                 true,
		"<_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.OK":                                                                                   false,
		"<_InactiveRpcError of RPC that terminated with:":                                                                                                             false,
		"handling callback was invoked with status 0 (Success)":                                                                                                       false,
		"handling callback was invoked with status -0 (Success)":                                                                                                      false,
		"request finished with status -3":                                                                                                                             false,
		"the callback returns a status -N (its text) on failure":                                                                                                      false,
		"exit status 2 (see above)":                                                                                                                                   false,
		"":                                                                                                                                                            false,
		")":                                                                                                                                                           false,
	} {
		if got := statusFailure(FirstLine(text), text); got != want {
			t.Errorf("statusFailure(%q) = %v, want %v", text, got, want)
		}
	}
}

// FuzzStatusFailure: statusFailure and statusNameLead never panic, and
// statusFailure reads only a non-empty line.
func FuzzStatusFailure(f *testing.F) {
	for _, s := range []string{"x with status -3 (Input/output error)", "<e of RPC that terminated with:\n\tstatus = StatusCode.", "(status=-", " status -1 ()"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		first := FirstLine(text)
		if statusNameLead(first) && statusTableRowLine(first) != (first[0] == '|' || first[0] == 0xE2) {
			t.Fatalf("statusTableRowLine(%q) disagrees with statusNameLead", first)
		}
		if statusFailure(first, text) {
			if l := first; l == "" {
				t.Fatalf("statusFailure(%q) on an empty line", text)
			}
		}
	})
}

// TestRPCStatusHeadline: a gRPC status block's headline is its status and
// details lines.
func TestRPCStatusHeadline(t *testing.T) {
	text := "grpc._channel._Rendezvous: <_Rendezvous of RPC that terminated with:\n\tstatus = StatusCode.UNAVAILABLE\n\tdetails = \"failed to connect to all addresses\"\n\tdebug_error_string = \"{}\""
	want := "status = StatusCode.UNAVAILABLE … details = \"failed to connect to all addresses\""
	if got := rpcStatusHeadline(FirstLine(text), text); got != want {
		t.Errorf("rpcStatusHeadline = %q, want %q", got, want)
	}
	if got := rpcStatusHeadline("handling callback was invoked with status -3 (Input/output error)", ""); got != "" {
		t.Errorf("rpcStatusHeadline of a callback's status = %q, want none", got)
	}
}

// TestStatusNameLead reads a line opened by a failed status's canonical
// code, as absl::Status prints it and Triton Inference Server reports a
// model that failed to load, and leaves alone other upper-case labels, an
// OK status and a code with no message.
func TestStatusNameLead(t *testing.T) {
	for l, want := range map[string]bool{
		"UNAVAILABLE: Not found: unable to load shared library: libtriton_tensorrtllm.so: undefined symbol: x": true,
		"INTERNAL: CUDA error: an illegal memory access was encountered":                                       true,
		"INVALID_ARGUMENT: Expected grammar to be non-empty":                                                   true,
		"INVALID_ARG: unexpected inference input 'x' for model 'y'":                                            true,
		"RESOURCE_EXHAUSTED: Received message larger than max (8 vs. 4)":                                       true,
		"UNAVAILABLE":                   false,
		"UNAVAILABLE: ":                 false,
		"OK: loaded":                    false,
		"NOTE: the model is loading":    false,
		"INTERNALS: see the docs":       false,
		"INFO: Started server process":  false,
		"Internal: lower-case is prose": false,
		"":                              false,
	} {
		if got := statusNameLead(l); got != want {
			t.Errorf("statusNameLead(%q) = %v, want %v", l, got, want)
		}
	}
}

// TestStatusTableRow reads a server's model status table: a row whose
// state cell is a failed status with its reason is a failure (Triton's
// "UNAVAILABLE: Internal: ...", "UNAVAILABLE: Not found: ...", a
// box-drawn table's row); the header, a ready model, a state without a
// reason, an unload asked for and a benchmark's table stay silent.
func TestStatusTableRow(t *testing.T) {
	for l, want := range map[string]bool{
		"| resnet50_trt | 1       | UNAVAILABLE: Internal: unable to create TensorRT engine |":                                       true,
		"| <redacted> | 1       | UNAVAILABLE: Internal: unable to create TensorRT engine |":                                         true,
		"| llama_pt | 1 | UNAVAILABLE: Not found: unable to load shared library: libtorch_cuda.so: cannot open shared object file |": true,
		"| ensemble | 1       | UNAVAILABLE: Invalid argument: in ensemble ensemble, step of model 'preprocess' receives inputs |":   true,
		"| bert | 1 | UNAVAILABLE: Internal: ImportError: No module named 'transformers' |":                                          true,
		"│ qwen │ 2 │ FAILED: CUDA out of memory │":                                                                                  true,
		"| Model         | Version | Status                                                  |":                                      false,
		"| resnet50_trt | 1       | READY                                                   |":                                       false,
		"| resnet50_trt | 1       | UNAVAILABLE: unloaded                                   |":                                       false,
		"| resnet50_trt | 1       | UNAVAILABLE                                             |":                                       false,
		"| LOADING | 1 | READY |":                  false,
		"| UNAVAILABLE: Internal: x | 1 | READY |": false,
		"| Successful requests | 1000 |":           false,
		"| ttft_ms | 12.3 | 45.6 | INTERNAL |":     false,
		"+---------------+---------+------+":       false,
		"|":                                        false,
		"||":                                       false,
	} {
		if got := statusNameLead(l); got != want {
			t.Errorf("statusNameLead(%q) = %v, want %v", l, got, want)
		}
		if got := statusTableRowLine(l); got != want {
			t.Errorf("statusTableRowLine(%q) = %v, want %v", l, got, want)
		}
	}
}

// TestErrorBody reads a server's error body as clients print it, in the
// OpenAI API's, vLLM's and sglang's, Ollama's, TGI's and llama.cpp's
// server's shapes, and leaves alone structured log lines, empty errors,
// successful responses and an "error" field that is not the first key.
func TestErrorBody(t *testing.T) {
	for l, want := range map[string]bool{
		`{"error":{"message":"CUDA out of memory. Tried to allocate 20.00 MiB.","type":"InternalServerError","param":null,"code":500}}`:                                       true,
		`{"error": {"message": "This model's maximum context length is 4096 tokens.", "type": "BadRequestError", "param": null, "code": 400}}`:                                true,
		`{"object":"error","message":"The input (61709 tokens) is longer than the model\'s context length (40960 tokens).","type":"BadRequestError","param":null,"code":400}`: true,
		`{"error":"model requires more system memory (12.5 GiB) than is available (7.8 GiB)"}`:                                                                                true,
		`{"error":"Input validation error: inputs tokens + max_new_tokens must be <= 4096","error_type":"validation"}`:                                                        true,
		`  {"error":{"code":500,"message":"failed to parse grammar","type":"server_error"}}`:                                                                                  true,
		`{"level":"info","msg":"request done","error":"timeout"}`:                                                                                                             false,
		`{"error":""}`:           false,
		`{"error":null}`:         false,
		`{"error":{"code":500}}`: false,
		`{"object":"chat.completion","message":"hello","choices":[]}`:             false,
		`{"object":"error","code":400}`:                                           false,
		`{"id":"cmpl-1","object":"text_completion","choices":[{"text":"error"}]}`: false,
		`{"status":"ok"}`: false,
		`{}`:              false,
	} {
		if got := statusFailure(l, l); got != want {
			t.Errorf("statusFailure(%q) = %v, want %v", l, got, want)
		}
	}
}

// TestReasonPhraseLine reads a client's print of an error response that
// opens with its status's reason phrase (an engine's context check, a
// proxy with no upstream, a rate limit, a gateway's timeout), and leaves
// silent a path not found, a phrase without a message, and prose that
// opens with the same words.
func TestReasonPhraseLine(t *testing.T) {
	for l, want := range map[string]bool{
		"Bad Request: Requested token count exceeds the model's maximum context length of 8192 tokens.": true,
		"Service Unavailable: no healthy upstream":                                                      true,
		"Too Many Requests: rate limit exceeded, retry after 20s":                                       true,
		"Internal Server Error: the engine is not running":                                              true,
		"Gateway Timeout: upstream request timeout":                                                     true,
		"Unprocessable Entity: field 'messages' is required":                                            true,
		"Not Found: /favicon.ico":                                                                       false,
		"Bad Request: ":                                                                                 false,
		"Bad Request: 400":                                                                              false,
		"Bad Requests are counted below":                                                                false,
		"Forbidden words: none":                                                                         false,
		"Service Unavailable":                                                                           false,
	} {
		if got := reasonPhraseLine(l); got != want {
			t.Errorf("reasonPhraseLine(%q) = %v, want %v", l, got, want)
		}
	}
}
