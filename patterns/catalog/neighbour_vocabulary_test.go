package catalog_test

import (
	"strings"
	"testing"
)

// The serving stack's neighbours are the projects an sglang (or vLLM)
// deployment runs beside the engine: Mooncake's store master and clients
// and its transfer engine, the KV-cache layers that call Mooncake's Python
// store (LMCache, the engines' own connectors), NVIDIA Dynamo's runtime
// and its NATS and etcd, Triton's compiler on each GPU backend, the
// parsers that turn a model's tokens into messages (OpenAI harmony, the
// engines' tool-call parsers, Jinja chat templates), and the HTTP clients
// of benchmark scripts and RL trainers that call a server. Each table is
// written from the project's own error statements and composed in the
// shapes its callers print; the record named must lead on every line, and
// the project's routine lines stay silent.

// glogE writes msg the way Mooncake's C++ code logs an error with glog.
func glogE(file, msg string) string { return "E0905 14:46:37.882854 17930 " + file + "] " + msg }

// teLog writes msg the way Mooncake's transfer engine logs a metadata
// or handshake error.
func teLog(msg string) string { return "E0116 10:00:01.123456 4021 transfer_metadata.cpp:512] " + msg }

// glogI writes msg the way Mooncake's master logs an informational line.
func glogI(file, msg string) string { return "I0929 15:50:18.427733   862 " + file + "] " + msg }

// mooncakeStoreErrorCodes are the store's ErrorCode names (types.h,
// toString) as the store client and its Python binding print them when an
// operation fails. A failure code names the record that explains it; a
// code that is a miss or a routine conflict (an object not found, already
// there, leased, a task or bucket lookup) is claimed by no failure record.
var mooncakeStoreErrorCodes = vocabulary{
	name: "Mooncake store ErrorCode (client and store_py)",
	shapes: []vocabShape{
		{Field: fieldName, Format: glogE("store_py.cpp:1036", "Put operation failed with error: %s")},
		{Field: fieldName, Format: glogE("client.cpp:503", "Failed to start put operation: %s")},
		{Field: fieldName, Format: glogE("real_client.cpp:1410", "Get failed for key: sglang_kv_0a1b2c with error: %s")},
	},
	terms: []vocabTerm{
		{"", "INTERNAL_ERROR", "", "mooncake-store-operation-failed"},
		{"", "BUFFER_OVERFLOW", "", "mooncake-store-operation-failed"},
		{"", "SHARD_INDEX_OUT_OF_RANGE", "", "mooncake-store-operation-failed"},
		{"", "SEGMENT_NOT_FOUND", "", "mooncake-store-operation-failed"},
		{"", "SEGMENT_ALREADY_EXISTS", "", ""},
		{"", "CLIENT_NOT_FOUND", "", "mooncake-master-client-expired"},
		{"", "NO_AVAILABLE_HANDLE", "", "mooncake-store-allocation-failed"},
		{"", "INVALID_VERSION", "", "mooncake-store-version-mismatch"},
		{"", "INVALID_KEY", "", "mooncake-store-operation-failed"},
		{"", "WRITE_FAIL", "", "mooncake-store-operation-failed"},
		{"", "INVALID_PARAMS", "", "mooncake-store-operation-failed"},
		{"", "ILLEGAL_CLIENT", "", "mooncake-store-operation-failed"},
		{"", "INVALID_WRITE", "", "mooncake-store-operation-failed"},
		{"", "INVALID_READ", "", "mooncake-store-operation-failed"},
		{"", "INVALID_REPLICA", "", "mooncake-store-operation-failed"},
		{"", "REPLICA_IS_NOT_READY", "", ""},
		{"", "OBJECT_NOT_FOUND", "", ""},
		{"", "OBJECT_ALREADY_EXISTS", "", ""},
		{"", "OBJECT_HAS_LEASE", "", ""},
		{"", "LEASE_EXPIRED", "", "mooncake-store-lease-expired"},
		{"", "OBJECT_HAS_REPLICATION_TASK", "", ""},
		{"", "OBJECT_NO_REPLICATION_TASK", "", ""},
		{"", "REPLICA_NOT_FOUND", "", "mooncake-store-operation-failed"},
		{"", "REPLICA_ALREADY_EXISTS", "", ""},
		{"", "REPLICA_IS_GONE", "", "mooncake-store-operation-failed"},
		{"", "REPLICA_NOT_IN_LOCAL_MEMORY", "", "mooncake-store-operation-failed"},
		{"", "OBJECT_REPLICA_BUSY", "", "mooncake-store-operation-failed"},
		{"", "TRANSFER_FAIL", "", "mooncake-store-transfer-failed"},
		{"", "CHECKSUM_MISMATCH", "", "mooncake-store-checksum-mismatch"},
		{"", "RPC_FAIL", "", "mooncake-master-unreachable"},
		{"", "RPC_TIMEOUT", "", "mooncake-master-unreachable"},
		{"", "ETCD_OPERATION_ERROR", "", "mooncake-master-leadership-lost"},
		{"", "ETCD_KEY_NOT_EXIST", "", ""},
		{"", "ETCD_TRANSACTION_FAIL", "", "mooncake-master-leadership-lost"},
		{"", "ETCD_CTX_CANCELLED", "", "mooncake-master-leadership-lost"},
		{"", "OPLOG_ENTRY_NOT_FOUND", "", ""},
		{"", "K8S_LEASE_OPERATION_ERROR", "", "mooncake-master-leadership-lost"},
		{"", "K8S_LEASE_NOT_FOUND", "", "mooncake-master-leadership-lost"},
		{"", "INCOMPLETE_OPLOG_CATCH_UP", "", "mooncake-master-leadership-lost"},
		{"", "UNAVAILABLE_IN_CURRENT_STATUS", "", "mooncake-master-leadership-lost"},
		{"", "UNAVAILABLE_IN_CURRENT_MODE", "", ""},
		{"", "NOT_SUPPORTED", "", ""},
		{"", "FILE_NOT_FOUND", "", "mooncake-store-operation-failed"},
		{"", "FILE_OPEN_FAIL", "", "mooncake-store-operation-failed"},
		{"", "FILE_READ_FAIL", "", "mooncake-store-operation-failed"},
		{"", "FILE_WRITE_FAIL", "", "mooncake-store-operation-failed"},
		{"", "FILE_INVALID_BUFFER", "", "mooncake-store-operation-failed"},
		{"", "FILE_LOCK_FAIL", "", "mooncake-store-operation-failed"},
		{"", "FILE_INVALID_HANDLE", "", "mooncake-store-operation-failed"},
		{"", "BUCKET_NOT_FOUND", "", ""},
		{"", "BUCKET_ALREADY_EXISTS", "", ""},
		{"", "KEYS_EXCEED_BUCKET_LIMIT", "", "mooncake-store-operation-failed"},
		{"", "KEYS_ULTRA_LIMIT", "", "mooncake-store-operation-failed"},
		{"", "UNABLE_OFFLOAD", "", ""},
		{"", "UNABLE_OFFLOADING", "", ""},
		{"", "SERIALIZE_UNSUPPORTED", "", ""},
		{"", "SERIALIZE_FAIL", "", "mooncake-store-operation-failed"},
		{"", "DESERIALIZE_FAIL", "", "mooncake-store-operation-failed"},
		{"", "PERSISTENT_FAIL", "", "mooncake-store-operation-failed"},
		{"", "TASK_NOT_FOUND", "", ""},
		{"", "TASK_PENDING_LIMIT_EXCEEDED", "", "mooncake-store-operation-failed"},
		{"", "JOB_NOT_FOUND", "", ""},
		{"", "DFS_NETWORK_TIMEOUT", "", "mooncake-store-operation-failed"},
		{"", "DFS_SERVICE_UNAVAILABLE", "", "mooncake-store-operation-failed"},
		{"", "DFS_QUOTA_EXCEEDED", "", "mooncake-store-operation-failed"},
		{"", "DFS_PERMISSION_DENIED", "", "mooncake-store-operation-failed"},
		{"", "DFS_STALE_HANDLE", "", "mooncake-store-operation-failed"},
		{"", "DFS_PARTIAL_WRITE", "", "mooncake-store-operation-failed"},
		{"", "TENANT_QUOTA_EXCEEDED", "", "mooncake-store-operation-failed"},
		{"", "TENANT_NOT_REGISTERED", "", ""},
		{"", "TENANT_NOT_EMPTY", "", ""},
	},
}

// mooncakeMasterLifecycle is what the store master and the clients'
// master connection print about clients, segments and leadership: a
// client expired and its segments unmounted, leadership lost in HA mode,
// and the routine lines of the same paths (metrics, mounts, reconnects).
var mooncakeMasterLifecycle = vocabulary{
	name: "Mooncake master client, segment and leadership lifecycle",
	shapes: []vocabShape{
		{Field: fieldText, Format: "%s"},
		{Field: fieldText, Format: "`%s"},
	},
	terms: []vocabTerm{
		{glogI("master_service.cpp:913", "client_id=4918870832766731220-5367791128432300194, action=client_expired"), "", "", ""},
		{glogI("master_service.cpp:975", "client_id=4918870832766731220-5367791128432300194, segment_name=192.168.2.31:14228, action=unmount_expired_segment"), "", "", "mooncake-master-client-expired"},
		{glogI("master_service.cpp:11032", "client_id=4918870832766731220-5367791128432300194, segment_name=10.0.0.7:15002, action=unmount_expired_mem_segment"), "", "", "mooncake-master-client-expired"},
		{glogE("master_service.cpp:11005", "client_id=4918870832766731220-5367791128432300194, segment_name=10.0.0.7:15002, error=prepare_unmount_expired_mem_segment_failed"), "", "", "mooncake-master-client-expired"},
		{"W1016 10:02:11.000312  4410 master_service_supervisor.cpp:368] Leadership expired during warmup phase", "", "", "mooncake-master-leadership-lost"},
		{"W1016 10:02:11.000312  4410 master_service_supervisor.cpp:430] Leadership expired before entering serve phase", "", "", "mooncake-master-leadership-lost"},
		{glogE("master_service_supervisor.cpp:486", "Master service stopped: rpc server exited"), "", "", "mooncake-master-leadership-lost"},
		{"W1016 10:02:11.000312  4410 client_service.cpp:755] Failed to switch to leader 10.0.0.3:50051: RPC_FAIL", "", "", "mooncake-master-leadership-lost"},
		{"W1016 10:02:11.000312  4410 client_service.cpp:743] Failed to wait for leader view change: ETCD_CTX_CANCELLED", "", "", "mooncake-master-leadership-lost"},
		{glogI("rpc_service.cpp:48", "Master Metrics: Storage: 12.00 B / 512.00 MB (0.0%) | Keys: 2 (soft-pinned: 0) | Clients: 0 | Requests (Success/Total): Put=0/0, Get=0/0, Exist=0/0, Del=0/0, DelAll=0/0, Ping=0/0,  | Eviction: Success/Attempts=0/0, keys=0, size=0.00 B"), "", "", ""},
		{glogI("master_service.cpp:898", "client_id=4918870832766731220-5367791128432300194, action=mount_segment, segment_name=192.168.2.31:14228"), "", "", ""},
		{glogI("client_service.cpp:4893", "Reconnected to master 10.0.0.3:50051"), "", "", ""},
		{glogE("master_service.cpp:10654", "Error in second pass eviction: target_evict_num=512, evicted_count=0, eviction_base=0, evict_ratio_target=0.05, evict_ratio_lowerbound=0.01"), "", "", "mooncake-master-eviction-failed"},
		{"W1016 10:02:11.000312  4410 master_service.cpp:10102] BatchEvict: OpLog persist failed for key=sglang_kv_0a1b2c, error=ETCD_OPERATION_ERROR, skipping eviction", "", "", "mooncake-master-eviction-failed"},
		{glogI("master_service.cpp:9009", "[EVICT-DONE] BatchEvict execution completed."), "", "", ""},
	},
}

// mooncakeStoreRPCArgs are the master client's refusals of a call's
// arguments: the put's end and revoke name their own record (a master and
// client of different releases disagree on those calls' arguments), every
// other call the version mismatch.
var mooncakeStoreRPCArgs = vocabulary{
	name: "Mooncake master client: invalid rpc arg",
	shapes: []vocabShape{
		{Field: fieldText, Format: glogE("master_client.cpp:297", "%s")},
		{Field: fieldText, Format: "[2026-05-28 00:11:09 TP0] " + glogE("master_client.cpp:297", "%s")},
	},
	terms: []vocabTerm{
		{"Failed to end put operation: invalid rpc arg", "", "", "mooncake-store-put-end-rejected"},
		{"Failed to revoke put operation: invalid rpc arg", "", "", "mooncake-store-put-end-rejected"},
		{"Failed to end batch put operation: invalid rpc arg", "", "", "mooncake-store-put-end-rejected"},
		{"Failed to start put operation: invalid rpc arg", "", "", "mooncake-store-version-mismatch"},
		{"RPC call failed: invalid rpc arg", "", "", "mooncake-store-version-mismatch"},
		{"Version mismatch: server=v2.1.0 client=v2.0.3", "", "", "mooncake-store-version-mismatch"},
	},
}

// mooncakeAPISkew is a KV-cache layer calling a Mooncake Python store
// method the installed wheel does not have, as LMCache, sglang's HiCache
// backend and a bare traceback print it.
var mooncakeAPISkew = vocabulary{
	name: "Mooncake Python store API skew",
	shapes: []vocabShape{
		{Field: fieldText, Format: "[2025-09-04 01:00:51,159] LMCache ERROR: batch_get_buffer failed: %s (mooncakestore_connector.py:360:lmcache.v1.storage_backend.connector.mooncakestore_connector)"},
		{Field: fieldText, Format: "[2025-06-16 14:29:56,882] LMCache WARNING: Failed to initialize/re-establish remote connection: %s"},
		{Field: fieldText, Format: rawTB("AttributeError: %s")},
	},
	terms: []vocabTerm{
		{"'mooncake.store.MooncakeDistributedStore' object has no attribute 'batch_get_buffer'", "", "", "mooncake-store-api-version-mismatch"},
		{"'mooncake.store.MooncakeDistributedStore' object has no attribute 'setup_lmcache'", "", "", "mooncake-store-api-version-mismatch"},
		{"'MooncakeDistributedStore' object has no attribute 'batch_put_from_multi_buffers'", "", "", "mooncake-store-api-version-mismatch"},
	},
}

// tritonBackendCompilers are Triton's compiler failures on each backend:
// a pass of the backend's pipeline failing, as the compile stage's
// traceback ends; the kernel's own source error and the shared memory it
// asks for keep their records.
var tritonBackendCompilers = vocabulary{
	name: "Triton compiler by backend",
	shapes: []vocabShape{
		{Field: fieldText, Format: "Traceback (most recent call last):\n" +
			`  File "/usr/local/lib/python3.12/dist-packages/triton/compiler/compiler.py", line 347, in compile` + "\n" +
			"    next_module = compile_ir(module, metadata)\n" +
			`  File "/usr/local/lib/python3.12/dist-packages/triton/backends/%s/compiler.py", line 304, in make_ttgir` + "\n" +
			"    pm.run(mod, 'make_ttgir')\n" +
			"RuntimeError: PassManager::run failed"},
		{Field: fieldText, Format: "loc(\"/tmp/kernel.py\":41:20): error: failures have been detected while processing an MLIR pass pipeline (backend %s)"},
		{Field: fieldName, Format: tb("%s")},
	},
	terms: []vocabTerm{
		{"nvidia", "", "", "triton-pass-manager-failed"},
		{"amd", "", "", "triton-pass-manager-failed"},
		{"intel", "", "", "triton-pass-manager-failed"},
		{"", "triton.compiler.errors.CompilationError: at 34:8:", "", "triton-compilation-error"},
		{"", "LLVM ERROR: Cannot select: intrinsic %llvm.amdgcn.mfma.f32.32x32x8bf16.1k", "", "triton-pass-manager-failed"},
		{"", "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 147456, Hardware limit: 101376. Reducing block sizes or `num_stages` may help.", "", "triton-out-of-resources"},
		{"", "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 98304, Hardware limit: 65536. Reducing block sizes or `num_stages` may help.", "", "triton-out-of-resources"},
		{"", "triton.runtime.errors.OutOfResources: out of resource: threads, Required: 2048, Hardware limit: 1024. Reducing block sizes or `num_stages` may help.", "", "triton-out-of-resources"},
	},
}

// harmonyErrors are the OpenAI harmony parser's errors (HarmonyError, a
// RuntimeError of the Rust binding) on gpt-oss output, as vLLM's chat
// stream logs the request's traceback and as a bare traceback ends.
var harmonyErrors = vocabulary{
	name: "OpenAI harmony parser",
	shapes: []vocabShape{
		{Field: fieldText, Format: "2025-09-15 11:29:27,572 - lmdeploy - ERROR - async_engine.py:657 - [safe_run] exception caught: HarmonyError %s"},
		{Field: fieldText, Format: vllmHarmonyStream("openai_harmony.HarmonyError: %s")},
		{Field: fieldText, Format: rawTB("openai_harmony.HarmonyError: %s")},
	},
	terms: []vocabTerm{
		{`unexpected tokens remaining in message header: ["––commentary"]`, "", "", "harmony-parse-error"},
		{"Unexpected EOS while waiting for message header to complete", "", "", "harmony-parse-error"},
		{"Unexpected token 200005 while expecting start token 200006", "", "", "harmony-parse-error"},
		{"Unknown role: toolx", "", "", "harmony-parse-error"},
		{"channel marker present but no channel value found in header", "", "", "harmony-parse-error"},
		{"token 200012 was specified as a stop token, but is not mapped", "", "", "harmony-parse-error"},
		{`unexpected tokens remaining in message header: Some("to=functions.web-browsing")`, "", "", "harmony-parse-error"},
	},
}

// vllmHarmonyStream is a streamed chat request of vLLM's API server that
// fails in the harmony parser: the stream generator's header, the
// traceback through the parser, each line under the record's prefix.
func vllmHarmonyStream(exc string) string {
	var b strings.Builder
	for _, l := range []string{
		"Error in chat completion stream generator.",
		"Traceback (most recent call last):",
		`  File "/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/serving_chat.py", line 642, in chat_completion_stream_generator`,
		"    harmony_parser.process(token_id)",
		`  File "/usr/local/lib/python3.12/dist-packages/openai_harmony/__init__.py", line 627, in process`,
		"    self._inner.process(token)",
		exc,
	} {
		b.WriteString("(APIServer pid=27525) ERROR 08-06 23:25:57 [serving_chat.py:1001] " + l + "\n")
	}
	return b.String()
}

// dynamoNATS is NVIDIA Dynamo's runtime failing to reach NATS, as the
// frontend's traceback ends and as its Rust log prints it.
var dynamoNATS = vocabulary{
	name: "Dynamo runtime: NATS",
	shapes: []vocabShape{
		{Field: fieldText, Format: rawTB("Exception: Failed to connect to NATS: %s")},
		{Field: fieldText, Format: dynamoLog("ERROR", "dynamo_runtime::transports::nats", "Failed to connect to NATS: %s")},
	},
	terms: []vocabTerm{
		{"IO error: Connection refused (os error 111)", "", "", "dynamo-nats-unreachable"},
		{"IO error: failed to lookup address information: Name or service not known", "", "", "dynamo-nats-unreachable"},
		{"timed out", "", "", "dynamo-nats-unreachable"},
	},
}

// httpClientErrors are what the HTTP clients of benchmark scripts, RL
// trainers and routers print when the server they call went away or
// stopped answering: requests and urllib3, aiohttp, httpx and httpcore,
// and an RL trainer's rollout client giving up after its retries with the
// last error's text (alt: the exception's str()).
// The server's own log holds the cause; each is the client's consequence.
var httpClientErrors = vocabulary{
	name: "HTTP clients of a server that went away",
	shapes: []vocabShape{
		{Field: fieldText, Format: "Error: %s"},
		{Field: fieldName, Format: rawTB("%s")},
		{Field: fieldAlt, Format: "  RuntimeError: Failed after 3 retries each. Payload: {'input_ids': [151644, 8948, 198], 'sampling_params': {'max_new_tokens': 8151}}. Addr: 10.0.0.12:30000. Endpoint: /generate. Last error: %s"},
	},
	terms: []vocabTerm{
		{"('Connection aborted.', RemoteDisconnected('Remote end closed connection without response'))", "requests.exceptions.ConnectionError: ('Connection aborted.', RemoteDisconnected('Remote end closed connection without response'))", "", "http-upstream-disconnected"},
		{"('Connection aborted.', ConnectionResetError(104, 'Connection reset by peer'))", "urllib3.exceptions.ProtocolError: ('Connection aborted.', ConnectionResetError(104, 'Connection reset by peer'))", "", "http-upstream-disconnected"},
		{"('Connection broken: InvalidChunkLength(got length b'', 0 bytes read)', InvalidChunkLength(got length b'', 0 bytes read))", "requests.exceptions.ChunkedEncodingError: ('Connection broken: InvalidChunkLength(got length b'', 0 bytes read)', InvalidChunkLength(got length b'', 0 bytes read))", "", "http-upstream-disconnected"},
		{"('Connection broken: IncompleteRead(0 bytes read, 512 more expected)', IncompleteRead(0 bytes read, 512 more expected))", "requests.exceptions.ChunkedEncodingError: ('Connection broken: IncompleteRead(0 bytes read, 512 more expected)', IncompleteRead(0 bytes read, 512 more expected))", "", "http-upstream-disconnected"},
		{"", "http.client.RemoteDisconnected: Remote end closed connection without response", "", "http-upstream-disconnected"},
		{"", "aiohttp.client_exceptions.ServerDisconnectedError: Server disconnected", "Server disconnected", "http-upstream-disconnected"},
		{"", "aiohttp.client_exceptions.ClientPayloadError: Response payload is not completed", "Response payload is not completed", "http-upstream-disconnected"},
		{"", "aiohttp.client_exceptions.ClientConnectionError: Connection closed", "", "http-upstream-disconnected"},
		{"", "httpx.RemoteProtocolError: Server disconnected without sending a response.", "", "http-upstream-disconnected"},
		{"", "httpx.ReadError", "", "http-upstream-disconnected"},
		{"", "aiohttp.client_exceptions.ClientOSError: [Errno 104] Connection reset by peer", "", "http-upstream-disconnected"},
		{"", "httpx.WriteError: [Errno 32] Broken pipe", "", "http-upstream-disconnected"},
		{"HTTPConnectionPool(host='10.192.132.208', port=30033): Max retries exceeded with url: /v1/chat/completions (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f607c17e250>: Failed to establish a new connection: [Errno 111] Connection refused'))", "", "", "http-upstream-connect-failed"},
		{"", "httpx.ConnectError: [Errno 111] Connection refused", "", "http-upstream-connect-failed"},
		{"", "httpx.ConnectError: All connection attempts failed", "", "http-upstream-connect-failed"},
		{"", "aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host 10.0.0.12:30000 ssl:default [Connect call failed ('10.0.0.12', 30000)]", "Cannot connect to host 10.0.0.12:30000 ssl:default [Connect call failed ('10.0.0.12', 30000)]", "http-upstream-connect-failed"},
		{"", "httpx.ReadTimeout", "", "http-client-read-timeout"},
		{"HTTPConnectionPool(host='10.0.0.12', port=30000): Read timed out. (read timeout=600)", "", "", "http-client-read-timeout"},
	},
}

// chatTemplateRefusals are a model's Jinja chat template refusing a
// conversation (its raise_exception), as jinja2 and llama.cpp's template
// engine report it.
var chatTemplateRefusals = vocabulary{
	name: "Jinja chat templates",
	shapes: []vocabShape{
		{Field: fieldText, Format: rawTB("jinja2.exceptions.TemplateError: %s")},
		{Field: fieldText, Format: ` srv    operator(): got exception: {"error":{"code":500,"message":"\n------------\nWhile executing CallExpression at line 189, column 32 in source:\n...\nError: Jinja Exception: %s","type":"server_error"}}`},
	},
	terms: []vocabTerm{
		{"After the optional system message, conversation roles must alternate user and assistant roles except for tool calls and results.", "", "", "chat-template-render-error"},
		{"Conversation roles must alternate user/assistant/user/assistant/...", "", "", "chat-template-render-error"},
		{"System role not supported", "", "", "chat-template-render-error"},
	},
}

// mooncakeTransferMetadata is what the transfer engine prints when a
// segment's metadata or a peer's handshake fails: the metadata store
// unreachable, a descriptor it cannot use, a peer unknown or rejecting the
// handshake; and the lines of the same paths that are no failure.
var mooncakeTransferMetadata = vocabulary{
	name: "Mooncake transfer engine metadata and handshake",
	shapes: []vocabShape{
		{Field: fieldText, Format: "E0116 10:00:01.123456 4021 transfer_metadata.cpp:512] %s"},
		{Field: fieldText, Format: "[2026-05-28 00:11:09 TP0] E0116 10:00:01.123456 4021 transfer_metadata_plugin.cpp:224] %s"},
	},
	terms: []vocabTerm{
		{"Unable to create metadata handshake plugin with conn string: P2PHANDSHAKE", "", "", "mooncake-metadata-server-unreachable"},
		{"TE metadata refresh polling failed, ret=-1", "", "", "mooncake-metadata-server-unreachable"},
		{"Exception in TE metadata refresh polling: std::bad_alloc", "", "", "mooncake-metadata-server-unreachable"},
		{"RedisStoragePlugin: unable to connect redis://10.0.0.3:6379: Connection refused", "", "", "mooncake-metadata-server-unreachable"},
		{"RedisStoragePlugin: authentication failed for redis://10.0.0.3:6379", "", "", "mooncake-metadata-server-unreachable"},
		{"EtcdStoragePlugin: unable to connect 10.0.0.3:2379: failed to dial", "", "", "mooncake-metadata-server-unreachable"},
		{"Failed to set location of 10.0.0.7:15002", "", "", "mooncake-metadata-server-unreachable"},
		{"Corrupted segment descriptor, name 10.0.0.7:15002 protocol rdma", "", "", "mooncake-segment-descriptor-invalid"},
		{"Unsupported segment descriptor, name 10.0.0.7:15002 protocol nvlink", "", "", "mooncake-segment-descriptor-invalid"},
		{"Failed to register segment descriptor, name 10.0.0.7:15002 protocol rdma", "", "", "mooncake-metadata-server-unreachable"},
		{"EtcdStoragePlugin: JSON parse error: * Line 1, Column 1 Syntax error", "", "", "mooncake-segment-descriptor-invalid"},
		{"Unsupported multi-protocol combination: rdma,nvlink. Only cxl, tcp, rdma, hip, maca and musa may be combined.", "", "", "mooncake-segment-descriptor-invalid"},
		{"Failed to retrieve segment descriptor, name 10.0.0.7:15002", "", "", "mooncake-target-segment-unknown"},
		{"Segment descriptor 10.0.0.7:15002 not found", "", "", "mooncake-target-segment-unknown"},
		{"Failed to find location of 10.0.0.7:15002", "", "", "mooncake-target-segment-unknown"},
		{"Local segment descriptor not found", "", "", "mooncake-segment-descriptor-not-found"},
		{"Handshake rejected by 10.0.0.7:15002: segment not found", "", "", "mooncake-handshake-rejected"},
		{"Notify rejected by 10.0.0.7:15002", "", "", "mooncake-handshake-rejected"},
		{"SocketHandShakePlugin: failed to receive handshake message, malformed json format: ", "", "", "mooncake-handshake-rejected"},
		{"SocketHandShakePlugin: unexpected handshake message type", "", "", "mooncake-handshake-rejected"},
		{"SocketHandShakePlugin: failed to send message: malformed json format, check tcp connection", "", "", "mooncake-handshake-rejected"},
		{"SocketHandShakePlugin: failed to get IP address of peer server 10.0.0.7:15002", "", "", "mooncake-handshake-rejected"},
		{"SocketHandShakePlugin: bind (port 15002): Address already in use", "", "", "mooncake-handshake-port-unavailable"},
		{"SocketHandShakePlugin: connect()10.0.0.7:15002: Connection refused", "", "", "mooncake-connect-to-segment-failed"},
	},
}

// dynamoRegistration is a Dynamo component's registration in etcd: the
// connection, the lease that keeps it registered, and its heartbeats.
var dynamoRegistration = vocabulary{
	name: "Dynamo runtime: etcd registration",
	shapes: []vocabShape{
		{Field: fieldText, Format: dynamoLog("ERROR", "dynamo_runtime::transports::etcd::lease", "%s")},
		{Field: fieldText, Format: "2025-12-10T13:50:14.788Z  %s"},
	},
	terms: []vocabTerm{
		{"failed to connect to etcd: grpc transport error: tcp connect error: Connection refused (os error 111)", "", "", "dynamo-etcd-unreachable"},
		{"failed to grant lease: grpc request error: status: Unavailable, message: \"etcdserver: no leader\"", "", "", "dynamo-etcd-lease-lost"},
		{"keep alive task failed: failed to issue heartbeat in time", "", "", "dynamo-etcd-lease-lost"},
		{"keep alive task failed: lease expired or revoked", "", "", "dynamo-etcd-lease-lost"},
	},
}

// outputParsers are the engines' tool-call and reasoning parsers failing
// on a model's output, and a parser name the engine does not have.
var outputParsers = vocabulary{
	name: "tool-call and reasoning parsers (sglang, vLLM)",
	shapes: []vocabShape{
		{Field: fieldText, Format: mainLog("%s")},
		{Field: fieldText, Format: vllmLog("(APIServer pid=1)", "ERROR", "serving_chat.py:1001", "%s")},
		{Field: fieldName, Format: rawTB("%s")},
	},
	terms: []vocabTerm{
		{"Tool call parsing error: Expecting ',' delimiter: line 1 column 58 (char 57)", "", "", "tool-call-parse-failed"},
		{"Error in detect_and_parse: Extra data: line 1 column 40 (char 39)", "", "", "tool-call-parse-failed"},
		{"Error in parse_streaming_increment: Unterminated string starting at: line 1 column 12 (char 11)", "", "", "tool-call-parse-failed"},
		{"Error in Inkling detect_and_parse: unexpected token", "", "", "tool-call-parse-failed"},
		{"Error in extracting tool call from response.", "", "", "tool-call-parse-failed"},
		{"Error trying to handle streaming tool call.", "", "", "tool-call-parse-failed"},
		{"Error extracting tool calls from Gemma4 response", "", "", "tool-call-parse-failed"},
		{"Error in Apertus streaming tool call extraction", "", "", "tool-call-parse-failed"},
		{"Reasoning parsing error: 'NoneType' object has no attribute 'find'", "", "", "reasoning-parse-failed"},
		{"Model attempted to call undefined function: get_weather", "", "", ""},
		{"", "ValueError: Unsupported tool_call_parser: hermes2", "", "tool-call-parser-unknown"},
		{"", "RuntimeError: Already borrowed", "", "tokenizer-already-borrowed"},
		{"", "OverflowError: out of range integral type conversion attempted", "", "tokenizer-decode-id-out-of-range"},
	},
}

// nixlStatuses are NIXL's status codes as its Python binding raises them
// from a transfer: each failure names the record that explains it; a
// status of no failure (telemetry off, a request not posted yet) is
// claimed by no failure record.
var nixlStatuses = vocabulary{
	name: "NIXL status codes (Python binding)",
	shapes: []vocabShape{
		{Field: fieldName, Format: "Traceback (most recent call last):\n" +
			`  File "/usr/local/lib/python3.12/dist-packages/nixl/_api.py", line 321, in transfer` + "\n" +
			"    status = self.agent.postXferReq(handle)\n" +
			"%s"},
	},
	terms: []vocabTerm{
		{"", "nixl._bindings.nixlNotFoundError: NIXL_ERR_NOT_FOUND", "", "nixl-prep-xfer-dlist-failed"},
		{"", "nixl._bindings.nixlInvalidParamError: NIXL_ERR_INVALID_PARAM", "", "nixl-invalid-request"},
		{"", "nixl._bindings.nixlMismatchError: NIXL_ERR_MISMATCH", "", "nixl-invalid-request"},
		{"", "nixl._bindings.nixlNotAllowedError: NIXL_ERR_NOT_ALLOWED", "", "nixl-invalid-request"},
		{"", "nixl._bindings.nixlRepostActiveError: NIXL_ERR_REPOST_ACTIVE", "", "nixl-invalid-request"},
		{"", "nixl._bindings.nixlRemoteDisconnectError: NIXL_ERR_REMOTE_DISCONNECT", "", "nixl-remote-disconnect"},
		{"", "nixl._bindings.nixlNotSupportedError: NIXL_ERR_NOT_SUPPORTED", "", "nixl-not-supported"},
		{"", "nixl._bindings.nixlBackendError: NIXL_ERR_BACKEND", "", "nixl-ucx-backend-create-failed"},
	},
}

// mooncakeDummyClient is the engine's dummy store client failing to reach
// the standalone real client that holds the memory, and the engine's own
// line when the store's set-up then fails.
var mooncakeDummyClient = vocabulary{
	name: "Mooncake dummy client and its real client",
	shapes: []vocabShape{
		{Field: fieldText, Format: "E0714 13:28:11.031672 290 dummy_client.cpp:513] %s"},
	},
	terms: []vocabTerm{
		{"Failed to register SHM via IPC", "", "", "mooncake-store-client-setup-failed"},
		{"Failed to connect IPC socket '@mooncake_client_50052.sock': Connection refused", "", "", "mooncake-store-client-setup-failed"},
		{"Failed to send FD to RealClient: Broken pipe", "", "", "mooncake-store-client-setup-failed"},
		{"Failed to receive response from RealClient", "", "", "mooncake-store-client-setup-failed"},
		{"RealClient failed to map shared memory, error code: -1", "", "", "mooncake-store-client-setup-failed"},
		{"Failed to connect to real client", "", "", "mooncake-store-client-setup-failed"},
		{"Failed to map IPC buffer on real side", "", "", "mooncake-store-client-setup-failed"},
		{"Dummy Client not available", "", "", "mooncake-store-client-not-initialized"},
	},
}

// TestNeighbourVocabularies checks every neighbour vocabulary and logs its
// count of failure strings claimed.
func TestNeighbourVocabularies(t *testing.T) {
	checkVocabularies(t, []vocabulary{
		mooncakeStoreErrorCodes,
		mooncakeMasterLifecycle,
		mooncakeStoreRPCArgs,
		mooncakeAPISkew,
		tritonBackendCompilers,
		harmonyErrors,
		dynamoNATS,
		httpClientErrors,
		chatTemplateRefusals,
		mooncakeTransferMetadata,
		dynamoRegistration,
		outputParsers,
		nixlStatuses,
		mooncakeDummyClient,
	})
}

// TestNeighbourRoutineLinesDoNotAlert feeds routine lines of the same
// components through the analysis with the whole catalog: none alerts.
func TestNeighbourRoutineLinesDoNotAlert(t *testing.T) {
	checkRoutineSilent(t, compileCatalog(t), []string{
		glogI("master_service.cpp:913", "client_id=4918870832766731220-5367791128432300194, action=client_expired"),
		glogI("master_service.cpp:898", "client_id=4918870832766731220-5367791128432300194, action=mount_segment, segment_name=192.168.2.31:14228"),
		glogI("rpc_service.cpp:48", "Master Metrics: Storage: 0.00 B / 0.00 B | Keys: 0 (soft-pinned: 0) | Clients: 0 | Requests (Success/Total): Put=0/0, Get=0/0, Exist=0/0, Del=0/0, DelAll=0/0, Ping=0/0,  | Eviction: Success/Attempts=0/0, keys=0, size=0.00 B"),
		glogI("client_service.cpp:4893", "Reconnected to master 10.0.0.3:50051"),
		"I0616 07:25:02.235746 40858 transfer_engine.cpp:100] Transfer Engine RPC using P2P handshake, listening on localhost:12865",
		"(VllmWorker TP3 pid=15157) [2025-09-05 14:46:37,864] LMCache INFO: Stored 100 out of total 100 tokens. size: 0.0038 gb, cost 3.2362 ms, throughput: 1.1788 GB/s; offload_time: 3.0322 ms, put_time: 0.2040 ms (cache_engine.py:296:lmcache.v1.cache_engine)",
		"[2025-09-04 01:00:51,160] LMCache INFO : Retrieved 0 out of 239 out of total 1519 tokens (cache_engine.py:499:lmcache.v1.cache_engine)",
		"WARNING:urllib3.connectionpool:Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ProtocolError('Connection aborted.', RemoteDisconnected('Remote end closed connection without response'))': /v1/chat/completions",
		"(APIServer pid=27525) INFO:     127.0.0.1:34650 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK",
		"(APIServer pid=27525) WARNING 08-06 23:25:57 [harmony_utils.py:212] Harmony parser error at token ID 200005, returning partial parse",
		dynamoLog("INFO", "dynamo_runtime::transports::nats", "Connected to NATS server at nats://localhost:4222"),
		"[2026-05-28 00:11:09] Using default chat template: 'chatml'. Jinja template rendered for 3 messages",
		"[2025-09-04 01:00:40,002] LMCache INFO: Try setting 'save_chunk_meta' to False in the configuration for better performance (mooncakestore_connector.py:190:lmcache.v1.storage_backend.connector.mooncakestore_connector)",
		dynamoLog("TRACE", "dynamo_runtime::transports::etcd::lease", "keep alive task exited successfully"),
		mainLog("Model attempted to call undefined function: get_weather"),
		"I0116 10:00:01.123456 4021 transfer_metadata_plugin.cpp:600] SocketHandShakePlugin: listening on port 15002",
		"[2025-06-16 14:29:56,882] LMCache INFO: Connection initialized/re-established at mooncakestore://172.17.0.1:50052 (remote_backend.py:120:lmcache.v1.storage_backend.remote_backend)",
		hdr("waiting mooncake store server started, cost_time: 3.01 seconds."),
		hdr("Mooncake store setup successfully."),
		"[2026-05-28 00:11:09 TP0] Compiling Triton kernel _fwd_kernel for sm90 (num_warps=4, num_stages=3)",
	})
}

// neighbourExamples are the examples of the neighbour records.
var neighbourExamples = map[string]example{
	"mooncake-master-client-expiry-routine": {
		match: []string{
			glogI("master_service.cpp:913", "client_id=4918870832766731220-5367791128432300194, action=client_expired"),
			"I0706 03:39:15.117377  5736 master_service.cpp:7837] client_id=13061595477301827689-5342800102356941696, action=client_expired",
		},
		miss: []string{
			glogI("master_service.cpp:975", "client_id=4918870832766731220-5367791128432300194, segment_name=192.168.2.31:14228, action=unmount_expired_segment"),
		},
	},
	"mooncake-master-client-expired": {
		match: []string{
			glogI("master_service.cpp:975", "client_id=4918870832766731220-5367791128432300194, segment_name=192.168.2.31:14228, action=unmount_expired_segment"),
			glogE("client.cpp:503", "Failed to start put operation: CLIENT_NOT_FOUND"),
		},
		miss: []string{
			glogI("master_service.cpp:898", "client_id=4918870832766731220-5367791128432300194, action=mount_segment, segment_name=192.168.2.31:14228"),
			"WARNING 01-02 03:04:05 [auth.py:12] OAuth lookup returned CLIENT_NOT_FOUND_HINT",
		},
	},
	"mooncake-store-put-end-rejected": {
		match: []string{
			glogE("master_client.cpp:297", "Failed to end put operation: invalid rpc arg"),
			glogE("master_client.cpp:331", "Failed to revoke put operation: invalid rpc arg"),
		},
		miss: []string{
			glogE("master_client.cpp:136", "Failed to start put operation: invalid rpc arg"),
			glogE("client.cpp:503", "Failed to end put operation: RPC_FAIL"),
		},
	},
	"mooncake-store-api-version-mismatch": {
		match: []string{
			"[2025-09-04 01:00:51,159] LMCache ERROR: batch_get_buffer failed: 'mooncake.store.MooncakeDistributedStore' object has no attribute 'batch_get_buffer' (mooncakestore_connector.py:360:lmcache.v1.storage_backend.connector.mooncakestore_connector)",
			rawTB("AttributeError: 'MooncakeDistributedStore' object has no attribute 'batch_put_from_multi_buffers'"),
		},
		miss: []string{
			rawTB("AttributeError: 'MooncakeKVManager' object has no attribute 'engine'"),
		},
	},
	"mooncake-master-leadership-lost": {
		match: []string{
			"W1016 10:02:11.000312  4410 master_service_supervisor.cpp:368] Leadership expired during warmup phase",
			glogE("client.cpp:503", "Failed to start put operation: UNAVAILABLE_IN_CURRENT_STATUS"),
		},
		miss: []string{
			glogI("master_service_supervisor.cpp:491", "Release leadership: OK"),
		},
	},
	"mooncake-store-operation-failed": {
		match: []string{
			glogE("store_py.cpp:1036", "Put operation failed with error: INTERNAL_ERROR"),
			glogE("real_client.cpp:1410", "Get failed for key: sglang_kv_0a1b2c with error: REPLICA_IS_GONE"),
			glogE("client.cpp:503", "Failed to start put operation: FILE_WRITE_FAIL"),
		},
		miss: []string{
			`level=error msg="infer failed" error="rpc error: code = Internal desc = stream terminated by RST_STREAM with error code: INTERNAL_ERROR"`,
			glogE("store_py.cpp:191", "Failed to mount segment: UNKNOWN_ERROR"),
			glogE("store_py.cpp:1036", "Put operation failed with error: OBJECT_ALREADY_EXISTS"),
		},
	},
	"triton-pass-manager-failed": {
		match: []string{
			"python3: /source/triton/lib/Dialect/TritonGPU/Transforms/Pipeliner.cpp:412: PassManager::run failed",
			"error: failures have been detected while processing an MLIR pass pipeline",
			rawTB("RuntimeError: PassManager::run failed"),
		},
		miss: []string{
			tb("triton.compiler.errors.CompilationError: at 34:8:"),
		},
	},
	"harmony-parse-error": {
		match: []string{
			vllmHarmonyStream(`openai_harmony.HarmonyError: unexpected tokens remaining in message header: ["––commentary"]`),
			rawTB("openai_harmony.HarmonyError: Unexpected EOS while waiting for message header to complete"),
		},
		miss: []string{
			"(APIServer pid=27525) WARNING 08-06 23:25:57 [harmony_utils.py:212] Harmony parser error at token ID 200005, returning partial parse",
		},
	},
	"dynamo-nats-unreachable": {
		match: []string{
			rawTB("Exception: Failed to connect to NATS: IO error: Connection refused (os error 111)"),
			"nats.errors.NoServersError: nats: no servers available for connection",
		},
		miss: []string{
			dynamoLog("INFO", "dynamo_runtime::transports::nats", "Connected to NATS server at nats://localhost:4222"),
		},
	},
	"mooncake-store-server-not-started": {
		match: []string{
			hdr("Launch mooncake store server timeout"),
			rawTB("ValueError: Launch mooncake store server timeout"),
		},
		miss: []string{
			hdr("waiting mooncake store server started, cost_time: 3.01 seconds."),
		},
	},
	"mooncake-store-setup-option-unsupported": {
		match: []string{
			hdr("The installed Mooncake version does not support the enable_ssd_offload parameter(s) in setup(). Retrying without enable_ssd_offload. Please upgrade Mooncake to enable SSD offload support."),
			"[2026-05-28 00:11:09 TP3] The installed Mooncake version does not support the ssd_offload_dir, enable_ssd_offload parameter(s) in setup(). Retrying without ssd_offload_dir, enable_ssd_offload. Please upgrade Mooncake to enable SSD offload support.",
		},
		miss: []string{
			hdr("Mooncake store setup successfully."),
		},
	},
	"mooncake-master-eviction-failed": {
		match: []string{
			glogE("master_service.cpp:10654", "Error in second pass eviction: target_evict_num=512, evicted_count=0, eviction_base=0, evict_ratio_target=0.05, evict_ratio_lowerbound=0.01"),
			"W1016 10:02:11.000312  4410 master_service.cpp:10082] BatchEvict: OpLog reservation failed for key=sglang_kv_0a1b2c, skipping eviction",
		},
		miss: []string{
			glogI("master_service.cpp:9009", "[EVICT-DONE] BatchEvict execution completed."),
		},
	},
	"nixl-not-available": {
		match: []string{
			rawTB("RuntimeError: NIXL is not available"),
			rawTB("ImportError: Please install NIXL by following the instructions at https://github.com/ai-dynamo/nixl/blob/main/README.md to run SGLang with NixlTransferEngine."),
		},
		miss: []string{
			vllmLog("", "WARNING", "nixl_utils.py:58", "NIXL is not available"),
		},
	},
	"reasoning-think-token-not-single": {
		match: []string{
			tb("ValueError: think_end_token '</think>' must encode to exactly one token for constrained reasoning."),
			rawTB("ValueError: think_end_token '</think>' could not be encoded by the tokenizer."),
		},
		miss: []string{
			mainLog("Reasoning parser deepseek-v3 uses think_end_token '</think>'"),
		},
	},
	"nixl-not-supported": {
		match: []string{
			rawTB("nixl._bindings.nixlNotSupportedError: NIXL_ERR_NOT_SUPPORTED"),
			"E0312 10:22:01.771233 5512 libfabric_backend.cpp:954] Memory type VRAM_SEG is not supported by libfabric backend.",
		},
		miss: []string{
			rawTB("nixl._bindings.nixlNotFoundError: NIXL_ERR_NOT_FOUND"),
		},
	},
	"mooncake-segment-descriptor-invalid": {
		match: []string{
			teLog("Corrupted segment descriptor, name 10.0.0.7:15002 protocol rdma"),
			teLog("EtcdStoragePlugin: JSON parse error: * Line 1, Column 1 Syntax error: value, object or array expected."),
		},
		miss: []string{
			teLog("Failed to unregister segment descriptor, name 10.0.0.7:15002"),
		},
	},
	"mooncake-handshake-rejected": {
		match: []string{
			teLog("Handshake rejected by 10.0.0.7:15002: segment not found"),
			teLog("SocketHandShakePlugin: failed to receive handshake message, malformed json format: "),
		},
		miss: []string{
			teLog("SocketHandShakePlugin: connect()10.0.0.7:15002: Connection refused"),
		},
	},
	"dynamo-etcd-lease-lost": {
		match: []string{
			dynamoLog("INFO", "dynamo_runtime::transports::etcd::lease", "keep alive task failed: failed to issue heartbeat in time"),
			dynamoLog("ERROR", "dynamo_runtime::transports::etcd::lease", "failed to grant lease: grpc request error: status: Unavailable"),
		},
		miss: []string{
			dynamoLog("TRACE", "dynamo_runtime::transports::etcd::lease", "keep alive task exited successfully"),
		},
	},
	"lmcache-retrieved-fewer-tokens": {
		match: []string{
			"[2025-09-04 01:00:51,160] LMCache ERROR: The number of retrieved tokens is less than the expected number of tokens! This should not happen! (vllm_v1_adapter.py:751:lmcache.integration.vllm.vllm_v1_adapter)",
			"(RayWorkerWrapper pid=999) [2025-09-25 00:42:06,089] LMCache WARNING: The cache block is in the storage, but it can't be retrieved (cache_engine.py:1087:lmcache.v1.cache_engine)",
			"[2025-09-04 01:00:51,160] LMCache ERROR: Num retrieved tokens: 0, num expected tokens: 15 (vllm_v1_adapter.py:755:lmcache.integration.vllm.vllm_v1_adapter)",
			"(EngineCore_DP0 pid=772517) [2026-01-27 01:40:09,402] LMCache ERROR: Request chatcmpl-a45fe9554f56f11bThe number of retrieved tokens is less than the expected number of tokens! This should not happen! (vllm_v1_adapter.py:881:lmcache.integration.vllm.vllm_v1_adapter)",
		},
		miss: []string{
			"[2025-09-04 01:00:51,160] LMCache INFO : Retrieved 0 out of 239 out of total 1519 tokens (cache_engine.py:499:lmcache.v1.cache_engine)",
		},
	},
	"lmcache-memory-allocation-failed": {
		match: []string{
			"WARNING LMCache: Failed to allocate memory for tensor(torch.Size([2, 64, 64, 1024]), torch.bfloat16) because no memory is available [2025-03-14 16:51:35,318] -- /LMCache/lmcache/experimental/memory_management.py:409",
			"[2025-05-19 18:08:26,176] LMCache WARNING: Failed to allocate memory for tensor(torch.Size([256, 2, 1024]), torch.bfloat16) because no memory is available (memory_management.py:576:lmcache.experimental.memory_management)",
			"WARNING LMCache: Failed to allocate memory during remote receive [2025-03-14 16:51:35,318] -- /LMCache/lmcache/experimental/storage_backend/connector/lm_connector.py:54",
			"[2025-08-21 21:56:03,155] LMCache DEBUG: Memory allocation failed during sync disk load. (gds_backend.py:519:lmcache.v1.storage_backend.gds_backend)",
			// Storing since 0.3 (LMCache#969, #1285).
			"[2025-07-03 12:45:22,498] LMCache WARNING: Failed to allocate memory for the KV cache.\nThe KV cache will not be stored. (cache_engine.py:200:lmcache.v1.cache_engine)",
			"[2025-08-09 17:55:57,778] LMCache WARNING: Failed to allocate memory for the KV cache.",
		},
		miss: []string{
			"[2025-08-21 21:55:40,010] LMCache INFO: Initializing usage context. (usage_context.py:310:lmcache.usage_context)",
		},
	},
	"lmcache-remote-backend-failed": {
		match: []string{
			"[2025-06-16 14:29:56,882] LMCache WARNING: Failed to initialize/re-establish remote connection: [Errno 111] Connection refused",
			"[2025-07-02 16:41:43,868] LMCache WARNING: Error occurred in get_blocking: timed out (remote_backend.py:300:lmcache.v1.storage_backend.remote_backend)",
			"[2025-07-02 16:41:43,868] LMCache WARNING: get blocking timeout, trigger cancel the future task (remote_backend.py:297:lmcache.v1.storage_backend.remote_backend)",
		},
		miss: []string{
			"[2025-06-16 14:29:56,882] LMCache INFO: Connection initialized/re-established at mooncakestore://172.17.0.1:50052 (remote_backend.py:120:lmcache.v1.storage_backend.remote_backend)",
		},
	},
	"tool-call-parse-failed": {
		match: []string{
			mainLog("Tool call parsing error: Expecting ',' delimiter: line 1 column 58 (char 57)"),
			mainLog("Error in detect_and_parse: Extra data: line 1 column 40 (char 39)"),
			vllmLog("(APIServer pid=1)", "ERROR", "hermes_tool_parser.py:120", "Error in extracting tool call from response."),
		},
		miss: []string{
			mainLog("Model attempted to call undefined function: get_weather"),
		},
	},
	"reasoning-parse-failed": {
		match: []string{
			mainLog("Reasoning parsing error: 'NoneType' object has no attribute 'find'"),
			"[2026-05-28 00:11:09] Reasoning parsing error: list index out of range",
		},
		miss: []string{
			mainLog("Unknown reasoning_default mode 'auto', defaulting to reasoning disabled"),
		},
	},
	"tool-call-parser-unknown": {
		match: []string{
			rawTB("ValueError: Unsupported tool_call_parser: hermes2"),
			tb("ValueError: Unsupported tool_call_parser: qwen3"),
		},
		miss: []string{
			"KeyError: 'invalid tool call parser: hermes2 (chose from { hermes,llama3_json,mistral })'",
		},
	},
	"tool-call-constraint-unsupported": {
		match: []string{
			rawTB("NotImplementedError: structure_info not used with HarmonyParser"),
			mainLog("Error in request: structure_info not used for JSON schema constraints"),
		},
		miss: []string{
			rawTB("NotImplementedError: structure_info not implemented"),
		},
	},
	"tokenizer-already-borrowed": {
		match: []string{
			rawTB("RuntimeError: Already borrowed"),
			tb("RuntimeError: Already borrowed"),
		},
		miss: []string{
			rawTB("RuntimeError: Already mutably borrowed"),
		},
	},
}

// neighbourWidened are the lines of records this round widened.
var neighbourWidened = map[string]example{
	"http-upstream-disconnected": {
		match: []string{
			"Error: ('Connection aborted.', RemoteDisconnected('Remote end closed connection without response'))",
			"requests.exceptions.ChunkedEncodingError: ('Connection broken: InvalidChunkLength(got length b'', 0 bytes read)', InvalidChunkLength(got length b'', 0 bytes read))",
			"httpx.ReadError",
		},
		miss: []string{
			"WARNING:urllib3.connectionpool:Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ProtocolError('Connection aborted.', RemoteDisconnected('Remote end closed connection without response'))': /v1/chat/completions",
		},
	},
	"mooncake-store-client-setup-failed": {
		match: []string{
			"E0714 13:28:11.031672 290 dummy_client.cpp:513] Failed to register SHM via IPC",
			"[2026-07-14 13:28:11 TP1] An error occurred while loading the configuration: Failed to setup Mooncake store, error code: -1",
			rawTB("RuntimeError: [TP0] Warmup put failed after 10 attempts, Transfer Engine might not be ready"),
		},
	},
	"mooncake-metadata-server-unreachable": {
		match: []string{
			teLog("EtcdStoragePlugin: unable to connect 10.0.0.3:2379: failed to dial"),
			teLog("TE metadata refresh polling failed, ret=-1"),
		},
	},
	"mooncake-target-segment-unknown": {
		match: []string{
			teLog("Segment descriptor 10.0.0.7:15002 not found"),
			teLog("Failed to find location of 10.0.0.7:15002"),
		},
	},
	"dynamo-etcd-unreachable": {
		match: []string{
			dynamoLog("ERROR", "dynamo_runtime::transports::etcd::lease", "failed to connect to etcd: grpc transport error: tcp connect error: Connection refused (os error 111)"),
		},
	},
	"chat-template-render-error": {
		match: []string{
			` srv    operator(): got exception: {"error":{"code":500,"message":"\n------------\nWhile executing CallExpression at line 189, column 32 in source:\n...\nError: Jinja Exception: After the optional system message, conversation roles must alternate user and assistant roles except for tool calls and results.","type":"server_error"}}`,
		},
	},
}

func init() { addExamples(neighbourExamples, neighbourWidened) }
