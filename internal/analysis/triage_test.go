package analysis_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/logmatch/logmatch/internal/analysis"
)

const tbHead = "Traceback (most recent call last):\n"

func frame(file, fn, code string) string {
	return "  File \"" + file + "\", line 10, in " + fn + "\n    " + code + "\n"
}

func TestTriage(t *testing.T) {
	sched := frame("/sgl/python/sglang/srt/managers/scheduler.py", "run_scheduler_process", "scheduler = Scheduler(...)")
	tests := []struct {
		name string
		in   string
		want analysis.Triage
	}{
		{
			name: "a traceback cut at the call its last frame made: that call's phase, inside the start-up its outer frames name",
			in: tbHead + sched +
				frame("/sgl/python/sglang/srt/managers/scheduler.py", "__init__", "self.init_model_worker()") +
				frame("/sgl/python/sglang/srt/speculative/multi_layer_eagle_worker.py", "__init__", "self.init_cuda_graphs()"),
			want: analysis.Triage{Process: "scheduler", Phase: "capturing CUDA graphs", Component: "speculative decoding"},
		},
		{
			name: "the same cut, every line a space shorter (a rank's prefix taken off with the space after it): the call is still the source line under its frame",
			in: strings.ReplaceAll(tbHead+sched+
				frame("/sgl/python/sglang/srt/managers/scheduler.py", "__init__", "self.init_model_worker()")+
				frame("/sgl/python/sglang/srt/speculative/multi_layer_eagle_worker.py", "__init__", "self.init_cuda_graphs()"), "\n ", "\n"),
			want: analysis.Triage{Process: "scheduler", Phase: "capturing CUDA graphs", Component: "speculative decoding"},
		},
		{
			name: "the same cut, every line two spaces deeper (a quoted paste)",
			in: strings.ReplaceAll(tbHead+sched+
				frame("/sgl/python/sglang/srt/managers/scheduler.py", "__init__", "self.init_model_worker()")+
				frame("/sgl/python/sglang/srt/speculative/multi_layer_eagle_worker.py", "__init__", "self.init_cuda_graphs()"), "\n ", "\n   "),
			want: analysis.Triage{Process: "scheduler", Phase: "capturing CUDA graphs", Component: "speculative decoding"},
		},
		{
			name: "the same call with its exception line: the frames' phase, the call no longer the innermost",
			in: tbHead + sched +
				frame("/sgl/python/sglang/srt/managers/scheduler.py", "__init__", "self.init_model_worker()") +
				frame("/sgl/python/sglang/srt/speculative/multi_layer_eagle_worker.py", "__init__", "self.init_cuda_graphs()") +
				"KeyError: 'draft'\n",
			want: analysis.Triage{Process: "scheduler", Phase: "starting", Component: "speculative decoding", Family: analysis.FamilyBug},
		},
		{
			name: "a KeyError in a model's load_weights under the scheduler's start-up: loading weights, the checkpoint does not match",
			in: tbHead + sched +
				frame("/sgl/python/sglang/srt/model_executor/model_runner.py", "load_model", "self.model = get_model(...)") +
				frame("/sgl/python/sglang/srt/models/qwen2.py", "load_weights", "param = params_dict[name]") +
				"KeyError: 'lm_head.weight'\n",
			want: analysis.Triage{Process: "scheduler", Phase: "loading weights", Family: analysis.FamilyWeights},
		},
		{
			name: "a user script's collective whose exception says NCCL failed: a collective failure",
			in: tbHead + frame("/home/u/train.py", "step", "dist.all_gather(out, x, group=g)") +
				frame("/venv/torch/distributed/distributed_c10d.py", "all_gather", "work = group.allgather([tensor_list], [tensor])") +
				"RuntimeError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1191, unhandled system error, NCCL version 2.10.3\n",
			want: analysis.Triage{Family: analysis.FamilyCollective},
		},
		{
			name: "a bare exception line that says the weights leave no memory for the KV cache: sizing the memory pool, memory",
			in:   "ValueError: Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static=0.88.\n",
			want: analysis.Triage{Phase: "initialising the memory pool", Family: analysis.FamilyMemory},
		},
		{
			name: "a launcher's variable missing at rendezvous: the environment family, its variable the subject",
			in: tbHead + frame("/spec/torch/distributed/rendezvous.py", "_env_rendezvous_handler", "rank = int(_get_env_or_raise(\"RANK\"))") +
				"ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable RANK expected, but not set\n",
			want: analysis.Triage{Phase: "initialising the distributed backend", Family: analysis.FamilyEnv, Subject: "RANK"},
		},
		{
			name: "a glog E line that says no more: a native library's error, its source file the subject",
			in:   "E0925 00:24:39.141773  4418 peer_client.cpp:353] Failed to get the peer's descriptor\n",
			want: analysis.Triage{Family: analysis.FamilyLibrary, Subject: "peer_client.cpp"},
		},
		{
			name: "a located line whose library says no component: the file, without its directory",
			in:   "/opt/lib/src/core/session_pool.cc:88: request queue failed: too many entries\n",
			want: analysis.Triage{Family: analysis.FamilyLibrary, Subject: "session_pool.cc"},
		},
		{
			name: "a CANN error block no record names: an NPU fault",
			in:   "[ERROR] 2025-09-19-14:34:08 (PID:5625, Device:0, RankID:0) ERR01005 OPS internal error\nEE9999: Inner Error!\n",
			want: analysis.Triage{Family: analysis.FamilyNPU},
		},
		{
			name: "a transfer engine's glog line: its component, no library family",
			in:   "E0925 00:24:39.141773  4418 transfer_metadata_plugin.cpp:353] Failed to get the peer's descriptor\n",
			want: analysis.Triage{Component: "transfer engine"},
		},
		{
			name: "a user script's RuntimeError that names no collective library: no family",
			in: tbHead + frame("/home/u/train.py", "step", "loss = model(x)") +
				"RuntimeError: the batch was empty after filtering\n",
			want: analysis.Triage{},
		},
		{
			name: "a shape mismatch in the weight loader: the checkpoint does not match",
			in: tbHead + sched +
				frame("/sgl/python/sglang/srt/model_executor/model_runner.py", "load_model", "self.model = get_model(...)") +
				frame("/sgl/python/sglang/srt/layers/linear.py", "weight_loader", "loaded_weight.split(sizes)") +
				"RuntimeError: split_with_sizes expects split_sizes to sum exactly to 1, but got 3\n",
			want: analysis.Triage{Process: "scheduler", Phase: "loading weights", Family: analysis.FamilyWeights},
		},
		{
			name: "an import error while the scheduler serves, in the grammar backend",
			in: tbHead + sched + frame("/sgl/python/sglang/srt/managers/scheduler.py", "event_loop_normal", "self.process_input_requests(reqs)") +
				frame("/sgl/python/sglang/srt/constrained/xgrammar_backend.py", "dispatch_json", "import xgrammar") +
				"ImportError: cannot import name 'GrammarCompiler' from 'xgrammar'\n",
			want: analysis.Triage{Process: "scheduler", Phase: "serving requests", Family: analysis.FamilyImport, Component: "grammar backend", Subject: "xgrammar",
				Importer: "srt/constrained/xgrammar_backend.py"},
		},
		{
			name: "an assertion while capturing CUDA graphs with speculative decoding",
			in: tbHead + sched + frame("/sgl/python/sglang/srt/model_executor/cuda_graph_runner.py", "capture", "self.capture_one_batch_size(bs)") +
				frame("/sgl/python/sglang/srt/speculative/eagle_worker.py", "forward", "assert x") +
				"AssertionError\n",
			want: analysis.Triage{Process: "scheduler", Phase: "capturing CUDA graphs", Family: analysis.FamilyConfig, Component: "speculative decoding"},
		},
		{
			name: "sglang 0.2's controller process starting its model worker",
			in: tbHead + frame("/home/sglang/python/sglang/srt/managers/controller_single.py", "start_controller_process", "controller = ControllerSingle(") +
				frame("/home/sglang/python/sglang/srt/managers/controller_single.py", "__init__", "self.tp_server = ModelTpServer(") +
				"NotImplementedError\n",
			want: analysis.Triage{Process: "scheduler", Phase: "starting", Family: analysis.FamilySupport},
		},
		{
			name: "a LoRA adapter's weights do not fit the pool while the scheduler serves",
			in: tbHead + sched + frame("/sgl/python/sglang/srt/managers/scheduler.py", "event_loop_normal", "self.process_input_requests(reqs)") +
				frame("/sgl/python/sglang/srt/lora/mem_pool.py", "load_lora_weight_to_buffer", "buffer[i].copy_(weights)") +
				"RuntimeError: The size of tensor a (64) must match the size of tensor b (128) at non-singleton dimension 0\n",
			want: analysis.Triage{Process: "scheduler", Phase: "serving requests", Family: analysis.FamilyShape, Component: analysis.ComponentLoRA},
		},
		{
			name: "a traceback cut after its first frame: the source line under it says what it was calling",
			in:   "[2025-12-05 09:06:37 DP4 PP0 TP4] Scheduler hit an exception: " + tbHead + frame("/sgl/python/sglang/srt/managers/scheduler.py", "run_scheduler_process", "scheduler.event_loop_pp()"),
			want: analysis.Triage{Process: "scheduler", Phase: "serving requests"},
		},
		{
			name: "frames of the web framework alone: the HTTP server",
			in: tbHead + frame("/usr/local/lib/python3.12/dist-packages/starlette/routing.py", "app", "await response(scope, receive, send)") +
				frame("/usr/local/lib/python3.12/dist-packages/starlette/responses.py", "stream_response", "async for chunk in self.body_iterator:") +
				"RuntimeError: stream ended\n",
			want: analysis.Triage{Process: "HTTP server"},
		},
		{
			name: "sglang's own frame under the framework's names its process",
			in: tbHead + frame("/usr/local/lib/python3.12/dist-packages/starlette/routing.py", "app", "await response(scope, receive, send)") +
				frame("/sgl/python/sglang/srt/managers/tokenizer_manager.py", "_wait_one_response", "raise ValueError(msg)") +
				"ValueError: the request was aborted\n",
			want: analysis.Triage{Process: "tokenizer manager", SGLang: true},
		},
		{
			name: "an address in use while the ranks meet",
			in: tbHead + frame("/sgl/python/sglang/srt/model_executor/model_runner.py", "init_torch_distributed", "init_distributed_environment(...)") +
				"torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: 20000, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use\n",
			want: analysis.Triage{Process: "scheduler", Phase: "initialising the distributed backend", Family: analysis.FamilyNetwork},
		},
		{
			name: "a missing file in the tokenizer manager",
			in: tbHead + frame("/sgl/python/sglang/srt/managers/tokenizer_manager.py", "__init__", "self.tokenizer = get_tokenizer(...)") +
				frame("/sgl/python/sglang/srt/hf_transformers_utils.py", "get_tokenizer", "open(path)") +
				"FileNotFoundError: [Errno 2] No such file or directory: '/models/x/tokenizer.json'\n",
			want: analysis.Triage{Process: "tokenizer manager", Phase: "loading the tokenizer", Family: analysis.FamilyFile, Subject: "/models/x/tokenizer.json"},
		},
		{
			name: "a driver's traceback cut at Ray's re-raise: the Ray driver, which re-raised a remote task's failure",
			in: tbHead + frame("/w/verl/trainer/main_ppo.py", "run_ppo", "ray.get(main_task.remote(config))") +
				frame("/env/site-packages/ray/_private/worker.py", "get", "values, debugger_breakpoint = worker.get_objects(object_refs, timeout=timeout)") +
				frame("/env/site-packages/ray/_private/worker.py", "get_objects", "raise value.as_instanceof_cause()"),
			want: analysis.Triage{Process: "Ray driver"},
		},
		{
			name: "a Ray helper that is not ray.get: no Ray driver",
			in: tbHead + frame("/env/site-packages/ray/_private/worker.py", "init", "connect(...)") +
				"ConnectionError: ray client connection timeout\n",
			want: analysis.Triage{Family: analysis.FamilyNetwork},
		},
		{
			name: "sglang's first releases: the router process starting its model workers is the scheduler",
			in:   "router init state: " + tbHead + frame("/s/sglang/python/sglang/srt/managers/router/manager.py", "start_router_process", "model_client = ModelRpcClient(server_args, port_args)"),
			want: analysis.Triage{Process: "scheduler", Phase: "starting"},
		},
		{
			name: "today's router package is the router, not the scheduler",
			in: tbHead + frame("/env/site-packages/sglang_router/launch_router.py", "launch_router", "router.start()") +
				"RuntimeError: failed to bind\n",
			want: analysis.Triage{Process: "router"},
		},
		{
			name: "an import of sglang by another installed package: that package's file is the importer",
			in: tbHead + frame("/venv/lib/python3.11/site-packages/fastchat/serve/sglang_worker.py", "<module>", "from sglang.srt.utils import x") +
				"ImportError: cannot import name 'x' from 'sglang.srt.utils' (/venv/lib/python3.11/site-packages/sglang/srt/utils.py)\n",
			want: analysis.Triage{Family: analysis.FamilyImport, Subject: "sglang.srt.utils", Importer: "fastchat/serve/sglang_worker.py"},
		},
		{
			name: "an import inside the package it names: no importer",
			in: tbHead + frame("/venv/lib/python3.11/site-packages/vllm/model_executor/layers/utils.py", "<module>", "from vllm import _custom_ops") +
				"ImportError: cannot import name '_custom_ops' from 'vllm' (/venv/lib/python3.11/site-packages/vllm/__init__.py)\n",
			want: analysis.Triage{Family: analysis.FamilyImport, Subject: "vllm"},
		},
		{
			name: "an import from the interpreter's prompt: no importer",
			in: tbHead + "  File \"<stdin>\", line 1, in <module>\n" +
				"ModuleNotFoundError: No module named 'ninja_build'\n",
			want: analysis.Triage{Family: analysis.FamilyImport, Subject: "ninja_build"},
		},
		{
			name: "a Triton kernel compiled just in time under the scheduler's start-up",
			in: tbHead + sched + frame("/sgl/python/sglang/srt/layers/moe/fused_moe.py", "invoke_fused_moe_kernel", "kernel[grid](...)") +
				frame("/env/site-packages/triton/compiler/compiler.py", "compile", "next_module = compile_ir(module, metadata)") +
				"RuntimeError: PassManager::run failed\n",
			want: analysis.Triage{Process: "scheduler", Phase: "compiling kernels"},
		},
		{
			name: "a C++ extension built with ninja",
			in: tbHead + frame("/env/site-packages/torch/utils/cpp_extension.py", "_run_ninja_build", "raise RuntimeError(message) from e") +
				"RuntimeError: Error building extension 'x'\n",
			want: analysis.Triage{Phase: "compiling kernels"},
		},
		{
			name: "a Triton kernel launched, not compiled: no compile phase",
			in: tbHead + frame("/env/site-packages/triton/runtime/jit.py", "run", "kernel.run(...)") +
				"RuntimeError: Triton Error [CUDA]: an illegal memory access was encountered\n",
			want: analysis.Triage{Family: analysis.FamilyGPU},
		},
		{
			name: "a model class built before its weights are read: loading weights",
			in: tbHead + frame("/sgl/python/sglang/srt/models/minimax_m2.py", "__init__", "self.experts = FusedMoE(...)") +
				frame("/sgl/python/sglang/srt/layers/moe/fused_moe_triton/layer.py", "__init__", "assert self.num_experts % tp == 0") +
				"AssertionError\n",
			want: analysis.Triage{Phase: "loading weights", Family: analysis.FamilyConfig},
		},
		{
			name: "a model's forward is no weight loading",
			in: tbHead + frame("/sgl/python/sglang/srt/models/llama.py", "forward", "hidden = self.model(x)") +
				"IndexError: index out of range\n",
			want: analysis.Triage{Family: analysis.FamilyBug},
		},
		{
			name: "sglang's first releases: a batch run in forward_fill_batch, flashinfer's arguments set up",
			in: tbHead + frame("/s/sglang/srt/managers/controller/tp_worker.py", "forward_fill_batch", "output = self.model_runner.forward(batch)") +
				frame("/s/sglang/srt/managers/controller/model_runner.py", "init_flashinfer_args", "wrapper.begin_forward(...)") +
				"TypeError: begin_forward() missing 1 required positional argument: 'page_size'\n",
			want: analysis.Triage{Process: "scheduler", Phase: "serving requests", Family: analysis.FamilyBug, Component: "attention backend"},
		},
		{
			name: "an attention backend's file named for its kernel",
			in: tbHead + frame(".../flashattention_backend.py", "forward_extend", "assert not args.disable_chunked_prefix_cache") +
				"AssertionError\n",
			want: analysis.Triage{Family: analysis.FamilyConfig, Component: "attention backend"},
		},
		{
			name: "the scheduler moving grammar requests: the grammar backend",
			in: tbHead + frame("/sgl/python/sglang/srt/managers/scheduler.py", "move_ready_grammar_requests", "self.grammar_queue[i].grammar = x") +
				"IndexError: list index out of range\n",
			want: analysis.Triage{Process: "scheduler", Family: analysis.FamilyBug, Component: "grammar backend"},
		},
		{
			name: "an OpenAI-compatible endpoint's handler runs in the HTTP server",
			in: tbHead + frame("/env/site-packages/fastapi/routing.py", "run_endpoint_function", "return await dependant.call(**values)") +
				frame("/env/site-packages/sglang/multimodal_gen/runtime/entrypoints/openai/image_api.py", "generations", "x = y[0]") +
				"TypeError: 'NoneType' object is not subscriptable\n",
			want: analysis.Triage{Process: "HTTP server", Family: analysis.FamilyBug},
		},
		{
			name: "a Marlin kernel is a quantized one",
			in: tbHead + frame("/sgl/python/sglang/srt/layers/moe/fused_moe_triton/fused_marlin_moe.py", "fused_marlin_moe", "moe_sum_reduce(x, y)") +
				frame("/env/site-packages/sgl_kernel/moe.py", "moe_sum_reduce", "torch.ops.sgl_kernel.moe_sum_reduce(x)") +
				"RuntimeError: moe_sum_reduce CUDA kernel (small-token) launch failed\n",
			want: analysis.Triage{Family: analysis.FamilyGPU, Component: "quantization"},
		},
		{
			name: "the custom all-reduce, named by its frames",
			in: tbHead + frame("/sgl/python/sglang/srt/distributed/device_communicators/custom_all_reduce.py", "__init__", "self._ptr = ops.init_custom_ar(...)") +
				"RuntimeError: CUDA error: peer access is not supported between these two devices\n",
			want: analysis.Triage{Family: analysis.FamilyGPU, Component: "custom all-reduce"},
		},
		{
			name: "vLLM's model_executor is no sglang scheduler; a cut traceback's opening line names the phase",
			in: "ERROR 10-23 23:20:26 registry.py:272] Error in inspecting model architecture 'LlamaForCausalLM'\n" +
				"ERROR 10-23 23:20:26 registry.py:272] " + tbHead +
				"ERROR 10-23 23:20:26 registry.py:272]   File \"/env/site-packages/vllm/model_executor/models/registry.py\", line 270, in _try_inspect_model_cls\n" +
				"ERROR 10-23 23:20:26 registry.py:272]     return model.inspect_model_cls()\n",
			want: analysis.Triage{Phase: "reading the model config"},
		},
		{
			name: "a transfer engine's glog line",
			in:   "E0904 21:29:13.608035 31963 transfer_task.cpp:469] Failed to open segment 192.168.10.12:12516\n",
			want: analysis.Triage{Component: "transfer engine"},
		},
		{
			name: "a program that embeds sglang's frontend Runtime, cut in it: the launcher, starting",
			in: tbHead + frame("/srv/app/worker.py", "<module>", "runtime = sgl.Runtime(") +
				frame("/venv/site-packages/sglang/api.py", "Runtime", "return Runtime(*args, **kwargs)"),
			want: analysis.Triage{Process: "launcher", Phase: "starting"},
		},
		{
			name: "an older sglang, whose Runtime's constructor in srt/server.py raised when the server did not come up: still the launcher starting",
			in: tbHead + frame("/home/u/FastChat/fastchat/serve/model_worker.py", "main", "rt = sglang.Runtime(model_path=p)") +
				frame("/home/u/.venv/lib/python3.11/site-packages/sglang/api.py", "Runtime", "return Runtime(*args, **kwargs)") +
				frame("/home/u/.venv/lib/python3.11/site-packages/sglang/srt/server.py", "__init__", "raise RuntimeError(msg)") +
				"RuntimeError: Initialization failed. Please see the error messages above.\n",
			want: analysis.Triage{Process: "launcher", Phase: "starting"},
		},
		{
			name: "an RL framework's own ValueError about its options: the training framework",
			in: tbHead + frame("/w/slime/slime/backends/megatron_utils/actor.py", "train", "self.fill(data)") +
				frame("/w/slime/slime/backends/megatron_utils/actor.py", "fill", "raise ValueError(") +
				"ValueError: foo is required in rollout_data when use_bar is set.\n",
			want: analysis.Triage{Component: analysis.ComponentTraining},
		},
		{
			name: "another framework's driver cut in its config runner: the training framework",
			in: tbHead + frame("/code/verl/trainer/main_ppo.py", "<module>", "main()") +
				frame("/venv/dist-packages/hydra/main.py", "decorated_main", "_run_hydra("),
			want: analysis.Triage{Component: analysis.ComponentTraining},
		},
		{
			name: "a framework's traceback that goes on into the engine's LoRA code: the engine's component, not the framework",
			in: tbHead + frame("/w/OpenRLHF/openrlhf/trainer/ppo.py", "fit", "self.engine.generate(x)") +
				frame("/venv/site-packages/sglang/srt/lora/lora_manager.py", "load", "raise ValueError(m)") +
				"ValueError: bad rank\n",
			want: analysis.Triage{Component: analysis.ComponentLoRA},
		},
		{
			name: "a client's traceback cut in urllib3 waiting for a response: the HTTP client",
			in: tbHead + frame("/usr/lib/dist-packages/urllib3/connectionpool.py", "urlopen", "response = self._make_request(") +
				frame("/usr/lib/dist-packages/urllib3/connectionpool.py", "_make_request", "response = conn.getresponse()"),
			want: analysis.Triage{Process: analysis.ProcessClient},
		},
		{
			name: "an httpx call from a bench script whose server closed the connection: the HTTP client, the connection dropped",
			in: tbHead + frame("/home/u/bench.py", "main", "r = client.post(url, json=body)") +
				frame("/venv/site-packages/httpx/_transports/default.py", "handle_request", "raise mapped_exc(message) from exc") +
				"httpx.RemoteProtocolError: Server disconnected without sending a response.\n",
			want: analysis.Triage{Process: analysis.ProcessClient, Family: analysis.FamilyDropped},
		},
		{
			name: "a bare line of a client whose server closed the connection: the connection dropped",
			in:   "Error: ('Connection aborted.', RemoteDisconnected('Remote end closed connection without response'))\n",
			want: analysis.Triage{Family: analysis.FamilyDropped},
		},
		{
			name: "a client's read that timed out waiting for the server's answer: the connection dropped, not a network that never connected",
			in:   "requests.exceptions.ReadTimeout: HTTPConnectionPool(host='10.0.0.2', port=30000): Read timed out. (read timeout=600)\n",
			want: analysis.Triage{Family: analysis.FamilyDropped},
		},
		{
			name: "a connect that timed out stays a network failure",
			in:   "requests.exceptions.ConnectTimeout: HTTPConnectionPool(host='10.0.0.2', port=30000): Max retries exceeded with url: /generate (Caused by ConnectTimeoutError(<urllib3.connection.HTTPConnection object at 0x7f>, 'Connection to 10.0.0.2 timed out. (connect timeout=10)'))\n",
			want: analysis.Triage{Family: analysis.FamilyNetwork},
		},
		{
			name: "aiohttp's words for the same",
			in:   "ERROR: request 12 failed: aiohttp.client_exceptions.ServerDisconnectedError: Server disconnected\n",
			want: analysis.Triage{Family: analysis.FamilyDropped},
		},
		{
			name: "a traceback cut inside the Hub's client, its frames wrapped and with backslashes: the Hub",
			in: "pebble.common.RemoteTraceback: Traceback (most recent call last):\n" +
				"  File \"d:\\env\\lib\\site-packages\\transformers\\utils\\hub.py\", line 409, in cached_file\n" +
				"    resolved_file = hf_hub_download(\n",
			want: analysis.Triage{Family: analysis.FamilyHub},
		},
		{
			name: "a cut traceback in snapshot_download: the Hub",
			in: tbHead + frame("/srv/sglang/srt/model_loader/weight_utils.py", "download_weights_from_hf", "hf_folder = snapshot_download(") +
				frame("/venv/site-packages/huggingface_hub/_snapshot_download.py", "snapshot_download", "thread_map("),
			want: analysis.Triage{Phase: "loading weights", Family: analysis.FamilyHub},
		},
		{
			name: "torch's rank line naming NCCL's system error code: a collective failure",
			in:   "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. Last error:\n",
			want: analysis.Triage{Family: analysis.FamilyCollective},
		},
		{
			name: "NCCL's remote error code in an exception: a collective failure",
			in:   "torch.distributed.DistBackendError: NCCL communicator was aborted. ncclRemoteError: A call failed possibly due to a network error\n",
			want: analysis.Triage{Family: analysis.FamilyCollective},
		},
		{
			name: "pydantic's validation error in a worker's line: a schema mismatch",
			in:   "Failed to register worker: 1 validation error for WorkerStatus\n",
			want: analysis.Triage{Family: analysis.FamilySchema},
		},
		{
			name: "pydantic's ValidationError raised: a schema mismatch",
			in:   "pydantic_core._pydantic_core.ValidationError: 3 validation errors for ChatCompletionRequest\n",
			want: analysis.Triage{Family: analysis.FamilySchema},
		},
		{
			name: "a Jinja error a server returns for a chat template: the chat template",
			in:   "chat template error: {\"error\": \"Jinja Exception: Conversation roles must alternate user/assistant/user/assistant\"}\n",
			want: analysis.Triage{Family: analysis.FamilyTemplate},
		},
		{
			name: "jinja2's TemplateError raised by transformers: the chat template",
			in:   "jinja2.exceptions.TemplateError: System role not supported\n",
			want: analysis.Triage{Family: analysis.FamilyTemplate},
		},
		{
			name: "a launch script that could not activate its environment: the launch script",
			in:   "[ERROR] Failed to activate environment\n",
			want: analysis.Triage{Family: analysis.FamilyScript},
		},
		{
			name: "a launch script's conda that does not activate: the launch script",
			in:   "ERROR: could not activate conda env sglang on node gpu-3\n",
			want: analysis.Triage{Family: analysis.FamilyScript},
		},
		{
			name: "a message about an environment variable is not a launch script's",
			in:   "RuntimeError: failed to activate the profiler: environment variable SGLANG_TORCH_PROFILER_DIR is not set\n",
			want: analysis.Triage{Family: analysis.FamilyEnv, Subject: "SGLANG_TORCH_PROFILER_DIR"},
		},
		{
			name: "an AttributeError's words re-raised inside a request's error, naming a LoRA layer: a code bug in the LoRA adapters",
			in:   "Exception: Error executing request r1: 'LinearWithLoRA' object has no attribute 'weight'\n",
			want: analysis.Triage{Family: analysis.FamilyBug, Component: analysis.ComponentLoRA},
		},
		{
			name: "a TypeError's words inside a RuntimeError: a code bug",
			in:   "RuntimeError: worker failed: 'NoneType' object is not subscriptable\n",
			want: analysis.Triage{Family: analysis.FamilyBug},
		},
		{
			name: "an API server's line that could not tell whether the output held tool calls: the tool-call parser",
			in:   "ERROR 05-01 10:00:00 [serving_chat.py:900] Error in chat_completion_full_generator - cannot determine if tools should be extracted.\n",
			want: analysis.Triage{Component: analysis.ComponentToolParser},
		},
		{
			name: "a tool-call parser's frames: the tool-call parser",
			in: tbHead + frame("/sgl/python/sglang/srt/function_call/qwen25_detector.py", "detect_and_parse", "action = json.loads(text)") +
				"KeyError: 'name'\n",
			want: analysis.Triage{Family: analysis.FamilyBug, Component: analysis.ComponentToolParser},
		},
		{
			name: "LMCache's own line naming its module: the KV cache connector",
			in:   "[2025-05-01 10:00:00,000] LMCache ERROR: Num retrieved tokens: 0, num expected tokens: 15 (vllm_v1_adapter.py:755:lmcache.integration.vllm.vllm_v1_adapter)\n",
			want: analysis.Triage{Component: analysis.ComponentKVConnector},
		},
		{
			name: "an LMCache line naming the Mooncake store it uses: the connector, not the transfer engine",
			in:   "[2025-05-01 10:00:00,000] LMCache ERROR: get failed: 'mooncake.store.Store' object has no attribute 'get_buffer' (connector.py:360:lmcache.v1.storage_backend.connector)\n",
			want: analysis.Triage{Family: analysis.FamilyBug, Component: analysis.ComponentKVConnector},
		},
		{
			name: "a kernel source that does not compile, in a build's output: a build failure",
			in:   "#42 3621.8 /app/pkg/csrc/kernels/norm_kernels.cu:223:5: error: use of undeclared identifier 'SOME_LAUNCH_CHECK'\n",
			want: analysis.Triage{Family: analysis.FamilyBuild},
		},
		{
			name: "g++'s words for the same: a build failure",
			in:   "/tmp/build/ext/ops.cpp:10:3: error: 'at_cuda_check' was not declared in this scope\n",
			want: analysis.Triage{Family: analysis.FamilyBuild},
		},
		{
			name: "an AttributeError raised in a user's own script: a bug in the caller's code",
			in: tbHead + frame("/home/u/bench/run.py", "main", "out = run(engine)") +
				frame("/home/u/bench/run.py", "run", "return resp.choices[0].text") +
				"AttributeError: 'NoneType' object has no attribute 'choices'\n",
			want: analysis.Triage{Family: analysis.FamilyCallerBug},
		},
		{
			name: "a TypeError raised in a Windows user's script: a bug in the caller's code",
			in: tbHead + "  File \"C:\\Users\\u\\proj\\client.py\", line 10, in ask\n    total += r[\"usage\"]\n" +
				"TypeError: unsupported operand type(s) for +=: 'int' and 'dict'\n",
			want: analysis.Triage{Family: analysis.FamilyCallerBug},
		},
		{
			name: "the same TypeError raised in an installed package called from the script: a code bug in the package",
			in: tbHead + frame("/home/u/proj/client.py", "ask", "c.chat(messages=m)") +
				frame("/venv/lib/python3.11/site-packages/someclient/api.py", "chat", "total += r[\"usage\"]") +
				"TypeError: unsupported operand type(s) for +=: 'int' and 'dict'\n",
			want: analysis.Triage{Family: analysis.FamilyBug},
		},
		{
			name: "a KeyError in sglang run from a checkout: a code bug in the package, not the caller's",
			in: tbHead + frame("/work/sglang/python/sglang/srt/managers/io_struct.py", "normalize", "x = self.sampling_params[\"n\"]") +
				"KeyError: 'n'\n",
			want: analysis.Triage{Family: analysis.FamilyBug},
		},
		{
			name: "an exception whose message says the CUDA graphs were being captured: that phase",
			in:   "RuntimeError: CUDA graph capture failed for batch size 160: operation not permitted when stream is capturing\n",
			want: analysis.Triage{Phase: "capturing CUDA graphs"},
		},
		{
			name: "a log line of its own that says the weights were loading: that phase",
			in:   "ERROR 2025-01-01 10:00:00 worker.py:120] Error while loading weights of layer 12: size of the shard does not match\n",
			want: analysis.Triage{Phase: "loading weights"},
		},
		{
			name: "the shell's Killed",
			in:   "Killed\n",
			want: analysis.Triage{Family: analysis.FamilyKilled},
		},
		{
			name: "a faulthandler dump: frames innermost first",
			in: "Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f (most recent call first):\n" +
				"  File \"/sgl/python/sglang/srt/layers/attention/flashinfer_backend.py\", line 12 in forward_decode\n" +
				"  File \"/sgl/python/sglang/srt/managers/scheduler.py\", line 900 in event_loop_overlap\n" +
				"  File \"/sgl/python/sglang/srt/managers/scheduler.py\", line 990 in run_scheduler_process\n",
			want: analysis.Triage{Process: "scheduler", Phase: "serving requests", Family: analysis.FamilyNative, Component: "attention backend"},
		},
		{
			// kserve/kserve#5303: KServe's model server builds vLLM's
			// engine client; cut in AsyncLLM's constructor.
			name: "a model server's cut frames in vLLM's engine client constructor: starting",
			in: tbHead +
				frame("/huggingfaceserver/huggingfaceserver/vllm/utils.py", "build_async_engine_client_from_engine_args", "async_llm = AsyncLLM.from_vllm_config(") +
				frame("/prod_venv/lib/python3.10/site-packages/vllm/v1/engine/async_llm.py", "from_vllm_config", "return cls(") +
				frame("/prod_venv/lib/python3.10/site-packages/vllm/v1/engine/async_llm.py", "__init__", "self.engine_core = EngineCoreClient.make_async_mp_client("),
			want: analysis.Triage{Phase: "starting"},
		},
		{
			// vllm-project/vllm#23176: the API server's wait for the
			// engine core, cut there.
			name: "vLLM's API server cut while it waits for the engine core to start: starting",
			in: tbHead +
				frame("/home/ss345/vllm-local-build/vllm/vllm/v1/engine/core_client.py", "__init__", "with launch_core_engines(vllm_config, executor_class,") +
				frame("/home/ss345/vllm-local-build/vllm/vllm/v1/engine/utils.py", "launch_core_engines", "wait_for_engine_startup(") +
				frame("/home/ss345/vllm-local-build/vllm/vllm/v1/engine/utils.py", "wait_for_engine_startup", "raise RuntimeError("),
			want: analysis.Triage{Phase: "starting"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			es := entries(tt.in)
			if len(es) == 0 {
				t.Fatal("no entry")
			}
			e := &es[0]
			for i := range es {
				if es[i].Traceback != nil || es[i].Native != "" {
					e = &es[i]
					break
				}
			}
			var exc = e.Traceback.Outermost()
			// Every case but the plain ones runs sglang's code: its
			// frames say so, and only then do sglang's steps fit.
			tt.want.SGLang = strings.Contains(tt.in, "sglang")
			if diff := cmp.Diff(tt.want, analysis.TriageOf(e, exc)); diff != "" {
				t.Errorf("triage (-want +got):\n%s\nentry %q", diff, e.Text)
			}
		})
	}
}

// FuzzTriage reads arbitrary logs for a triage: nothing panics, and every
// field is one of the phrases the triage knows or empty.
func FuzzTriage(f *testing.F) {
	for _, s := range []string{
		tbHead + frame("/a/scheduler.py", "run_scheduler_process", "scheduler.event_loop_pp()"),
		"Fatal Python error: Aborted\n\nCurrent thread 0x1 (most recent call first):\n  File \"/a/b.py\", line 1 in f\n",
		"frame #0: c10::Error::Error() + 0x96 (0x7f in /usr/lib/libc10.so)\n",
		"x.RayTaskError(KeyError): y\n",
		tbHead + frame("/v/site-packages/fastchat/serve/w.py", "<module>", "from a.b import c") + "ImportError: cannot import name 'c' from 'a.b' (/v/a/b.py)\n",
		"OSError: org/m does not appear to have a file named config.json\n",
		"E0925 00:24:39.141773  4418 peer_client.cpp:353] Failed to get the peer's descriptor\n",
		"/opt/src/x/topo.cpp:526: non-zero status: -3 allgather of ipc handles failed\n",
		"ValueError: environment variable RANK expected, but not set\n",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		for _, e := range entries(data) {
			var exc = e.Traceback.Outermost()
			tr := analysis.TriageOf(&e, exc)
			for _, v := range []string{tr.Process, tr.Phase, tr.Family, tr.Component} {
				if strings.ContainsAny(v, "\n\r") {
					t.Fatalf("triage field %q holds a line break", v)
				}
			}
			// The subject and the importer are log text quoted in
			// advice: bounded, of the safe alphabet.
			for _, v := range []string{tr.Subject, tr.Importer} {
				if len(v) > 120 || strings.Trim(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/~+@=:") != "" {
					t.Fatalf("triage subject or importer %q is not a bounded token of the safe alphabet", v)
				}
			}
		}
	})
}

// A traceback cut before its exception line says where the process died
// but not why: it is headed by its header, and when its frames name a
// phase, the call that entered it, as printed, opens what CutCall says of
// where it was cut (its matched text after the header). A phase sglang
// wraps in an exception of its own is led by that wrapper's record,
// headed by the same call.
func TestACutTracebackIsNamedByTheCallThatEnteredItsPhase(t *testing.T) {
	frame := func(file string, line int, fn, src string) string {
		return fmt.Sprintf("  File \"/sgl-workspace/sglang/python/sglang/srt/%s\", line %d, in %s\n    %s\n", file, line, fn, src)
	}
	start := "Traceback (most recent call last):\n" +
		frame("managers/scheduler.py", 2009, "run_scheduler_process", "scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)") +
		frame("model_executor/model_runner.py", 178, "__init__", "self.initialize(min_per_gpu_memory)")
	tests := []struct {
		name, in, headline string
		slug               string // the phase's wrapper record leads; "" for a fragment
	}{
		// sglang wraps CUDA graph capture in an exception of its own:
		// its record leads, headed by the same call.
		{"CUDA graph capture, cut at the raise",
			start + frame("model_executor/model_runner.py", 216, "initialize", "self.init_cuda_graphs()") +
				frame("model_executor/model_runner.py", 934, "init_cuda_graphs", "self.cuda_graph_runner = CudaGraphRunner(self)") +
				frame("model_executor/cuda_graph_runner.py", 269, "__init__", "raise Exception("),
			"self.init_cuda_graphs()", "capture-cuda-graph-failed"},
		{"the memory pool, with Python 3.11 carets",
			start + frame("model_executor/model_runner.py", 210, "initialize", "self.init_memory_pool(min_per_gpu_memory)") +
				"    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" +
				frame("model_executor/model_runner.py", 700, "init_memory_pool", "self.max_total_num_tokens = self.profile_max_num_token(total_gpu_memory)"),
			"Traceback (most recent call last):", ""},
		{"the distributed backend: the innermost frame that names it, entered by its caller",
			"Traceback (most recent call last):\n" +
				frame("model_executor/model_runner.py", 300, "init_torch_distributed", "initialize_model_parallel(tensor_model_parallel_size=self.tp_size)") +
				frame("distributed/parallel_state.py", 1200, "initialize_model_parallel", "_TP = init_model_parallel_group("),
			"Traceback (most recent call last):", ""},
		{"the phase's frame the outermost printed: its own line",
			"Traceback (most recent call last):\n" +
				frame("model_executor/model_runner.py", 640, "load_model", "self.model = get_model(model_config=self.model_config)"),
			"Traceback (most recent call last):", ""},
		// Near misses: serving requests is entered by the event loop,
		// which says nothing; frames that name no phase keep the
		// traceback's first line.
		{"serving requests keeps the traceback's first line",
			"Traceback (most recent call last):\n" +
				frame("managers/scheduler.py", 700, "event_loop_overlap", "result = self.run_batch(batch)") +
				frame("managers/scheduler.py", 1500, "run_batch", "raise RuntimeError("),
			"Traceback (most recent call last):", ""},
		{"no phase named",
			"Traceback (most recent call last):\n" +
				frame("disaggregation/nixl/conn.py", 1153, "transfer_worker", "raise RuntimeError("),
			"Traceback (most recent call last):", ""},
	}
	an := analysis.New(defaultMatcher(t))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []analysis.Diagnosis
			for _, e := range entries(tt.in) {
				if d, ok := an.Analyze(&e); ok {
					got = append(got, d)
				}
			}
			if tt.slug != "" {
				if len(got) != 1 || got[0].Cause == nil || got[0].Cause.Record.Slug != tt.slug || got[0].Headline != tt.headline {
					t.Fatalf("diagnoses %+v, want one led by %s headed %q", got, tt.slug, tt.headline)
				}
				return
			}
			if len(got) != 1 || !got[0].Fragment || got[0].Headline != tt.headline {
				t.Fatalf("diagnoses %+v, want one fragment headed %q", got, tt.headline)
			}
			if call, ok := phaseCalls[tt.name]; ok && !strings.HasPrefix(analysis.CutCall(tt.in), call+" … ") {
				t.Errorf("CutCall = %q, want it to open with the call that entered the phase, %q", analysis.CutCall(tt.in), call)
			}
		})
	}
}

// phaseCalls are the calls that entered the phase of the fragments of
// TestACutTracebackIsNamedByTheCallThatEnteredItsPhase, by case.
var phaseCalls = map[string]string{
	"the memory pool, with Python 3.11 carets":                                          "self.init_memory_pool(min_per_gpu_memory)",
	"the distributed backend: the innermost frame that names it, entered by its caller": "initialize_model_parallel(tensor_model_parallel_size=self.tp_size)",
	"the phase's frame the outermost printed: its own line":                             "self.model = get_model(model_config=self.model_config)",
}

// TestFramesAloneDiagnosis: the middle of a traceback, without its header
// and its exception line, is a failure named by its frames: the phase they
// enter, the call that entered it as the headline, a fragment; it is a
// consequence, so near another failure it is that failure's context.
func TestFramesAloneDiagnosis(t *testing.T) {
	an := analysis.New(defaultMatcher(t))
	text := frame("/sgl/python/sglang/srt/model_executor/model_runner.py", "load_model", "self.model = get_model(...)") +
		frame("/sgl/python/sglang/srt/models/qwen2.py", "load_weights", "param = params_dict[name]")
	es := entries(text)
	if len(es) != 1 {
		t.Fatalf("%d entries, want 1", len(es))
	}
	d, ok := an.Analyze(&es[0])
	if !ok {
		t.Fatal("frames alone: no failure")
	}
	if !d.Fragment || d.Role != "consequence" || d.Triage.Phase != "loading weights" || !strings.Contains(d.Headline, "get_model") {
		t.Errorf("diagnosis fragment %v role %q phase %q headline %q; want a consequence fragment loading weights, headed by the call that entered it",
			d.Fragment, d.Role, d.Triage.Phase, d.Headline)
	}
	// Flush left, as a paste that stripped the indentation leaves them,
	// the frames are still a traceback's, carets under a source line or
	// not (the entry's assembly restores their indentation).
	flush := "File \"/sgl/python/sglang/srt/managers/scheduler.py\", line 983, in event_loop_normal\n" +
		"batch = self.get_next_batch_to_run()\n" +
		"File \"/sgl/python/sglang/srt/managers/scheduler.py\", line 1624, in get_next_batch_to_run\n" +
		"new_batch = self.prepare_mlp_sync_batch(new_batch)\n"
	for _, c := range []struct {
		text string
		want bool
	}{{flush + "^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n", true}, {flush, true}} {
		got := false
		for _, e := range entries(c.text) {
			if _, ok := an.Analyze(&e); ok {
				got = true
			}
		}
		if got != c.want {
			t.Errorf("flush-left frames %q: failure %v, want %v", c.text, got, c.want)
		}
	}
	// A faulthandler dump's frames are no traceback's.
	es = entries("  File \"/sgl/python/sglang/srt/models/qwen2.py\", line 10 in load_weights\n  File \"/sgl/python/sglang/srt/model_executor/model_runner.py\", line 5 in load_model\n")
	for i := range es {
		if _, ok := an.Analyze(&es[i]); ok {
			t.Errorf("faulthandler frames: a failure %q", es[i].Text)
		}
	}
}
