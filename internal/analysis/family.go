package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/ascii"
)

// familyOf is the family of an exception, from its type, then its message.
// A wrapper that names what it wraps (Ray's "RayTaskError(OutOfMemoryError)")
// is read as the wrapped type.
func familyOf(typ, msg string) string {
	return familyOfLower(typ, msg, strings.ToLower(msg))
}

// familyOfLower is familyOf given m, msg lowercased (strings.ToLower), so
// that a caller reading the message more than once lowercases it once.
func familyOfLower(typ, msg, m string) string {
	typ = wrappedType(typ)
	if envMessage(lastDotted(typ), msg, m) {
		return FamilyEnv
	}
	if f := typeFamily(typ); f != "" {
		if f == FamilyHTTP {
			// A request's error type (an API's "BadRequestError", a
			// web framework's HTTPException) says only that the
			// request failed; its message may say why.
			if mf := messageFamily(m); mf != "" {
				return mf
			}
		}
		return f
	}
	if httpErrorStatus(msg) {
		// A client's transcript of the failed response.
		return FamilyHTTP
	}
	if f := messageFamily(m); f != "" {
		return f
	}
	base := lastDotted(typ)
	if base != "" && tokenizerMessage(m) {
		return FamilyTokenizer
	}
	return checkFamily(base, m)
}

// wrappedType is the type a wrapper type names in parentheses
// ("ray.exceptions.RayTaskError(OutOfMemoryError)" wraps
// "OutOfMemoryError"), or typ itself.
func wrappedType(typ string) string {
	if i := strings.IndexByte(typ, '('); i > 0 && strings.HasSuffix(typ, ")") {
		return typ[i+1 : len(typ)-1]
	}
	return typ
}

// typeFamily is the family an exception's type alone says, "" when it
// does not.
func typeFamily(typ string) string {
	switch base := lastDotted(typ); base {
	case "ImportError", "ModuleNotFoundError":
		return FamilyImport
	case "AssertionError":
		return FamilyConfig
	case "NameError":
		// A name an optional import should have defined.
		return FamilyImport
	case "FileNotFoundError", "IsADirectoryError", "NotADirectoryError", "PermissionError":
		return FamilyFile
	case "ConnectionError", "ConnectionRefusedError", "ConnectionResetError", "ConnectionAbortedError",
		"BrokenPipeError", "TimeoutError", "DistNetworkError", "DistStoreError", "gaierror", "ClientConnectorError":
		return FamilyNetwork
	case "MemoryError", "OutOfMemoryError":
		return FamilyMemory
	case "HTTPException":
		// A web framework's status error
		// (starlette and fastapi print "500: detail").
		return FamilyHTTP
	case "BadRequestError", "UnprocessableEntityError", "InternalServerError", "RateLimitError", "APIStatusError",
		"AuthenticationError", "PermissionDeniedError", "ServiceUnavailableError":
		// The error types of an OpenAI-compatible API, as its error
		// body or its Python client names them.
		return FamilyHTTP
	case "JSONDecodeError", "TOMLDecodeError", "YAMLError", "ScannerError":
		return FamilyParse
	case "HFValidationError", "RepositoryNotFoundError", "GatedRepoError", "RevisionNotFoundError",
		"EntryNotFoundError", "LocalEntryNotFoundError", "OfflineModeIsEnabled", "HfHubHTTPError":
		return FamilyHub
	case "TemplateError", "TemplateSyntaxError", "UndefinedError", "TemplateRuntimeError":
		// jinja2's: a chat template that does not render.
		return FamilyTemplate
	case "ParserError", "ComposerError", "ConstructorError":
		// yaml's own errors; pandas and others have a ParserError too.
		if strings.HasPrefix(typ, "yaml.") {
			return FamilyParse
		}
	}
	return ""
}

// maxFamilyMessage bounds the message MessageFamily reads.
const maxFamilyMessage = 4096

// MessageFamily is the family of failure a message says whatever raised
// it (FamilyNetwork for "... [Errno 111] Connection refused"), "" when it
// says none. Only its first maxFamilyMessage bytes are read.
func MessageFamily(msg string) string {
	if len(msg) > maxFamilyMessage {
		msg = msg[:maxFamilyMessage]
	}
	return messageFamily(strings.ToLower(msg))
}

// messageFamily is the family an exception's message says whatever its
// type, from the lower-cased message m; "" when it does not.
func messageFamily(m string) string {
	switch {
	case watchdogFired(m):
		// A watchdog that fired (watchdog.go): the work it watches
		// stopped.
		return FamilyHang
	case hubMessage(m):
		return FamilyHub
	case strings.Contains(m, "no space left on device"), strings.Contains(m, "disk quota exceeded"),
		strings.Contains(m, "failed to extend /dev/shm"), strings.Contains(m, "[errno 28]"):
		return FamilyDisk
	case strings.Contains(m, "too many open files"), strings.Contains(m, "can't start new thread"),
		strings.Contains(m, "pthread_create failed"), strings.Contains(m, "[errno 24]"):
		return FamilyLimit
	case corruptMessage(m):
		return FamilyCorrupt
	case strings.Contains(m, "jinja"), strings.Contains(m, "raise_exception("), strings.Contains(m, "roles must alternate"):
		// A chat template raised: Jinja's own words, the template's
		// raise_exception call, its usual complaint.
		return FamilyTemplate
	case scriptMessage(m):
		return FamilyScript
	case strings.Contains(m, "undefined symbol"), strings.Contains(m, "cannot open shared object"),
		strings.Contains(m, "unexpected keyword argument"), strings.HasPrefix(m, "module '"),
		strings.Contains(m, "cannot import name"), strings.Contains(m, "no module named"),
		strings.Contains(m, "compiled using numpy"):
		return FamilyImport
	case npuMessage(m):
		return FamilyNPU
	case strings.Contains(m, "no cuda gpus are available"), strings.Contains(m, "driver version is insufficient"),
		strings.Contains(m, "found no nvidia driver"), strings.Contains(m, "cuda driver initialization failed"),
		strings.Contains(m, "invalid device ordinal"), strings.Contains(m, "no kernel image is available"),
		strings.Contains(m, "nvml_success"), strings.Contains(m, "failed to initialize nvml"):
		return FamilyDriver
	case oomKillMessage(m):
		return FamilyKilled
	case goExitFailure(m):
		// A child's death by a fatal signal as Go reports it
		// (goexit.go): SIGKILL from outside, any other from its own
		// native code.
		if goExitKilled(m) {
			return FamilyKilled
		}
		return FamilyNative
	case strings.Contains(m, "out of memory"), strings.Contains(m, "cannot allocate memory"), strings.Contains(m, "no gpu memory"),
		strings.Contains(m, "not enough memory"), strings.Contains(m, "not enough gpu memory"), strings.Contains(m, "insufficient memory"),
		strings.Contains(m, "no memory left"), strings.Contains(m, "no room for the kv cache"):
		return FamilyMemory
	case strings.Contains(m, "no such file"), strings.Contains(m, "permission denied"), strings.Contains(m, "not a directory"),
		strings.Contains(m, "is a directory"):
		return FamilyFile
	case strings.Contains(m, "address already in use"), strings.Contains(m, "connection refused"),
		strings.Contains(m, "connection reset"), strings.Contains(m, "timed out"), strings.Contains(m, "no route to host"),
		strings.Contains(m, "name or service not known"), strings.Contains(m, "failed to connect"),
		strings.Contains(m, "network is unreachable"), strings.Contains(m, "temporary failure in name resolution"),
		strings.Contains(m, "all connection attempts failed"), strings.Contains(m, "connection aborted"),
		strings.Contains(m, "remote end closed connection"), strings.Contains(m, "max retries exceeded with url"),
		strings.Contains(m, "server disconnected"), strings.Contains(m, "connection closed by peer"),
		strings.Contains(m, "connection closed by remote"),
		strings.Contains(m, "dial tcp"), strings.Contains(m, "dial udp"), strings.Contains(m, ": connect: "),
		strings.Contains(m, "no such host"), strings.Contains(m, "i/o timeout"), strings.Contains(m, "tls handshake timeout"),
		strings.Contains(m, "socket creation failed"), strings.Contains(m, "address family not supported"),
		strings.Contains(m, "error sending request for url"), strings.Contains(m, "error trying to connect"),
		strings.Contains(m, "tcp connect error"), strings.Contains(m, "h2 protocol error"),
		strings.Contains(m, "failed to recv"), strings.Contains(m, "connection was likely closed"):
		// reqwest's, hyper's and h2's words for a request that did not
		// get through (rustnet.go); c10d's for a store peer that
		// closed its socket.
		// Go's net errors ("dial tcp <addr>: connect: <errno text>",
		// "lookup <host>: no such host", "i/o timeout") and NCCL's
		// socket that cannot be created.
		// httpx's and httpcore's ConnectError when no address of the
		// host answered; requests' and urllib3's words for a peer that
		// closed the connection or never answered; aiohttp's "Server
		// disconnected".
		return FamilyNetwork
	case strings.Contains(m, "cuda error"), strings.Contains(m, "illegal memory access"), strings.Contains(m, "device-side assert"),
		strings.Contains(m, "cublas_status"), strings.Contains(m, "hip error"), strings.Contains(m, "launch failed"):
		return FamilyGPU
	case strings.HasPrefix(m, "expecting value: line"), strings.HasPrefix(m, "expecting property name"),
		strings.HasPrefix(m, "unterminated string starting at"), strings.HasPrefix(m, "extra data: line"),
		strings.HasPrefix(m, "invalid control character at"), strings.Contains(m, "not valid json"), strings.Contains(m, "invalid json"):
		// json's own messages, whatever wraps them.
		return FamilyParse
	case strings.Contains(m, "client error '4"), strings.Contains(m, "server error '5"), strings.Contains(m, "error status 5"),
		strings.Contains(m, " client error: "), strings.Contains(m, " server error: "),
		strings.Contains(m, "status code 5"), strings.Contains(m, "status code 4"), statusCodeMessage(m),
		strings.Contains(m, "internal server error"), strings.Contains(m, "bad gateway"),
		strings.Contains(m, "service unavailable"), strings.Contains(m, "gateway timeout"):
		return FamilyHTTP
	case strings.Contains(m, "reqwest::error { kind: builder"), strings.HasPrefix(m, "builder error for url ("), strings.Contains(m, ": builder error for url ("):
		// reqwest could not build the request from what the program
		// gave it (a URL whose scheme it does not speak, a bad
		// header): the configured address is wrong, not the network.
		return FamilyConfig
	case strings.Contains(m, "assertion failed: "):
		// A native assert's message carried by an exception.
		return FamilyConfig
	case strings.Contains(m, " validation error for "), strings.Contains(m, " validation errors for "):
		// pydantic's ValidationError: a request, a config or a peer's
		// message that does not fit its model's fields (often a peer of
		// another version); the lines after it name each field.
		return FamilyValue
	case cppCheck(m):
		// A C++ library's CHECK macro (glog, DMLC, TVM, xgrammar): an
		// invariant of its own state broke, which is a bug of the
		// library or of how its caller drives it.
		return FamilyBug
	case shapeMessage(m):
		return FamilyShape
	case strings.Contains(m, "expected all tensors to be on the same device"):
		// A tensor left on another device: the code's bug, or a device
		// map or offload option it does not handle.
		return FamilyBug
	case strings.Contains(m, "object has no attribute '"), strings.Contains(m, "object is not subscriptable"),
		strings.Contains(m, "object is not callable"), strings.Contains(m, "object is not iterable"),
		strings.Contains(m, "index out of range"), strings.Contains(m, "cannot unpack non-iterable"),
		strings.Contains(m, "values to unpack"), strings.Contains(m, "referenced before assignment"),
		strings.Contains(m, "unsupported operand type"):
		// An AttributeError's or TypeError's words, re-raised inside
		// another exception's message: the code met an object it did
		// not expect.
		return FamilyBug
	case strings.Contains(m, "operation cannot be accomplished in current state"):
		// ZeroMQ's EFSM: a request/reply socket used out of its
		// send/receive order, after an earlier failure broke an
		// exchange.
		return FamilyBug
	}
	return ""
}

// statusCodeMessage reports whether m, lower-cased, names an HTTP error
// status after its label in a client's words: "status code: [404]",
// "status_code=503", "status: 500", "http status 502".
func statusCodeMessage(m string) bool {
	for _, label := range [...]string{"status code", "status_code", "status:", "http status"} {
		for rest := m; ; {
			i := strings.Index(rest, label)
			if i < 0 {
				break
			}
			rest = rest[i+len(label):]
			r := strings.TrimLeft(rest, " :=[(\"'")
			if len(rest)-len(r) > 4 || len(r) < 3 || r[0] != '4' && r[0] != '5' || !isDigitByte(r[1]) || !isDigitByte(r[2]) ||
				len(r) > 3 && isDigitByte(r[3]) {
				continue
			}
			return true
		}
	}
	return false
}

// refineFamily narrows a family a message says into the one its words
// say more precisely, for the steps: a network failure whose peer closed
// the connection before it answered (FamilyDropped), a value check that
// is pydantic's schema (FamilySchema). m is the message lower-cased.
// MessageFamily keeps the broad family: what folds restatements reads
// it.
func refineFamily(f, m string) string {
	switch {
	case f == FamilyNetwork && droppedMessage(m):
		return FamilyDropped
	case f == FamilyValue && schemaMessage(m):
		return FamilySchema
	}
	return f
}

// corruptMessage reports whether m, lower-cased, says a file was cut
// short or is not the format its reader expects: safetensors' and
// torch.load's words for a partial download or a Git LFS pointer.
func corruptMessage(m string) bool {
	for _, k := range [...]string{"headertoolarge", "error while deserializing header", "metadataincompletebuffer",
		"pytorchstreamreader failed", "failed finding central directory", "invalid load key", "unexpected end of file",
		"file not fully covered"} {
		if strings.Contains(m, k) {
			return true
		}
	}
	return false
}

// droppedMessage reports whether m, lower-cased, is http.client's,
// urllib3's, aiohttp's or httpx's word for a connection the server
// closed before its response.
func droppedMessage(m string) bool {
	for _, k := range [...]string{"connection aborted", "remotedisconnected", "remote end closed connection", "server disconnected",
		"remoteprotocolerror", "connection closed by peer", "peer closed connection", "incomplete chunked read",
		// A response that did not come in time: the read, not the
		// connect, timed out.
		"read timed out", "readtimeout", "read timeout",
		// c10d's TCPStore client, whose peer closed the socket.
		"connection was likely closed"} {
		if strings.Contains(m, k) {
			return true
		}
	}
	return false
}

// schemaMessage reports whether m, lower-cased, is pydantic's report of
// a value that does not fit a model ("1 validation error for Foo",
// "3 validation errors for Bar").
func schemaMessage(m string) bool {
	for _, k := range [...]string{" validation error for ", " validation errors for "} {
		i := strings.Index(m, k)
		if i > 0 && isDigitByte(m[i-1]) {
			return true
		}
	}
	return false
}

// scriptMessage reports whether m, lower-cased, is a shell's or a launch
// script's own failure: a command or builtin it could not find (dash has
// no "source"), an environment (conda, venv) it could not activate.
func scriptMessage(m string) bool {
	if strings.Contains(m, ": command not found") || strings.Contains(m, "source: not found") {
		return true
	}
	if !strings.Contains(m, "activate") {
		return false
	}
	for _, k := range [...]string{"environment", "conda", "venv", "virtualenv"} {
		if strings.Contains(m, k) && !strings.Contains(m, "environment variable") {
			return true
		}
	}
	return false
}

// cppCheck reports whether m, lower-cased, holds a C++ CHECK macro's
// failure: "check failed: " opening the message or following a source
// location's or a log header's ":" or "]" ("x.cc:653: Check failed: y"),
// never prose ("the health check failed: ...").
func cppCheck(m string) bool {
	const k = "check failed: "
	for i := 0; ; {
		j := strings.Index(m[i:], k)
		if j < 0 {
			return false
		}
		at := i + j
		before := strings.TrimRight(m[:at], " ")
		if before == "" || before[len(before)-1] == ':' || before[len(before)-1] == ']' {
			return true
		}
		i = at + len(k)
	}
}

// shapeMessage reports whether m, an exception's lower-cased message, is
// torch's complaint that a tensor's shape or size is not what an
// operation takes.
func shapeMessage(m string) bool {
	for _, k := range [...]string{"split_with_sizes expects split_sizes", "must match the size of tensor", "is invalid for input of size",
		"shapes cannot be multiplied", "size mismatch for ", "copying a param with shape", "doesn't match the broadcast shape",
		"size of tensor a (", "expected size "} {
		if strings.Contains(m, k) {
			return true
		}
	}
	return false
}

// tokenizerMessage reports whether m, an exception's lower-cased message,
// says the tokenizer rejected a value.
func tokenizerMessage(m string) bool {
	for _, k := range [...]string{"tokenizer", "chat template", "chat_template", "must encode to", "special token"} {
		if strings.Contains(m, k) {
			return true
		}
	}
	return false
}

// hubMessage reports whether m, lower-cased, is the Hugging Face Hub's
// or transformers' way of saying a model could not be found or fetched.
func hubMessage(m string) bool {
	for _, k := range [...]string{
		"repo id must", "is not a valid model identifier", "does not appear to have a file named",
		"gated repo", "repository not found for url", "couldn't connect to 'https://huggingface.co",
		"cannot reach https://huggingface.co", "offline mode is enabled", "hf_hub_offline",
		"revision not found for url", "invalid username or password",
		// huggingface_hub's offline and cache misses.
		"cached snapshot folder", "requested files in the disk cache", "requested files in the local cache",
	} {
		if strings.Contains(m, k) {
			return true
		}
	}
	// An HTTP status error of a request to the Hub ("401 Client Error:
	// Unauthorized for url: https://huggingface.co/api/models/...").
	return (strings.Contains(m, "huggingface.co/") || strings.Contains(m, "hf.co/")) &&
		(strings.Contains(m, "client error") || strings.Contains(m, "server error") || strings.Contains(m, "unauthorized") ||
			strings.Contains(m, "forbidden"))
}

// npuMessage reports whether m, lower-cased, is an Ascend NPU's error:
// a CANN error code ("E19999: Inner Error!", "EZ9999:") or one of the
// runtime's own words.
func npuMessage(m string) bool {
	for _, k := range [...]string{"aclnn", "acl stream synchronize", "npu function error", "npu error", "cann error"} {
		if strings.Contains(m, k) {
			return true
		}
	}
	return cannCode(m)
}

// cannCode reports whether m, lower-cased, holds a CANN error code: "e",
// a digit or a letter, four digits, then ':', as a word of its own
// ("e19999:", "ez9999:", "ee1001:"). glog's "E0116 ..." header has one
// digit fewer and no colon.
func cannCode(m string) bool {
	for i := 0; i+6 < len(m); i++ {
		if m[i] != 'e' || (i > 0 && isAlnum(m[i-1])) {
			continue
		}
		if !isAlnum(m[i+1]) || !ascii.Digits(m[i+2:i+6]) || m[i+6] != ':' {
			continue
		}
		return true
	}
	return false
}

// checkFamily is the family of a check in the code that rejected a value:
// a ValueError, NotImplementedError or RuntimeError whose message says the
// combination is not supported, or what a value must be. base is the
// exception's type without its module, m its lower-cased message.
func checkFamily(base, m string) string {
	switch base {
	case "ValueError", "NotImplementedError", "RuntimeError", "Exception":
	default:
		return ""
	}
	for _, k := range [...]string{"not supported", "only supported", "unsupported", "is not implemented", "not yet implemented",
		"is only available", "not available on", "please use a different", "requires ", "only supports", "does not support",
		"not compatible with", "is incompatible with"} {
		if strings.Contains(m, k) {
			return FamilySupport
		}
	}
	values := valueWords[:]
	if base == "RuntimeError" || base == "Exception" {
		// Any failure is raised as these: only a message that says
		// what a value must be reads as a check.
		values = valueWords[:4]
	}
	for _, k := range values {
		if strings.Contains(m, k) {
			return FamilyValue
		}
	}
	if base == "NotImplementedError" {
		return FamilySupport
	}
	return ""
}

// valueWords say what a value must be; the first four are the only ones
// a RuntimeError's message is read for.
var valueWords = [...]string{"must be", "should be", "must have", "should have", "must not", "cannot be", "can not be",
	"invalid", "out of range", "exceeds", "larger than", "greater than", "less than", "at least", "at most",
	"unrecognized", "expected "}

// phaseOfMessage is the phase an exception's message names when no frame
// does: a model config that could not be read, a KV cache that could not
// be sized.
func phaseOfMessage(msg string) string { return phaseOfLower(msg, strings.ToLower(msg)) }

// phaseOfLower is phaseOfMessage given m, msg lowercased.
func phaseOfLower(msg, m string) string {
	for _, k := range [...]string{"kv cache", "kv-cache", "mem-fraction-static", "mem_fraction_static", "max_total_num_tokens", "memory pool"} {
		if strings.Contains(m, k) && (strings.Contains(m, "memory") || strings.Contains(m, "mem-fraction") || strings.Contains(m, "mem_fraction")) {
			return "initialising the memory pool"
		}
	}
	if strings.Contains(m, "cuda graph") && strings.Contains(m, "captur") {
		return "capturing CUDA graphs"
	}
	for _, k := range [...]string{"load_weights", "loading weights", "load weights", "weight loading", "loading the checkpoint", "loading checkpoint shards"} {
		if strings.Contains(m, k) {
			return "loading weights"
		}
	}
	for _, k := range [...]string{"`model_type`", "'model_type'", "unrecognized model", "model architecture", "unrecognized configuration class"} {
		if strings.Contains(m, k) {
			return "reading the model config"
		}
	}
	if configAttribute(msg) {
		// "'Qwen3MoeConfig' object has no attribute 'rope_parameters'":
		// the model code reads a field the config class does not have.
		return "reading the model config"
	}
	// config.json as a name of its own, not preprocessor_config.json.
	for i := 0; ; {
		j := strings.Index(m[i:], "config.json")
		if j < 0 {
			return ""
		}
		if at := i + j; at == 0 || !isAlnum(m[at-1]) && m[at-1] != '_' && m[at-1] != '-' {
			return "reading the model config"
		}
		i += j + len("config.json")
	}
}

// componentOfLower names the optional component an exception's message
// names, given the message lowercased; "" when it names none.
func componentOfLower(m string) string {
	for _, c := range [...]struct{ key, value string }{
		{"attention backend", "attention backend"}, {"attention_backend", "attention backend"},
		{"mha backend", "attention backend"}, {"mla backend", "attention backend"},
		{"flashinfer", "attention backend"}, {"flash_attn", "attention backend"}, {"flash attention", "attention backend"},
		{"grammar backend", "grammar backend"}, {"grammar_backend", "grammar backend"}, {"xgrammar", "grammar backend"},
		{"grammar_matcher", "grammar backend"}, {"grammar matcher", "grammar backend"},
		{"llguidance", "grammar backend"},
		{"speculative", "speculative decoding"}, {"draft model", "speculative decoding"},
		{"lora adapter", ComponentLoRA}, {"--max-lora-rank", ComponentLoRA}, {"lora-target-modules", ComponentLoRA},
		{"quantization", "quantization"}, {"quant_config", "quantization"}, {"quant method", "quantization"},
		{"lmcache", ComponentKVConnector},
		{"tool_call_parser", ComponentToolParser}, {"tool-call-parser", ComponentToolParser}, {"tool call parser", ComponentToolParser},
		{"tool parser", ComponentToolParser}, {"tools should be extracted", ComponentToolParser},
		{"extract tool call", ComponentToolParser}, {"parse tool call", ComponentToolParser},
		{"mooncake", "transfer engine"}, {"nixl", "transfer engine"}, {"transfer engine", "transfer engine"},
		{"disaggregation", "transfer engine"},
		// PD disaggregation's KV hand-over: its bootstrap (the prefill
		// side's rendezvous with decode) and its transfer errors.
		{"kvtransfer", "transfer engine"}, {"kv transfer", "transfer engine"}, {"kv_transfer", "transfer engine"},
		{"bootstrap failed", "transfer engine"}, {"bootstrap_room", "transfer engine"}, {"bootstrap server", "transfer engine"},
		{"nvshmem", ComponentEP}, {"deepep", ComponentEP}, {"deep_ep", ComponentEP},
		{"custom_all_reduce", "custom all-reduce"}, {"custom allreduce", "custom all-reduce"}, {"custom all-reduce", "custom all-reduce"},
	} {
		if strings.Contains(m, c.key) {
			return c.value
		}
	}
	return ""
}

// configAttribute reports whether msg is an AttributeError's on a config
// object: "'<Name>Config' object has no attribute '<field>'".
func configAttribute(msg string) bool {
	const tail = "Config' object has no attribute '"
	i := strings.Index(msg, tail)
	if i <= 0 {
		return false
	}
	j := strings.LastIndexByte(msg[:i], '\'')
	if j < 0 {
		return false
	}
	name := msg[j+1 : i]
	if name == "" || !isUpperByte(name[0]) {
		return false
	}
	for k := 0; k < len(name); k++ {
		if !isAlnum(name[k]) && name[k] != '_' {
			return false
		}
	}
	return true
}

func isUpperByte(c byte) bool { return c >= 'A' && c <= 'Z' }

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// launcherVars are the environment variables a distributed launcher
// (torchrun, torch.distributed.launch, mpirun's wrappers, a Ray or Slurm
// job's script) sets for each process it starts.
var launcherVars = [...]string{"RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT", "NODE_RANK", "GROUP_RANK"}

// envMessage reports whether an exception of type base (no module) with
// message msg says an environment variable the process needs is not set:
// a message that says so ("environment variable RANK expected, but not
// set", "... must be set", "... is not set"), or a KeyError of
// os.environ on a variable a launcher sets ("KeyError: 'LOCAL_RANK'").
func envMessage(base, msg, m string) bool {
	if base == "KeyError" {
		return EnvVar(msg) != ""
	}
	if !strings.Contains(m, "environment variable") && !strings.Contains(m, "env var") {
		return false
	}
	for _, k := range [...]string{"not set", "must be set", "expected", "is required", "is missing", "not found", "not defined"} {
		if strings.Contains(m, k) {
			return true
		}
	}
	return false
}

// EnvVar returns the environment variable msg names: one a launcher
// sets, or an upper-case name of letters, digits and '_' right after
// "environment variable"; "" when it names none.
func EnvVar(msg string) string {
	if len(msg) > 4096 {
		msg = msg[:4096]
	}
	t := strings.Trim(strings.TrimSpace(msg), "'\"")
	for _, v := range launcherVars {
		if t == v {
			return v
		}
	}
	// "environment variable" in either case of its first letter; the
	// index is msg's own (a lowered copy may be of another length).
	i := strings.Index(msg, "nvironment variable") - 1
	if i < 0 || msg[i] != 'e' && msg[i] != 'E' {
		return ""
	}
	rest := strings.TrimLeft(msg[i+len("environment variable"):], " s:'\"`")
	n := 0
	for n < len(rest) && n <= 64 && (isUpperByte(rest[n]) || isDigitByte(rest[n]) || rest[n] == '_') {
		n++
	}
	if n < 2 || n > 64 || !isUpperByte(rest[0]) || n < len(rest) && isLowerByte(rest[n]) {
		return ""
	}
	return rest[:n]
}

func isLowerByte(c byte) bool { return c >= 'a' && c <= 'z' }

// oomKillMessage reports whether the lower-cased message m says the
// kernel's OOM killer killed processes of a cgroup, in the words of the
// job schedulers and runtimes that watch the cgroup: Slurm's "Detected 2
// oom-kill event(s) in step 12.batch cgroup" and "Some of the step tasks
// have been OOM Killed", Kubernetes' "OOMKilled", the kernel's own
// "oom_kill" counter. A process killed so, not an allocation refused.
func oomKillMessage(m string) bool {
	return strings.Contains(m, "oom-kill") || strings.Contains(m, "oom_kill") || strings.Contains(m, "oom killed") ||
		strings.Contains(m, "oomkilled")
}

// ExceptionFamily is the family of failure the exception typ: msg says
// (FamilyGPU for "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED
// ..."), "" when it says none ("RuntimeError: Model generation returned
// no output.").
func ExceptionFamily(typ, msg string) string { return familyOf(typ, msg) }
