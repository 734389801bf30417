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
//   - Mooncake's RDMA context opening a NIC: the device list, the device,
//     the GID it queries or finds none of (a GID scan's own misses,
//     "No data available", are routine), the completion vectors;
//   - Mooncake's NVLink transports (cross-node MNNVL and intra-node over
//     CUDA IPC): each CUDA driver or runtime call they check, peer access,
//     and a peer buffer never mapped ("Requested address ... not found!");
//   - NIXL's metadata backends: etcd (each release's store, fetch, send
//     and watch wordings, and the agent's announce), the direct socket
//     exchange with a peer's IP and port, torch's TCPStore; the cleanup
//     of its own keys at exit is routine;
//   - UCX's intra-node copies the kernel refuses: CMA's
//     process_vm_readv/writev in each release's wording (1.5's "delivered
//     N instead of M, error message ...", 1.8's "(pid=N length=M)
//     returned -1: ...", 1.11's I/O vectors) and the mm transport opening
//     a peer's /proc/<pid>/fd file (1.6's and today's wording); a peer that
//     died ("No such process") is not this family;
//   - srun's per-task launch failure ("task N launch failed: <slurmd's
//     reason>"), which comes before its "Application launch failed";
//   - NVSHMEM's symmetric heap: its checks' "<file>:<line>: non-zero
//     status: <n> <call> failed" for the allocations behind the heap, and
//     nvshmem_malloc beyond NVSHMEM_SYMMETRIC_SIZE; the same check for any
//     other call stays the generic status record's;
//   - the Hugging Face Hub client's downloads: the Xet client's CAS
//     errors (a full disk stays the disk record's), and metadata answered
//     by something other than the Hub (FileMetadataError, OSError before);
//   - the Mooncake store's etcd: a client that cannot reach it to find
//     the master (etcd:// master address), a master in HA mode that cannot
//     connect to or initialise its etcd client;
//   - Mooncake asked for a transport or protocol its build left out (TCP
//     forced, no NIC and nothing to fall back to, Barex, the store's
//     --protocol and Sunrise link);
//   - NCCL's IB transport: 2.23's "Got async error event" for a port that
//     went down (the same event's routine kinds stay silent), NICs of
//     different link layers it cannot connect or merge, a port it cannot
//     query;
//   - CANN's error manager naming an HCCL or HCCP code ("<Name>(EI0006): "
//     beside the bare "EI0006: "), the name differing across releases
//     (Get_Socket_Timeout, Communication_Error_Get_Socket), so the code
//     alone decides when a terminal or paste cuts the text after it (or
//     a report quotes the name and code alone);
//   - torch's TCPStore client giving up on the rendezvous: the socket's
//     connect timeout in the warning of each try, the error when it gives
//     up, and the C++ exception's origin line ("Exception raised from
//     throwTimeoutError at .../c10d/socket.cpp"), whole or wrapped;
//   - PD disaggregation's decode receiver unpacking the prefill instance's
//     parallel sizes from a bootstrap query that returned None (releases
//     before it checked the answer), in each backend's receiver;
//   - the Mooncake store's transfer task when the engine refuses a whole
//     batch ("Failed to submit all transfers, error code is <code>", a
//     number in the first releases, the status name since);
//   - NCCL's socket connect to another rank in each release's wording
//     (include/socket.h's "Connect to <addr> failed : ", 2.0's "Call to
//     connect failed", misc/socket.cc's socketStartConnect and
//     socketPollConnect, "Connect" capitalised or not; the old WARN cut
//     by a hard wrap after the peer's address); its INFO retry stays
//     routine;
//   - the Mooncake store client that binds its own RPC port: each try's
//     warning ("Failed to create client on port P, retry i/20") is routine
//     while tries are left, the last one ("retry 20/20", "after 20
//     retries") is the client's setup failure;
//   - torch's Gloo group falling back to the loopback address for a host
//     name it cannot resolve, once per process in each release's prefix:
//     routine.
func transferLayerWordings() []writerWording {
	glog := func(sev, file, msg string) string {
		return sev + "0522 23:38:30.164904 764015 " + file + "] " + msg
	}
	glogYear := func(sev, file, msg string) string {
		return sev + "20250522 23:38:30.164904 764015 " + file + "] " + msg
	}
	sgl := func(line string) string { return "[2026-05-28 00:11:09 TP0] " + line }
	ucx := func(file, level, msg string) string {
		return "[1701234567.123456] [gpu-3:41278:0]    " + file + "  UCX  " + level + " " + msg
	}
	ncclIB := func(msg string) string { return "gpu-node-3:41278:41390 [0] transport/net_ib.cc:171 NCCL WARN " + msg }
	nixl := func(file, msg string) string { return "E1204 10:45:22.126729 108700 " + file + "] " + msg }
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
		{family: "Mooncake: the RDMA context cannot open a NIC", want: "mooncake-rdma-device-open-failed", lines: []string{
			glog("E", "rdma_context.cpp:499", "Failed to query GID 0 on mlx5_0/: Invalid argument [22]"),
			glog("E", "rdma_context.cpp:1392", "Failed to query GID 3 on mlx5_bond_0/1: Invalid argument"),
			glog("W", "rdma_context.cpp:581", "No suitable GID found on mlx5_bond_1/"),
			glog("W", "rdma_context.cpp:1369", "No suitable GID found on rocep153s0/1"),
			glog("E", "rdma_context.cpp:1194", "ibv_get_device_list failed"),
			glog("E", "rdma_context.cpp:1208", "ibv_open_device(mlx5_3) failed"),
			glog("E", "rdma_context.cpp:217", "RDMA device mlx5_0 exposes no completion vectors"),
			sgl(glog("E", "rdma_context.cpp:70", "Failed to open device mlx5_0 on port  with GID 0")),
		}},
		{family: "Mooncake: the NVLink transports cannot share or reach GPU memory", want: "mooncake-nvlink-transport-failed", lines: []string{
			glog("E", "nvlink_transport.cpp:603", "NvlinkTransport: cuMemCreate failed: 800"),
			glogYear("E", "nvlink_transport.cpp:1098", "NvlinkTransport: cuMemImportFromShareableHandle failed: 101"),
			glog("E", "nvlink_transport.cpp:421", "NvlinkTransport: cudaIpcOpenMemHandle failed: invalid argument"),
			glog("E", "nvlink_transport.cpp:352", "NvlinkTransport: cudaPointerGetAttributes failed"),
			glog("E", "nvlink_transport.cpp:607", "NvlinkTransport: device 0 cannot p2p access device 5"),
			glog("E", "nvlink_transport.cpp:621", "NvlinkTransport: failed to enable p2p access (Error code: 217 - peer access is not supported between these two devices)"),
			glog("E", "intranode_nvlink_transport.cpp:140", "IntraNodeNvlinkTransport: cudaSetDevice(3) failed when creating event"),
			glog("E", "nvlink_transport.cpp:497", "Requested address 0x7f2a40000000 to 0x7f2a40200000 not found!"),
			glog("E", "nvlink_transport.cpp:1142", "Mismatched NVLink data transfer method"),
		}},
		{family: "Mooncake: routine RDMA and NVLink lines", lines: []string{
			glog("E", "rdma_context.cpp:336", "Failed to query GID 244 on rocep153s0/1: No data available [61]"),
			glog("I", "rdma_context.cpp:491", "Find best gid index: 3 on mlx5_0/1 (network state: up)"),
			glog("W", "rdma_context.cpp:1138", "No suitable GID found while refreshing mlx5_0/1"),
			glog("W", "nvlink_transport.cpp:995", "Memory region 0x7f2a40000000 is not allocated by cuMemCreate, but it can be used as local buffer"),
			glog("I", "transfer_engine_impl.cpp:253", "Using cross-node NVLink transport (MC_FORCE_MNNVL or no HCA detected)"),
			glog("I", "nvlink_transport.cpp:330", "NvlinkTransport: using cudaMemcpyBatchAsync for 16 slices"),
		}},
		{family: "NIXL: an agent's metadata cannot be published or fetched", want: "nixl-remote-metadata-failed", lines: []string{
			nixl("nixl_etcd_metadata_backend.cpp:105", "Failed to announce agent prefill-0 in etcd: etcdserver: request timed out"),
			nixl("nixl_etcd_metadata_backend.cpp:194", "Error fetching key: /nixl/agents/decode-1/metadata from etcd: failed to connect to all addresses"),
			nixl("nixl_listener.cpp:210", "Failed to store metadata in etcd: -4"),
			nixl("nixl_listener.cpp:188", "Error sending metadata to etcd: Deadline Exceeded"),
			nixl("nixl_listener.cpp:240", "Failed to fetch key: /nixl/agents/decode-1/metadata from etcd: connections to all backends failing"),
			nixl("nixl_listener.cpp:96", "Error creating etcd client: Connection refused"),
			nixl("nixl_listener.cpp:262", "Error watching etcd for key: /nixl/agents/decode-1/metadata : stream closed"),
			nixl("nixl_listener.cpp:120", "ETCD client not available"),
			nixl("nixl_p2p_metadata_backend.cpp:85", "poll timed out for ip_addr: 10.0.0.7 and port: 5557"),
			nixl("nixl_listener.cpp:73", "select timed out for ip_addr: 10.0.0.7 and port: 5557"),
			nixl("nixl_tcpstore_metadata_backend.cpp:226", "[decode-1] TCPStore fetch failed for key nixl/prefill-0: Connection reset by peer"),
			nixl("nixl_tcpstore_metadata_backend.cpp:240", "[decode-1] TCPStore fetch for prefill-0 gave up waiting for key nixl/prefill-0"),
		}},
		{family: "NIXL: routine metadata lines", lines: []string{
			nixl("nixl_etcd_metadata_backend.cpp:260", "Warning: Failed to remove etcd keys for agent: prefill-0 : key not found"),
			"I1204 10:45:22.126729 108700 nixl_etcd_metadata_backend.cpp:88] Created etcd client to http://10.0.0.1:2379",
			nixl("nixl_tcpstore_metadata_backend.cpp:150", "[decode-1] TCPStore connect failed, retrying on the first operation: Connection refused"),
		}},
		{family: "UCX: the kernel refuses an intra-node copy between processes", want: "ucx-cross-process-memory-denied", lines: []string{
			ucx("cma_ep.c:113", "ERROR", "process_vm_readv delivered 0 instead of 480960, error message Operation not permitted"),
			ucx("cma_ep.c:99", "ERROR", "process_vm_writev(pid=2563 length=65536) returned -1: Operation not permitted"),
			ucx("cma_ep.c:85", "ERROR", "process_vm_readv(pid=3549634 {0x24ed520,12480}-->{0x1bd42a0,12480}) returned -1: Operation not permitted"),
			"[lxbk1012:3549626:0:3549626]      cma_ep.c:84   process_vm_readv(pid=3549634 {0x24ed520,12480}-->{0x1bd42a0,12480}) returned -1: Operation not permitted",
			ucx("mm_posix.c:445", "ERROR", "Error returned from open in attach. Permission denied. File name is: /proc/24149/fd/16"),
			ucx("mm_posix.c:233", "ERROR", "open(file_name=/proc/2563/fd/50 flags=0x0) failed: Permission denied"),
		}},
		{family: "UCX: routine shared-memory lines, and a peer that died", lines: []string{
			ucx("cma_md.c:69", "DEBUG", "could not read '/proc/sys/kernel/yama/ptrace_scope' - assuming Yama security is not enforced"),
			ucx("cma_md.c:114", "DEBUG", "ptrace_scope is 1, CMA is unsupported"),
			ucx("parser.c:2034", "WARN ", "unused environment variable: UCX_TLS_X (maybe: UCX_TLS?)"),
		},
		},
		{family: "Slurm: slurmd refused to start a task", want: "slurm-task-launch-failed", lines: []string{
			"srun: error: task 3 launch failed: Error configuring interconnect",
			"srun: error: task 0 launch failed: Job credential expired",
			"task 12 launch failed: Unable to satisfy cpu bind request",
		}},
		{family: "NVSHMEM: the symmetric heap cannot be allocated", want: "nvshmem-heap-allocation-failed", lines: []string{
			"/nvshmem/src/host/mem/mem_heap.cpp:1509: non-zero status: 2 cuMemCreate failed ",
			"/sgl-workspace/nvshmem/src/host/mem/mem_heap.cpp:1590: non-zero status: 7 allocate_physical_memory_to_heap failed",
			"/opt/nvshmem/src/host/mem/mem_heap.cpp:341: non-zero status: 2 cuMemAlloc failed ",
			"/opt/nvshmem/src/host/mem/mem_heap.cpp:nvshmemi_symmetric_heap_static::allocate_symmetric_memory:2266: nvshmem malloc failed (hint: check if total allocation has exceeded NVSHMEM symmetric size = 1073741824, NVSHMEM symmetric size can be increased using NVSHMEM_SYMMETRIC_SIZE environment variable) ",
			"(SchedulerDisaggregationDecodeMixin pid=2211) /sgl-workspace/nvshmem/src/host/mem/mem_heap.cpp:1509: non-zero status: 2 cuMemCreate failed",
		}},
		{family: "NVSHMEM: another call's status check", want: "nvshmem-error-status", lines: []string{
			"/sgl-workspace/nvshmem/src/host/mem/mem_heap.cpp:942: non-zero status: 7 map_heap_range_by_size failed",
		}},
		{family: "Hugging Face Hub: the Xet client's download failed", want: "hf-xet-download-failed", lines: []string{
			rawTB("RuntimeError: Data processing error: CAS service error : ReqwestMiddleware Error: Request failed after 5 retries"),
			"RuntimeError: Data processing error: CAS service error : IO Error: Timer expired",
			"RuntimeError: Data processing error: CAS service error : Error : single flight error: Real call failed: CasObjectError(InternalIOError(Custom { kind: Other, error: reqwest::Error { kind: Decode, source: hyper::Error(Body, Custom { kind: UnexpectedEof, error: IncompleteBody }) } }))",
			"Error occurred during download: Data processing error: CAS service error : Error : result term data length 63574543 did not match expected value 67084736",
		}},
		{family: "Hugging Face Hub: the Xet client's disk full stays the disk record's", want: "no-space-left-on-device", lines: []string{
			"RuntimeError: Data processing error: CAS service error : IO Error: No space left on device (os error 28)",
		}},
		{family: "Hugging Face Hub: metadata not answered by the Hub", want: "hf-endpoint-metadata-invalid", lines: []string{
			rawTB("huggingface_hub.errors.FileMetadataError: Distant resource does not seem to be on huggingface.co. It is possible that a configuration issue prevents you from downloading resources from https://hf-mirror.com. Please check your firewall and proxy settings and make sure your SSL certificates are updated."),
			"OSError: Distant resource does not have an ETag, we won't be able to reliably ensure reproducibility.",
			"huggingface_hub.errors.FileMetadataError: Distant resource does not have a Content-Length.",
		}},
		{family: "Mooncake store: a client cannot reach etcd to find its master", want: "mooncake-master-unreachable", lines: []string{
			glog("E", "client.cpp:144", "Failed to connect to etcd"),
			sgl(glog("E", "client.cpp:144", "Failed to connect to etcd")),
		}},
		{family: "Mooncake store: a master in HA mode cannot use etcd", want: "mooncake-master-leadership-lost", lines: []string{
			glogYear("E", "ha_helper.cpp:133", "Failed to connect to etcd endpoints: 10.0.0.1:2379;10.0.0.2:2379"),
			glog("E", "etcd_helper.cpp:32", "Failed to initialize etcd client: context deadline exceeded"),
		}},
		{family: "Mooncake: a transport or protocol the build left out", want: "mooncake-feature-not-built", lines: []string{
			glog("E", "transfer_engine_impl.cpp:221", "MC_FORCE_TCP is set but USE_TCP is not compiled in"),
			glog("E", "transfer_engine_impl.cpp:397", "No HCA detected and neither NVLink nor TCP transport is compiled in"),
			glog("E", "transfer_engine_impl.cpp:417", "Set USE BAREX while barex not compiled"),
			glog("E", "client_service.cpp:995", "--protocol=nvlink_intra requires USE_INTRA_NVLINK=ON, please rebuild mooncake from source."),
			glog("E", "real_client.cpp:1038", "sunrise_link protocol requires USE_SUNRISE build"),
		}},
		{family: "NCCL IB: a port that went down", want: "nccl-ib-port-event", lines: []string{
			ncclIB("NET/IB : mlx5_2:1 Got async error event: port error"),
			ncclIB("NET/IB : mlx5_2:1 Got async error event: path migration request error"),
		}},
		{family: "NCCL IB: NICs of different link layers", want: "nccl-ib-incompatible-devices", lines: []string{
			ncclIB("NET/IB : Can't connect net devices with different link_layer. i=0 remMeta.ndevs=1 link_layer=1 rem_link_layer=2"),
			ncclIB("NET/IB : Can't merge net devices with different link_layer. i=0 remMeta.ndevs=1 link_layer=1 rem_link_layer=2"),
			ncclIB("NET/IB : Trying to merge multiple devices together with different link_layer properties mlx5_0 -> 1, mlx5_4 -> 2. Try only selecting NICs with one type of link using NCCL_IB_HCA"),
			ncclIB("NET/IB : Remote [1]mlx5_4:1/RoCE device is incompatible with the local [0]mlx5_0:1/IB. Try selecting NICs of only one link type using NCCL_IB_HCA"),
		}},
		{family: "NCCL IB: a port it cannot query", want: "nccl-ib-verbs-call-failed", lines: []string{
			ncclIB("NET/IB : Unable to query port 1"),
		}},
		{family: "CANN: an HCCL code under its error name", want: "hccl-connect-failed", lines: []string{
			"[PID: 749] 2025-12-29-03:16:15.787.356 Get_Socket_Timeout(EI0006): Getting socket times out. ",
			"Communication_Error_Get_Socket(EI0006): srcRank[192.168.0.192/0] connect destRank[192.168.0.125/0] fail",
			"Communication_Error_Get_Socket(EI0006)",
			"Communication_Error_Initialize_Transport(EI0009): Device 0 transport init error. Reason: The network port is down.",
			"(DiffusionWorker_SP3 pid=237) [PID: 237] 2026-10-09-08:38:04.978.003 Communication_Error_Ranktable_Detect(EI0015): Failed to collect cluster information",
		}},
		{family: "CANN: an HCCL configuration code under its error name", want: "hccl-config-invalid", lines: []string{
			"Invalid_Argument(EI0005): The arguments for collective communication are inconsistent between ranks,",
		}},
		{family: "CANN: an HCCP code under its error name", want: "hccp-network-error", lines: []string{
			"Communication_Error_Bind_IP_Port(EJ0003): Failed to bind the IP port",
		}},
		{family: "c10d: the TCPStore client cannot reach the rendezvous", want: "c10d-client-socket-timeout", lines: []string{
			"[W220 15:40:19.894087820 TCPStore.cpp:358] [c10d] TCP client failed to connect/validate to host 192.168.6.2:53489 - retrying (try=0, timeout=600000ms, delay=88516ms): The client socket has timed out after 600000ms while trying to connect to (192.168.6.2, 53489).",
			"[E419 13:27:42.317323202 TCPStore.cpp:390] [c10d] TCP client failed to connect/validate to host nccl-master:29500 - timed out (try=0, timeout=120000ms): The client socket has timed out after 120000ms while trying to connect to (nccl-master, 29500).",
			"(WorkerDict pid=26070) Exception raised from throwTimeoutError at /pytorch/torch/csrc/distributed/c10d/socket.cpp:1021 (most recent call first):",
			"Exception raised from throwTimeoutError at ../torch/csrc/distributed/c10d/socket.cpp:1013 (most recent call first):",
			"Exception raised from throwTimeoutError at ",
		}},
		{family: "PD disaggregation: the decode receiver unpacks a failed bootstrap query", want: "disagg-bootstrap-unreachable", lines: []string{
			rawTB(`  File "/sgl-workspace/sglang/python/sglang/srt/disaggregation/decode.py", line 152, in add` + "\n" +
				"    kv_receiver = kv_receiver_class(\n" +
				"                  ^^^^^^^^^^^^^^^^^^\n" +
				`  File "/sgl-workspace/sglang/python/sglang/srt/disaggregation/mooncake/conn.py", line 517, in __init__` + "\n" +
				"    self.prefill_tp_size, self.prefill_dp_size = (\n" +
				"    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" +
				"TypeError: cannot unpack non-iterable NoneType object"),
			rawTB(`  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/disaggregation/nixl/conn.py", line 418, in __init__` + "\n" +
				"    self.prefill_tp_size, self.prefill_dp_size = self._get_prefill_dp_size_from_server()\n" +
				"TypeError: cannot unpack non-iterable NoneType object"),
		}},
		{family: "PD disaggregation: another None unpacked stays unclassified", lines: []string{
			rawTB(`  File "/sgl-workspace/sglang/python/sglang/srt/disaggregation/decode.py", line 300, in pop_preallocated` + "\n" +
				"    kv_indices, page_indices = self._pre_alloc(req)\n" +
				"TypeError: cannot unpack non-iterable NoneType object"),
		}},
		{family: "Mooncake store: the transfer engine refuses a whole batch", want: "mooncake-store-transfer-failed", lines: []string{
			glog("E", "transfer_task.cpp:673", "Failed to submit all transfers, error code is InvalidArgument"),
			glog("E", "transfer_task.cpp:469", "Failed to submit all transfers, error code is NotSupportedTransport"),
			glog("E", "client.cpp:1290", "Failed to submit all transfers, error code is -1"),
		}},
		{family: "NCCL: a socket connection to another rank fails, in each release's wording", want: "nccl-socket-connect-failed", lines: []string{
			"localhost:3401:3443 [0] include/socket.h:390 NCCL WARN Connect to 192.168.80.157<34630> failed : No route to host",
			"tj1-asr-train-v100-13:941227:943077 [0] include/socket.h:390 NCCL WARN Connect to 10.38.10.112<21724> failed : Connection refused",
			"include/socket.h:403 NCCL WARN Connect to 10.0.0.7<40123> failed: Network is unreachable",
			"dgx-a [0] include/socket.h:185 WARN Call to connect failed : Connection refused",
			"tj1-asr-train-v100-13:941227:943077 [0] include/socket.h:390 NCCL WARN Connect to 10.38.10.112<21724",
			"ubuntu:39964:40075 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.2<45763> failed : Software caused connection abort",
			"node5:240:240 [6] misc/socket.cc:533 NCCL WARN socketPollConnect: Connect to 10.0.0.4<56849> returned 113(No route to host) errno 115(Operation now in progress)",
		}},
		{family: "NCCL: a connect it retries stays routine", lines: []string{
			"tj1-asr-train-v100-13:941227:943077 [0] NCCL INFO Call to connect returned Connection refused, retrying",
		}},
		{family: "Mooncake store: a client that binds its own port runs out of tries", want: "mooncake-store-client-setup-failed", lines: []string{
			glog("E", "real_client.cpp:707", "Failed to create client on port 13799, retry 20/20"),
			glog("E", "real_client.cpp:710", "Failed to create client on port 12504 after 20 retries"),
		}},
		{family: "Mooncake store: a port try with tries left stays routine", lines: []string{
			glog("W", "real_client.cpp:858", "Failed to create client on port 17813, retry 1/20"),
			glog("W", "real_client.cpp:707", "Failed to create client on port 13799, retry 19/20"),
		}},
		{family: "Gloo: the loopback fallback for an unresolved host name stays routine", lines: []string{
			"[rank0]:[W427 03:10:15.652192062 ProcessGroupGloo.cpp:715] Warning: Unable to resolve hostname to a (local) address. Using the loopback address as fallback. Manually set the network interface to bind to with GLOO_SOCKET_IFNAME. (function operator())",
			"[rank0]:[W ProcessGroupGloo.cpp:721] Warning: Unable to resolve hostname to a (local) address. Using the loopback address as fallback. Manually set the network interface to bind to with GLOO_SOCKET_IFNAME. (function operator())",
			"[W ProcessGroupGloo.cpp:684] Warning: Unable to resolve hostname to a (local) address. Using the loopback address as fallback. Manually set the network interface to bind to with GLOO_SOCKET_IFNAME. (function operator())",
		}},
		{family: "NCCL IB: routine async events", lines: []string{
			ncclIB("NET/IB : mlx5_2:1 Got async error event: port active"),
			ncclIB("NET/IB : mlx5_2:1 Got non-fatal async event: port active(9)"),
			ncclIB("NET/IB : mlx5_2:1 Got async error event: send queue drained"),
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
	"mooncake-rdma-device-open-failed": {
		match: []string{"E0924 01:29:28.347672  2254 rdma_context.cpp:499] Failed to query GID 0 on mlx5_0/: Invalid argument [22]"},
		miss:  []string{"E0302 08:32:30.369483 57711 rdma_context.cpp:450] Failed to query GID 244 on rocep153s0/: No data available [61]"},
	},
	"nixl-remote-metadata-failed": {
		match: []string{"E1204 10:45:22.126729 108700 nixl_etcd_metadata_backend.cpp:105] Failed to announce agent prefill-0 in etcd: etcdserver: request timed out"},
		miss:  []string{"Warning: Failed to remove etcd keys for agent: prefill-0 : key not found"},
	},
	"mooncake-target-segment-unknown": {
		match: []string{"Failed to get rpc meta of 10.0.0.7:15002"},
		miss:  []string{"Failed to insert rpc meta of 10.0.0.7:15002"},
	},
}

var transferLayerRecordExamples = map[string]example{
	"gloo-hostname-loopback-fallback": {
		match: []string{
			"[rank0]:[W427 03:10:15.652192062 ProcessGroupGloo.cpp:715] Warning: Unable to resolve hostname to a (local) address. Using the loopback address as fallback. Manually set the network interface to bind to with GLOO_SOCKET_IFNAME. (function operator())",
			"[W ProcessGroupGloo.cpp:684] Warning: Unable to resolve hostname to a (local) address. Using the loopback address as fallback. Manually set the network interface to bind to with GLOO_SOCKET_IFNAME. (function operator())",
		},
		miss: []string{"[W ProcessGroupGloo.cpp:684] Warning: Unable to resolve hostname 'node-3'"},
	},
	"mooncake-store-client-port-retry": {
		match: []string{
			"W1203 10:02:12.001901 77102 real_client.cpp:858] Failed to create client on port 17813, retry 1/20",
			"Failed to create client on port 13799, retry 19/20",
		},
		miss: []string{"E1203 10:02:14.001901 77102 real_client.cpp:707] Failed to create client on port 13799, retry 20/20"},
	},
	"hf-xet-download-failed": {
		match: []string{
			"RuntimeError: Data processing error: CAS service error : ReqwestMiddleware Error: Request failed after 5 retries",
			"Data processing error: CAS service error : IO Error: Timer expired",
		},
		miss: []string{"RuntimeError: Data processing error: CAS service error : IO Error: No space left on device (os error 28)"},
	},
	"hf-endpoint-metadata-invalid": {
		match: []string{
			"huggingface_hub.errors.FileMetadataError: Distant resource does not seem to be on huggingface.co.",
			"OSError: Distant resource does not have an ETag, we won't be able to reliably ensure reproducibility.",
		},
		miss: []string{"Distant resource is on huggingface.co"},
	},
	"nvshmem-heap-allocation-failed": {
		match: []string{
			"/nvshmem/src/host/mem/mem_heap.cpp:1509: non-zero status: 2 cuMemCreate failed ",
			"nvshmem malloc failed (hint: check if total allocation has exceeded NVSHMEM symmetric size = 1073741824, NVSHMEM symmetric size can be increased using NVSHMEM_SYMMETRIC_SIZE environment variable)",
		},
		miss: []string{"/nvshmem/src/host/mem/mem_heap.cpp:1770: non-zero status: 1 cuMemMap failed "},
	},
	"ucx-cross-process-memory-denied": {
		match: []string{
			"[1701234567.123456] [gpu-3:41278:0]    cma_ep.c:85   UCX  ERROR process_vm_readv(pid=2563 {0x7f3a,16}-->{0x7f3b,16}) returned -1: Operation not permitted",
			"cma_ep.c:113  UCX  ERROR process_vm_readv delivered 0 instead of 91389, error message Operation not permitted",
		},
		miss: []string{"[1701234567.123456] [gpu-3:41278:0]    cma_ep.c:85   UCX  ERROR process_vm_readv(pid=2563 {0x7f3a,16}-->{0x7f3b,16}) returned -1: No such process"},
	},
	"mooncake-nvlink-transport-failed": {
		match: []string{
			"E1024 06:51:59.688545 162143 nvlink_transport.cpp:603] NvlinkTransport: cuMemCreate failed: 800",
			"Requested address 0x7f2a40000000 to 0x7f2a40200000 not found!",
		},
		miss: []string{"NvlinkTransport: using cudaMemcpyBatchAsync for 16 slices"},
	},
}

func init() { addExamples(transferLayerRecordExamples, transferLayerRecordsWidened) }
