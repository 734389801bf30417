package catalog_test

import "testing"

// The transfer layers under the engines, writer by writer: each failure
// format of their sources, written as each prints it across releases
// (glog's MMDD and YYYYMMDD stamps, behind sglang's own prefix, bare as a
// reporter copies it) with the routine lines near it that must stay
// silent:
//   - Mooncake's metadata clients: the etcd client of the first releases
//     ("Error from etcd client, etcd uri: <uri> error: <gRPC code>
//     message: <text>") and the storage plugins since; the Redis client;
//     the HTTP client's verbs (GET, PUT, DELETE) in its first wording
//     ("Error from http client, <verb> <url> error: <curl>", "Unexpected
//     code in http response, <verb> <url> response code: <n> ...") and
//     in the curl rewrite's ("<verb> <url> curl: <text> err: ...",
//     "<verb> <url> http=<n> body: ..."); the engine's own entries it
//     then cannot publish (its RPC address, its segment descriptor) and
//     the transport that gives up for it ("<Name>Transport: cannot
//     publish segments").
func transferLayerWordings() []writerWording {
	glog := func(sev, file, msg string) string {
		return sev + "0522 23:38:30.164904 764015 " + file + "] " + msg
	}
	glogYear := func(sev, file, msg string) string {
		return sev + "20250522 23:38:30.164904 764015 " + file + "] " + msg
	}
	sgl := func(line string) string { return "[2026-05-28 00:11:09 TP0] " + line }
	return []writerWording{
		{family: "Mooncake: the metadata store does not answer or refuses a write", want: "mooncake-metadata-server-unreachable", lines: []string{
			// The etcd client of the first releases: gRPC's status code and text.
			glog("E", "transfer_metadata.cpp:74", "Error from etcd client, etcd uri: 10.0.0.1:2379 error: 14 message: connections to all backends failing"),
			glog("E", "transfer_metadata.cpp:53", "Error from etcd client, etcd uri: etcd-0.etcd:2379 error: 14 message: failed to connect to all addresses; last error: UNKNOWN: ipv4:10.0.0.1:2379: Failed to connect to remote host: Connection refused"),
			glogYear("E", "transfer_metadata.cpp:85", "Error from etcd client, etcd uri: 10.0.0.1:2379 error: 4 message: Deadline Exceeded"),
			"Error from etcd client, etcd uri: 10.0.0.1:2379 error: 14 message: connections to all backends failing",
			glog("E", "transfer_metadata.cpp:132", "Error from redis client uri: 10.0.0.3:6379"),
			// The storage plugins since.
			glog("E", "transfer_metadata_plugin.cpp:437", "EtcdStoragePlugin: unable to delete mooncake/ram/10.0.0.2:12345 from 10.0.0.1:2379: etcdserver: request timed out"),
			glog("E", "transfer_metadata_plugin.cpp:180", "RedisStoragePlugin: unable to put mooncake/ram/10.0.0.2:12345 from redis://10.0.0.3:6379"),
			// The HTTP client's first wording, every verb, any metadata URL.
			glogYear("E", "transfer_metadata_plugin.cpp:235", "Unexpected code in http response, PUT http://109.105.118.39:2379?key=mooncake%2Frpc_meta%2F156%3A2345 response code: 404 response body: 404 page not found"),
			glog("E", "transfer_metadata_plugin.cpp:224", "Error from http client, PUT http://10.0.0.1:8080/metadata?key=mooncake%2Fram%2F10.0.0.2%3A12345 error: Couldn't connect to server"),
			glog("E", "transfer_metadata_plugin.cpp:260", "Error from http client, DELETE http://10.0.0.1:8080/metadata?key=mooncake%2Fram%2F10.0.0.2%3A12345 error: Timeout was reached"),
			sgl(glog("E", "transfer_metadata_plugin.cpp:173", "Unexpected code in http response, DELETE http://10.0.0.1:8998/metadata?key=mooncake%2Frpc_meta%2F10.0.0.2%3A12345 response code: 502 response body: Bad Gateway")),
			// The curl rewrite.
			glog("E", "transfer_metadata_plugin.cpp:284", "GET http://10.0.0.1:8080/metadata?key=mooncake%2Fram%2F10.0.0.2%3A12345 curl: Couldn't connect to server err: Failed to connect to 10.0.0.1 port 8080 after 0 ms: Connection refused"),
			glog("E", "transfer_metadata_plugin.cpp:348", "PUT http://10.0.0.1:2379?key=mooncake%2Frpc_meta%2F10.0.0.2%3A12345 http=404 body: 404 page not found"),
			sgl(glog("E", "transfer_metadata_plugin.cpp:384", "DELETE http://10.0.0.1:8080/metadata?key=mooncake%2Fram%2F10.0.0.2%3A12345 http=500 body: internal error")),
			// Its own entries it cannot publish, in each release's words.
			glog("E", "transfer_metadata.cpp:426", "Failed to insert rpc meta of 10.0.0.2:12345"),
			glog("E", "transfer_metadata.cpp:178", "Failed to put segment description: 10.0.0.2:12345"),
			glogYear("E", "transfer_metadata.cpp:150", "Failed to register segment descriptor, name 156:2345 protocol tcp"),
			glogYear("E", "tcp_transport.cpp:213", "TcpTransport: cannot publish segments, check the availability of metadata storage"),
			// RdmaTransport's is the engine's start-up record's: its
			// metadata line comes first and leads.
			glog("E", "efa_transport.cpp:194", "EfaTransport: cannot publish segments"),
			glog("E", "hccl_transport.cpp:443", "HcclTransport: cannot publish segments, check the availability of metadata storage"),
			glog("E", "ascend_direct_transport.cpp:134", "cannot publish segments, check the availability of metadata storage"),
		}},
		{family: "Mooncake: a peer's entries this engine cannot read", want: "mooncake-target-segment-unknown", lines: []string{
			glog("E", "transfer_metadata.cpp:204", "Failed to get segment description: 10.0.0.7:15002"),
			glog("E", "transfer_metadata.cpp:448", "Failed to get rpc meta of 10.0.0.7:15002"),
		}},
		{family: "Mooncake: a metadata answer that is not a descriptor", want: "mooncake-segment-descriptor-invalid", lines: []string{
			glog("E", "transfer_metadata_plugin.cpp:302", "GET http://10.0.0.1:8080/metadata?key=mooncake%2Fram%2F10.0.0.2%3A12345 json parse error: * Line 1, Column 1\n  Syntax error: value, object or array expected."),
		}},
		{family: "Mooncake: routine metadata lines", lines: []string{
			glog("I", "transfer_metadata.cpp:162", "Using metadata cluster ID: mooncake/prod-a"),
			glog("I", "transfer_metadata.cpp:583", "removeSegmentDesc 10.0.0.2:12345 finish"),
			glog("I", "transfer_metadata.cpp:587", "removeSegmentDesc 10.0.0.2:12345 not found, already removed maybe"),
			glog("W", "transfer_metadata_plugin.cpp:569", "Invalid Redis DB index: 99, using default 0"),
			glog("I", "transfer_metadata.cpp:209", "TE metadata refresh polling enabled, interval_seconds=5"),
			`[2025-04-14 03:55:53] 10.6.131.6 [14/Apr/2025:03:55:53 +0000] "PUT /metadata?key=mooncake%2Frpc_meta%2F10.6.131.6 HTTP/1.1" 200 176 "-" "-"`,
			`INFO:     10.0.0.2:53122 - "GET /metadata?key=mooncake%2Fram%2F10.0.0.2%3A12345 HTTP/1.1" 200 OK`,
			glog("I", "ub_transport.cpp:78", "UbTransport: publish segments done"),
		}},
	}
}

func TestTransferLayerWordings(t *testing.T) {
	checkWordings(t, compileCatalog(t), transferLayerWordings())
}

var transferLayerRecordsWidened = map[string]example{
	"mooncake-metadata-server-unreachable": {
		match: []string{
			"E1204 10:45:22.126729 108700 transfer_metadata.cpp:74] Error from etcd client, etcd uri: 10.0.0.1:2379 error: 14 message: connections to all backends failing",
			"PUT http://10.0.0.1:2379?key=mooncake%2Frpc_meta%2F10.0.0.2%3A12345 http=404 body: 404 page not found",
			"TcpTransport: cannot publish segments, check the availability of metadata storage",
		},
		miss: []string{
			"Transfer engine cannot be initialized: cannot publish segments. Check the connectivity between this server and etcd servers",
			"GET http://10.0.0.1:8080/metadata?key=mooncake%2Fram%2Fx json parse error: * Line 1",
		},
	},
	"mooncake-target-segment-unknown": {
		match: []string{"Failed to get rpc meta of 10.0.0.7:15002"},
		miss:  []string{"Failed to insert rpc meta of 10.0.0.7:15002"},
	},
}

func init() { addExamples(nil, transferLayerRecordsWidened) }
