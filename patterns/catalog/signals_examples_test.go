package catalog_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
)

// signalExamples are the records of failures a library logs below error
// level, or only from the client's side: a client's view of the server's
// error responses and of a proxy that cannot reach it, a feature enabled
// without its package, output for a request whose client is gone, a
// Mooncake built without what its configuration asks for, the RPC
// library's dropped connection, and what is routine though printed at
// error level: gRPC's keepalive GoAway and its core's fork and shutdown
// notices, asyncio's unclosed aiohttp session at exit.
var signalExamples = map[string]example{
	"grpc-keepalive-too-many-pings": {
		match: []string{
			`ERROR: [transport] Client received GoAway with error code ENHANCE_YOUR_CALM and debug data equal to ASCII "too_many_pings".`,
			`2025/10/02 02:37:52 ERROR: [transport] Client received GoAway with error code ENHANCE_YOUR_CALM and debug data equal to ASCII "too_many_pings".`,
			`E0000 00:00:1791339640.730454   28248 chttp2_transport.cc:1232] ipv4:10.0.0.9:2379: Received a GOAWAY with error code ENHANCE_YOUR_CALM and debug data equal to "too_many_pings". Current keepalive time (before throttling): 30000ms`,
		},
		miss: []string{
			`ERROR: [transport] Client received GoAway with error code ENHANCE_YOUR_CALM and debug data equal to ASCII "flow_control".`,
			`WARNING: [transport] transport: http2Client.notifyError got notified that the client transport was broken EOF.`,
		},
	},
	"aiohttp-unclosed-session-at-exit": {
		match: []string{
			"ERROR:asyncio:Unclosed client session\nclient_session: <aiohttp.client.ClientSession object at 0x7f3c2a1b5e50>",
			"2026-05-28 00:11:09,118 - asyncio - ERROR - Unclosed connector\nconnections: ['[(<aiohttp.client_proto.ResponseHandler object at 0x7f3c2a1b6b60>, 5121.33)]']\nconnector: <aiohttp.connector.TCPConnector object at 0x7f3c2a1b5f10>",
		},
		miss: []string{"ERROR:root:Unclosed client session leaked 512 sockets; requests to http://10.0.0.7:30000 now fail"},
	},
	"grpc-core-routine-notice": {
		match: []string{
			"E0518 11:58:19.406614241  152858 fork_posix.cc:76]           Other threads are currently calling into gRPC, skipping fork() handlers",
			"E0000 00:00:1738205048.894250    2795 init.cc:232] grpc_wait_for_shutdown_with_timeout() timed out.",
		},
		miss: []string{"E0000 00:00:1738205048.894250    2795 init.cc:232] grpc_init() failed: Resource exhausted"},
	},
	"enabled-feature-package-missing": {
		match: []string{
			"enable_memory_saver is enabled, but torch-memory-saver is not installed. Please install it via `pip3 install torch-memory-saver`. ",
			hdr("WARNING: enable_memory_saver is enabled, but torch-memory-saver is not installed. Please install it via `pip3 install torch-memory-saver`."),
			"2026-05-28 00:11:09,118 - WARNING - tracing is enabled but the opentelemetry package is not available",
		},
		miss: []string{
			"[2025-12-18 07:58:50] INFO trace.py:52: opentelemetry package is not installed, tracing disabled",
			mainLog("enable_memory_saver is enabled; torch-memory-saver 0.0.9 is installed"),
			mainLog("`update_weights` will not save memory because torch_memory_saver is not enabled. Potential causes: `enable_memory_saver` is false, or torch_memory_saver has installation issues."),
		},
	},
	"output-for-deleted-request": {
		match: []string{
			"Received output for rid='...' but the state was deleted in TokenizerManager.",
			mainLog("Received output for rid='5e5de8901d2349fd8d9107f21df3ab92' but the state was deleted in TokenizerManager."),
			"[2026-09-09 21:15:49] ERROR tokenizer_manager.py:1512: Received output for rid=7f3a9c0e but the state was deleted in TokenizerManager.",
		},
		miss: []string{
			mainLog("Abort request rid='5e5de8901d2349fd8d9107f21df3ab92' because the client disconnected"),
			// Health checks' own requests, which some releases log so.
			"Received output for rid='HEALTH_CHECK_1a2b3c' but the state was deleted in TokenizerManager.",
		},
	},
	"request-disconnected-from-client": {
		match: []string{
			"future: <Task finished name='Task-993871' coro=<<async_generator_asend without __name__>()> exception=ValueError(\"Request is disconnected from the client side (type 1). Abort request obj.rid='f2ea4cfe82f6489a91e72145abd6db25'\")>",
			mainLog("[http_server] Error: Request is disconnected from the client side (type 3). Abort request obj.rid='61165a643f00435ca1112901a78071f7'"),
		},
		miss: []string{
			mainLog("Client disconnected, rid='61165a643f00435ca1112901a78071f7'"),
			"Request is disconnected from the load balancer pool",
		},
	},
	"http-client-server-error-status": {
		match: []string{
			`2025-04-09 12:04:36,150 - INFO - HTTP Request: POST http://192.168.50.13/v1/chat/completions "HTTP/1.1 503 Service Unavailable"`,
			`INFO:httpx:HTTP Request: POST http://10.0.0.7:30000/generate "HTTP/1.1 500 Internal Server Error"`,
			`2026-05-28 00:11:09 [INFO] HTTP Request: POST http://router:8000/v1/completions "HTTP/1.1 429 Too Many Requests"`,
			"requests.exceptions.HTTPError: 502 Server Error: Bad Gateway for url: http://10.0.0.7:30000/generate",
			"aiohttp.client_exceptions.ClientResponseError: 503, message='Service Unavailable', url='http://10.0.0.7:30000/v1/chat/completions'",
			"Error: Client error '429 Too Many Requests' for url 'http://10.0.0.7:30000/generate'",
		},
		miss: []string{
			// A success, a readiness poll while the server starts, the
			// server's own access log and the client's retry notice.
			`2025-04-09 12:04:36,150 - INFO - HTTP Request: POST http://192.168.50.13/v1/chat/completions "HTTP/1.1 200 OK"`,
			`2025-04-09 12:04:01,007 - INFO - HTTP Request: GET http://192.168.50.13/health "HTTP/1.1 503 Service Unavailable"`,
			`[2026-05-28 00:11:09] INFO:     10.0.0.7:51234 - "POST /generate HTTP/1.1" 503 Service Unavailable`,
			"2025-04-09 12:04:36,151 - INFO - Retrying request to /chat/completions in 0.384627 seconds",
			// The hub's and the router's own records.
			"huggingface_hub.errors.HfHubHTTPError: 504 Server Error: Gateway Time-out for url: https://huggingface.co/api/models/Qwen/Qwen3-8B",
			"httpx.HTTPStatusError: Server error '503 Service Unavailable' for url 'http://10.0.0.34:3938/generate'",
		},
	},
	"http-client-request-rejected": {
		match: []string{
			"(RolloutManager pid=1790326) [2026-02-03 22:13:47] http_utils.py:186 - Error: Client error '403 Forbidden' for url 'http://10.0.0.9:30000/generate'",
			"(Buffer pid=512473) Error: Client error '422 Unprocessable Entity' for url 'http://172.16.216.111:10000/abort_request'",
			"httpx.HTTPStatusError: Client error '404 Not Found' for url 'http://10.0.0.7:30000/v1/models'",
			"requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: http://10.0.0.7:30000/v1/chat/completions",
			"aiohttp.client_exceptions.ClientResponseError: 400, message='Bad Request', url='http://10.0.0.7:30000/generate'",
		},
		miss: []string{
			`INFO: "POST /generate HTTP/1.1" 403 Forbidden`,
			"Error: Client error '429 Too Many Requests' for url 'http://10.0.0.7:30000/generate'",
			"requests.exceptions.HTTPError: 403 Client Error: Forbidden for url: https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json",
		},
	},
	"proxy-upstream-unavailable": {
		match: []string{
			"2025-10-31 10:39:20.398363+08:00 - gpustack.worker.worker_manager - ERROR - Failed to register worker: (503, 'Unknown', 'upstream connect error or disconnect/reset before headers. reset reason: remote connection failure, transport failure reason: delayed connect error: 111')",
			"openai.InternalServerError: Error code: 503 - no healthy upstream",
			`requests.exceptions.HTTPError: 504 Server Error: Gateway Timeout for url: http://llm.svc:8000/v1/completions (body: "upstream request timeout")`,
		},
		miss: []string{"[2026-05-28 00:11:09] INFO:     10.0.0.7:51234 - \"POST /generate HTTP/1.1\" 200 OK upstream=decode-0"},
	},
	"mooncake-feature-not-built": {
		match: []string{
			"Unable to find metadata storage plugin etcd with conn string: etcd://10.72.12.100:2379",
			"F0318 10:02:11.512334  8812 transfer_metadata_plugin.cpp:592] Unable to find metadata storage plugin redis with conn string: redis://10.0.0.9:6379",
			"F0318 10:02:11.512334  8812 etcd_helper.cpp:496] Etcd is not enabled in compilation",
			"E0318 10:02:11.512334  8812 transfer_engine_py.cpp:78] Protocol 'nvlink' requires -DUSE_MNNVL=ON",
			"E0318 10:02:11.512334  8812 client_buffer_allocation.cpp:43] Protocol nvlink_intra need USE_INTRA_NVLINK=ON. Please rebuild mooncake from source.",
			"E0318 10:02:11.512334  8812 multi_transport.cpp:514] Unsupported transport hip, please rebuild Mooncake",
		},
		miss: []string{
			"E0904 21:29:13.607991 31963 transfer_metadata.cpp:182] Unable to create metadata storage plugin with conn string etcd://10.0.0.9:2379",
			"I0318 10:02:11.512334  8812 transfer_engine.cpp:120] Etcd is enabled, connecting to 10.0.0.9:2379",
		},
	},
	"mooncake-rpc-connection-closed": {
		match: []string{
			"2025-04-17 19:46:42.566927 ERROR    [975] [coro_rpc_client.hpp:978] read rpc body failed, error msg:End of file. close the socket.",
			"2025-06-06 09:39:00.285457 ERROR    [382] [coro_rpc_client.hpp:923] client has been closed, please re-connect",
			"2025-06-06 09:39:00.285457 ERROR    [382] [coro_rpc_client.hpp:961] read rpc head failed, error msg:Connection reset by peer. close the socket.",
		},
		miss: []string{"2025-06-06 09:39:00.285457 INFO     [382] [coro_rpc_client.hpp:402] client_id 3 connect 10.0.0.9:50051 successfully"},
	},
}

// widenedSignals are the wordings existing records now read, and lines
// they leave to a new record.
var widenedSignals = map[string]example{
	"c10d-server-socket-address-in-use": {
		match: []string{
			"[W socket.cpp:426] [c10d] The server socket has failed to listen on [::]:38429 (errno: 98 - Address already in use).",
			"[W socket.cpp:426] [c10d] The server socket has failed to bind to [::]:38429 (errno: 98 - Address already in use).",
			"[W socket.cpp:464] [c10d] The server socket has failed to bind to 0.0.0.0:29500 (errno: 98 - Address already in use).",
		},
		miss: []string{"[W socket.cpp:663] [c10d] The client socket has failed to connect to [localhost]:29500 (errno: 99 - Cannot assign requested address)."},
	},
	"router-no-available-workers": {
		match: []string{
			`"No prefill workers available. Please check if prefill servers are configured and healthy."`,
			"2026-03-02T08:11:09.123456Z ERROR smg::routers::http::pd_router: No healthy worker pair available: no prefill worker",
		},
		miss: []string{
			"2026-03-02T08:11:09.123456Z ERROR smg::worker::manager: No workers available for profiling",
			// The gRPC gateway's missing role is router-pd-role-unavailable's.
			"2026-03-02T08:11:09.123456Z  WARN smg::routers::grpc::common::stages::worker_selection: No available decode workers",
		},
	},
	"mooncake-store-client-setup-failed": {
		match: []string{
			"E0417 19:46:42.567027   481 master_client.cpp:192] Failed to mount segment due to rpc error",
			"E0417 19:46:42.567027   481 master_client.cpp:519] Failed to remount segment due to rpc error",
		},
	},
	"mooncake-master-unreachable": {
		miss: []string{
			"E0417 19:46:42.567027   481 master_client.cpp:192] Failed to mount segment due to rpc error",
			"2025-04-17 19:46:42.566927 ERROR    [975] [coro_rpc_client.hpp:978] read rpc body failed, error msg:End of file. close the socket.",
		},
	},
	"mooncake-metadata-server-unreachable": {
		miss: []string{"Unable to find metadata storage plugin etcd with conn string: etcd://10.72.12.100:2379"},
	},
}

func init() { addExamples(signalExamples, widenedSignals) }

// checkAlertsAs feeds each case's text through the entry assembler and the
// analysis with m, and wants the last entry to alert under the case's
// record: a record decides, whatever level the line was printed at.
func checkAlertsAs(t *testing.T, m *matcher.Matcher, cases []rankCase) {
	t.Helper()
	for _, tt := range cases {
		a := entry.NewAssembler(entry.Options{})
		var ents []entry.Entry
		for _, line := range strings.Split(tt.text, "\n") {
			ents = append(ents, a.Push(entry.Line{Text: line, Source: "case", Stream: "stderr"})...)
		}
		ents = append(ents, a.Flush()...)
		an := analysis.New(m)
		got := "no alert"
		for i := range ents {
			if d, ok := an.Analyze(&ents[i]); ok {
				got = "unclassified"
				if d.Cause != nil {
					got = d.Cause.Record.Slug
				}
			}
		}
		if got != tt.want {
			t.Errorf("%q: %s, want %s", tt.text, got, tt.want)
		}
	}
}

// TestFailuresBelowErrorLevelAlert checks the failures that their loggers
// print at INFO or WARNING, or with no level, alert under their records:
// without a record only error levels do, so the record is what makes them
// heard.
func TestFailuresBelowErrorLevelAlert(t *testing.T) {
	checkAlertsAs(t, compileCatalog(t), []rankCase{
		{"INFO 04-02 13:31:02 __init__.py:190] Automatically detected platform cuda.\nenable_memory_saver is enabled, but torch-memory-saver is not installed. Please install it via `pip3 install torch-memory-saver`.", "enabled-feature-package-missing"},
		{`2025-04-09 12:04:36,150 - INFO - HTTP Request: POST http://192.168.50.13/v1/chat/completions "HTTP/1.1 503 Service Unavailable"`, "http-client-server-error-status"},
		{"[W socket.cpp:426] [c10d] The server socket has failed to bind to [::]:38429 (errno: 98 - Address already in use).", "c10d-server-socket-address-in-use"},
		{"HTTP 503 Service Unavailable\n\"No prefill workers available. Please check if prefill servers are configured and healthy.\"", "router-no-available-workers"},
		{"(RolloutManager pid=1790326) [2026-02-03 22:13:47] http_utils.py:186 - Error: Client error '403 Forbidden' for url 'http://10.0.0.9:30000/generate'", "http-client-request-rejected"},
		{"Received output for rid='...' but the state was deleted in TokenizerManager.", "output-for-deleted-request"},
		// The same INFO line in other loggers' shapes: loguru's columns,
		// a JSON record with its quotes escaped, a Ray actor's prefix.
		{`2025-04-09 12:04:36.150 | INFO     | httpx._client:_send_single_request:1025 - HTTP Request: POST http://10.0.0.7:30000/generate "HTTP/1.1 502 Bad Gateway"`, "http-client-server-error-status"},
		{`{"time":"2025-04-09T12:04:36Z","level":"info","logger":"httpx","msg":"HTTP Request: POST http://10.0.0.7:30000/v1/completions \"HTTP/1.1 503 Service Unavailable\""}`, "http-client-server-error-status"},
		{`(RolloutManager pid=1191) 2026-01-05 00:27:53,118 INFO HTTP Request: POST http://10.0.0.9:3592/generate "HTTP/1.1 429 Too Many Requests"`, "http-client-server-error-status"},
		{"W0518 11:58:19.406614 152858 socket.cpp:426] [c10d] The server socket has failed to listen on [::]:29500 (errno: 98 - Address already in use).", "c10d-server-socket-address-in-use"},
		{"2026-05-28 00:11:09.118 | WARNING  | sglang.srt.utils:create:42 - enable_memory_saver is enabled, but torch-memory-saver is not installed. Please install it via `pip3 install torch-memory-saver`.", "enabled-feature-package-missing"},
	})
}

// TestRoutineClientAndTransportLinesDoNotAlert feeds lines of healthy
// clients and transports: a keepalive GoAway and the fork and shutdown
// notices gRPC logs at error level, an unclosed aiohttp session asyncio
// reports at exit, a
// client's successful or readiness-poll responses and retry notices at
// INFO, a c10d bind warning of a host without IPv6, a package a feature
// falls back without.
func TestRoutineClientAndTransportLinesDoNotAlert(t *testing.T) {
	checkRoutineSilent(t, compileCatalog(t), []string{
		`ERROR: [transport] Client received GoAway with error code ENHANCE_YOUR_CALM and debug data equal to ASCII "too_many_pings".`,
		`E0000 00:00:1791339640.730454   28248 chttp2_transport.cc:1232] ipv4:10.0.0.9:2379: Received a GOAWAY with error code ENHANCE_YOUR_CALM and debug data equal to "too_many_pings". Current keepalive time (before throttling): 30000ms`,
		`2025-04-09 12:04:36,150 - INFO - HTTP Request: POST http://192.168.50.13/v1/chat/completions "HTTP/1.1 200 OK"`,
		`2025-04-09 12:04:01,007 - INFO - HTTP Request: GET http://192.168.50.13/health "HTTP/1.1 503 Service Unavailable"`,
		"2025-04-09 12:04:36,151 - INFO - Retrying request to /chat/completions in 0.384627 seconds",
		"[W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:29500 (errno: 97 - Address family not supported by protocol).",
		"[2025-12-18 07:58:50] INFO trace.py:52: opentelemetry package is not installed, tracing disabled",
		`{"level":"error","ts":"2025-10-02T02:37:52.118Z","caller":"grpclog/component.go:55","msg":"[transport] Client received GoAway with error code ENHANCE_YOUR_CALM and debug data equal to ASCII \"too_many_pings\"."}`,
		"ERROR:asyncio:Unclosed client session\nclient_session: <aiohttp.client.ClientSession object at 0x7f3c2a1b5e50>",
		"(raylet) E0518 11:58:19.406614241  152858 fork_posix.cc:76]           Other threads are currently calling into gRPC, skipping fork() handlers",
		"WARNING: All log messages before absl::InitializeLog() is called are written to STDERR\nE0000 00:00:1738205048.894250    2795 init.cc:232] grpc_wait_for_shutdown_with_timeout() timed out.",
	})
}

// widenedClientSignals are the retry-exhausted and other libraries'
// wordings of the same failures.
var widenedClientSignals = map[string]example{
	"http-client-server-error-status": {
		match: []string{
			"requests.exceptions.RetryError: HTTPConnectionPool(host='10.0.0.7', port=30000): Max retries exceeded with url: /generate (Caused by ResponseError('too many 503 error responses'))",
			"openai.InternalServerError: Error code: 503 - {'object': 'error', 'message': 'Service Unavailable', 'code': 503}",
			"openai.RateLimitError: Error code: 429 - {'error': {'message': 'Too many requests'}}",
			// The SDK's message logged without its class, by an evaluation
			// or benchmark client.
			"01/15 16:19:28 - OpenCompass - ERROR - openai_api.py - _generate - 650 - Error code: 503 - {'object': 'error', 'message': 'Service Unavailable', 'code': 503}",
		},
		miss: []string{"openai.APIConnectionError: Connection error.", "Error code: 503"},
	},
	"http-client-request-rejected": {
		match: []string{
			"openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': \"This model's maximum context length is 32768 tokens.\", 'code': 400}",
			"2025-03-01 10:00:01 | ERROR | eval.py:88 - Error code: 404 - {'object': 'error', 'message': 'The model `qwen` does not exist.', 'code': 404}",
		},
		miss: []string{"openai.RateLimitError: Error code: 429 - {'error': {'message': 'Too many requests'}}"},
	},
	// The SDKs' own connection and timeout errors, which wrap httpx's.
	"http-upstream-connect-failed": {
		match: []string{"openai.APIConnectionError: Connection error.", "anthropic.APIConnectionError: Connection error."},
		miss:  []string{"openai.APITimeoutError: Request timed out."},
	},
	"http-client-read-timeout": {
		match: []string{"openai.APITimeoutError: Request timed out."},
		miss:  []string{"openai.APIConnectionError: Connection error."},
	},
}

func init() { addExamples(nil, widenedClientSignals) }
