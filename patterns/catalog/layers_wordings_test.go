package catalog_test

import (
	"testing"
)

// The layers under the engines, writer by writer: each failure format of
// their sources, written as each prints it across releases (behind its
// own prefix, bare as a reporter copies it, quoted by the caller that
// relays it) with the routine lines near it that must stay silent:
//   - NCCL's socket layer: a socket of a family the host has turned off
//     ("Socket creation failed : <strerror>" with "Net : " or
//     "ncclSocketInit: " before it until 2.23, "Call to socket failed:
//     <strerror>" from the system-call check since 2.24), a rendezvous
//     address it cannot parse or resolve (NCCL_COMM_ID), a message longer
//     than the one posted (bootstrap and socket transport);
//   - NCCL's CUDA check ("Cuda failure '<name>'", "Cuda failure <n>
//     '<name>'" for driver-API calls), NCCL WARN, bare, or quoted on its
//     own line after "Last error:";
//   - torch_npu's task queue exit ("The Inner error is reported as above
//     ... the current working operator name is <op>", or the parameters of
//     a failed copy): an aclnn operator is the call that failed;
//   - Ray's memory monitor: its own message for each kill (task, actor or
//     lease), the raylet's summaries, Ray 1.x's RayOutOfMemoryError; its
//     scheduler and autoscaler waiting on a request no node can meet, its
//     file system monitor, the GCS out of reach, an agent taking the
//     raylet down;
//   - torch on ROCm, which says "HIP" where CUDA builds say "CUDA", and
//     rocBLAS finding no device;
//   - dynamo's runtime: etcd it cannot connect or reconnect to, a NATS
//     server without JetStream;
//   - the kubelet's probes: the Unhealthy event, the kubelet's own log
//     (structured since 1.20, glog before), and the Killing event that
//     follows as their consequence; the node controller's NotReady events
//     and the volume controller's ProvisioningFailed.
func layerWordings() []writerWording {
	ncclWarn := func(loc, msg string) string {
		if loc != "" {
			loc += " "
		}
		return "gpu-node-3:41278:41390 [0] " + loc + "NCCL WARN " + msg
	}
	vllmWorker := func(msg string) string {
		return "(VllmWorker rank=3 pid=15164) ERROR 06-19 07:06:13 [multiproc_executor.py:527] " + msg
	}
	rayWorker := func(msg string) string { return "(RayWorkerWrapper pid=5120, ip=10.0.0.7) " + msg }
	distBackend := func(lastError string) string {
		return "torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.2\n" +
			"ncclUnhandledCudaError: Call to CUDA function failed.\n" +
			"Last error:\n" + lastError
	}
	npuExit := func(tail string) string {
		return "RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is " + tail
	}
	vllmCore := func(msg string) string { return "ERROR 01-21 06:59:30 [core.py:634] " + msg }
	rayKill := func(who string) string {
		return "Memory on the node (IP: 10.0.62.231, ID: e5d953ef03e55e26f13973ea1b5a0fd0ecc729cd820bc89e4aa50451) where the " + who +
			" was running was 27.71GB / 28.80GB (0.962273), which exceeds the memory usage threshold of 0.95. Ray killed this worker (ID: 6f2ec5c8b0d5f5a66572859faf192d36743536c2e9702ea58084b037) because it was the most recently scheduled task; to see more information about memory usage on this node, use `ray logs raylet.out -ip 10.0.62.231`."
	}
	event := func(typ, reason, msg string) string {
		return "  " + typ + "  " + reason + "  25m (x3 over 25m)  kubelet  " + msg
	}
	getEvent := func(typ, reason, msg string) string {
		return "25m         " + typ + "   " + reason + "   pod/vllm-7d9f8b6c5-x2v9k   " + msg
	}
	dynamo := func(level, msg string) string { return "2025-11-05T01:56:54.243403Z " + level + " " + msg }
	kubelet := func(msg string) string {
		return "Dec 02 08:14:09 gpu-3 kubelet[2211]: I1202 08:14:09.318207    2211 " + msg
	}
	return []writerWording{
		{family: "NCCL: a socket of an address family the host has turned off", want: "nccl-no-network-interface", lines: []string{
			// A reporter's copy without NCCL's host and pid prefix.
			"include/socket.h:344 WARN Socket creation failed : Address family not supported by protocol",
			ncclWarn("", "Net : Socket creation failed : Address family not supported by protocol"),
			ncclWarn("misc/socket.cc:713", "ncclSocketInit: Socket creation failed : Address family not supported by protocol"),
			ncclWarn("os/linux.cc:258", "Call to socket failed: Address family not supported by protocol"),
			rayWorker(ncclWarn("misc/socket.cc:402", "Net : Socket creation failed : Address family not supported by protocol")),
			ncclWarn("misc/socket.cc:779", "ncclSocketInit: connecting to address fe80::1%eth0<43211> with family 10 is neither AF_INET(2) nor AF_INET6(10)"),
			ncclWarn("", "Net : Unsupported address family type"),
			ncclWarn("transport/net_ib.cc:304", "NET/IB : No IP interface found."),
			"ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\nLast error:\nCall to socket failed: Address family not supported by protocol",
		}},
		{family: "NCCL: a rendezvous address it cannot parse or resolve", want: "nccl-comm-id-invalid", lines: []string{
			ncclWarn("bootstrap.cc:114", "Invalid NCCL_COMM_ID, please use format: <ipv4>:<port> or [<ipv6>]:<port> or <hostname>:<port>"),
			ncclWarn("misc/socket.cc:289", "Net : error encountered when getting address info : Name or service not known"),
			ncclWarn("", "Net : No valid <IPv4_or_hostname>:<port> pair found"),
			ncclWarn("", "Net : No valid [IPv6]:port pair found"),
			ncclWarn("misc/socket.cc:308", "Net : unsupported IP family"),
		}},
		{family: "NCCL: a message longer than the one this rank posted", want: "nccl-collective-mismatch", lines: []string{
			ncclWarn("bootstrap.cc:224", "Message truncated : received 1024 bytes instead of 256"),
			ncclWarn("bootstrap.cc:249", "Message truncated : received 64,64 bytes instead of 32,32"),
			ncclWarn("transport/net_socket.cc:420", "NET/Socket : peer 10.0.0.2<43211> message truncated : receiving 4194304 bytes instead of 65536. If you believe your socket network is in healthy state, there may be a mismatch in collective sizes or environment settings (e.g. NCCL_PROTO, NCCL_ALGO) between ranks"),
			"Last error:\nMessage truncated : received 1024 bytes instead of 256",
		}},
		{family: "NCCL: its CUDA check names the CUDA error", want: "nccl-cuda-failure", lines: []string{
			ncclWarn("enqueue.cc:1550", "Cuda failure 'named symbol not found'"),
			ncclWarn("include/cudawrap.h:37", "Cuda failure 500 'named symbol not found'"),
			"Cuda failure 'invalid device pointer'",
			vllmWorker("Last error:") + "\n" + vllmWorker("Cuda failure 1 'invalid argument'"),
		}},
		{family: "NCCL: out of memory inside NCCL, its CUDA record's", want: "cuda-error-out-of-memory", lines: []string{
			ncclWarn("include/alloc.h:48", "Cuda failure 'out of memory'"),
			"Cuda failure 2 'out of memory'",
			vllmWorker("Cuda failure 2 'out of memory'"),
		}},
		// torch's summary leads the entry that also quotes NCCL's last
		// error; the CUDA line leads where it is an entry of its own.
		{family: "NCCL: torch's unhandled-cuda summary with NCCL's last error out of memory: the detail leads, as CUDA's out of memory", want: "cuda-error-out-of-memory", lines: []string{
			distBackend("Cuda failure 2 'out of memory'"),
		}},
		{family: "NCCL: torch's unhandled-cuda summary", want: "nccl-unhandled-cuda-error", lines: []string{
			distBackend("Cuda failure 'named symbol not found'"),
			rawTB("torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.26.2"),
			"RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)",
		}},
		{family: "NCCL: routine socket, bootstrap and ignored CUDA lines", lines: []string{
			"gpu-node-3:41278:41278 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.3<0>",
			"gpu-node-3:41278:41278 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.3<0>",
			"gpu-node-3:41278:41390 [0] NCCL INFO Call to connect returned Connection refused, retrying",
			"gpu-node-3:41278:41278 [0] NCCL INFO NET/IB : No device found.",
			"gpu-node-3:41278:41278 [0] NCCL INFO NCCL_SOCKET_FAMILY set by environment to AF_INET",
			"gpu-node-3:41278:41278 [0] NCCL INFO NCCL_COMM_ID set by environment to 10.0.0.3:29500",
		}},
		{family: "torch_npu: the task queue exits on an aclnn operator's error", want: "npu-function-error", lines: []string{
			rawTB(npuExit("aclnnIsNegInf.")),
			vllmCore(npuExit("aclnnIsNegInf.")),
			"(Worker_DP0_TP0_EP0 pid=359) ERROR 12-29 13:22:33 [multiproc_executor.py:824] " + npuExit("aclnnRmsNorm."),
			tb(npuExit("aclnnMatmul.")),
			rawTB("RuntimeError: The Inner error is reported as above, and the current working operator name is aclnnLinalgVectorNorm."),
		}},
		{family: "torch_npu: the task queue exits on another operator's error", want: "ascend-cann-inner-error", lines: []string{
			rawTB(npuExit("HcclAllreduce.")),
			rawTB(npuExit("SelfAttentionOperation.")),
			rawTB("RuntimeError: The Inner error is reported as above, and the current working operator name is ReshapeCacheOperation."),
			rawTB("RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current copy params are srclen=24, dstlen=24, kind=1."),
		}},
		{family: "torch_npu: routine lines about the launch mode", lines: []string{
			"export ASCEND_LAUNCH_BLOCKING=1  # run operators synchronously while debugging",
			"[INFO] 2026-01-21-06:59:30 (PID:555, Device:0, RankID:-1) torch_npu: ASCEND_LAUNCH_BLOCKING is not set, operators run asynchronously",
		}},
		{family: "Ray: the memory monitor kills a worker", want: "ray-memory-monitor-killed-worker", lines: []string{
			rayKill("task (task ID: 43534ce9375fa8e4cd0d0ec285d9974a6a95897401000000, name=allocate_memory, pid=11362, memory used=1.25GB)"),
			rayKill("task (actor ID: 0dab4ab45f6c947201afac6d01000000, name=RayWorkerVllm.__init__, pid=308, memory used=11.15GB)"),
			rayKill("lease (lease ID: 010000002e3a77fe4c5945aab2ea7157805027c656e12b9617fb36a5d6ebfc6b, name=WorkerDict.__init__, pid=3048142, memory used=49.21GB)"),
			"[2023-05-27 13:36:07,742 W 114781 114781] (gcs_server) gcs_worker_manager.cc:55: Reporting worker exit, worker id = 1c42, node id = ffff, address = , exit_type = NODE_OUT_OF_MEMORY, exit_detail = Task was killed due to the node running low on memory.",
			"(raylet) Task _map_task failed due to oom. There are infinite oom retries remaining, so the task will be retried. Error: 1 worker(s) were killed due to the node running low on memory. Memory on the node (IP: 10.0.50.112, ID: 4cb2) was 28.62GB / 30.00GB (0.954017), which exceeds the memory usage threshold of 0.950000; Object store memory usage: [- objects spillable: 0]",
			rawTB("ray.exceptions.OutOfMemoryError: 1 worker(s) were killed due to the node running low on memory."),
			rawTB("ray.memory_monitor.RayOutOfMemoryError: More than 95% of the memory on node suwi is used (30.47 / 31.3 GB). The top 10 memory consumers are:"),
		}},
		{family: "Ray: a resource request no node can meet", want: "ray-resource-request-unschedulable", lines: []string{
			"(autoscaler +1m2s) Warning: The following resource request cannot be scheduled right now: {'GPU': 1.0, 'CPU': 1.0}. This is likely due to all cluster resources being claimed by actors. Consider creating fewer actors or adding more nodes to this Ray cluster.",
			"(scheduler +2m2s) Warning: The following resource request cannot be scheduled right now: {'CPU': 1.0}.",
			"2024-05-01 12:00:00,123\tWARNING worker.py:1215 -- The actor or task with ID ffffffffffffffff5e1a cannot be scheduled right now. You can ignore this message if this Ray cluster is expected to auto-scale or if you specified a runtime_env for this actor or task, which may take time to install.",
			"(autoscaler +5s) Error: No available node types can fulfill resource request {'GPU': 8.0}. Add suitable node types to this cluster to resolve this issue.",
			rawTB("ray.exceptions.ActorUnschedulableError: The actor is not schedulable: The node specified via NodeAffinitySchedulingStrategy doesn't exist any more or is infeasible, and soft=False was specified."),
			// Ray Serve's controller on replicas it cannot place
			// (kuberay#3151, ray#48471, kuberay#1090).
			"WARNING 2025-03-04 01:04:33,560 controller 306 -- Deployment 'demoRetrievalVoyagerIndexServiceHandler' in application 'demo_recsys_retrieval_voyager_index_service' has 1 replicas that have taken more than 30s to be scheduled. This may be due to waiting for the cluster to auto-scale or for a runtime environment to be installed. Resources required for each replica: {\"CPU\": 2.0}, total resources available: {\"CPU\": 10.0}. Use `ray status` for more details.",
			"Deployment 'my-deployment' in application 'my-deployment' 1 replicas that have taken more than 30s to be scheduled. This may be due to waiting for the cluster to auto-scale or for a runtime environment to be installed. Resources required for each replica: {\"GPU\": 0.32}, total resources available: {\"GPU\": 0.36}. Use `ray status` for more details.",
			"WARNING 2023-05-13 23:26:26,277 controller 162 deployment_state.py:1613 - Deployment \"MangoStand\" has 1 replicas that have taken more than 30s to be scheduled. This may be caused by waiting for the cluster to auto-scale, or waiting for a runtime environment to install. Resources required for each replica: {\"CPU\": 3.0}, resources available: {\"CPU\": 5.6}.",
		}},
		{family: "Ray: its session disk is full", want: "ray-object-store-full", lines: []string{
			"[2024-05-01 12:00:00,123 E 4242 4242] (raylet) file_system_monitor.cc:116: /tmp/ray/session_2024-05-01_11-58-01_123456_1/logs is over 95% full, available space: 1.2 GB; capacity: 100 GB. Object creation will fail if spilling is required.",
			rawTB("ray.exceptions.OutOfDiskError: Local disk is full"),
		}},
		{family: "Ray: its control store cannot be reached", want: "ray-gcs-unreachable", lines: []string{
			rawTB("ConnectionError: Could not read 'session_name' from GCS. Did GCS start successfully?"),
		}},
		{family: "Ray: the raylet or its node is gone", want: "ray-raylet-died", lines: []string{
			"[2024-05-01 12:00:00,123 E 4242 4242] (raylet) main.cc:301: The raylet exited immediately because one Ray agent failed, agent_name = runtime_env_agent.",
		}},
		{family: "Ray: a task lost with its node", want: "ray-node-marked-dead", lines: []string{
			rawTB("ray.exceptions.NodeDiedError: Task failed due to the node dying."),
		}},
		{family: "Ray: status and monitor lines that mention memory", lines: []string{
			" 0B/20.00GiB memory",
			" 0B/9.31GiB object_store_memory",
			"[2024-05-01 12:00:00,123 I 4242 4242] (raylet) memory_monitor.cc:48: MemoryMonitor initialized with usage threshold at 95% of memory",
			"export RAY_memory_usage_threshold=0.98  # kill workers only when node memory use exceeds 98%",
			"(autoscaler +2s) Tip: use `ray status` to view detailed cluster status. To disable these messages, set RAY_SCHEDULER_EVENTS=0.",
			"(autoscaler +2m28s) Resized to 4 CPUs.",
			"2024-05-01 12:00:00,123\tINFO worker.py:1816 -- Connecting to existing Ray cluster at address: 10.0.0.3:6379...",
		}},
		{family: "dynamo: etcd out of reach at start and after a lost connection", want: "dynamo-etcd-unreachable", lines: []string{
			dynamo("ERROR", "dynamo_runtime::distributed: Unable to connect to etcd server at http://etcd:2379. Check etcd server status"),
			dynamo("ERROR", "dynamo_runtime::transports::etcd: Unable to reconnect to ETCD cluster: deadline exceeded"),
			"Error: Unable to connect to etcd server at http://localhost:2379. Check etcd server status",
			// A Python-built worker's lease: raised, and as a Rust panic
			// at its unwrap (apache/beam's vLLM worker; dynamo's tests).
			"E   Exception: Unable to create lease. Check etcd server status at http://localhost:2379",
			"thread '<unnamed>' panicked at /opt/dynamo/lib/runtime/src/storage/kv.rs:440:29:\ncalled `Result::unwrap()` on an `Err` value: BuildError(Unable to create lease. Check etcd server status at http://localhost:2379",
		}},
		{family: "dynamo: a NATS server without JetStream", want: "dynamo-nats-jetstream-unavailable", lines: []string{
			dynamo("ERROR", "dynamo_runtime::transports::nats: JetStream not available: jetstream error: 503 (code 503)"),
			rawTB("Exception: JetStream not available: timed out: didn't receive any message"),
		}},
		{family: "dynamo: routine connection lines", lines: []string{
			dynamo("WARN", "dynamo_runtime::transports::etcd::connector: Reconnecting to ETCD cluster at: [\"http://etcd:2379\"]"),
			dynamo("INFO", "dynamo_runtime::transports::etcd::connector: Successfully reconnected to ETCD cluster"),
		}},
		{family: "torch on ROCm: no GPU in the process", want: "no-cuda-gpus-available", lines: []string{
			rawTB("RuntimeError: No HIP GPUs are available"),
			"rocBLAS error: Could not initialize Tensile host: No devices found",
			"ollama  | rocBLAS error: Could not initialize Tensile host: No devices found",
			tb("RuntimeError: No CUDA GPUs are available"),
		}},
		{family: "the kubelet: a probe answered 404 on its path", want: "health-probe-endpoint-not-found", lines: []string{
			event("Warning", "Unhealthy", "Liveness probe failed: HTTP probe failed with statuscode: 404"),
			getEvent("Warning", "Unhealthy", "Readiness probe failed: HTTP probe failed with statuscode: 404"),
			kubelet(`prober.go:107] "Probe failed" probeType="Liveness" pod="llm/vllm-7d9f8b6c5-x2v9k" podUID="2b7c4f1e-0d2a-4c55-9a61-7f0c1d2e3f40" containerName="vllm" probeResult="failure" output="HTTP probe failed with statuscode: 404"`),
			kubelet(`prober.go:116] Liveness probe for "vllm-7d9f8b6c5-x2v9k_llm(2b7c4f1e-0d2a-4c55-9a61-7f0c1d2e3f40):vllm" failed (failure): HTTP probe failed with statuscode: 404`),
		}},
		{family: "the kubelet: a liveness or startup probe failed", want: "k8s-probe-failed", lines: []string{
			event("Warning", "Unhealthy", `Liveness probe failed: Get "http://10.1.2.3:8000/health": dial tcp 10.1.2.3:8000: connect: connection refused`),
			getEvent("Warning", "Unhealthy", "Startup probe failed: HTTP probe failed with statuscode: 503"),
			kubelet(`prober.go:107] "Probe failed" probeType="Liveness" pod="llm/vllm-7d9f8b6c5-x2v9k" podUID="2b7c4f1e-0d2a-4c55-9a61-7f0c1d2e3f40" containerName="vllm" probeResult="failure" output="Get \"http://10.1.2.3:8000/health\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"`),
			kubelet(`prober.go:116] Startup probe for "vllm-7d9f8b6c5-x2v9k_llm(2b7c4f1e-0d2a-4c55-9a61-7f0c1d2e3f40):vllm" failed (failure): Get http://10.1.2.3:8000/health: dial tcp 10.1.2.3:8000: connect: connection refused`),
			event("Warning", "Unhealthy", `Liveness probe errored: rpc error: code = DeadlineExceeded desc = context deadline exceeded`),
		}},
		{family: "the kubelet: the container killed after its probe failed", want: "k8s-probe-restarted-container", lines: []string{
			"  Normal   Killing    25m  kubelet  Container vllm failed liveness probe, will be restarted",
			getEvent("Normal", "Killing", "Container vllm failed startup probe, will be restarted"),
			kubelet(`kuberuntime_manager.go:1010] "Message for Container of pod" containerName="vllm" containerStatusID={Type:containerd ID:5f0c} pod="llm/vllm-7d9f8b6c5-x2v9k" containerMessage="Container vllm failed liveness probe, will be restarted"`),
		}},
		{family: "Kubernetes: a node the control plane lost", want: "k8s-node-not-ready", lines: []string{
			"  Warning  NodeNotReady  2m  node-controller  Node is not ready",
			getEvent("Warning", "NodeNotReady", "Node is not ready"),
			"3m          Normal    NodeNotReady   node/gpu-3   Node gpu-3 status is now: NodeNotReady",
		}},
		{family: "Kubernetes: a claim no storage class provisions", want: "k8s-volume-mount-failed", lines: []string{
			`  Warning  ProvisioningFailed  2m  persistentvolume-controller  storageclass.storage.k8s.io "fast-ssd" not found`,
			`  Warning  ProvisioningFailed  2m  ebs.csi.aws.com_ebs-csi-controller-0  failed to provision volume with StorageClass "gp3": rpc error: code = Internal desc = Could not create volume "pvc-1234": UnauthorizedOperation`,
		}},
		{family: "the kubelet: routine events and readiness during start-up", lines: []string{
			"  Normal   Scheduled  28m  default-scheduler  Successfully assigned llm/vllm-7d9f8b6c5-x2v9k to gpu-3",
			`  Normal   Pulled     28m  kubelet  Container image "vllm/vllm-openai:v0.9.1" already present on machine`,
			"  Normal   Started    28m  kubelet  Started container vllm",
			"  Normal   Killing    2m   kubelet  Stopping container vllm",
			"3m          Normal    NodeReady   node/gpu-3   Node gpu-3 status is now: NodeReady",
			"  Normal   ScalingReplicaSet  28m  deployment-controller  Scaled up replica set vllm-7d9f8b6c5 to 1",
			event("Warning", "Unhealthy", `Readiness probe failed: Get "http://10.1.2.3:8000/health": dial tcp 10.1.2.3:8000: connect: connection refused`),
			kubelet(`prober.go:107] "Probe failed" probeType="Readiness" pod="llm/vllm-7d9f8b6c5-x2v9k" podUID="2b7c4f1e-0d2a-4c55-9a61-7f0c1d2e3f40" containerName="vllm" probeResult="failure" output="HTTP probe failed with statuscode: 503"`),
		}},
	}
}

// TestLayerWordings checks each layer's failure formats across its
// writers' releases and the routine lines beside them.
func TestLayerWordings(t *testing.T) {
	checkWordings(t, compileCatalog(t), layerWordings())
}

// Examples of the records the layers' sweep added, and lines of the
// records it widened.
var layerRecordExamples = map[string]example{
	"nccl-comm-id-invalid": {
		match: []string{
			"gpu-node-3:41278:41278 [0] bootstrap.cc:114 NCCL WARN Invalid NCCL_COMM_ID, please use format: <ipv4>:<port> or [<ipv6>]:<port> or <hostname>:<port>",
			"gpu-node-3:41278:41278 [0] misc/socket.cc:289 NCCL WARN Net : error encountered when getting address info : Name or service not known",
		},
		miss: []string{"gpu-node-3:41278:41278 [0] NCCL INFO NCCL_COMM_ID set by environment to 10.0.0.3:29500"},
	},
	"k8s-node-not-ready": {
		match: []string{
			"  Warning  NodeNotReady  2m  node-controller  Node is not ready",
			"3m          Normal    NodeNotReady   node/gpu-3   Node gpu-3 status is now: NodeNotReady",
		},
		miss: []string{"3m          Normal    NodeReady   node/gpu-3   Node gpu-3 status is now: NodeReady"},
	},
	"k8s-probe-restarted-container": {
		match: []string{
			"  Normal   Killing    3m   kubelet  Container sglang failed liveness probe, will be restarted",
			"2m          Normal    Killing   pod/sglang-0   Container sglang failed startup probe, will be restarted",
		},
		miss: []string{"  Normal   Killing    3m   kubelet  Stopping container sglang"},
	},
}

var layerRecordsWidened = map[string]example{
	"nccl-no-network-interface": {
		match: []string{
			"include/socket.h:344 WARN Socket creation failed : Address family not supported by protocol",
			"gpu-node-3:41278:41390 [0] os/linux.cc:258 NCCL WARN Call to socket failed: Address family not supported by protocol",
		},
		miss: []string{"gpu-node-3:41278:41390 [0] misc/socket.cc:713 NCCL WARN ncclSocketInit: Socket creation failed : Too many open files"},
	},
	"nccl-cuda-failure": {
		match: []string{"Last error:\nCuda failure 'named symbol not found'"},
		miss:  []string{"gpu-node-3:41278:41278 [0] NCCL INFO Cuda failure 'named symbol not found'"},
	},
	"nccl-collective-mismatch": {
		match: []string{"gpu-node-3:41278:41390 [0] bootstrap.cc:224 NCCL WARN Message truncated : received 1024 bytes instead of 256"},
		miss:  []string{"/sgl-workspace/nvshmem/src/modules/bootstrap/uid/bootstrap_uid.cpp:bootstrap_net_recv:99: Message truncated : received 36 bytes instead of 1"},
	},
	"npu-function-error": {
		match: []string{"RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is aclnnIsNegInf."},
		miss:  []string{"RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is HcclAllreduce."},
	},
	"ray-memory-monitor-killed-worker": {
		match: []string{"Error: 1 worker(s) were killed due to the node running low on memory. Memory on the node (IP: 10.0.50.112, ID: 4cb2) was 28.62GB / 30.00GB (0.954017), which exceeds the memory usage threshold of 0.950000"},
		miss:  []string{" 0B/20.00GiB memory"},
	},
	"k8s-probe-failed": {
		match: []string{`I1202 08:14:09.318207    2211 prober.go:107] "Probe failed" probeType="Liveness" pod="llm/vllm-0" podUID="2b7c" containerName="vllm" probeResult="failure" output="Get \"http://10.1.2.3:8000/health\": context deadline exceeded"`},
		miss:  []string{`I1202 08:14:09.318207    2211 prober.go:107] "Probe failed" probeType="Readiness" pod="llm/vllm-0" podUID="2b7c" containerName="vllm" probeResult="failure" output="Get \"http://10.1.2.3:8000/health\": context deadline exceeded"`},
	},
	"health-probe-endpoint-not-found": {
		match: []string{`I1202 08:14:09.318207    2211 prober.go:107] "Probe failed" probeType="Liveness" pod="llm/vllm-0" podUID="2b7c" containerName="vllm" probeResult="failure" output="HTTP probe failed with statuscode: 404"`},
		miss:  []string{`I1202 08:14:09.318207    2211 prober.go:107] "Probe failed" probeType="Liveness" pod="llm/vllm-0" podUID="2b7c" containerName="vllm" probeResult="failure" output="HTTP probe failed with statuscode: 503"`},
	},
}

func init() { addExamples(layerRecordExamples, layerRecordsWidened) }
