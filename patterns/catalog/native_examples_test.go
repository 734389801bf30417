package catalog_test

import (
	"strings"
	"testing"
)

// Examples of the records for native and third-party libraries that print
// under a serving engine (NVSHMEM, Mooncake, NCCL, CUDA, the Hugging Face
// Hub, JIT compilers, NIXL): each record's whole message set as the
// libraries print it, one line per wording, and the routine lines around
// them that must not match. TestExamples reads them through examples.

// nativeExamples holds the records this file introduces.
var nativeExamples = map[string]example{
	"deepgemm-jit-too-many-kernels": {
		match: []string{
			rawTB("AssertionError: Too many kernels in the library: ['_ZN9deep_gemm15fp8_gemm_kernelILj2816ELj256ELj128ELj160ELj128ELj0ELj64ELj64ELj2ELj128ELj128ELj1ELb0ELNS_8GemmTypeE1EEEvPfPij14CUtensorMap_stS4_S4_S4_', '__assertfail']"),
			"    assert len(kernel_names) == 1, f'Too many kernels in the library: {kernel_names}'\nAssertionError: Too many kernels in the library: ['_ZN9deep_gemm15fp8_gemm_kernelILj4096E', '__assertfail']",
		},
		miss: []string{
			"DeepGEMM JIT: 2 kernels in the library cache, 0 to build",
			"Too many kernels in the library cache; evicting the oldest",
		},
	},
	"rocblas-tensile-library-missing": {
		match: []string{
			"rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: Illegal seek for GPU arch : gfx1201",
			// Older releases, and the message wrapped before its path.
			"rocBLAS error: Cannot read /opt/rocm-5.4.0/lib/rocblas/library/TensileLibrary.dat: Illegal seek",
			"rocBLAS error: Cannot read",
			"[2025-06-02 10:14:07 TP0] rocBLAS error: Cannot read /usr/local/lib/python3.12/dist-packages/torch/lib/rocblas/library/TensileLibrary.dat: No such file or directory",
		},
		miss: []string{
			" List of available TensileLibrary Files :",
			"\"/opt/rocm/lib/rocblas/library/TensileLibrary_lazy_gfx942.dat\"",
			"rocBLAS warning: hipBlasLT failed, falling back to tensile.",
			"rocblas-bench: Cannot read the YAML file, using the command line",
		},
	},
	"npu-set-device-failed": {
		match: []string{
			"RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:146 NPU function error: c10_npu::SetDevice(device_id_), error code is 507033",
			"RuntimeError: Initialize:torch_npu/csrc/core/npu/sys_ctrl/npu_sys_ctrl.cpp:146 NPU function error: c10_npu::SetDevice(device_id_), error code is 507033",
			"RuntimeError: init:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:292 NPU function error: aclrtGetDeviceCount(&device_count), error code is 207004",
		},
		miss: []string{
			"RuntimeError: arange_out_op_api:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:96 NPU function error: call aclnnArange failed, error code is 561103",
			"[INFO] acl set device 0 success",
		},
	},
	"nvshmem-bootstrap-failed": {
		match: []string{
			"/sgl-workspace/nvshmem/src/modules/bootstrap/uid/bootstrap_uid.cpp:bootstrap_net_recv:99: Message truncated : received 36 bytes instead of 1",
			"/opt/nvshmem/src/host/topo/topo.cpp:526: non-zero status: -3 allgather of ipc handles failed ",
			"/opt/nvshmem/src/host/init/init.cu:412: non-zero status: 7 allgather of host hashes failed",
			"bootstrap_uid.cpp:bootstrap_uid_init:731: UID Bootstrap versions not compatible between PEs",
			"bootstrap_uid.cpp:nvshmemi_bootstrap_plugin_init:670: UID Bootstrap Init Failed due to prior pre init failures",
			"bootstrap_uid.cpp:nvshmemi_bootstrap_plugin_pre_init:626: UID bootstrap version (30000) is not compatible with NVSHMEM version (30100)",
			"/opt/nvshmem/src/host/init/init.cu:nvshmemi_bootstrap_preinit:203: bootstrap_preinit failed ",
			"/opt/nvshmem/src/host/bootstrap/bootstrap.cpp:118: non-zero status: 7 bootstrap_loader_init returned error for mode UID",
			"/opt/nvshmem/src/host/init/init.cu:930: non-zero status: 7 nvshmem_bootstrap failed ",
			"/opt/nvshmem/src/host/init/init.cu:nvshmemx_get_uniqueid:1105: bootstrap get unique ID failed ",
			"bootstrap_uid.cpp:bootstrap_root:234: mismatch in rank count from procs 16 : 8",
			"bootstrap_uid.cpp:bootstrap_root:240: rank 3 of 16 ranks has already checked in",
			"bootstrap_uid.cpp:bootstrap_uid_preinit:139: Invalid NVSHMEM_BOOTSTRAP_UID_SESSION_ID, please use format: <ipv4>:<port> or [<ipv6>]:<port>",
			"bootstrap_uid.cpp:bootstrap_net_init:148: No usable listening interface found",
			"/opt/nvshmem/src/host/bootstrap/bootstrap_loader.cpp:84: Bootstrap unable to load 'nvshmem_bootstrap_uid.so.3'",
		},
		miss: []string{
			"bootstrap_uid.cpp:bootstrap_uid_allgather:480: rank 0 nranks 16 size 8",
			"UID bootstrap network is being initialized using: eth0:10.0.0.2<0>",
			hdr("NVSHMEM bootstrap finished, DeepEP buffer allocated: 2115.11 MB"),
			"NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>",
		},
	},
	"nvshmem-init-failed": {
		match: []string{
			"/sgl-workspace/nvshmem/src/host/init/init.cu:nvshmemi_check_state_and_init:1080: nvshmem initialization failed, exiting",
			"/sgl-workspace/nvshmem/src/host/team/team.cu:nvshmem_team_split_strided:63: NVSHMEM API called before NVSHMEM initialization has completed",
			"/opt/nvshmem/src/host/init/init.cu:1024: non-zero status: 7 nvshmem transport init failed ",
			"init.cu:nvshmemx_init_status:44: nvshmem API called before nvshmem_init ",
		},
		miss: []string{
			hdr("NVSHMEM initialization has completed, DeepEP buffer allocated: 2115.11 MB"),
			"NVSHMEM_DEBUG=INFO nvshmem init done",
		},
	},
	"nvshmem-transport-runtime-error": {
		match: []string{
			"/opt/nvshmem/src/modules/transport/ibrc/ibrc.cpp:1072: non-zero status: 12 ibv_poll_cq failed, status: 12",
			"/opt/nvshmem/src/modules/transport/ibrc/ibrc.cpp:1125: non-zero status: 7 check_poll failed ",
			"/opt/nvshmem/src/modules/transport/ibgda/ibgda.cpp:2210: non-zero status: 7 progress_send failed, outstanding_count: 12",
			"/opt/nvshmem/src/modules/transport/ucx/ucx.cpp:615: non-zero status: 7 UCX send request completed with error.",
			"/opt/nvshmem/src/host/proxy/proxy.cpp:870: non-zero status: 7 error in progress_transport ",
		},
		miss: []string{
			"ibv_poll_cq returned 0 completions",
			"NVSHMEM_IB_ENABLE_IBGDA=1 transport progress thread started",
		},
	},
	"mooncake-store-no-storage-dir": {
		match: []string{
			"E0925 00:24:39.141773  4418 client.cpp:353] Failed to get fsdir from master",
			"E1203 10:02:11.003412 77102 client_service.cpp:1042] Failed to get storage config from master",
		},
		miss: []string{
			"I0925 00:24:39.141781  4418 client.cpp:1050] Storage root directory is not set. persisting data is disabled.",
			"E0925 00:24:39.141773  4418 client.cpp:666] Failed to connect to master",
		},
	},
	"mooncake-master-unreachable": {
		match: []string{
			"E0925 00:24:39.141773  4418 client_service.cpp:666] Failed to connect to master",
			"E0925 00:25:01.004411  4418 client_service.cpp:4886] Failed to connect to master 10.0.0.5:50051: RPC_FAIL",
			"E0925 00:24:39.141773  4418 client_service.cpp:659] No master is available in HA backend",
			"E0925 00:30:17.441998  4502 client_service.cpp:4897] Failed to ping master for 3 times (non-HA); reconnecting to 10.0.0.5:50051",
			"E0925 00:30:17.442113  4502 client_service.cpp:4902] Reconnect failed to 10.0.0.5:50051",
			"E0925 00:30:17.442113  4502 client_service.cpp:3544] mount_segment_to_master_failed base=0x7f3a00000000 size=4294967296",
			"E0305 14:20:51.612034  3301 master_client.cpp:151] RPC call failed: Connection refused",
			"E0305 14:20:51.612034  3301 master_client.cpp:203] Batch RPC call failed: Connection timed out",
			"E0305 14:20:51.612034  3301 master_client.cpp:143] Client not available",
		},
		miss: []string{
			"I0925 00:24:39.140945  4418 master_client.cpp:214] Connecting to master at 10.32.5.183:50051 from mooncake::ErrorCode mooncake::MasterClient::Connect(const string&)",
			"I0925 00:30:20.000100  4502 client_service.cpp:4890] Reconnected to master 10.0.0.5:50051",
			// A single missed ping is routine; the client counts them.
			"E0925 00:30:12.441803  4502 client_service.cpp:4857] Failed to ping master",
			// Another component's RPC failure is not the master's.
			"E0305 14:20:51.612034  3301 transfer_metadata.cpp:330] RPC call failed: Connection refused",
		},
	},
	"mooncake-master-ping-missed": {
		match: []string{
			"E0925 00:30:12.441803  4502 client_service.cpp:4857] Failed to ping master",
			"E0925 00:30:12.441803  4502 client.cpp:1612] Failed to ping master ",
		},
		miss: []string{
			"E0925 00:30:17.441998  4502 client_service.cpp:4897] Failed to ping master for 3 times (non-HA); reconnecting to 10.0.0.5:50051",
		},
	},
	"mooncake-store-client-setup-failed": {
		match: []string{
			"E1203 10:02:13.551901 77102 real_client.cpp:865] Failed to create client after 20 retries",
			"E1203 10:02:13.551901 77102 real_client.cpp:811] Failed to create client",
			"E1203 10:02:14.100233 77102 real_client.cpp:927] Failed to mount segment: NO_AVAILABLE_HANDLE",
			"E1203 10:02:14.100233 77102 real_client.cpp:1060] Failed to allocate segment memory",
		},
		miss: []string{
			"W1203 10:02:12.001901 77102 real_client.cpp:858] Failed to create client on port 17813, retry 1/20",
			"W1203 10:02:12.001901 77102 real_client.cpp:834] Failed to bind available port, retry 1/20",
		},
	},
	"mooncake-rdma-device-open-failed": {
		match: []string{
			"E0115 05:20:19.945159   309 rdma_context.cpp:81] Failed to open device mlx5_8 on port  with GID 0",
			"E0115 05:20:19.945191   309 rdma_transport.cpp:662] RdmaTransport: No available RNIC",
			"E0115 05:20:19.945191   309 rdma_context.cpp:96] Failed to allocate new protection domain on device mlx5_2",
			"E0115 05:20:19.945191   309 rdma_context.cpp:104] Failed to create completion channel on device mlx5_2: Cannot allocate memory [12]",
		},
		miss: []string{
			"W0115 05:20:19.944772   309 rdma_context.cpp:588] User-specified GID index 0 on mlx5_8/ has no associated network device, may not be optimal for RDMA operations",
			"I0115 05:20:19.917309   309 transfer_engine_impl.cpp:232] Topology discovery complete. Found 1 HCAs.",
		},
	},
	"nccl-internal-error": {
		match: []string{
			tb("RuntimeError: NCCL Error 3: internal error - please report this issue to the NCCL developers"),
			"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, internal error - please report this issue to the NCCL developers, NCCL version 2.21.5",
			"Failed: NCCL error /workspace/csrc/deep_ep.cpp:212 'ncclInternalError'",
		},
		miss: []string{
			"RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)",
			"NCCL INFO Using internal network plugin.",
		},
	},
	"nccl-ib-completion-error": {
		match: []string{
			"node-3:2288:2597 [1] NCCL WARN NET/IB : Got completion from peer 10.10.1.4<48392> with error 12, opcode 0, len 0, vendor err 129 (Recv) localGid ::ffff:10.10.1.3 remoteGids::ffff:10.10.1.4 hca mlx5_1",
			"node-3:2288:2597 [1] NCCL WARN NET/IB: Got completion from peer 10.10.1.4<48392> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) vendor_err=129 localGid fe80::1 remoteGids fe80::2 hca mlx5_1",
			// NCCL 2.x releases before the peer was named, with '.cu' sources.
			"node-3:2288:2597 [1] transport/net_ib.cu:788 NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129",
			"node-3:2288:2597 [1] NCCL WARN NET/IB : Got completion with error 5, opcode 32767, len 0, vendor err 249",
			// The net plugins that copy NCCL's IB transport print it under
			// their own name: the SHARP plugin's IBext, NCCL's GIN path,
			// other vendors' plugins, some without a space around the colon.
			"node-3:2288:2597 [1] NCCL WARN NET/IBext : Got completion from peer 10.10.1.4<48392> with error 12, opcode 129, len 0, vendor err 129 (Recv)",
			"node-3:2288:2597 [1] NCCL WARN NET/IBext_v8 : Got completion from peer 10.10.1.4<48392> with status=12 opcode=0 len=0 vendor err 129 (Send)",
			"node-3:2288:2597 [1] NCCL WARN NET/IB/GIN: Got completion from peer 10.10.1.4<48392> with status=5 opcode=0 len=0 vendor err 249 (Send) hca mlx5_0",
			"the test script fails with NET/IBP:Got completion from peer 7.6.13.8<36315> with status=12 opcode=32698 len=32696 vendor err 129 (Send)",
			"node-3:2288:2597 [1] NCCL WARN NET/FuseLink : Got completion from peer 10.10.1.4<48392> with error 12, wr_id 3, dev 0, comm 0x7f, opcode 0, len 0, vendor err 129 (Send)",
		},
		miss: []string{
			"node-3:2288:2288 [1] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB eth0:10.10.1.3<0>",
			"node-3:2288:2288 [1] NCCL INFO NET/IBext_v8 : Using [0]mlx5_0:1/IB ; OOB eth0:10.10.1.3<0>",
			"node-3:2288:2288 [1] NCCL INFO NET/Socket : Using [0]eth0:10.10.1.3<0>",
			"node-3:2288:2597 [1] NCCL INFO NET/IB : Got completion with opcode 1, len 0",
		},
	},
	// aws-ofi-nccl finding no EFA provider, in three releases' words
	// (aws/aws-ofi-nccl#1020, aws/aws-ofi-nccl#67,
	// aws/deep-learning-containers#2675).
	"nccl-ofi-no-efa-provider": {
		match: []string{
			"[2025-10-16 22:16:08] ip-172-31-3-90:1929:1937 [0] nccl_net_ofi_rdma_init:7978 NCCL WARN NET/OFI OFI fi_getinfo() call failed: No data available",
			"10.3.35.83: WARN: Function: find_ofi_provider Line: 543: NET/OFI Couldn't find any optimal provider",
			"NCCL WARN NET/OFI Only EFA provider is supported",
		},
		miss: []string{
			"algo-1:462:462 [0] NCCL INFO NET/OFI Selected Provider is efa",
			"algo-1:462:462 [0] NCCL INFO NET/OFI Using aws-ofi-nccl 1.3.0aws",
			"libfabric:85:1747438790::core:core:fi_getinfo_():1392<warn> fi_getinfo: provider shm returned -61 (No data available)",
		},
	},
	"nccl-ib-verbs-call-failed": {
		match: []string{
			"node-1:312:401 [0] NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory",
			"node-1:312:401 [0] NCCL WARN Call to ibv_poll_cq() returned -1",
			"node-1:312:401 [0] NCCL WARN Call to ibv_create_cq failed",
			"node-1:312:401 [0] NCCL WARN Call to ibv_set_ece failed with error Invalid argument errno 22",
		},
		miss: []string{
			"node-1:312:312 [0] NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'",
			// ECE a device does not support: NCCL connects without it.
			"node-1:312:401 [0] NCCL INFO Call to ibv_set_ece failed with error Operation not supported errno 95",
			"node-1:312:401 [0] NCCL INFO Call to ibv_query_ece failed with error Operation not supported errno 95",
			// A queue pair that cannot be brought up is its own record.
			"node-1:312:401 [0] NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx5_0:1, curr state INIT, next state RTR, local GID index 3, local GID ::ffff:10.0.0.1, remote GID ::ffff:10.0.0.2",
		},
	},
	"nccl-ib-modify-qp-failed": {
		match: []string{
			"node-1:312:401 [0] NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx5_0:1, curr state INIT, next state RTR, local GID index 3, local GID ::ffff:10.0.0.1, remote GID ::ffff:10.0.0.2",
			"[2026-03-13 22:26:02] host-01:4242 [5] ibvwrap.c:262 NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx5_4:1, curr state INIT, next state RTR, local GID index 3",
			// NCCL releases before the state-naming message.
			"gpu-7:1880:2011 [2] NCCL WARN Call to ibv_modify_qp failed with error Invalid argument",
		},
		miss: []string{
			// NCCL's own retries are INFO lines; only the last failure counts.
			"node-1:312:401 [0] NCCL INFO Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx5_0:1, curr state INIT, next state RTR, local GID index 3, local GID ::ffff:10.0.0.1, remote GID ::ffff:10.0.0.2, retrying 1/3 after 1000 msec of sleep",
			"node-1:312:401 [0] NCCL INFO NET/IB: HINT: To confirm, you can set NCCL_CROSS_NIC=0 to disable cross-rail communication.",
			// NVSHMEM's own step name, which is NVSHMEM's record.
			"/opt/nvshmem/src/modules/transport/ibrc/ibrc.cpp:401: non-zero status: 110 ibv_modify_qp failed ",
		},
	},
	"nccl-socket-connect-failed": {
		match: []string{
			"worker-0:81:1043 [0] NCCL WARN socketStartConnect: Connect to 10.233.64.12<45771> failed : Software caused connection abort",
			"worker-0:81:1043 [0] NCCL WARN socketPollConnect: connect to 10.233.64.12<45771> returned Connection refused, exceeded error retry count (35)",
			"worker-0:81:1043 [0] NCCL WARN socketPollConnect: exceeded timeouts (20)",
			"worker-0:81:1043 [0] NCCL WARN ncclOsSocketPollConnect to 10.233.64.12<45771> failed with error Connection timed out",
		},
		miss: []string{
			"worker-0:81:81 [0] NCCL INFO Call to connect returned Connection refused, retrying",
			"worker-0:81:81 [0] NCCL INFO Bootstrap : Using eth0:10.233.64.11<0>",
		},
	},
	"nccl-no-network-interface": {
		match: []string{
			"worker-0:81:81 [0] NCCL WARN Bootstrap : no socket interface found",
			"worker-0:81:81 [0] NCCL WARN NET/Socket : No usable listening interface found",
			"worker-0:81:81 [0] NCCL WARN no device found matching eth9, verify NCCL_OOB_NET_IFNAME",
			"worker-0:81:81 [0] NCCL WARN Net : No interface found in the same subnet as remote address 10.1.0.7<29500>",
		},
		miss: []string{
			"worker-0:81:81 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0",
		},
	},
	"nccl-duplicate-gpu": {
		match: []string{
			"h100-7:3321:3321 [0] NCCL WARN Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1d000",
			"[rank1]: h100-7:3321:3321 [0] init.cc:871 NCCL WARN Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 18000",
		},
		miss: []string{
			"h100-7:3321:3321 [0] NCCL INFO comm 0x5612 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 1d000 commId 0x2f - Init COMPLETE",
		},
	},
	"cuda-invalid-device-ordinal": {
		match: []string{
			tb("RuntimeError: CUDA error: invalid device ordinal"),
			"torch.AcceleratorError: CUDA error: invalid device ordinal\nGPU device may be out of range, do you have enough GPUs?",
			"node-0:412:412 [3] NCCL WARN Cuda failure 'invalid device ordinal'",
			"cudaErrorInvalidDevice: invalid device ordinal",
			"CUresult error CUDA_ERROR_INVALID_DEVICE at cuCtxGetDevice",
		},
		miss: []string{
			hdr("Init torch distributed begin. device ordinal 3"),
		},
	},
	"cuda-devices-busy-or-unavailable": {
		match: []string{
			tb("RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable"),
			"node-2:55:55 [0] NCCL WARN Cuda failure 'CUDA-capable device(s) is/are busy or unavailable'",
			"cudaErrorDevicesUnavailable",
		},
		miss: []string{
			hdr("Waiting for the CUDA device to become available"),
		},
	},
	"cuda-driver-mismatch": {
		match: []string{
			"RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 803: system has unsupported display driver / cuda driver combination",
			tb("RuntimeError: CUDA error: forward compatibility was attempted on non supported HW"),
			"RuntimeError: CUDA driver error: CUDA driver is a stub library",
			"cudaErrorSystemDriverMismatch",
			"CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
		},
		miss: []string{
			hdr("CUDA driver 570.86.15, runtime 12.8"),
		},
	},
	"cuda-system-not-ready": {
		match: []string{
			"RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 802: system not yet initialized",
			tb("RuntimeError: CUDA error: system not yet initialized"),
			"cudaErrorSystemNotReady",
		},
		miss: []string{
			"Fabric Manager: system not yet initialized by an administrator, see the setup guide",
			hdr("Memory pool not yet initialized, deferring"),
		},
	},
	"cuda-launch-out-of-resources": {
		match: []string{
			tb("RuntimeError: CUDA error: too many resources requested for launch"),
			"RuntimeError: Triton Error [CUDA]: too many resources requested for launch",
			"cudaErrorLaunchOutOfResources",
		},
		miss: []string{
			hdr("Requested launch resources: 128 threads per block"),
		},
	},
	"cuda-kernel-fault": {
		match: []string{
			tb("RuntimeError: CUDA error: an illegal instruction was encountered"),
			"RuntimeError: CUDA error: hardware stack error",
			"torch.AcceleratorError: CUDA error: invalid program counter",
			"RuntimeError: CUDA error: the launch timed out and was terminated",
			"Failed: CUDA error /workspace/DeepEP/csrc/kernels/internode.cu:1873 'cudaErrorIllegalInstruction'",
			"CUresult error CUDA_ERROR_LAUNCH_TIMEOUT",
		},
		miss: []string{
			hdr("Capture cuda graph end. Time elapsed: 12.4 s. Illegal instructions check disabled."),
			"[2026-05-28 00:11:09] Request timed out and was terminated by the client",
		},
	},
	"cuda-ptx-unsupported-toolchain": {
		match: []string{
			tb("RuntimeError: CUDA error: the provided PTX was compiled with an unsupported toolchain."),
			"RuntimeError: Triton Error [CUDA]: the provided PTX was compiled with an unsupported toolchain.",
			"RuntimeError: CUDA error: a PTX JIT compilation failed",
			"CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
			"cudaErrorJitCompilerNotFound",
		},
		miss: []string{
			hdr("Compiling PTX for sm_90a with toolchain 12.8"),
		},
	},
	"hf-hub-unreachable": {
		match: []string{
			"requests.exceptions.ConnectionError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /api/models/Qwen/Qwen3-8B/revision/main (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f>: Failed to establish a new connection: [Errno 101] Network is unreachable'))",
			"requests.exceptions.ReadTimeout: (ReadTimeoutError(\"HTTPSConnectionPool(host='cdn-lfs-us-1.hf.co', port=443): Read timed out. (read timeout=10)\"), '(Request ID: 2b1c)')",
			"huggingface_hub.errors.HfHubHTTPError: 504 Server Error: Gateway Time-out for url: https://huggingface.co/api/models/Qwen/Qwen3-8B/revision/main",
		},
		miss: []string{
			"HTTPSConnectionPool(host='pypi.org', port=443): Max retries exceeded with url: /simple/sglang/",
			// huggingface_hub's own fallback to a complete local cache.
			"Couldn't connect to the Hub: (MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /api/models/Qwen/Qwen3-8B/revision/main\")).",
			// Another host than the Hub's.
			"ConnectionError: Couldn't reach https://raw.githubusercontent.com/tatsu-lab/alpaca/main/alpaca_data.json (ConnectTimeout)",
		},
	},
	"hf-rate-limited": {
		match: []string{
			"huggingface_hub.errors.HfHubHTTPError: 429 Client Error: Too Many Requests for url: https://huggingface.co/api/models/deepseek-ai/DeepSeek-V3/tree/main?recursive=True&expand=False",
			"requests.exceptions.HTTPError: 429 Client Error: Too Many Requests for url: https://huggingface.co/Qwen/Qwen3-8B/resolve/main/config.json",
		},
		miss: []string{
			`[2026-05-28 00:11:09] INFO:     10.0.0.7:51234 - "POST /v1/chat/completions HTTP/1.1" 429 Too Many Requests`,
		},
	},
	"nvcc-unsupported-gpu-architecture": {
		match: []string{
			"nvcc fatal   : Unsupported gpu architecture 'compute_120a'",
			"nvcc fatal   : Unsupported gpu architecture 'sm_100a'",
			"nvcc fatal   : Value 'sm_120' is not defined for option 'gpu-architecture'",
		},
		miss: []string{
			"nvcc warning : The 'compute_35', 'compute_37' architectures are deprecated",
		},
	},
	"jit-compile-missing-header": {
		match: []string{
			"/root/.cache/flashinfer/0.6.4/90/generated/batch_prefill.cu:17:10: fatal error: cuda_fp8.h: No such file or directory",
			"/tmp/tmpa8x1/main.c:5:10: fatal error: Python.h: No such file or directory",
			"/usr/local/lib/python3.12/dist-packages/deep_gemm/include/deep_gemm/fp8_gemm.cuh:3:10: fatal error: cute/tensor.hpp: No such file or directory",
		},
		miss: []string{
			"FileNotFoundError: [Errno 2] No such file or directory: '/models/config.json'",
		},
	},
	"triton-compilation-error": {
		match: []string{
			tb("triton.compiler.errors.CompilationError: at 34:8:"),
			"CompilationError: at 12:4:\n    acc = tl.dot(a, b, acc)\n    ^",
		},
		miss: []string{
			hdr("Compilation of Triton kernels finished in 12.3 s"),
		},
	},
	"nixl-remote-disconnect": {
		match: []string{
			tb("nixl._bindings.nixlRemoteDisconnectError: NIXL_ERR_REMOTE_DISCONNECT"),
			"E0312 10:22:01.771233 5512 nixl_listener.cpp:311] Failed to send message to peer, disconnecting: Connection reset by peer",
			"E0312 10:22:01.771233 5512 nixl_listener.cpp:298] Failed to receive message from peer, disconnecting: EOF",
		},
		miss: []string{
			"I0312 10:22:01.771233 5512 nixl_agent.cpp:210] Disconnected from peer decode-0 after shutdown",
		},
	},
	"nixl-remote-metadata-failed": {
		match: []string{
			"E0312 10:22:01.771233 5512 nixl_agent.cpp:1402] Failed to load remote metadata for agent: prefill-0",
			"E0312 10:22:01.771233 5512 nixl_listener.cpp:530] Failed to fetch metadata from etcd for agent: decode-3",
			"E0312 10:22:01.771233 5512 nixl_agent.cpp:1288] Metadata for remote agent 'prefill-0' not found",
			"E0312 10:22:01.771233 5512 nixl_listener.cpp:602] Watch timed out for key: /nixl/agents/prefill-0",
		},
		miss: []string{
			"I0312 10:22:01.771233 5512 nixl_agent.cpp:1410] Loaded remote metadata for agent: prefill-0",
		},
	},
	"nixl-plugin-load-failed": {
		match: []string{
			"E0312 10:20:00.100233 5512 plugin_manager.cpp:212] Plugin initialization failed for UCX",
			"E0312 10:20:00.100233 5512 plugin_manager.cpp:220] Plugin API version mismatch for GDS: expected 5, got 4",
			"E0312 10:20:00.100233 5512 plugin_manager.cpp:190] Failed to find nixl_plugin_init in /opt/nixl/lib/plugins/libplugin_UCX.so",
			"E0312 10:20:00.100233 5512 plugin_manager.cpp:150] Plugin directory does not exist or is not readable: /opt/nixl/lib/plugins",
		},
		miss: []string{
			"I0312 10:20:00.100233 5512 plugin_manager.cpp:240] Loaded plugin UCX from /opt/nixl/lib/plugins",
		},
	},
}

// widenedExamples adds wordings to records the main examples already
// cover, for the messages of their library those examples leave out.
var widenedExamples = map[string]example{
	"nvshmem-connect-failed": {
		match: []string{
			"/opt/nvshmem/src/host/transport/transport.cpp:212: non-zero status: 7 transport devices (setup_connections) failed ",
			"/opt/nvshmem/src/host/transport/transport.cpp:160: init failed for transport: IBGDA",
			"/opt/nvshmem/src/host/transport/transport.cpp:175: Unable to initialize any transports. returning error.",
			"/opt/nvshmem/src/host/init/init.cu:1002: non-zero status: 7 building transport map failed ",
			"/opt/nvshmem/src/modules/transport/ibrc/ibrc.cpp:1588: non-zero status: 12 ibv_reg_mr failed ",
		},
		miss: []string{
			// NCCL's lines for the same verbs are NCCL's records.
			"[2026-03-13 22:26:02] host-01:4242 [5] ibvwrap.c:262 NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx5_4:1, curr state INIT, next state RTR",
			"node-1:312:401 [0] NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory",
			"/opt/nvshmem/src/modules/transport/ibrc/ibrc.cpp:1846: neither nv_peer_mem, or nvidia_peermem detected. Skipping transport.",
		},
	},
	"deepep-timeout": {
		match: []string{
			"Warning: DeepEP timeout for barrier, rank 3, dst_rank 11",
			"DeepEP RDMA sender coordinator timeout, channel: 2, IB: 1, nvl 4, dst IB: 0, tail: 17, remaining: 3",
			"DeepEP hybrid notify (scale-up reduction) timeout, scale-out: 1, scale-up: 7",
			"DeepEP combine (scale-out wait all) timeout, scale-out: 3/4, scale-up: 8/8, ",
			"DeepEP PP recv timeout, recv buffer is empty",
			"DeepEP NVLink barrier timeout, tag: 2, nvl: 5, thread: 0, ",
		},
		miss: []string{
			hdr("DeepEP timeout: 100s, low_latency_mode=True"),
			hdr("Using DeepEP low_latency mode with timeout 100s"),
		},
	},
	"mooncake-metadata-server-unreachable": {
		match: []string{
			"E0904 21:29:13.607991 31963 transfer_metadata_plugin.cpp:408] EtcdStoragePlugin: unable to get mooncake/ram/10.0.0.2:12516 from 10.0.0.9:2379: failed to connect to all addresses",
			"E0904 21:29:13.607991 31963 transfer_metadata_plugin.cpp:120] RedisStoragePlugin: unable to connect redis://10.0.0.9:6379: Connection refused",
			"E0904 21:29:13.607991 31963 transfer_metadata.cpp:182] Unable to create metadata storage plugin with conn string etcd://10.0.0.9:2379",
		},
	},
	"mooncake-connect-to-segment-failed": {
		match: []string{
			"E0904 21:29:13.608029 31963 transfer_metadata_plugin.cpp:984] SocketHandShakePlugin: connect()10.0.0.3:16921: Connection refused [111]",
			"E0904 21:29:13.608029 31963 transfer_metadata_plugin.cpp:1120] SocketHandShakePlugin: failed to receive metadata message, malformed json format: ",
		},
	},
	"mooncake-transfer-engine-init-failed": {
		match: []string{
			"E0904 21:29:13.608029 31963 rdma_transport.cpp:208] RdmaTransport: cannot initialize RDMA resources",
			"E0904 21:29:13.608029 31963 rdma_transport.cpp:214] Transfer engine cannot be initialized: cannot allocate local segment",
			"E0904 21:29:13.608029 31963 rdma_transport.cpp:221] RdmaTransport: cannot start handshake daemon",
			"E0904 21:29:13.608029 31963 multi_transport.cpp:201] Failed to install RDMA transport",
		},
	},
	"nccl-invalid-usage": {
		match: []string{
			"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, invalid usage, NCCL version 2.10.3",
			tb("RuntimeError: NCCL error: invalid argument (run with NCCL_DEBUG=WARN for details)"),
			"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, invalid argument (run with NCCL_DEBUG=WARN for details), NCCL version 2.21.5",
		},
	},
	"nccl-remote-process-exited": {
		match: []string{
			// Older NCCL releases' wordings of the socket layer ("Net :"), and
			// the recv/send failure newer releases return as a remote error.
			"a100-st-p4d24xlarge-22:183006:183181 [1] misc/socket.cc:538 NCCL WARN Net : Connection closed by remote peer node-2<47861>",
			"a100-st-p4d24xlarge-22:183006:183220 [1] misc/socket.cc:518 NCCL WARN Net : Call to recv from 10.200.84.247<58355> failed : Broken pipe",
			"node-1:2288:2597 [1] misc/socket.cc:61 NCCL WARN socketProgressOpt: Call to recv from 10.0.0.2<43012> failed : Connection reset by peer",
		},
		miss: []string{
			"node-1:2288:2597 [1] NCCL INFO misc/socket.cc:535 -> 6",
			"node-1:2288:2597 [1] NCCL INFO Call to connect returned Connection refused, retrying",
		},
	},
	"cuda-no-kernel-image": {
		match: []string{
			tb("RuntimeError: CUDA error: invalid device function"),
			"cudaErrorNoKernelImageForDevice",
			"CUresult error CUDA_ERROR_NO_BINARY_FOR_GPU at cuModuleLoadData",
			"node-0:412:412 [3] NCCL WARN Cuda failure 'invalid device function'",
		},
		miss: []string{tb("RuntimeError: HIP error: invalid device function")},
	},
	"hip-no-binary-for-gpu": {
		match: []string{
			tb("RuntimeError: HIP error: invalid device function"),
			// The HIP runtime's AMD_LOG_LEVEL line.
			":1:hip_fatbin.cpp           :694 : 2500313198684 us:  No compatible code objects found for: gfx942:sramecc+:xnack-, value of HIP_FORCE_SPIRV_CODEOBJECT: 0",
		},
		miss: []string{
			":3:hip_fatbin.cpp           :537 : 2500313198678 us:  Device name: amdgcn-amd-amdhsa--gfx942:sramecc+:xnack- Generic name: amdgcn-amd-amdhsa--gfx9-4-generic:sramecc+:xnack-",
		},
	},
	"cuda-illegal-memory-access": {
		match: []string{"CUresult error CUDA_ERROR_ILLEGAL_ADDRESS at cuStreamSynchronize", "hipErrorIllegalAddress"},
	},
	"cuda-device-side-assert": {
		match: []string{"CUresult error CUDA_ERROR_ASSERT at cuStreamSynchronize"},
	},
	"cuda-unspecified-launch-failure": {
		match: []string{"CUresult error CUDA_ERROR_LAUNCH_FAILED at cuCtxSynchronize"},
	},
	"cuda-misaligned-address": {
		match: []string{"CUresult error CUDA_ERROR_MISALIGNED_ADDRESS at cuStreamSynchronize"},
	},
	"cuda-uncorrectable-ecc-error": {
		match: []string{
			tb("RuntimeError: CUDA error: uncorrectable NVLink error was detected during the execution"),
			"CUresult error CUDA_ERROR_ECC_UNCORRECTABLE",
		},
	},
	"cuda-error-out-of-memory": {
		match: []string{"cudaErrorMemoryAllocation", "CUresult error CUDA_ERROR_OUT_OF_MEMORY at cuMemCreate", tb("RuntimeError: HIP error: out of memory"), "hipErrorOutOfMemory"},
		// torch_memory_saver's allocation retry says itself it may be harmless.
		miss: []string{"[torch_memory_saver.cpp] cuMemCreate CUDA_ERROR_OUT_OF_MEMORY (may not be an issue e.g. torch allocator will free cache and retry)"},
	},
	"no-cuda-gpus-available": {
		match: []string{
			tb("RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx"),
			"RuntimeError: CUDA error: no CUDA-capable device is detected",
		},
		miss: []string{"Found 8 CUDA devices (cudaGetDeviceCount)", "cudaErrorNoDeviceFound is not an error this runtime has"},
	},
	"cuda-driver-version-insufficient": {
		match: []string{
			tb("RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx"),
		},
	},
	"hf-gated-repo": {
		match: []string{
			"huggingface_hub.errors.HfHubHTTPError: 403 Forbidden: Please enable access to public gated repositories in your fine-grained token settings to view this repository.",
			"requests.exceptions.HTTPError: 403 Client Error: Forbidden for url: https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/resolve/main/config.json",
		},
	},
	"hf-repository-not-found": {
		match: []string{
			"huggingface_hub.errors.RevisionNotFoundError: 404 Client Error. (Request ID: Root=1-6a)\n\nRevision Not Found for url: https://huggingface.co/api/models/Qwen/Qwen3-8B/revision/v2.",
			"OSError: /models/qwen3 is not a local folder and is not a valid model identifier listed on 'https://huggingface.co/models'",
			"huggingface_hub.errors.EntryNotFoundError: 404 Client Error. (Request ID: Root=1-6b)\n\nEntry Not Found for url: https://huggingface.co/Qwen/Qwen3-8B/resolve/main/tokenizer.model.",
		},
	},
	"flashinfer-ninja-build-failed": {
		match: []string{tb("RuntimeError: Error building extension 'batch_prefill_with_kv_cache_dtype_q_bf16'")},
		// Another package's torch extension is not FlashInfer's.
		miss: []string{
			tb("RuntimeError: Error building extension 'cpu_adam'"),
			"subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.",
		},
	},
}

func init() { addExamples(nativeExamples, widenedExamples) }

// moreNativeExamples holds the second round of records and widenings: torch's
// NCCL process group, FlashInfer's kernel dispatch, xgrammar's lexer and
// regex converter, Mooncake's transfer workers and TCP transport.
var moreNativeExamples = map[string]example{
	"mooncake-api-version-skew": {
		match: []string{
			tb("TypeError: batch_register_memory(): incompatible function arguments. The following argument types are supported:\n" +
				"    1. (self: mooncake.engine.TransferEngine, arg0: list[int], arg1: list[int]) -> int\n\n" +
				"Invoked with: <mooncake.engine.TransferEngine object at 0x7f3a>, [1], [2], 3"),
			"TypeError: setup(): incompatible function arguments. The following argument types are supported:\n" +
				"    1. (self: mooncake.store.MooncakeDistributedStore, local_hostname: str, metadata_server: str) -> int\n",
		},
		// Another module's signature mismatch is the shared extension record's.
		miss: []string{
			"TypeError: m_grouped_fp8_gemm_nt_contiguous(): incompatible function arguments. The following argument types are supported:\n" +
				"    1. (arg0: tuple[torch.Tensor, torch.Tensor], arg1: torch.Tensor) -> None\n\nInvoked with: (tensor([1]),)",
		},
	},
	"torch-extension-build-failed": {
		match: []string{
			tb("RuntimeError: Error building extension 'cpu_adam'"),
			tb("RuntimeError: Error building extension 'fused_adam': [1/3] c++ -MMD -MF cpu_adam.o.d"),
			"subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.",
		},
		// FlashInfer's own JIT build has its own record.
		miss: []string{
			tb("RuntimeError: Error building extension 'batch_decode_with_kv_cache_dtype_q_f16'"),
			"subprocess.CalledProcessError: Command '['ninja', '-v', '-C', '/root/.cache/flashinfer/jit', '-f', 'build.ninja']' returned non-zero exit status 1.",
		},
	},
	"cuda-operation-not-supported": {
		match: []string{
			tb("RuntimeError: CUDA error: operation not supported"),
			"node-0:412:412 [3] NCCL WARN Cuda failure 'operation not supported'",
			"CUresult error CUDA_ERROR_NOT_SUPPORTED at cuMemCreate",
		},
		miss: []string{
			hdr("Custom allreduce is not supported on this platform, falling back to NCCL"),
		},
	},
	"cuda-unknown-error": {
		match: []string{
			tb("RuntimeError: CUDA error: unknown error"),
			"RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 999: cudaErrorUnknown",
		},
		miss: []string{
			hdr("Unknown error reported by the client: connection closed"),
		},
	},
	"torch-inductor-cpp-compile-error": {
		match: []string{
			tb("torch._inductor.exc.CppCompileError: C++ compile error"),
			"torch._inductor.exc.InductorError: CalledProcessError: Command '['/usr/bin/gcc', '/tmp/tmpx/main.c', '-O3', '-shared']' returned non-zero exit status 1.",
		},
		miss: []string{
			hdr("Compiling with torch.compile (inductor), max_bs=32"),
		},
	},
	"c10d-nccl-work-failed-process-down": {
		match: []string{
			"[rank1]:[E528 01:12:44.056502112 ProcessGroupNCCL.cpp:630] [Rank 1] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
			"[E ProcessGroupNCCL.cpp:916] [Rank 3] To avoid data inconsistency, we are taking the entire process down.",
			"RuntimeError: NCCL communicator was aborted on rank 2. Original reason for failure was: [Rank 2] Watchdog caught collective operation timeout",
		},
		miss: []string{
			"[rank1]:[W528 01:12:44.056 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT been destroyed before we destruct ProcessGroupNCCL.",
		},
	},
	"c10d-client-socket-connect-retry": {
		match: []string{
			"[W socket.cpp:663] [c10d] The client socket has failed to connect to [node-1]:29500 (errno: 111 - Connection refused).",
			"[W1205 10:02:11.118452383 socket.cpp:755] [c10d] The client socket has failed to connect to [10.0.0.1]:5000 (errno: 113 - No route to host).",
		},
		miss: []string{
			"torch.distributed.DistNetworkError: The client socket has failed to connect to any network address of (10.0.0.1, 5000). The client socket has failed to connect to 10.0.0.1:5000 (errno: 113 - No route to host).",
		},
	},
	"ucx-endpoint-error-unhandled": {
		match: []string{
			"[1752044541.372091] [gpu-3:4012 :1]        ucp_ep.c:1661 UCX  ERROR ep 0x7f3a2c0b8000: error 'Connection reset by remote peer' on rc_mlx5/mlx5_0:1 will not be handled since no error callback is installed",
			"[1752044541.372091] [gpu-3:4012 :1]        ucp_ep.c:1452 UCX  ERROR ep 0x7f3a2c0b8000: error 'Endpoint timeout' will not be handled since no error callback is installed",
		},
		miss: []string{
			"[1752044541.372091] [gpu-3:4012 :1]        ucp_ep.c:1200 UCX  DEBUG ep 0x7f3a2c0b8000: error callback installed",
		},
	},
	"nixl-invalid-request": {
		match: []string{
			tb("nixl._bindings.nixlInvalidParamError: NIXL_ERR_INVALID_PARAM"),
			"E0312 10:22:01.771233 5512 nixl_agent.cpp:802] createXferReq: NIXL_ERR_MISMATCH between local and remote descriptor lists",
		},
		miss: []string{
			"I0312 10:22:01.771233 5512 nixl_agent.cpp:802] createXferReq: descriptor lists validated",
		},
	},
	"cuda-toolkit-not-found": {
		match: []string{
			tb("RuntimeError: Could not find nvcc and default cuda_home='/usr/local/cuda' doesn't exist"),
			"OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.",
			"/bin/sh: 1: nvcc: not found",
			"FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'",
			// A kernel wrapper's check at import, before anything fails.
			"WARNING:sglang.srt.layers.deep_gemm_wrapper.configurer:deep_gemm unavailable: CUDA_HOME not set. Falling back to default kernels.",
			// DeepGEMM's JIT, Triton's tool lookup.
			tb("RuntimeError: Cannot find any available NVCC compiler"),
			tb("RuntimeError: Cannot find ptxas"),
		},
		miss: []string{
			mainLog("CUDA_HOME is set to /usr/local/cuda, nvcc version 12.8"),
			mainLog("deep_gemm unavailable: SGLANG_ENABLE_JIT_DEEPGEMM=0"),
			"Cannot find ptxas version in output, assuming 12.8",
		},
	},
	"deepep-host-check-failed": {
		match: []string{
			tb("RuntimeError: Failed: Assertion error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:1066 'num_tokens <= num_max_dispatch_tokens_per_rank'"),
			"RuntimeError: Assertion exception (/workspace/DeepEP/csrc/legacy/buffer.hpp:212): hidden % 128 == 0",
			"RuntimeError: Failed: Assertion error csrc/jit/compiler.hpp:152 'nvcc_version >= 12.3'",
			// DeepGEMM's newer form, '<name> error (<file>:<line>): <condition>'.
			"RuntimeError: Assertion error (/sgl-workspace/DeepGEMM/csrc/jit_kernels/heuristics/sm90.hpp:112): n % 64 == 0",
			"Capture cuda graph failed: Assertion error (/deepgemm/csrc/apis/../jit_kernels/impls/../heuristics/../../utils/layout.hpp:57): ab.scalar_type() == kPackedFP4 and arch_major == 10",
		},
		miss: []string{
			"Test failed: assertion error",
			// The same form's runtime checks name the CUDA call that failed.
			"RuntimeError: CUDA runtime error (/deepgemm/csrc/jit/kernel_runtime.hpp:88): out of memory",
			"Assertion error (see the log above): retrying",
			"[2026-05-28 00:11:09] DeepEP assertion checks enabled: num_max_dispatch_tokens_per_rank=128",
		},
	},
	"tokenizers-json-unsupported": {
		match: []string{
			tb("Exception: data did not match any variant of untagged enum ModelWrapper at line 1251003 column 3"),
			"Exception: data did not match any variant of untagged enum PyPreTokenizerTypeWrapper at line 69 column 3",
		},
		miss: []string{
			"serde_json::Error: data did not match any variant of untagged enum JsonRpcMessage",
		},
	},
	"sentencepiece-model-parse-failed": {
		match: []string{
			tb("RuntimeError: Internal: could not parse ModelProto from /models/llama-2-7b/tokenizer.model"),
			"RuntimeError: Internal: src/sentencepiece_processor.cc(1101) [model_proto->ParseFromArray(serialized.data(), serialized.size())]",
		},
		miss: []string{
			hdr("Loaded sentencepiece model from /models/llama-2-7b/tokenizer.model"),
		},
	},
	"numpy-abi-mismatch": {
		match: []string{
			"A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.1.3 as it may crash. To support both 1.x and 2.x",
			"A module that was compiled using NumPy 1.x cannot be run in NumPy 2.0.2 as it may crash.",
			rawTB("ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, got 88 from PyObject"),
		},
		miss: []string{
			mainLog("numpy version 2.1.3, torch version 2.8.0"),
		},
	},
	"cudnn-status-error": {
		match: []string{
			tb("RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED"),
			"RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED",
			"RuntimeError: CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR: cudnnFinalize Descriptor Failed cudnn_status: CUDNN_STATUS_NOT_SUPPORTED",
		},
		miss: []string{
			mainLog("cuDNN version 91002 enabled, benchmark mode off"),
		},
	},
	"nvml-driver-library-mismatch": {
		match: []string{
			"Failed to initialize NVML: Driver/library version mismatch",
			"pynvml.NVMLError_LibRmVersionMismatch: RM has detected an NVML/RM version mismatch. NVML_ERROR_LIB_RM_VERSION_MISMATCH",
		},
		miss: []string{
			"NVML library version: 570.124",
		},
	},
	"image-decode-failed": {
		match: []string{
			tb("PIL.UnidentifiedImageError: cannot identify image file <_io.BytesIO object at 0x7f3a2c1d5e40>"),
			"UnidentifiedImageError: cannot identify image file '/tmp/tmpa1b2c3.png'",
		},
		miss: []string{
			mainLog("Image processor loaded: Qwen2VLImageProcessorFast"),
		},
	},
	"ray-memory-monitor-killed-worker": {
		match: []string{
			"(raylet) [2025-08-31 16:27:59,635 E 6656 6656] (raylet) node_manager.cc:3041: 1 Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: 943d78b2, IP: 172.31.29.69) over the last time period.",
			"ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.",
		},
		miss: []string{
			"ray.exceptions.RayTaskError(OutOfMemoryError): ray::WorkerDict.actor_rollout_generate_sequences() (pid=1234, ip=10.0.0.1)",
			"(raylet) node_manager.cc:3041: 0 Workers (tasks / actors) crashed due to other reasons at node (ID: 943d78b2, IP: 172.31.29.69) over the last time period.",
		},
	},
	"ray-worker-register-failed": {
		match: []string{
			"[2025-09-20 11:50:22,050 E 31652 31652] core_worker.cc:179: Failed to register worker 01000000ffffffffffffffffffffffffffffffffffffffffffffffff to Raylet. IOError: [RayletClient] Unable to register worker with raylet. No such file or directory",
			"core_worker.cc:514: Failed to register worker to Raylet: IOError: [RayletClient] Unable to register worker with raylet. Failed to read data from the socket: End of file worker_id=01000000ffffffffffffffffffffffffffffffffffffffffffffffff",
		},
		miss: []string{
			"(raylet) worker_pool.cc:489: Started worker process with pid 123541, the token id: 0",
		},
	},
	"rocm-gpu-hw-exception": {
		match: []string{
			"HW Exception by GPU node-1 (Agent handle: 0x55cf74a379c0) reason :GPU Hang",
			" 41%|██████▌        | 366/903 [5:15:39<6:53:09, 46.16s/it]HW Exception by GPU node-9 (Agent handle: 0x631351bb5a20) reason :GPU Hang",
		},
		miss: []string{
			"Memory access fault by GPU node-2 (Agent handle: 0x55d1c2f0a6b0) on address 0x7f3b2c000000. Reason: Page not present or supervisor privilege.",
		},
	},
	"ucx-ib-completion-error": {
		match: []string{
			"[1752044541.372091] [gpu-3:4012 :1]       ib_mlx5_log.c:177  UCX  ERROR Transport retry count exceeded on mlx5_0:1/IB (synd 0x15 vend 0x81 hw_synd 0/0)",
			"[1752044541.372091] [gpu-3:4012 :1]       ib_mlx5_log.c:177  UCX  ERROR Remote access error on mlx5_2:1/RoCE (synd 0x13 vend 0x88 hw_synd 0/0)",
			"[1752044541.372091] [gpu-3:4012 :1]       ib_mlx5_log.c:177  UCX  ERROR WR flushed because QP in error state on mlx5_0:1/IB (synd 0x5 vend 0xf9 hw_synd 0/0)",
			// EFA's SRD transport words its completions this way.
			"[1784621081.896649] [prefill-0:537  :1]       srd_iface.c:221  UCX  ERROR send completion[0] with error on rdmap132s0/0x55cf4425cfb0: Work Request Flushed Error, vendor_err 0x1 wr_id 0x7f8b20022480",
		},
		miss: []string{
			"E1213 02:57:10.528410 5811 worker_pool.cpp:274] Worker: Process failed for slice (opcode: 1): transport retry counter exceeded",
			"[1784621081.896649] [prefill-0:537  :1]       srd_iface.c:180  UCX  DEBUG send completion[0] on rdmap132s0/0x55cf4425cfb0: success, wr_id 0x7f8b20022480",
		},
	},
	"ucx-memory-registration-failed": {
		match: []string{
			"[1752044541.372091] [gpu-3:4012 :0]          ib_md.c:293  UCX  ERROR ibv_reg_mr(address=0x7f2a40000000, length=4294967296, access=0xf) failed: Cannot allocate memory : Please set max locked memory (ulimit -l) to 'unlimited' (current: 8192 kbytes)",
			"[1752044541.372091] [gpu-3:4012 :0]          ib_md.c:293  UCX  ERROR ibv_reg_dmabuf_mr(address=0x7f2a40000000, length=2097152, access=0x10000f) failed: Bad address",
		},
		miss: []string{
			"[1752044541.372091] [gpu-3:4012 :0]          ib_md.c:1024 UCX  DEBUG ibv_reg_mr(address=0x7f2a40000000, length=4096, access=0xf) registered",
		},
	},
	"ucx-no-transport-to-peer": {
		match: []string{
			"[1752044541.372091] [gpu-3:4012 :0]     select.c:630  UCX  ERROR   no active messages transport to <no debug data>: self/memory - Destination is unreachable, tcp/eth0 - Destination is unreachable",
			"[1752044541.372091] [gpu-3:4012 :0]     select.c:722  UCX  ERROR   no remote cuda memory access transport to decode-0:31225: cuda_ipc/cuda - no put short, rc_mlx5/mlx5_0:1 - Destination is unreachable",
			// UD's address handle to the peer's GID.
			"[1745499308.854013] [9fd0c21b0f7c:760  :0]       ib_device.c:1332 UCX  ERROR   ibv_create_ah(dlid=49152 sl=0 port=1 src_path_bits=0 dgid=fe80::5aa2:e1ff:fefe:c130 flow_label=0xffffffff sgid_index=0 traffic_class=0) for UD mlx5 connect on mlx5_0 failed: No such device",
		},
		miss: []string{
			"[1752044541.372091] [gpu-3:4012 :0]     select.c:700  UCX  INFO  selected transport to decode-0: rc_mlx5/mlx5_0:1",
			"[1745499308.855116] [9fd0c21b0f7c:760  :0]      ucp_worker.c:2903 UCX  WARN  worker 0x754a6ee0: 10 pending operations were not flushed",
		},
	},
	"nvshmem-error-status": {
		match: []string{
			"/sgl-workspace/nvshmem/src/host/transport/transport.cpp:400: non-zero status: 7 ",
			"/opt/nvshmem/src/host/mem/mem.cpp:384: non-zero status: 2 nvshmem heap allocation failed",
			"/opt/nvshmem/src/host/init/init.cu:510: non-zero status: 1: Operation not permitted, exiting... mps setup failed",
			"/opt/nvshmem/src/host/team/team.cu:322: error status: -1 team split failed",
		},
		miss: []string{
			"bootstrap_uid.cpp:bootstrap_uid_allgather:480: rank 0 nranks 16 size 8",
			hdr("Process exited with non-zero status: 1"),
		},
	},
	"mooncake-store-key-not-found": {
		match: []string{
			"E0312 10:22:01.771233 5512 pybind_client.cpp:797] Query failed for key: 8f1c2a_0_k with error: OBJECT_NOT_FOUND",
			"E0312 10:22:01.771233 5512 real_client.cpp:3191] Query failed for key '8f1c2a_0_k': REPLICA_IS_NOT_READY",
		},
		miss: []string{
			"E0312 10:22:01.771233 5512 real_client.cpp:2834] Query failed for key: 8f1c2a_0_k with error: RPC_FAIL",
		},
	},
	"flash-attn-unsupported-gpu": {
		match: []string{
			"ERROR 08-16 18:47:21 [engine.py:456] RuntimeError: FlashAttention only supports Ampere GPUs or newer.",
			tb("RuntimeError: FlashAttention only support Ampere GPUs or newer"),
			tb("RuntimeError: FlashAttention only support fp16 and bf16 data type"),
		},
		miss: []string{
			// A library that warns and falls back is not the failure.
			"/usr/local/lib/python3.10/site-packages/xformers/ops/fmha/flash.py:211: UserWarning: FlashAttention only supports Ampere GPUs or newer.",
		},
	},
	"triton-launch-invalid-argument": {
		match: []string{
			"(RayWorkerWrapper pid=3014724) RuntimeError: Triton Error [CUDA]: invalid argument",
			tb("RuntimeError: Triton Error [HIP]: invalid argument"),
		},
		miss: []string{
			// Other driver errors through Triton are the CUDA records'.
			"RuntimeError: Triton Error [CUDA]: an illegal memory access was encountered",
		},
	},
	"triton-cpu-tensor-argument": {
		match: []string{
			tb("ValueError: Pointer argument (at 0) cannot be accessed from Triton (cpu tensor?)"),
			"ValueError: Pointer argument (at 3) cannot be accessed from Triton (cpu tensor?)",
		},
		miss: []string{hdr("Moving the weights of layer 12 from CPU to GPU before the Triton kernel runs")},
	},
	"triton-ptxas-failed": {
		match: []string{
			tb("triton.runtime.errors.PTXASError: PTXAS error: Internal Triton PTX codegen error"),
			"ptxas fatal   : Unresolved extern function '__nv_fast_expf'",
			// Triton running ptxas with subprocess.run(check=True).
			tb("subprocess.CalledProcessError: Command '['/usr/local/lib/python3.12/dist-packages/triton/backends/nvidia/bin/ptxas', '-lineinfo', '-v', '--gpu-name=sm_103a', '/tmp/tmp3c.ptx', '-o', '/tmp/tmp3c.ptx.o']' returned non-zero exit status 255."),
		},
		miss: []string{
			hdr("Using ptxas from /usr/local/cuda/bin/ptxas for Triton kernels"),
			"subprocess.CalledProcessError: Command '['/usr/bin/gcc', '/tmp/tmpab/main.c', '-O3', '-shared', '-fPIC', '-o', '/tmp/tmpab/cuda_utils.so']' returned non-zero exit status 1.",
		},
	},
	"c10d-nccl-unique-id-exchange-failed": {
		match: []string{
			"[rank3]: torch.distributed.DistBackendError: [3] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Socket Timeout",
			"RuntimeError: [1] is setting up NCCL communicator and retreiving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Connection reset by peer",
			"torch.distributed.DistStoreError: wait timeout after 600000ms, keys: /default_pg/0//cuda//0",
		},
		miss: []string{
			"[rank0]:[W528 00:11:09.123 ProcessGroupNCCL.cpp:4561] [PG ID 0 PG GUID 0 Rank 0]  using GPU 0 to perform barrier as devices used by this process are currently unknown.",
		},
	},
	"flashinfer-unsupported-kernel-config": {
		match: []string{
			"RuntimeError: Error in function 'BatchPrefillWithPagedKVCacheDispatched' at /workspace/flashinfer/include/flashinfer/attention/prefill.cuh:3215: FlashInfer Internal Error: Invalid configuration : NUM_MMA_Q=1 NUM_MMA_D_QK=32 NUM_MMA_D_VO=16 NUM_MMA_KV=1 NUM_WARPS_Q=4 NUM_WARPS_KV=1 please create an issue",
			"RuntimeError: Error in function 'BatchDecodeWithPagedKVCacheDispatched' at /usr/local/lib/python3.12/dist-packages/flashinfer/data/include/flashinfer/utils.cuh:243: Unsupported head_dim: 80",
			"tvm.error.InternalError: Error in function 'SinglePrefillWithKVCacheDispatched' at include/flashinfer/utils.cuh:210: Unsupported group_size: 7",
		},
		miss: []string{
			hdr("Using FlashInfer attention backend with head_dim=128, page_size=1"),
		},
	},
}

// moreWidenedExamples adds wordings of the second round to records the
// main examples cover.
var moreWidenedExamples = map[string]example{
	"c10d-dump-signal-from-other-rank": {
		match: []string{"[rank5]:[E703 17:54:18.884325830 ProcessGroupNCCL.cpp:1922] [PG ID 0 PG GUID 0(default_pg) Rank 5] Observed flight recorder dump signal from another rank via TCPStore."},
	},
	"c10d-dump-debug-info": {
		match: []string{
			"[rank0]:[E703 17:54:18.884 ProcessGroupNCCL.cpp:1890] [PG ID 0 PG GUID 0(default_pg) Rank 0] Broadcasting signal exception_dump to other ranks via TCPStore.",
			"[rank0]:[I703 17:54:19.101 ProcessGroupNCCL.cpp:1430] [PG ID 0 PG GUID 0(default_pg) Rank 0] Flight Recorder trace successfully dumped.",
			"[rank0]:[E703 17:54:18.884 ProcessGroupNCCL.cpp:1885] [PG ID 0 PG GUID 0(default_pg) Rank 0] First PG on this rank to signal dumping.",
		},
	},
	"c10d-tcpstore-should-dump-failed": {
		match: []string{"[rank0]:[W703 17:54:18.884 ProcessGroupNCCL.cpp:1899] [PG ID 0 PG GUID 0(default_pg) Rank 0] Failed to broadcast signal exception_dump through TCPStore. Error: Broken pipe"},
	},
	"hf-offline-cache-miss": {
		match: []string{
			"OSError: Connection error, and we cannot find the requested files in the cached path. Please try again or make sure your Internet connection is on.",
			"huggingface_hub.errors.OfflineModeIsEnabled: Cannot reach https://huggingface.co/api/models/Qwen/Qwen3-8B: offline mode is enabled. To disable it, please unset the `HF_HUB_OFFLINE` environment variable.",
		},
	},
	"nvcc-unsupported-gpu-architecture": {
		match: []string{"ptxas fatal   : Value 'sm_120a' is not defined for option 'gpu-name'"},
	},
	"c10d-failure-detected-by-watchdog": {
		match: []string{"[E ProcessGroupNCCL.cpp:1537] [Rank 0] Timeout at NCCL work: 5822, last enqueued NCCL work: 5822, last completed NCCL work: 5821."},
	},
	"c10d-watchdog-thread-terminated": {
		match: []string{"  what():  NCCL watchdog thread terminated with exception: [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5822, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800438 milliseconds before timing out."},
	},
	"xgrammar-grammar-parse-error": {
		match: []string{
			"RuntimeError: [11:16:07] /workspace/cpp/grammar_parser.cc:120: EBNF lexer error at line 1, column 9: Expect ::= or = after the rule name",
			"RuntimeError: [11:16:07] /workspace/cpp/regex_converter.cc:88: Regex parsing error at position 4: Unknown regex symbol: (?<",
		},
	},
	"mooncake-tcp-connect-refused": {
		match: []string{
			"E0423 16:34:48.929325 217299 tcp_transport.cpp:618] TcpTransport::getConnection failed to create connection to 10.0.0.7:15021. Error: connect: Connection refused",
			"E0423 16:34:48.929325 217299 tcp_transport.cpp:682] TcpTransport::startTransfer failed to get connection to 10.0.0.7:15021",
		},
		miss: []string{"I0423 16:34:48.929325 217299 tcp_transport.cpp:301] TcpTransport: listen on port 15021"},
	},
	"mooncake-transfer-slice-failed": {
		match: []string{
			"E1213 02:57:10.528410 5811 worker_pool.cpp:785] Worker: Cannot redispatch slice for target 3, peer segment unavailable or no target RNIC, dest_addr=0x7f12",
			"E1213 02:57:10.528410 5811 worker_pool.cpp:601] Worker: Failed to poll completion queues",
			"E1213 02:57:10.528410 5811 worker_pool.cpp:510] Worker: Timed out waiting for RDMA ready ACK for endpoint: mlx5_1@10.0.0.8:15021, deleting endpoint",
		},
	},
}

func init() { addExamples(moreNativeExamples, moreWidenedExamples) }

// TestNativeRanking checks that where a library's generic record and a
// specific one both match a line, the specific one ranks first: the
// generic records (a chain's status lines, a library's host checks) only
// lead when nothing more specific names the failure.
func TestNativeRanking(t *testing.T) {
	checkRanking(t, compileCatalog(t), []rankCase{
		{"/opt/nvshmem/src/host/topo/topo.cpp:526: non-zero status: -3 allgather of ipc handles failed ", "nvshmem-bootstrap-failed"},
		{"/sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp:418: non-zero status: 110 ibv_modify_qp failed", "nvshmem-connect-failed"},
		{"/sgl-workspace/nvshmem/src/host/transport/transport.cpp:400: non-zero status: 7 ", "nvshmem-error-status"},
		{tb("RuntimeError: Failed: Assertion error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:1066 'x.size(0) <= num_max_dispatch_tokens_per_rank'"), "deepep-dispatch-tokens-exceed-max"},
		{tb("RuntimeError: Failed: Assertion error /sgl-workspace/DeepEP/csrc/deep_ep.cpp:88 'ibgda_get_state()->num_rc_per_pe >= num_channels'"), "deepep-ibgda-rc-per-pe-too-small"},
		{"ptxas fatal   : Value 'sm_120a' is not defined for option 'gpu-name'", "nvcc-unsupported-gpu-architecture"},
		{"[1752044541.372091] [gpu-3:4012 :0] ib_md.c:293  UCX  ERROR ibv_reg_mr(address=0x7f2a40000000, length=4294967296, access=0xf) failed: Cannot allocate memory", "ucx-memory-registration-failed"},
	})
}

// TestRoutineNativeLinesDoNotAlert feeds the libraries' routine lines, some
// printed at error level, through the entry assembler and the analysis
// with the whole catalog: none is a failure. Each has an info record (or
// sits outside a failure record's wording) because the library carries
// on after it.
func TestRoutineNativeLinesDoNotAlert(t *testing.T) {
	checkRoutineSilent(t, compileCatalog(t), []string{
		"E0925 00:24:39.141773  4418 client.cpp:353] Failed to get fsdir from master",
		"E1203 10:02:11.003412 77102 client_service.cpp:1042] Failed to get storage config from master",
		"E0925 00:30:12.441803  4502 client_service.cpp:4857] Failed to ping master",
		"E0312 10:22:01.771233 5512 pybind_client.cpp:797] Query failed for key: 8f1c2a_0_k with error: OBJECT_NOT_FOUND",
		"[W socket.cpp:663] [c10d] The client socket has failed to connect to [node-1]:29500 (errno: 111 - Connection refused).",
		"[torch_memory_saver.cpp] cuMemCreate CUDA_ERROR_OUT_OF_MEMORY (may not be an issue e.g. torch allocator will free cache and retry)",
		"W1203 10:02:12.001901 77102 real_client.cpp:858] Failed to create client on port 17813, retry 1/20",
		"node-1:312:401 [0] NCCL INFO Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx5_0:1, curr state INIT, next state RTR, local GID index 3, local GID ::ffff:10.0.0.1, remote GID ::ffff:10.0.0.2, retrying 1/3 after 1000 msec of sleep",
	})
}

// TestNCCLVerbsLinesAreNCCLs composes NCCL's warning for every ibverbs
// call it wraps, in both of NCCL's wordings: each must lead under one of
// NCCL's records, never under NVSHMEM's, whose own lines name the same
// verbs without NCCL's "Call to" in front.
func TestNCCLVerbsLinesAreNCCLs(t *testing.T) {
	m := compileCatalog(t)
	verbs := []string{"modify_qp", "create_qp", "reg_mr", "reg_dmabuf_mr", "alloc_pd", "query_device", "query_port", "get_device_name", "create_cq", "open_device"}
	forms := []string{
		"node-7:4021:4188 [3] NCCL WARN Call to ibv_%s failed with error Invalid argument",
		"[2026-03-13 22:26:02] node-7:4021:4188 [3] ibvwrap.c:262 NCCL WARN Call to ibv_%s failed with 110 Connection timed out, on dev mlx5_2:1",
	}
	for _, v := range verbs {
		for _, f := range forms {
			line := strings.Replace(f, "%s", v, 1)
			var best string
			for _, s := range subjects(line) {
				hits, errs := m.Match(s)
				if len(errs) > 0 {
					t.Fatalf("pattern errors: %v", errs)
				}
				if len(hits) > 0 {
					best = hits[0].Record.Slug
					if hits[0].Record.Repo != "NVIDIA/nccl" {
						t.Errorf("%q leads under %s (%s), want one of NCCL's records", line, best, hits[0].Record.Repo)
					}
				}
			}
			if best == "" {
				t.Errorf("%q: no record", line)
			}
		}
	}
}
