package catalog_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/dlclark/regexp2/v2"
)

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
	"nccl-optional-library-fallback-routine": {
		match: []string{
			"ai:480850:480850 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]",
			"GENOA-06:4766:4780 [0] NCCL INFO Failed to open libibverbs.so[.1]",
			"z292:58192:58200 [2] /long_pathname_so_that_rpms_can_package_the_debug_info/src/rccl/build/hipify/src/init.cc:2065 NCCL WARN MSCCL++: Cannot enable MSCCL++; environment is not MSCCL compatible",
		},
		miss: []string{
			"node-1:2288:2288 [1] NCCL WARN Failed to initialize any NET plugin",
			"sharbox-ultra:204802:204802 [0] /home/elias/rccl/build/release/hipify/src/init.cc:125 NCCL WARN Missing \"amd_iommu=on\" from kernel command line which can lead to system instablity or hang!",
			"node-2:811:902 [5] misc/ibvwrap.cc:291 NCCL WARN Call to ibv_modify_qp failed with error Connection timed out",
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
	"nixl-no-plugins-available": {
		match: []string{
			tb("RuntimeError: No plugins available for NIXL, cannot start transfers!"),
			"2026-05-28 00:11:09 NIXL ERROR _api.py:240 No plugins available, cannot start transfers!",
		},
		miss: []string{
			"Loaded plugin UCX",
			"No plugins available for telemetry export",
		},
	},
	"nixl-memory-registration-failed": {
		match: []string{
			"E0612 09:14:02.118312 44012 nixl_agent.cpp:506] registerMem: registration failed for the specified or all potential backends",
			"E0612 09:14:02.118312 44012 nixl_agent.cpp:458] registerMem: no available backends for mem type 'VRAM_SEG'",
		},
		miss: []string{
			"E0612 09:14:02.118312 44012 nixl_agent.cpp:540] deregisterMem: deregistration failed on at least one backend with status -1",
		},
	},
	"nixl-no-common-backend": {
		match: []string{
			"E0612 09:14:02.118312 44012 nixl_agent.cpp:613] makeConnection: no common backend to connect with 'decode_0'",
			"E0612 09:14:02.118312 44012 nixl_agent.cpp:948] createXferReq: no potential backend found to be able to do the transfer",
		},
		miss: []string{
			"I0612 09:14:02.118312 44012 nixl_agent.cpp:600] makeConnection: connected to 'decode_0' over backend 'UCX'",
		},
	},
	"torch-memory-saver-expandable-segments": {
		match: []string{
			tb("RuntimeError: TorchMemorySaver is disabled for the current process because expandable_segments is not supported yet."),
			"RuntimeError: TorchMemorySaver is disabled for the current process because expandable_segments is not supported yet.",
		},
		miss: []string{
			hdr("Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True for the trainer"),
		},
	},
	"torch-memory-saver-hook-load-failed": {
		match: []string{
			"[torch_memory_saver.cpp] dlsym failed dlerror=/usr/lib/x86_64-linux-gnu/libcudart.so.12: undefined symbol: cudaMallocAsync",
			"ERROR:torch_memory_saver.binary_wrapper:Failed to load CDLL from /usr/local/lib/python3.12/dist-packages/torch_memory_saver_hook_mode_torch_cu12.abi3.so: libcudart.so.12: cannot open shared object file: No such file or directory",
		},
		miss: []string{
			"DEBUG:torch_memory_saver.hooks.mode_torch:HookUtilModeTorch self.get_path_binary()='/opt/conda/lib/python3.11/site-packages/torch_memory_saver_hook_mode_torch_cu12.abi3.so'",
			"Failed to load CDLL from /opt/lib/libfoo.so: not found",
		},
	},
	"deepep-experts-not-divisible": {
		match: []string{
			tb("RuntimeError: Failed: Assertion error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:1483 'num_experts % num_ranks == 0'"),
			"RuntimeError: Failed: Assertion error /opt/DeepEP/csrc/kernels/intranode.cu:167 'num_tokens_per_expert->size(0) % num_ranks == 0'",
		},
		miss: []string{
			tb("RuntimeError: Failed: Assertion error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:1066 'x.size(0) <= num_max_dispatch_tokens_per_rank'"),
		},
	},
	"deepep-internode-rank-layout": {
		match: []string{
			tb("RuntimeError: Failed: Assertion error /sgl-workspace/DeepEP/csrc/config.hpp:58 'num_ranks < NUM_MAX_NVL_PEERS or num_ranks % NUM_MAX_NVL_PEERS == 0'"),
			"RuntimeError: Failed: Assertion error /opt/DeepEP/csrc/legacy/buffer.hpp:114 'num_ranks < LEGACY_NUM_MAX_NVL_PEERS or num_ranks % LEGACY_NUM_MAX_NVL_PEERS == 0'",
		},
		miss: []string{
			"RuntimeError: Failed: Assertion error /opt/DeepEP/csrc/deep_ep.cpp:88 'num_ranks > 0'",
		},
	},
	"deepep-buffer-size-invalid": {
		match: []string{
			tb("RuntimeError: Failed: Assertion error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:1503 'layout.total_bytes <= num_rdma_bytes'"),
			"RuntimeError: Failed: Assertion error /opt/DeepEP/csrc/kernels/internode.cu:432 'num_rdma_bytes < std::numeric_limits<int>::max()'",
			"RuntimeError: Failed: Assertion error /opt/DeepEP/csrc/deep_ep.cpp:127 '(nvl_clean_meta.first + nvl_clean_meta.second) * sizeof(int) <= num_nvl_bytes'",
		},
		miss: []string{
			hdr("DeepEP buffer: num_nvl_bytes=1073741824 num_rdma_bytes=2147483648"),
		},
	},
	"flashinfer-package-version-mismatch": {
		match: []string{
			tb("RuntimeError: flashinfer-cubin version (0.4.1) does not match flashinfer version (0.5.2). Please install the same version of both packages. Set FLASHINFER_DISABLE_VERSION_CHECK=1 to bypass this check."),
			"RuntimeError: flashinfer-jit-cache version (0.5.0+cu128) does not match flashinfer version (0.5.2). Please install the same version of both packages.",
		},
		miss: []string{
			"flashinfer-cubin version: 0.5.2",
		},
	},
	"flashinfer-cubin-download-failed": {
		match: []string{
			tb("RuntimeError: Failed to download cubins"),
			"2026-05-28 00:11:09,118 - ERROR - cubin_loader.py:135 - Max retries reached. Download failed.",
			"RuntimeError: Artifact not found locally: 7b3c/fmha/trtllm-gen/kernel.cubin (looked at /root/.cache/flashinfer/cubins/7b3c/fmha/trtllm-gen/kernel.cubin). FLASHINFER_NO_DOWNLOAD is set — refusing to download.",
		},
		miss: []string{
			"2026-05-28 00:11:09,118 - INFO - cubin_loader.py:116 - File downloaded successfully: https://edge.urm.nvidia.com/x.cubin -> /root/.cache/flashinfer/cubins/x.cubin",
		},
	},
	"flashinfer-cubin-cache-stale": {
		match: []string{
			tb("RuntimeError: Header flashinferMetaInfo.h at /root/.cache/flashinfer/cubins/7b3c/include/flashinferMetaInfo.h has wrong checksum (expected 1a2b, got 3c4d). This can happen after switching branches. Try clearing the cache: rm -rf /root/.cache/flashinfer/cubins"),
			"RuntimeError: Header kernelMetaInfo.h not found at /root/.cache/flashinfer/cubins/7b3c/include/kernelMetaInfo.h. Try clearing the cache: rm -rf /root/.cache/flashinfer/cubins",
		},
		miss: []string{
			"WARNING: sha256 mismatch (expected 1a2b actual 3c4d) for /root/.cache/flashinfer/cubins/x.cubin",
		},
	},
	"flashinfer-kernel-call-failed": {
		match: []string{
			tb("RuntimeError: BatchPrefillWithPagedKVCache failed with error invalid configuration argument"),
			"RuntimeError: BatchDecodeWithPagedKVCache failed with error an illegal memory access was encountered",
			"RuntimeError: BatchDecodeWithPagedKVCachePlanMLA failed with error too many resources requested for launch",
		},
		miss: []string{
			hdr("Using FlashInfer BatchPrefillWithPagedKVCache wrapper with workspace 512 MB"),
		},
	},
	"xgrammar-warning-routine": {
		match: []string{
			"[11:16:07] /workspace/cpp/json_schema_converter.cc:765: Warning: Keyword contentEncoding is not supported",
			"[11:16:07] /project/cpp/json_schema_converter.cc:1052: Warning: multipleOf is not supported for type:number; ignoring multipleOf",
			"[09:59:19] /project/cpp/fsm_builder.cc:1311: Warning: Lookahead assertion is not supported and is ignored in regex: (?=a)b",
		},
		miss: []string{
			"RuntimeError: [11:16:07] /workspace/cpp/json_schema_converter.cc:612: Unsupported type: tuple",
			"[23:42:39] /project/cpp/grammar_matcher.cc:1205: Warning: The matcher has terminated after accepting the stop token, but is trying to accept new token with id 3",
		},
	},
	"xgrammar-token-rejected": {
		match: []string{
			"[23:42:39] /project/cpp/grammar_matcher.cc:1205: Warning: The matcher has terminated after accepting the stop token, but is trying to accept new token with id 151645.",
			"[23:42:39] /project/cpp/grammar_matcher.cc:1211: Warning: The token id 152063 is out of range [0, 151936). Rejecting the token.",
			"[23:42:39] /project/cpp/grammar_matcher.cc:1221: Warning: GrammarMatcher cannot accept special token id 151643: <|endoftext|>. Rejecting the token.",
		},
		miss: []string{
			"RuntimeError: [23:42:39] /project/cpp/grammar_matcher.cc:556: Check failed: (!IsTerminated()) is false: GrammarMatcher has terminated after accepting the stop token",
		},
	},
	"router-rate-limited": {
		match: []string{
			"2026-05-28T00:11:09.123456Z  WARN smg::middleware::concurrency: Request queue is full, returning 429",
			"2026-05-28 00:11:09  WARN sgl_model_gateway::middleware: src/middleware.rs:512: No tokens available and queuing is disabled, returning 429",
			"2026-05-28T00:11:09.123456Z  WARN smg::middleware::concurrency: Queue: request timed out waiting for token",
		},
		miss: []string{
			"2026-05-28T00:11:09.123456Z  INFO smg::middleware::concurrency: Request queue size 128, max concurrent requests 256",
		},
	},
	"router-pd-role-unavailable": {
		match: []string{
			"2026-05-28T00:11:09.123456Z  WARN smg::routers::grpc::common::stages::worker_selection: No available prefill workers",
			"2026-05-28T00:11:09.123456Z  WARN smg::routers::grpc: No available decode workers",
			"2026-05-28T00:11:09.123456Z  WARN smg::routers::grpc: No available PD pair for runtime Some(Sglang)",
		},
		miss: []string{
			"No available workers (all circuits open or unhealthy)",
			"2026-05-28T00:11:09.123456Z  INFO smg::routers: Available prefill workers: 2, decode workers: 2",
		},
	},
	"router-tokenizer-load-failed": {
		match: []string{
			"2026-05-28T00:11:09.123456Z ERROR smg::workflow::tokenizer_registration: Failed to load tokenizer 'Qwen/Qwen3-8B': Failed to load tokenizer locally (no tokenizer.json) and remotely from worker (404)",
			"2026-05-28T00:11:09.123456Z ERROR smg::workflow: Failed to load tokenizer 'default': HTTP status client error (401 Unauthorized)",
		},
		miss: []string{
			"2026-05-28T00:11:09.123456Z  INFO smg::workflow::tokenizer_registration: Loaded tokenizer 'Qwen/Qwen3-8B' from /models/qwen3",
		},
	},
	"router-service-discovery-failed": {
		match: []string{
			"2026-05-28T00:11:09.123456Z ERROR smg::service_discovery: K8s worker watcher error (auto-retrying with backoff): ApiError: pods is forbidden: User \"system:serviceaccount:llm:default\" cannot watch resource \"pods\"",
			"2026-05-28T00:11:09.123456Z ERROR smg::service_discovery: K8s worker watcher stream ended; discovery no longer receives updates",
			"2026-05-28T00:11:09.123456Z ERROR smg::server: Failed to start service discovery: no namespace",
		},
		miss: []string{
			"2026-05-28T00:11:09.123456Z  INFO smg::service_discovery: Starting K8s service discovery in namespace llm",
		},
	},
	"router-pd-transport-error": {
		match: []string{
			"2026-05-28T00:11:09.123456Z ERROR smg::routers::http::pd_router: PD request transport error, both sides aborted: error sending request for url (http://10.0.0.7:30000/generate)",
			"2026-05-28T00:11:09.123456Z ERROR smg::routers::http::pd_router: Stream error from decode server http://10.0.0.8:30000: error decoding response body",
		},
		miss: []string{
			"2026-05-28T00:11:09.123456Z  INFO smg::routers::http::pd_router: PD request completed prefill=http://10.0.0.7:30000 decode=http://10.0.0.8:30000",
		},
	},
	"ucx-cuda-transports-unavailable": {
		match: []string{
			"ucp_context.c:1321 UCX  WARN  transports 'cuda_ipc','cuda_copy' are not available, please use one or more of: mm, posix, self, shm, sm, sysv, tcp",
			"[1752044541.372091] [gpu-3:4012 :0]     ucp_context.c:1508 UCX  WARN  transport 'cuda_copy' is not available, please use one or more of: rc_mlx5, self, tcp",
		},
		miss: []string{
			"[1752044541.372091] [gpu-3:4012 :0]     ucp_context.c:1508 UCX  WARN  network device 'mlx5_3:1' is not available, please use one or more of: 'mlx5_0:1'(rc_mlx5), 'eth0'(tcp)",
		},
	},
	"ucx-requested-resource-unavailable": {
		match: []string{
			"[1752044541.372091] [gpu-3:4012 :0]     ucp_context.c:1508 UCX  WARN  network device 'mlx5_3:1' is not available, please use one or more of: 'mlx5_0:1'(rc_mlx5), 'eth0'(tcp)",
			"ucp_context.c:1321 UCX  WARN  transports 'rc_x','dc_x' are not available, please use one or more of: mm, self, tcp",
		},
		miss: []string{
			"ucp_context.c:1321 UCX  WARN  transports 'cuda_ipc','cuda_copy' are not available, please use one or more of: mm, posix, self, shm, sm, sysv, tcp",
		},
	},
	"nccl-version-mismatch": {
		match: []string{
			"node-2:811:811 [0] init.cc:1043 NCCL WARN Mismatched NCCL version detected : rank 8 version 22703 rank 0 version 22105",
			"node-2:811:811 [0] NCCL WARN Mismatched NCCL version detected : rank 3 version 21903 rank 0 version 21805",
		},
		miss: []string{
			"node-2:811:811 [0] NCCL INFO NCCL version 2.27.3+cuda12.9",
		},
	},
	"nccl-net-device-count-mismatch": {
		match: []string{
			"node-2:811:811 [0] init.cc:1339 NCCL WARN Detected mixed local Net device counts across ranks (min 7, max 8). Set NCCL_IGNORE_NET_MISMATCH=1 to continue.",
			"node-2:811:811 [0] NCCL WARN Detected mixed local CollNet device counts across ranks (min 0, max 1). Set NCCL_IGNORE_NET_MISMATCH=1 to continue.",
		},
		miss: []string{
			"node-2:811:811 [0] NCCL INFO Detected mixed local Net device counts across ranks (min 7, max 8). Ignoring due to NCCL_IGNORE_NET_MISMATCH.",
		},
	},
	"mooncake-rdma-context-inactive": {
		match: []string{
			"E0325 09:33:41.563210  8274 rdma_context.cpp:319] Context is not active: mlx5_9",
			"E0325 09:33:41.584282  8497 rdma_transport.cpp:389] Device 0 is not active",
		},
		miss: []string{
			"W0325 09:33:41.554718  8274 worker_pool.cpp:308] Too many errors found in local RNIC 10.121.129.5:16077@mlx5_9, mark it inactive",
			"Context is not active yet, waiting",
		},
	},
	"mooncake-overlapped-memory-registration": {
		match: []string{
			"E0612 09:14:02.118312 44012 transfer_engine_impl.cpp:656] Transfer Engine does not support overlapped memory region",
			"E0612 09:14:02.118312 44012 transfer_engine.cpp:312] Transfer Engine does not support overlapped memory region",
		},
		miss: []string{
			"E0612 09:14:02.118312 44012 rdma_context.cpp:212] Failed to register memory 0x7f3a00000000: Bad address [14]",
		},
	},
	"nixl-ucx-version-limited": {
		match: []string{
			"W0612 09:14:02.118312 44012 ucx_utils.cpp:424] UCX version is 1.17.0 which is less than 1.19, CUDA support is limited, including the lack of support for multi-GPU within a single process.",
			"UCX version is 1.18.1 which is less than 1.19, CUDA support is limited",
		},
		miss: []string{
			"I0612 09:14:02.118312 44012 ucx_utils.cpp:420] UCX version is 1.19.0",
		},
	},
	"flashinfer-kernel-error": {
		match: []string{
			tb("RuntimeError: Error in function 'TopKSamplingFromProb' at /workspace/include/flashinfer/sampling.cuh:1288: Check failed: d <= 262144"),
			"RuntimeError: Error in function 'BatchPrefillWithPagedKVCacheRun' at /opt/flashinfer/csrc/batch_prefill.cu:212: float_workspace_buffer is too small",
		},
		miss: []string{
			"Warning in function 'setup' at /workspace/include/flashinfer/trtllm/fused_moe/RoutingCustomPolicy.cuh:768: Unsupported numExperts",
			"Error in function boost::math::tgamma<double>(double): Evaluation of tgamma at a negative integer 0.",
			"RuntimeError: Error in function 'PrefillPlan' at /workspace/include/flashinfer/attention/scheduler.cuh:510: Unsupported head_dim: 192",
		},
	},
	"mooncake-transfer-engine-too-old": {
		match: []string{
			tb("RuntimeError: Mooncake's batch transfer requires mooncake-transfer-engine >= 0.3.4.post2. Please upgrade Mooncake by 'pip install mooncake-transfer-engine --upgrade'"),
			"RuntimeError: Mooncake's batch transfer requires mooncake-transfer-engine >= 0.3.4.post2.",
		},
		miss: []string{
			hdr("Using mooncake-transfer-engine 0.3.4.post2 for batch transfer"),
		},
	},
	"nccl-collective-mismatch": {
		match: []string{
			"10.10.23.10: so-ucloud-10-10-23-10:1307367:1307586 [0] transport/net_ib.cc:1038 NCCL WARN NET/IB : req 0/1 tag 0 peer 10.10.23.6<58683> collective mismatch error, local size 496640 remote size 65536",
			"node-1:2288:2597 [1] NCCL WARN NET/IB : req 1/2 tag 7 peer 10.0.0.2<41237> collective mismatch error, local size 32768 remote size 1048576",
		},
		miss: []string{
			"node-1:2288:2597 [1] NCCL INFO NET/IB : req 0/1 tag 0 peer 10.0.0.2<41237> posted",
		},
	},
	"nvshmem-version-mismatch": {
		match: []string{
			"NVSHMEM device library version does not match with NVSHMEM host library version",
			"NVSHMEM device library version (3.3.24) does not match with NVSHMEM host library version (3.2.5)",
			"NVSHMEM version in CUmodule or CUlibrary does not match with NVSHMEM host library version",
		},
		miss: []string{
			"NVSHMEM v3.3.24 (host library and device library versions match)",
		},
	},
	"hccl-connect-failed": {
		match: []string{
			tb("RuntimeError: allreduce:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:77 HCCL function error: HcclAllReduce(input, output, count, dtype, op, comm, stream), error code is 9"),
			"[rank1]: RuntimeError: send:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:64 HCCL function error: HcclSend(ptr, count, dtype, dst, comm, stream), error code is 11",
			// CANN's EI0009: a device's transport to its peer cannot be
			// set up, in the current wording (with the device) and the
			// older one (with the link step that failed), as the CANN
			// log, a rank's stderr and a KV-transfer engine quote it.
			"EI0009: [PID: 4101] 2025-06-03-10:12:44.512.003 Device 3 transport init error. Reason: The network port is down.",
			"[rank0]: EI0009: [PID: 88120] 2025-03-11-08:02:17.940.211 Transport init error. Reason: [Create][SrcLink]Create Src error! createLink para:rank[0]-localUserrank[0]-localIpAddr[10.0.0.3], dst_rank[3]-remoteUserrank[3]-remote_ip_addr[10.0.0.5]",
			"E0611 14:20:31.001822 5521 adxl_engine.cpp:120] Failed to initialize AdxlEngine, status: 503900, EI0009 Communication_Error_Initialize_Transport: Device 1 transport init error. Reason: The network port is down",
		},
		miss: []string{
			"INFO transport init done on device 3, 8 links created",
			"[rank1]: RuntimeError: allreduce:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:77 HCCL function error: HcclAllReduce(input, output, count, dtype, op, comm, stream), error code is 15",
			"HCCL function error: HcclAllReduce(...), error code is 110",
			// Building the communicator is hccl-comm-init-failed's.
			"RuntimeError: create:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:89 HCCL function error: HcclCommInitRootInfo(numRanks, &rootInfo, rank, &(comm->hcclComm_)), error code is 11",
		},
	},
	"hccl-call-failed": {
		match: []string{
			"[rank0]: RuntimeError: allreduce:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:77 HCCL function error: HcclAllReduce(input, output, count, dtype, op, comm, stream), error code is 4",
			"RuntimeError: allgather:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:81 HCCL function error: HcclAllGather(input, output, count, dtype, comm, stream), error code is 15",
		},
		miss: []string{
			tb("RuntimeError: allreduce:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:77 HCCL function error: HcclAllReduce(input, output, count, dtype, op, comm, stream), error code is 9"),
			"[rank1]: RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 15",
		},
	},
	"dynamo-etcd-unreachable": {
		match: []string{
			"ERROR dynamo_runtime::worker: Application shutdown with error: Failed to connect to etcd server with config ClientOptions { etcd_url: [\"http://localhost:2379\"], etcd_connect_options: None, attach_lease: true }",
			rawTB("Exception: Failed to connect to etcd server with config ClientOptions { etcd_url: [\"http://etcd:2379\"], etcd_connect_options: None, attach_lease: true }"),
		},
		miss: []string{
			"INFO dynamo_runtime::transports::etcd: Connected to etcd server at http://localhost:2379",
		},
	},
	"dynamo-nats-jetstream-unavailable": {
		match: []string{
			rawTB("nats.js.errors.ServiceUnavailableError: nats: ServiceUnavailableError: code=None err_code=None description='None'"),
			"ERROR dynamo_llm::kv_router: nats: ServiceUnavailableError",
		},
		miss: []string{
			"ERROR dynamo_runtime: nats: connection closed",
		},
	},
	"dynamo-no-instances-for-endpoint": {
		match: []string{
			"ERROR chat_completions: dynamo_llm::http::service::openai: Internal server error: Failed to generate completions: no instances found for endpoint \"instances/dynamo/Frontend/chat/completions\"",
			"Error: no instances found for endpoint dynamo/backend/generate",
		},
		miss: []string{
			"INFO dynamo_runtime::component::client: 2 instances found for endpoint dynamo/backend/generate",
		},
	},
	"cuda-invalid-argument": {
		match: []string{
			tb("RuntimeError: CUDA error: invalid argument"),
			"RuntimeError: CUDA driver error: invalid argument",
			"RuntimeError: CUDA error: invalid device pointer",
			"terminate called after throwing an instance of 'c10::Error'\n  what():  CUDA error: invalid argument",
			// The custom all-reduce CUDACHECK of vLLM and sglang, old and new.
			"```Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:364 'invalid argument'",
			"(VllmWorker TP1 pid=3312) Failed: /home/runner/work/vllm/vllm/csrc/custom_all_reduce.cuh:310 'invalid argument'",
			"[2025-03-02 10:11:12 TP3] Failed: Cuda error /sgl-workspace/sglang/sgl-kernel/csrc/allreduce/custom_all_reduce.cuh:307 'invalid device pointer'",
		},
		miss: []string{
			// Another CUDA error in the same CUDACHECK, and a "Failed:" line
			// naming a file that is no CUDA source.
			"Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:364 'invalid resource handle'",
			"Failed: /etc/app/config.yaml:12 'invalid argument'",
			// NCCL's own report of the same CUDA error is nccl-cuda-failure's.
			"node-0:412:412 [3] NCCL WARN Cuda failure 'invalid argument'",
			tb("RuntimeError: NCCL error: invalid argument (run with NCCL_DEBUG=WARN for details)"),
			"RuntimeError: Triton Error [CUDA]: invalid argument",
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
	"nccl-remote-process-exited": {
		match: []string{
			"node-1:2288:2597 [1] proxy.cc:1874 NCCL WARN [Service thread] Could not receive type from localRank 3, res=3, closed=0",
		},
		miss: []string{
			"node-1:2288:2597 [1] NCCL WARN [Service thread] Error encountered progressing operation=Connect, res=3, closing connection",
		},
	},
	"nixl-remote-metadata-failed": {
		match: []string{
			"E0612 09:14:02.118312 44012 nixl_agent.cpp:640] makeConnection: metadata for remote agent 'prefill_3' not found",
		},
	},
	"nixl-remote-disconnect": {
		match: []string{
			"E0612 09:14:02.118312 44012 nixl_agent.cpp:1050] postXferReq: invalid request handle, remote agent was invalidated after the request was created",
		},
	},
	"grammar-invalid-json-schema": {
		miss: []string{
			"[11:16:07] /workspace/cpp/json_schema_converter.cc:765: Warning: Keyword contentEncoding is not supported",
		},
	},
	"mooncake-master-unreachable": {
		match: []string{
			"E0606 09:39:00.285498   382 master_client.cpp:416] Batch RPC call failed: End of file",
			"E0606 09:39:00.285498   382 master_client.cpp:370] RPC call failed: Connection refused",
			"E0606 09:39:00.285498   382 master_client.cpp:367] RPC call timed out: Timed out",
			"E0606 09:39:00.285537   382 client.cpp:323] Failed to start put operation: RPC_FAIL",
			"E0606 09:39:00.285573   382 real_client.cpp:2176] Put operation failed with error: RPC_TIMEOUT",
			"E0606 09:39:00.285498   382 master_client.cpp:361] Client not available",
			"E0606 09:39:00.285537   382 client.cpp:323] Failed to start batch put operation: RPC_FAIL",
		},
		miss: []string{
			"Batch RPC call failed: Expected DiskDescriptor",
			"E0606 09:39:00.285573   382 real_client.cpp:2176] Put operation failed with error: OBJECT_ALREADY_EXISTS",
			"Client not available, retrying",
			"E0905 14:46:37.882738 15817 master_client.cpp:370] RPC call failed: invalid rpc arg",
		},
	},
	"nixl-ucx-backend-create-failed": {
		match: []string{
			"E0612 09:14:02.118312 44012 nixl_agent.cpp:342] UCX library does not support multi-threading",
			"2025-05-16T04:56:18.119Z ERROR engine.run_mp_engine: NIXL_ERR_BACKEND",
		},
		miss: []string{
			"E0612 09:14:02.118312 44012 conn.py:412] transfer status NIXL_ERR_BACKEND for request 12, retrying",
		},
	},
	"nccl-duplicate-gpu": {
		match: []string{
			"node-1:2288:2288 [1] init.cc:1057 NCCL WARN Multiple Ranks are using the same GPU/Partition. Set NCCL_MULTI_RANK_GPU_ENABLE=1 to enable this configuration.",
		},
	},
	"mooncake-store-allocation-failed": {
		match: []string{
			"E0606 09:39:00.285573   382 real_client.cpp:2176] Put operation failed with error: NO_AVAILABLE_HANDLE",
			"E0414 11:10:42.514200 18822 client.cpp:170] Failed to start batch put operation: NO_AVAILABLE_HANDLE",
		},
		miss: []string{
			"E0606 09:39:00.285573   382 real_client.cpp:2176] Put operation failed with error: OBJECT_ALREADY_EXISTS",
		},
	},
	"mooncake-store-version-mismatch": {
		match: []string{
			"E0905 14:46:37.882738 15817 master_client.cpp:370] RPC call failed: invalid rpc arg",
			"E0905 14:46:37.882738 15817 master_client.cpp:136] Failed to start put operation: invalid rpc arg",
		},
	},
	"mooncake-store-client-setup-failed": {
		match: []string{
			"E0417 19:46:42.567034   481 store_py.cpp:191] Failed to mount segment: UNKNOWN_ERROR",
		},
	},
	"mooncake-memory-registration-failed": {
		match: []string{
			tb("RuntimeError: Failed to register buffer to Mooncake Store, error code: -1"),
			// The Ascend direct transport's registration through ADXL, in
			// its releases' wordings, and its batch registration.
			"E0805 09:42:09.763501 80495 ascend_direct_transport.cpp:460] Register mem ret:103900.",
			"E0805 09:42:09.763501 80495 transfer_executor_base.cpp:388] Register mem ret: 103900, errmsg: EI9999: Inner Error!",
			"E0805 09:42:09.763501 80495 ascend_direct_transport.cpp:402] adxl_ret:103900.",
			"E0805 09:42:09.763510 80495 ascend_direct_transport.cpp:431] Failed to register memory in batch, addr: 0x12da7ea00000",
		},
		miss: []string{
			"I0805 09:42:09.763325 80495 ascend_direct_transport.cpp:444] AscendDirectTransport register mem addr:0x12da7ea00000, length:183369728, location:, mem type:0",
			"I0805 09:42:09.763325 80495 ascend_direct_transport.cpp:86] Deregistered memory at address 0x12da7ea00000",
		},
	},
	"mooncake-store-client-not-initialized": {
		match: []string{
			tb("RuntimeError: Mooncake store is not initialized."),
		},
	},
	"router-worker-health-check-failed": {
		match: []string{
			"2026-05-28T00:11:09.123456Z  WARN smg::worker: HTTP health check returned non-success status for http://10.0.0.7:30000: 503 Service Unavailable",
			"2026-05-28T00:11:09.123456Z  WARN smg::worker: gRPC health timed out for grpc://10.0.0.7:31001",
		},
		miss: []string{
			"2026-05-28T00:11:09.123456Z  INFO smg::worker: HTTP health check succeeded for http://10.0.0.7:30000",
		},
	},

	"torch-memory-saver-invalid-request": {
		match: []string{
			"[torch_memory_saver.cpp] CUresult error  result=201 file=csrc/torch_memory_saver.cpp func=pause line=170",
			"[torch_memory_saver.cpp] hipError_t error  result=1 file=csrc/hardware_amd_support.cpp func=resume line=301",
		},
	},
	"torch-memory-saver-after-kernel-fault": {
		match: []string{
			"[torch_memory_saver.cpp] cudaError error: 700 (an illegal memory access was encountered)  file=csrc/core.cpp func=malloc line=52",
		},
	},
	"ucx-cuda-transports-unavailable": {
		match: []string{
			"[1760012233.104882] [node-7:5512:0]     ucp_context.c:1109 UCX  WARN  transports 'cuda_copy','gdr_copy' are not available, please use one or more of: mm, posix, self, sm, sysv, tcp",
		},
	},
	"ucx-requested-resource-unavailable": {
		match: []string{
			"ucp_context.c:969  UCX  WARN  transports 'rc_mlx5' are not available, please use one or more of: ib, posix, rc_verbs, self, tcp",
			"[1760012233.104882] [node-7:5512:0]     ucp_context.c:1122 UCX  WARN  network devices 'mlx5_9:1' are not available, please use one or more of: 'eth0'(tcp), 'lo'(tcp), 'mlx5_0:1'(ib)",
		},
		miss: []string{
			"[1760012233.104882] [node-7:5512:0]     ucp_context.c:1109 UCX  INFO  transports 'cuda_copy','rc_mlx5' selected",
		},
	},
	"mooncake-target-segment-unknown": {
		match: []string{
			"W0114 02:43:32.390785 47811 transfer_metadata.cpp:500] Failed to retrieve segment descriptor, name 10.63.64.227:12811",
		},
	},
	"mooncake-store-transfer-failed": {
		match: []string{
			"E0114 02:43:32.390794 47811 client_service.cpp:1729] Failed to submit transfer operation",
			"E0114 02:43:32.390794 47811 client_service.cpp:1541] Failed to submit transfer operation for key: 7f3a_0_k",
		},
	},
}

func init() { addExamples(libraryExamples, widenedLibraryExamples) }

// TestRoutineLibraryLinesDoNotAlert feeds routine lines the libraries print
// at warning or error level (an InfiniBand connection established, a
// duplicate put, an ignored schema keyword) through the assembler and the
// analysis with the whole catalog: none is a failure, because an info
// record names each.
func TestRoutineLibraryLinesDoNotAlert(t *testing.T) {
	checkRoutineSilent(t, compileCatalog(t), []string{
		"gpu-3:4012:4190 [0] NCCL WARN NET/IB : mlx5_0:1 Got non-fatal async event: port active(9)",
		"node-2:811:902 [5] NCCL WARN NET/IB : Got async event : communication established",
		"W1213 02:57:10.528410  5811 worker_pool.cpp:1014] Worker: Received context async event communication established for context mlx5_2",
		"E0312 10:22:01.771233 5512 real_client.cpp:2176] Put operation failed with error: OBJECT_ALREADY_EXISTS",
		"[11:16:07] /workspace/cpp/json_schema_converter.cc:765: Warning: Keyword contentEncoding is not supported",
		"[11:16:07] /project/cpp/json_schema_converter.cc:1052: Warning: multipleOf is not supported for type:number; ignoring multipleOf",
		"W0612 09:14:02.118312 44012 ucx_utils.cpp:424] UCX version is 1.17.0 which is less than 1.19, CUDA support is limited, including the lack of support for multi-GPU within a single process.",
	})
}

// TestLibraryRanking checks that a library's specific record leads over the
// generic one that also matches its line: DeepEP's named assertions over
// its host-check record, the NCCL proxy's own record over the peer-exit
// consequence, each torch_memory_saver result class over the catch-all.
func TestLibraryRanking(t *testing.T) {
	checkRanking(t, compileCatalog(t), []rankCase{
		{tb("RuntimeError: Failed: Assertion error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:1483 'num_experts % num_ranks == 0'"), "deepep-experts-not-divisible"},
		{tb("RuntimeError: Failed: Assertion error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:1503 'layout.total_bytes <= num_rdma_bytes'"), "deepep-buffer-size-invalid"},
		{"<cluster_name>:922:1158 [3] proxy.cc:1485 NCCL WARN [Service thread] Error encountered progressing operation=Connect, res=2, closing connection", "nccl-proxy-operation-failed"},
		{"(WorkerDict pid=1143757) [torch_memory_saver.cpp] CUresult error  result=1 file=csrc/torch_memory_saver.cpp func=resume line=206", "torch-memory-saver-invalid-request"},
		{"[torch_memory_saver.cpp] CUresult error: 2 (out of memory)  file=csrc/core.cpp func=resume line=210", "torch-memory-saver-resume-oom"},
		{"Batch RPC call failed: Expected DiskDescriptor", "mooncake-store-replica-descriptor-mismatch"},
		{"[11:16:07] /workspace/cpp/json_schema_converter.cc:765: Warning: Keyword contentEncoding is not supported", "xgrammar-warning-routine"},
	})
}

// TestResultCodeFamiliesPartition composes the lines of the libraries that
// print a numeric result (torch_memory_saver's CUresult and cudaError
// checks in both of its formats, torch_npu's HCCL calls) for every code,
// and checks that exactly one record of the family claims each line: the
// classes split the codes between them, with a catch-all for the rest, so
// no code is silent and none is read twice. torch_npu's calls that build
// the communicator are one record whatever the code; its other calls split
// by code class.
func TestResultCodeFamiliesPartition(t *testing.T) {
	recs := curated(t)
	family := func(slugs ...string) map[string]*regexp2.Regexp {
		out := map[string]*regexp2.Regexp{}
		for _, r := range recs {
			for _, s := range slugs {
				if r.Slug == s {
					re := compile(t, r)
					// Thousands of lines are matched here on a shared
					// machine: a starved run must not read as a
					// backtracking pattern (the matcher retries those).
					re.MatchTimeout = time.Minute
					out[s] = re
				}
			}
		}
		if len(out) != len(slugs) {
			t.Fatalf("family %v: found %d records", slugs, len(out))
		}
		return out
	}
	claims := func(fam map[string]*regexp2.Regexp, line string) []string {
		var got []string
		for slug, re := range fam {
			if matches(t, re, line) {
				got = append(got, slug)
			}
		}
		return got
	}
	tms := family("torch-memory-saver-resume-oom", "torch-memory-saver-invalid-request", "torch-memory-saver-vmm-unavailable",
		"torch-memory-saver-after-kernel-fault", "torch-memory-saver-cuda-error")
	for code := 1; code <= 1000; code++ {
		for _, f := range []string{
			"[torch_memory_saver.cpp] CUresult error: %d (some reason)  file=csrc/core.cpp func=%s line=210",
			"[torch_memory_saver.cpp] CUresult error  result=%d file=csrc/torch_memory_saver.cpp func=%s line=206",
			"[torch_memory_saver.cpp] cudaError error: %d (some reason)  file=csrc/core.cpp func=%s line=172",
			"[torch_memory_saver.cpp] hipError_t error  result=%d file=csrc/hardware_amd_support.cpp func=%s line=301",
		} {
			for _, fn := range []string{"resume", "cu_mem_create", "cu_mem_unmap"} {
				line := fmt.Sprintf(f, code, fn)
				if got := claims(tms, line); len(got) != 1 {
					t.Errorf("%q: claimed by %v, want exactly one torch_memory_saver record", line, got)
				}
			}
		}
	}
	hccl := family("hccl-connect-failed", "hccl-call-failed", "hccl-comm-init-failed")
	for code := 1; code <= 30; code++ {
		for _, call := range []string{
			"HcclAllReduce(input, output, count, dtype, op, comm, stream)",
			"HcclCommInitRootInfo(numRanks, &rootInfo, rank, &(comm->hcclComm_))",
			"HcclGetRootInfo(&hcclID)",
		} {
			line := fmt.Sprintf("RuntimeError: op:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:89 HCCL function error: %s, error code is %d", call, code)
			if got := claims(hccl, line); len(got) != 1 {
				t.Errorf("%q: claimed by %v, want exactly one HCCL record", line, got)
			}
		}
	}
}
