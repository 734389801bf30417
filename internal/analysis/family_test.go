package analysis_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

// TestFamilyOf reads the family of exceptions that no record names from
// their type and message, in several shapes per family, with the near
// misses that must not be taken for it.
func TestFamilyOf(t *testing.T) {
	tests := []struct {
		typ, msg string
		want     string
	}{
		// JSON and config parse: the parser's type, or json's own
		// message under another type.
		{"json.decoder.JSONDecodeError", "Expecting value: line 1 column 1 (char 0)", analysis.FamilyParse},
		{"requests.exceptions.JSONDecodeError", "Expecting value: line 1 column 1 (char 0)", analysis.FamilyParse},
		{"JSONDecodeError", "Expecting property name enclosed in double quotes: line 3 column 1 (char 20)", analysis.FamilyParse},
		{"tomllib.TOMLDecodeError", "Invalid value (at line 2, column 5)", analysis.FamilyParse},
		{"yaml.scanner.ScannerError", "mapping values are not allowed here", analysis.FamilyParse},
		{"yaml.parser.ParserError", "while parsing a block mapping", analysis.FamilyParse},
		{"ValueError", "Expecting value: line 1 column 1 (char 0)", analysis.FamilyParse},
		{"RuntimeError", "tokenizer_config.json is not valid JSON", analysis.FamilyParse},
		{"ValueError", "Invalid JSON in --json-model-override-args", analysis.FamilyParse},
		{"pandas.errors.ParserError", "Error tokenizing data", ""}, // not yaml's
		{"ValueError", "the response was expecting values", ""},    // not json's wording at the start
		// A client's words for the status a server answered, with its
		// label or its reason phrase; a success, or a number that is no
		// status, is none.
		{"", "Unexpected status code: [404], response body: <!DOCTYPE html>", analysis.FamilyHTTP},
		{"", "request failed, status_code=503", analysis.FamilyHTTP},
		{"", "Failed to register worker: (500, 'Unknown', 'Internal Server Error')", analysis.FamilyHTTP},
		{"RuntimeError", "upstream answered 502 Bad Gateway", analysis.FamilyHTTP},
		{"", "request done, status code: 200", ""},
		{"", "status: 4096 tokens cached", ""},
		// Python's own words for a code error, inside another message.
		{"", "Stage 0 error on request 0_3846ea5f: list index out of range", analysis.FamilyBug},
		{"RuntimeError", "worker failed: cannot unpack non-iterable NoneType object", analysis.FamilyBug},
		{"", "scheduler step failed: not enough values to unpack (expected 3, got 2)", analysis.FamilyBug},
		{"", "local variable 'out' referenced before assignment", analysis.FamilyBug},
		// A client's transcript of a failed response (curl -v, curl -i).
		{"", "< HTTP/1.1 400 Bad Request", analysis.FamilyHTTP},
		{"", "HTTP/2 503", analysis.FamilyHTTP},
		{"", "< HTTP/1.1 200 OK", ""},
		// Memory, in the words of a start-up budget check.
		{"ValueError", "Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static=0.88.", analysis.FamilyMemory},
		{"RuntimeError", "Not enough memory. Please try to increase --mem-fraction-static.", analysis.FamilyMemory},
		// An environment variable a launcher sets, missing.
		{"ValueError", "Error initializing torch.distributed using env:// rendezvous: environment variable RANK expected, but not set", analysis.FamilyEnv},
		{"KeyError", "'LOCAL_RANK'", analysis.FamilyEnv},
		{"RuntimeError", "The environment variable HF_TOKEN must be set to download this model", analysis.FamilyEnv},
		{"KeyError", "'lm_head.weight'", ""},
		{"ValueError", "environment variables are read at start-up", ""},
		// An API's error type (an error body, the Python client): the
		// request failed, unless the message says more.
		{"BadRequestError", "Invalid request: max_tokens is too large", analysis.FamilyHTTP},
		{"openai.InternalServerError", "Error code: 500", analysis.FamilyHTTP},
		{"RateLimitError", "slow down", analysis.FamilyHTTP},
		{"InternalServerError", "CUDA out of memory. Tried to allocate 2.00 GiB", analysis.FamilyMemory},
		{"BadRequestError", "[Errno 2] No such file or directory: '/data/x.png'", analysis.FamilyFile},
		// The Hugging Face Hub: its types, and transformers' OSError wording.
		{"huggingface_hub.utils._validators.HFValidationError", "Repo id must use alphanumeric chars: 'a/b:c'.", analysis.FamilyHub},
		{"huggingface_hub.errors.GatedRepoError", "401 Client Error. Cannot access gated repo for url https://huggingface.co/x", analysis.FamilyHub},
		{"RepositoryNotFoundError", "404 Client Error.", analysis.FamilyHub},
		{"OSError", "org/model does not appear to have a file named preprocessor_config.json.", analysis.FamilyHub},
		{"OSError", "We couldn't connect to 'https://huggingface.co' to load this file", analysis.FamilyHub},
		{"OSError", "bad-name is not a local folder and is not a valid model identifier listed on 'https://huggingface.co/models'", analysis.FamilyHub},
		{"OSError", "[Errno 28] No space left on device", analysis.FamilyDisk},
		{"RuntimeError", "NCCL WARN Error: failed to extend /dev/shm/nccl-4d2 to 9637892 bytes", analysis.FamilyDisk},
		{"OSError", "[Errno 24] Too many open files: '/proc/self/fd'", analysis.FamilyLimit},
		{"RuntimeError", "can't start new thread", analysis.FamilyLimit},
		{"safetensors_rust.SafetensorError", "Error while deserializing header: HeaderTooLarge", analysis.FamilyCorrupt},
		{"RuntimeError", "PytorchStreamReader failed reading zip archive: failed finding central directory", analysis.FamilyCorrupt},
		{"_pickle.UnpicklingError", "invalid load key, 'v'.", analysis.FamilyCorrupt},
		// A request to the Hub that failed with a status, and the Hub's
		// offline misses; the same status from another host is HTTP.
		{"requests.exceptions.HTTPError", "401 Client Error: Unauthorized for url: https://huggingface.co/api/models/meta-llama/Llama-3-8B", analysis.FamilyHub},
		{"huggingface_hub.utils._errors.HfHubHTTPError", "500 Server Error: Internal Server Error for url: https://huggingface.co/api/models/x", analysis.FamilyHub},
		{"requests.exceptions.HTTPError", "403 Client Error: Forbidden for url: https://hf.co/api/models/org/m/revision/main", analysis.FamilyHub},
		{"huggingface_hub.errors.LocalEntryNotFoundError", "Cannot find an appropriate cached snapshot folder for the specified revision", analysis.FamilyHub},
		{"requests.exceptions.HTTPError", "503 Server Error: Service Unavailable for url: http://10.0.0.2:30000/generate", analysis.FamilyHTTP},
		{"RuntimeError", "see https://huggingface.co/docs for the list of models", ""},
		// Import and ABI: the types, and the messages under any type.
		{"ModuleNotFoundError", "No module named 'vllm'", analysis.FamilyImport},
		{"OSError", "libcudart.so.12: cannot open shared object file: No such file or directory", analysis.FamilyImport},
		{"AttributeError", "module 'torch' has no attribute 'float8_e4m3fn'", analysis.FamilyImport},
		// Ascend NPU: CANN error codes and the runtime's words.
		{"RuntimeError", "E19999: Inner Error!", analysis.FamilyNPU},
		{"RuntimeError", "EZ9999: Inner Error! The error from device(chipId:0, dieId:0)", analysis.FamilyNPU},
		{"RuntimeError", "call aclnnInplaceCopy failed, detail:EZ1001", analysis.FamilyNPU},
		{"RuntimeError", "E0116 04:05:06 something", ""},       // a glog header: one digit fewer, no colon
		{"RuntimeError", "code E123456: retry later", ""},      // one digit too many
		{"RuntimeError", "WE19999: not a word of its own", ""}, // inside a word
		// The CUDA driver or device, apart from kernel faults.
		{"RuntimeError", "Found no NVIDIA driver on your system.", analysis.FamilyDriver},
		{"RuntimeError", "No CUDA GPUs are available", analysis.FamilyDriver},
		{"RuntimeError", "CUDA error: invalid device ordinal", analysis.FamilyDriver},
		{"RuntimeError", "CUDA error: an illegal memory access was encountered", analysis.FamilyGPU},
		// Tokenizer: only a typed exception's message.
		{"ValueError", "think_end_token '</think>' must encode to exactly one token for constrained reasoning.", analysis.FamilyTokenizer},
		{"ValueError", "Cannot use chat template functions because tokenizer.chat_template is not set", analysis.FamilyTokenizer},
		{"", "TokenizerManager hit an exception", ""},
		// A check that rejected a combination, or a value.
		{"ValueError", "TRTLLM MHA backend is only supported on Blackwell GPUs (SM100). Please use a different backend.", analysis.FamilySupport},
		{"NotImplementedError", "FP8 KV cache is not supported on this device", analysis.FamilySupport},
		{"NotImplementedError", "", analysis.FamilySupport},
		{"RuntimeError", "FlashAttention only supports Ampere GPUs or newer.", analysis.FamilySupport},
		{"ValueError", "The checkpoint's quantization method fp8 is not compatible with --kv-cache-dtype fp8_e5m2", analysis.FamilySupport},
		{"RuntimeError", "This GPU does not support bfloat16", analysis.FamilySupport},
		{"RuntimeError", "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!", analysis.FamilyBug},
		{"RuntimeError", "the worker supports restarts only when idle", ""},
		{"ValueError", "--tp-size must be divisible by the number of attention heads", analysis.FamilyValue},
		{"ValueError", "Unrecognized model in /m/x. Should have a `model_type` key in its config.json.", analysis.FamilyValue},
		{"RuntimeError", "The bias should be 1D", analysis.FamilyValue},
		{"RuntimeError", "Operation cannot be accomplished in current state", analysis.FamilyBug}, // ZeroMQ's EFSM, not a value check
		{"zmq.error.ZMQError", "Operation cannot be accomplished in current state", analysis.FamilyBug},
		{"zmq.error.ZMQError", "Address already in use (addr='tcp://127.0.0.1:5557')", analysis.FamilyNetwork},
		{"zmq.error.ZMQError", "Resource temporarily unavailable", ""},
		{"RuntimeError", "invalid state", ""},
		{"TypeError", "TextEncodeInput must be Union[TextInputSequence, Tuple[InputSequence, InputSequence]]", ""},
		{"KeyError", "'must be'", ""},
		// A native assertion carried by an exception.
		{"tensorrt_llm::common::TllmException", "[TensorRT-LLM][ERROR] Assertion failed: d == a + length (x.cpp:320)", analysis.FamilyConfig},
		// A C++ library's CHECK: its own state broke, a bug.
		{"RuntimeError", "Check failed: (!IsStopTokenAccepted()) is false", analysis.FamilyBug},
		{"RuntimeError", "[09:59:19] /project/cpp/grammar_matcher.cc:653: Check failed: !terminated_", analysis.FamilyBug},
		{"tvm.error.InternalError", "Check failed: (n > 0) is false: empty shape", analysis.FamilyBug},
		{"RuntimeError", "Check failed: e == cudaSuccess: CUDA error: out of memory", analysis.FamilyMemory}, // the failure it checked wins
		{"RuntimeError", "health check failed: the worker did not answer", ""},
		// torch's shape complaints.
		{"RuntimeError", "split_with_sizes expects split_sizes to sum exactly to 1, but got 3", analysis.FamilyShape},
		{"RuntimeError", "The size of tensor a (4096) must match the size of tensor b (2048) at non-singleton dimension 1", analysis.FamilyShape},
		{"RuntimeError", "shape '[-1, 32, 128]' is invalid for input of size 12288", analysis.FamilyShape},
		{"RuntimeError", "mat1 and mat2 shapes cannot be multiplied (16x4096 and 2048x4096)", analysis.FamilyShape},
		{"RuntimeError", "Error(s) in loading state_dict: size mismatch for lm_head.weight: copying a param with shape torch.Size([151936, 4096])", analysis.FamilyShape},
		{"RuntimeError", "the shape of the request queue is unexpected", ""},
		// A wrapper naming what it wraps is read as the wrapped type.
		{"ray.exceptions.RayTaskError(OutOfMemoryError)", "ray::main_task() (pid=1, ip=10.0.0.1)", analysis.FamilyMemory},
		{"ray.exceptions.RayTaskError(HFValidationError)", "ray::f()", analysis.FamilyHub},
		{"ray.exceptions.RayTaskError(KeyError)", "ray::f()", ""},
	}
	for _, tt := range tests {
		if got := analysis.FamilyOf(tt.typ, tt.msg); got != tt.want {
			t.Errorf("family of %s: %q = %q, want %q", tt.typ, tt.msg, got, tt.want)
		}
	}
}

// TestTriageFromAloneLine reads the phase, component and subject of a lone
// exception line, with no frame: from its message only, never from the
// lines around it.
func TestTriageFromAloneLine(t *testing.T) {
	tests := []struct {
		in   string
		want analysis.Triage
	}{
		{
			in:   "ValueError: Unrecognized model in /models/qwen-draft. Should have a `model_type` key in its config.json.\n",
			want: analysis.Triage{Phase: "reading the model config", Family: analysis.FamilyValue, Subject: "/models/qwen-draft"},
		},
		{
			// preprocessor_config.json is not the model's config.json.
			in:   "OSError: org/m-1 does not appear to have a file named preprocessor_config.json. Checkout 'https://huggingface.co/org/m-1/tree/main' for available files.\n",
			want: analysis.Triage{Family: analysis.FamilyHub, Subject: "org/m-1"},
		},
		{
			in:   "ValueError: TRTLLM MHA backend is only supported on Blackwell GPUs (SM100). Please use a different backend.\n",
			want: analysis.Triage{Family: analysis.FamilySupport, Component: "attention backend"},
		},
		{
			in:   "ValueError: --speculative-num-steps must be at least 1\n",
			want: analysis.Triage{Family: analysis.FamilyValue, Component: "speculative decoding", Subject: "--speculative-num-steps"},
		},
		{
			// A model name that contains "eagle" names no component.
			in:   "ValueError: Unrecognized model in /m/Qwen3-8B_eagle3. Should have a `model_type` key in its config.json.\n",
			want: analysis.Triage{Phase: "reading the model config", Family: analysis.FamilyValue, Subject: "/m/Qwen3-8B_eagle3"},
		},
		{
			in:   "AttributeError: 'Qwen3MoeConfig' object has no attribute 'rope_parameters'\n",
			want: analysis.Triage{Phase: "reading the model config", Family: analysis.FamilyBug},
		},
		{
			// Not a config class: no phase.
			in:   "AttributeError: 'NoneType' object has no attribute 'config'\n",
			want: analysis.Triage{Family: analysis.FamilyBug},
		},
		{
			in:   "AttributeError: 'config' object has no attribute 'x'\n",
			want: analysis.Triage{Family: analysis.FamilyBug},
		},
		{
			in:   "RuntimeError: Runtime check failed at /s/kernels/distributed/custom_all_reduce.cuh:37: CUDA error: invalid argument\n",
			want: analysis.Triage{Family: analysis.FamilyGPU, Component: "custom all-reduce"},
		},
		{
			in:   "RuntimeError: E19999: Inner Error!\n",
			want: analysis.Triage{Family: analysis.FamilyNPU},
		},
		// PD disaggregation's KV hand-over, however the error reaches the
		// HTTP layer: a web framework's status error, an exception
		// group's leaf, a transfer error of its own.
		{
			in:   "fastapi.exceptions.HTTPException: 500: Prefill bootstrap failed for request rank=0 req.rid='x' with exception KVTransferError(bootstrap_room=1): Failed due to an unknown reason from another rank\n",
			want: analysis.Triage{Family: analysis.FamilyHTTP, Component: "transfer engine"},
		},
		{
			in:   "    | starlette.exceptions.HTTPException: 503: Decode bootstrap server at 10.0.0.2:8998 did not answer\n",
			want: analysis.Triage{Family: analysis.FamilyHTTP, Component: "transfer engine"},
		},
		{
			in:   "sglang.srt.disaggregation.base.conn.KVTransferError: KVTransferError(bootstrap_room=42): Aborted by AbortReq.\n",
			want: analysis.Triage{Component: "transfer engine", SGLang: true},
		},
		{
			// A boot that failed is no bootstrap of PD.
			in:   "RuntimeError: bootstrapping the plugin registry failed\n",
			want: analysis.Triage{},
		},
		{
			// A shape mismatch read alone; under load_weights frames it is
			// the checkpoint's (TestTriage).
			in:   "RuntimeError: split_with_sizes expects split_sizes to sum exactly to 1, but got 3\n",
			want: analysis.Triage{Family: analysis.FamilyShape},
		},
		{
			in:   "RuntimeError: [09:59:19] /project/cpp/grammar_matcher.cc:653: Check failed: !terminated_\n",
			want: analysis.Triage{Family: analysis.FamilyBug, Component: "grammar backend"},
		},
		{
			// A status error that names no component.
			in:   "starlette.exceptions.HTTPException: 404: Not Found\n",
			want: analysis.Triage{Family: analysis.FamilyHTTP},
		},
	}
	for _, tt := range tests {
		es := entries(tt.in)
		if len(es) != 1 || es[0].Traceback == nil {
			t.Fatalf("%q: %d entries, want one exception", tt.in, len(es))
		}
		if got := analysis.TriageOf(&es[0], es[0].Traceback.Outermost()); got != tt.want {
			t.Errorf("%q:\n got %+v\nwant %+v", tt.in, got, tt.want)
		}
	}
}

// TestEnvVar takes the variable a message says is missing, and nothing
// that is not a variable's name.
func TestEnvVar(t *testing.T) {
	for msg, want := range map[string]string{
		"environment variable RANK expected, but not set": "RANK",
		"'WORLD_SIZE'": "WORLD_SIZE",
		"The environment variable `HF_TOKEN` must be set":         "HF_TOKEN",
		"Environment variable: MASTER_ADDR is not set":            "MASTER_ADDR",
		"environment variable rank expected":                      "",
		"'lm_head'":                                               "",
		"environment variable " + strings.Repeat("A", 100) + " x": "",
	} {
		if got := analysis.EnvVar(msg); got != want {
			t.Errorf("EnvVar(%q) = %q, want %q", msg, got, want)
		}
	}
}

// FuzzEnvVar: a variable's name is a short token of capitals, digits and
// '_' found in the message.
func FuzzEnvVar(f *testing.F) {
	for _, s := range []string{"environment variable RANK expected, but not set", "'LOCAL_RANK'", "environment variable", "environment variable `X"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		v := analysis.EnvVar(msg)
		if v == "" {
			return
		}
		if len(v) > 64 || !strings.Contains(msg, v) || strings.Trim(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != "" {
			t.Fatalf("EnvVar(%q) = %q", msg, v)
		}
	})
}

// TestMessageFamily reads the family a logged message says, whoever
// raised it: a connection failure in the words of several clients, and
// messages that say something else.
func TestMessageFamily(t *testing.T) {
	for msg, want := range map[string]string{
		"Failed to watch model files: All connection attempts failed":                                         analysis.FamilyNetwork,
		"Error fetching config: [Errno 111] Connection refused":                                               analysis.FamilyNetwork,
		"Cannot reach the store at 10.0.0.4:50051: Network is unreachable":                                    analysis.FamilyNetwork,
		"Lookup of controller failed: [Errno -3] Temporary failure in name resolution":                        analysis.FamilyNetwork,
		"Error: ('Connection aborted.', RemoteDisconnected('Remote end closed connection without response'))": analysis.FamilyNetwork,
		"HTTPConnectionPool(host='10.0.0.4', port=30033): Max retries exceeded with url: /generate":           analysis.FamilyNetwork,
		"RuntimeError: Last error: Server disconnected":                                                       analysis.FamilyNetwork,
		"Failed to register worker: 1 validation error for WorkerStatusPublic":                                analysis.FamilyValue,
		"pydantic_core._pydantic_core.ValidationError: 2 validation errors for ServerArgs":                    analysis.FamilyValue,
		"Error loading plugin: No module named 'acme'":                                                        analysis.FamilyImport,
		"All replicas answered; 3 connection attempts were retried before the first answer":                   "",
		"Error running aggregate: division by zero":                                                           "",
		strings.Repeat("x", 5000) + " Connection refused":                                                     "",
	} {
		if got := analysis.MessageFamily(msg); got != want {
			t.Errorf("MessageFamily(%.80q) = %q, want %q", msg, got, want)
		}
	}
}
