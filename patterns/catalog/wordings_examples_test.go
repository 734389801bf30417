package catalog_test

// libraryExamples holds the records read from the sources of the libraries
// around the serving engines (Mooncake's store and transfer engine, NIXL,
// torch_memory_saver, NCCL's proxy, DeepEP, FlashInfer, xgrammar, the
// router): each composed from the library's own format string, with the
// variable parts filled as the library fills them, and near-misses from
// the library's routine lines or a sibling record's wording.
var libraryExamples = map[string]example{
	"mooncake-store-replica-descriptor-mismatch": {
		match: []string{
			"Batch RPC call failed: Expected DiskDescriptor",
			"E0429 10:21:07.118420 77121 master_client.cpp:416] Batch RPC call failed: Expected LocalDiskDescriptor",
			"E0429 10:21:07.118420 77121 dummy_client.cpp:243] Batch RPC call failed: Expected MemoryDescriptor",
			"RuntimeError: Expected DistributedFSDescriptor",
		},
		miss: []string{
			"E0429 10:21:07.118420 77121 master_client.cpp:416] Batch RPC call failed: connection refused",
			"I0429 10:21:07.118420 77121 client_service.cpp:1916] read store: 0us, with memory key count: 8, offload key count: 0",
		},
	},
	"mooncake-store-rpc-failed": {
		match: []string{
			"E0606 09:39:00.285498   382 master_client.cpp:416] Batch RPC call failed: End of file",
			"E0606 09:39:00.285498   382 master_client.cpp:370] RPC call failed: Connection refused",
			"E0606 09:39:00.285498   382 master_client.cpp:367] RPC call timed out: Timed out",
			"E0606 09:39:00.285537   382 client.cpp:323] Failed to start put operation: RPC_FAIL",
			"E0606 09:39:00.285573   382 real_client.cpp:2176] Put operation failed with error: RPC_TIMEOUT",
			"E0606 09:39:00.285498   382 master_client.cpp:361] Client not available",
		},
		miss: []string{
			"Batch RPC call failed: Expected DiskDescriptor",
			"E0606 09:39:00.285573   382 real_client.cpp:2176] Put operation failed with error: OBJECT_ALREADY_EXISTS",
			"Client not available, retrying",
		},
	},
	"mooncake-store-version-mismatch": {
		match: []string{
			"E1203 10:02:11.003412 77102 master_client.cpp:459] Version mismatch: server=2.0.0 client=2.1.0",
			"Version mismatch: server= client=0.3.6",
			"E1203 10:02:11.003412 77102 real_client.cpp:420] Failed to connect to master with error: INVALID_VERSION",
		},
		miss: []string{
			"I1203 10:02:11.003412 77102 master_client.cpp:214] Connecting to master at 10.0.0.5:50051",
			"Transformers version mismatch: the config was written by 4.51",
		},
	},
	"torch-memory-saver-invalid-request": {
		match: []string{
			"(WorkerDict pid=1143757) [torch_memory_saver.cpp] CUresult error  result=1 file=csrc/torch_memory_saver.cpp func=resume line=206",
			"[torch_memory_saver.cpp] CUresult error: 1 (invalid argument)  file=csrc/utils.h func=cu_mem_create line=194",
			"[torch_memory_saver.cpp] CUresult error: 400 (invalid resource handle)  file=csrc/core.cpp func=pause line=201",
			"[torch_memory_saver.cpp] cudaError error: 101 (invalid device ordinal)  file=csrc/core.cpp func=resume line=250",
			"[torch_memory_saver.cpp] Cannot resume allocation that is not paused.  tag=kv_cache ptr=139872413614080 file=csrc/core.cpp func=resume line=235",
			"[torch_memory_saver.cpp] Cannot pause allocation that is not active. tag=weights ptr=139872413614080 file=csrc/core.cpp func=pause line=183",
		},
		miss: []string{
			"[torch_memory_saver.cpp] CUresult error: 2 (out of memory)  file=csrc/core.cpp func=resume line=210",
			"[torch_memory_saver.cpp] CUresult error: 100 (no CUDA-capable device is detected)  file=csrc/core.cpp func=malloc line=120",
			"[torch_memory_saver.cpp] CUresult error: 10 (unexpected)  file=csrc/core.cpp func=malloc line=120",
		},
	},
	"torch-memory-saver-vmm-unavailable": {
		match: []string{
			"[torch_memory_saver.cpp] CUresult error: 801 (operation not supported)  file=csrc/utils.h func=cu_mem_create line=194",
			"[torch_memory_saver.cpp] CUresult error  result=3 file=csrc/torch_memory_saver.cpp func=malloc line=88",
			"[torch_memory_saver.cpp] CUresult error: 100 (no CUDA-capable device is detected)  file=csrc/core.cpp func=malloc line=120",
			"[torch_memory_saver.cpp] cudaError error: 999 (unknown error)  file=csrc/core.cpp func=resume line=250",
		},
		miss: []string{
			"[torch_memory_saver.cpp] CUresult error: 1 (invalid argument)  file=csrc/utils.h func=cu_mem_create line=194",
			"[torch_memory_saver.cpp] CUresult error: 30 (unknown)  file=csrc/utils.h func=cu_mem_create line=194",
		},
	},
	"torch-memory-saver-after-kernel-fault": {
		match: []string{
			"[torch_memory_saver.cpp] CUresult error: 700 (an illegal memory access was encountered)  file=csrc/core.cpp func=pause line=196",
			"[torch_memory_saver.cpp] CUresult error  result=719 file=csrc/torch_memory_saver.cpp func=resume line=206",
			"[torch_memory_saver.cpp] cudaError error: 710 (device-side assert triggered)  file=csrc/core.cpp func=pause line=196",
		},
		miss: []string{
			"[torch_memory_saver.cpp] CUresult error: 70 (unknown)  file=csrc/core.cpp func=pause line=196",
			"[torch_memory_saver.cpp] CUresult error: 1 (invalid argument)  file=csrc/core.cpp func=pause line=196",
		},
	},
	"torch-memory-saver-cuda-error": {
		match: []string{
			"[torch_memory_saver.cpp] CUresult error: 217 (peer access is not supported between these two devices)  file=csrc/core.cpp func=malloc line=120",
			"[torch_memory_saver.cpp] CUresult error  result=304 file=csrc/torch_memory_saver.cpp func=resume line=206",
			"[torch_memory_saver.cpp] CUresult error: 2 (out of memory)  file=csrc/utils.h func=cu_mem_unmap line=201",
		},
		miss: []string{
			"[torch_memory_saver.cpp] CUresult error: 2 (out of memory)  file=csrc/core.cpp func=resume line=210",
			"[torch_memory_saver.cpp] CUresult error  result=2 file=csrc/torch_memory_saver.cpp func=cu_mem_create line=103",
			"[torch_memory_saver.cpp] CUresult error: 1 (invalid argument)  file=csrc/utils.h func=cu_mem_create line=194",
			"[torch_memory_saver.cpp] CUresult error: 801 (operation not supported)  file=csrc/utils.h func=cu_mem_create line=194",
			"[torch_memory_saver.cpp] CUresult error: 700 (an illegal memory access was encountered)  file=csrc/core.cpp func=pause line=196",
		},
	},
	"nccl-proxy-operation-failed": {
		match: []string{
			"<cluster_name>:922:1158 [3] proxy.cc:1485 NCCL WARN [Service thread] Error encountered progressing operation=Connect, res=2, closing connection",
			"node-1:2288:2597 [1] NCCL WARN [Service thread] Error encountered progressing operation=Connect, res=3, closing connection",
			"gpu-7:41:980 [0] proxy.cc:1905 NCCL WARN [Proxy Service 11] Failed to execute operation Connect from rank 11, retcode 2",
			"gpu-7:41:980 [0] NCCL WARN [Proxy Service 0] Failed to execute operation SharedInit from rank 3, retcode 1",
		},
		miss: []string{
			"gpu-7:41:980 [0] NCCL INFO Received and initiated operation=Connect res=0",
			"gpu-7:41:980 [0] NCCL INFO [Service thread] Connection closed by localRank 2",
			"node-1:2288:2597 [1] NCCL WARN socketProgress: Connection closed by remote peer node-2<53018>",
		},
	},
	"nccl-ib-async-fatal-event": {
		match: []string{
			"gpu-3:4012:4190 [0] NCCL WARN NET/IB : mlx5_3:1 async fatal event: local catastrophic error",
			"gpu-3:4012:4190 [0] common.cc:127 NCCL WARN NET/IB : mlx5_0:1 async fatal event on QP (0x55d1) qpn=1201 handle=3 send_cq=2 recv_cq=2 state=6 sq_psn=0 rq_psn=0: local work queue catastrophic error",
			"node-2:811:902 [5] NCCL WARN NET/IB : Got async event : CQ error",
		},
		miss: []string{
			"gpu-3:4012:4190 [0] NCCL WARN NET/IB : mlx5_0:1 Got non-fatal async event: port error(10)",
			"node-2:811:902 [5] NCCL WARN NET/IB : Got async event : port active",
		},
	},
	"nccl-ib-port-event": {
		match: []string{
			"gpu-3:4012:4190 [0] NCCL WARN NET/IB : mlx5_0:1 Got non-fatal async event: port error(10)",
			"node-2:811:902 [5] NCCL WARN NET/IB : Got async event : GID table change",
			"gpu-3:4012:4190 [0] NCCL WARN NET/IB : mlx5_2:1 GID table changed",
		},
		miss: []string{
			"gpu-3:4012:4190 [0] NCCL WARN NET/IB : mlx5_0:1 Got non-fatal async event: port active(9)",
			"gpu-3:4012:4190 [0] NCCL WARN NET/IB : mlx5_3:1 async fatal event: local catastrophic error",
		},
	},
	"nccl-ib-routine-async-event": {
		match: []string{
			"gpu-3:4012:4190 [0] NCCL WARN NET/IB : mlx5_0:1 Got non-fatal async event: port active(9)",
			"node-2:811:902 [5] NCCL WARN NET/IB : Got async event : communication established",
		},
		miss: []string{
			"gpu-3:4012:4190 [0] NCCL WARN NET/IB : mlx5_0:1 Got non-fatal async event: port error(10)",
		},
	},
	"nccl-net-plugin-init-failed": {
		match: []string{
			"node-1:2288:2288 [1] net.cc:349 NCCL WARN Failed to initialize any NET plugin",
			"node-1:2288:2288 [1] NCCL WARN Failed to initialize any NET plugin",
		},
		miss: []string{
			"node-1:2288:2288 [1] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Using internal net plugin.",
			"node-1:2288:2288 [1] NCCL INFO GIN/Plugin: Failed to initialize any GIN plugin",
		},
	},
	"nccl-ib-incompatible-devices": {
		match: []string{
			"node-1:2288:2597 [1] connect.cc:987 NCCL WARN NET/IB : Attempted to connect incompatible devices: [0]mlx5_0:1/IB and [1]mlx5_4:1/RoCE. Try selecting NICs of the same link type (using NCCL_IB_HCA)",
			"node-1:2288:2597 [1] NCCL WARN NET/IB: Attempted to connect incompatible devices: [0]mlx5_2:1/RoCE and [0]mlx5_0:1/IB.",
		},
		miss: []string{
			"node-1:2288:2597 [1] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB eth0:10.0.0.1<0>",
		},
	},
	"nccl-topology-xml-invalid": {
		match: []string{
			"ip-10-1-2-3:4711:4711 [0] NCCL WARN Attribute arch of node cpu not found",
			"node-1:2288:2288 [1] xml.cc:149 NCCL WARN XML Parse error : expecting '<', got 'x'",
			"node-1:2288:2288 [1] NCCL WARN XML Topology has wrong version 2, 1 needed",
		},
		miss: []string{
			"node-1:2288:2288 [1] NCCL INFO Could not open XML topology file /var/run/nvidia-topologyd/virtualTopology.xml : No such file or directory",
			"node-1:2288:2288 [1] NCCL INFO NCCL_TOPO_FILE set by environment to /opt/topo.xml",
		},
	},
	"mooncake-store-lease-expired": {
		match: []string{
			"W1203 10:02:11.003412 77102 client_service.cpp:1410] lease_expired_before_data_transfer_completed key=7f3a_0_k",
			"E1203 10:02:11.003520 77102 real_client.cpp:2918] Get failed for key: 7f3a_0_k with error: LEASE_EXPIRED",
		},
		miss: []string{
			"I1203 10:02:11.003412 77102 master_service.cpp:612] lease renewed for key=7f3a_0_k",
		},
	},
	"mooncake-store-transfer-failed": {
		match: []string{
			"E0606 09:39:00.285573   382 real_client.cpp:2176] Put operation failed with error: TRANSFER_FAIL",
			"E0606 09:39:00.285573   382 real_client.cpp:2918] Get failed for key: 0a1b_3_v with error: TRANSFER_FAIL",
		},
		miss: []string{
			"E0606 09:39:00.285573   382 real_client.cpp:2176] Put operation failed with error: RPC_FAIL",
		},
	},
	"mooncake-store-checksum-mismatch": {
		match: []string{
			"E1203 10:02:11.003412 77102 client_service.cpp:1336] object_checksum_mismatch key=7f3a_0_k expected=1839201 actual=99120",
			"E1203 10:02:11.003520 77102 real_client.cpp:2918] Get failed for key: 7f3a_0_k with error: CHECKSUM_MISMATCH",
		},
		miss: []string{
			"I1203 10:02:11.003412 77102 client_service.cpp:1328] object_checksum_absent key=7f3a_0_k",
		},
	},
	"mooncake-store-object-exists": {
		match: []string{
			"E0312 10:22:01.771233 5512 real_client.cpp:2176] Put operation failed with error: OBJECT_ALREADY_EXISTS",
			"Put operation failed with error: OBJECT_ALREADY_EXISTS",
		},
		miss: []string{
			"E0312 10:22:01.771233 5512 real_client.cpp:2176] Put operation failed with error: NO_AVAILABLE_HANDLE",
		},
	},
	"mooncake-store-client-not-initialized": {
		match: []string{
			"E0925 00:24:39.141773  4418 real_client.cpp:230] Client is not initialized",
			"E0925 00:24:39.141773  4418 dummy_client.cpp:200] Dummy Client not available",
		},
		miss: []string{
			"E0925 00:24:39.141773  4418 store_py.cpp:201] Tokenizer is not initialized",
			"Client is not initialized yet, waiting",
		},
	},
	"mooncake-target-segment-unknown": {
		match: []string{
			"E1213 02:57:10.528410 5811 worker_pool.cpp:165] Cannot get target segment description #7",
			"E1213 02:57:10.528410 5811 worker_pool.cpp:204] Cannot reload target segment #12",
			"E1213 02:57:10.528410 5811 efa_context.cpp:937] Cannot get segment descriptor for target 3",
		},
		miss: []string{
			"E1213 02:57:10.528410 5811 transfer_engine.cpp:310] Local segment descriptor not found",
		},
	},
	"mooncake-rdma-async-event-error": {
		match: []string{
			"W1213 02:57:10.528410  5811 worker_pool.cpp:1014] Worker: Received context async event port error for context mlx5_2",
			"W1213 02:57:10.528410  5811 worker_pool.cpp:1014] Worker: Received context async event local work queue catastrophic error for context mlx5_0",
		},
		miss: []string{
			"W1213 02:57:10.528410  5811 worker_pool.cpp:1014] Worker: Received context async event communication established for context mlx5_2",
		},
	},
	"mooncake-rdma-async-event-routine": {
		match: []string{
			"W1213 02:57:10.528410  5811 worker_pool.cpp:1014] Worker: Received context async event communication established for context mlx5_2",
			"W1213 02:57:10.528410  5811 worker_pool.cpp:1014] Worker: Received context async event port active for context mlx5_2",
		},
		miss: []string{
			"W1213 02:57:10.528410  5811 worker_pool.cpp:1014] Worker: Received context async event port error for context mlx5_2",
		},
	},
	"mooncake-handshake-port-unavailable": {
		match: []string{
			"E1213 02:57:10.528410 5811 transfer_metadata_plugin.cpp:715] SocketHandShakePlugin: bind (port 15021): Address already in use [98]",
			"E1213 02:57:10.528410 5811 transfer_metadata_plugin.cpp:701] SocketHandShakePlugin: bind (port 80): Permission denied [13]",
		},
		miss: []string{
			"E1213 02:57:10.528410 5811 transfer_metadata_plugin.cpp:640] SocketHandShakePlugin: connect()10.0.0.2:15021: Connection refused [111]",
		},
	},
}

// widenedLibraryExamples add lines to records that existed before: the
// wordings of the same failure in another library or language.
var widenedLibraryExamples = map[string]example{
	"too-many-open-files": {
		match: []string{
			"called `Result::unwrap()` on an `Err` value: Os { code: 24, kind: Uncategorized, message: \"Too many open files\" }",
			"[SGLang LOG] called `Result::unwrap()` on an `Err` value: Os { code: 24, kind: Other, message: \"Too many open files\" }",
			"Error: Too many open files (os error 24)",
			"2026/05/28 00:11:09 http: Accept error: accept tcp [::]:8000: accept4: too many open files; retrying in 5ms",
			"E0528 00:11:09.441803  4502 transfer_metadata_plugin.cpp:640] SocketHandShakePlugin: socket(): Too many open files",
		},
		miss: []string{
			"Os { code: 111, kind: ConnectionRefused, message: \"Connection refused\" }",
			"Raise the open files limit to avoid too many open files later",
		},
	},
	"nixl-ucx-backend-create-failed": {
		match: []string{
			"E0612 09:14:02.118312 44012 nixl_agent.cpp:342] UCX library does not support multi-threading",
		},
	},
	"nccl-remote-process-exited": {
		miss: []string{
			"node-1:2288:2597 [1] NCCL WARN [Service thread] Error encountered progressing operation=Connect, res=3, closing connection",
		},
	},
}

func init() {
	for slug, ex := range libraryExamples {
		examples[slug] = ex
	}
	for slug, more := range widenedLibraryExamples {
		ex := examples[slug]
		ex.match = append(ex.match, more.match...)
		ex.miss = append(ex.miss, more.miss...)
		examples[slug] = ex
	}
}
