package scan_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/sinks"
)

// TestCutTracebackLead scans tracebacks cut before their exception line, in
// every shape real logs print them, and checks the one rule for what leads
// them: one incident, whose matched text names the traceback's header when
// it printed one (never a note logged before it) and its deepest frame,
// its File line whole, where the process stood when the output stopped. A
// run of frames with no header, behind an engine's prefix or not, is one
// cut traceback too. A traceback that printed its exception line still
// leads at it, and cut frames whose exception follows fold into it.
// Lines from the threads named, cut where a killed process or a paste cut
// them.
func TestCutTracebackLead(t *testing.T) {
	m := corpusMatcher(t)
	red, err := redact.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	// InternLM/lmdeploy#340: an import chain into TurboMind's extension.
	const lmdeployImport = "Traceback (most recent call last):\n" +
		"  File \"/data/home/xxx/.conda/envs/lmdeploy/lib/python3.10/runpy.py\", line 187, in _run_module_as_main\n" +
		"    mod_name, mod_spec, code = _get_module_details(mod_name, _Error)\n" +
		"  File \"/data/home/xxx/.conda/envs/lmdeploy/lib/python3.10/runpy.py\", line 110, in _get_module_details\n" +
		"    __import__(pkg_name)\n" +
		"  File \"/data/home/xxx/examples/lmdeploy/lmdeploy/turbomind/__init__.py\", line 3, in <module>\n" +
		"    from .turbomind import TurboMind\n" +
		"  File \"/data/home/xxx/examples/lmdeploy/lmdeploy/turbomind/turbomind.py\", line 22, in <module>\n" +
		"    import _turbomind as _tm  # noqa: E402\n"
	const lmdeployDeepest = `File "/data/home/xxx/examples/lmdeploy/lmdeploy/turbomind/turbomind.py", line 22, in <module>`
	// hiyouga/LlamaFactory#7768: DeepSpeed's INFO note, then the CLI's
	// import chain into sglang.
	const llamaFactoryFrames = "  File \"/usr/local/bin/llamafactory-cli\", line 8, in <module>\n" +
		"    sys.exit(main())\n" +
		"  File \"/mnt/data/LLaMA-Factory/src/llamafactory/cli.py\", line 40, in main\n" +
		"    from .api.app import run_api\n" +
		"  File \"/mnt/data/LLaMA-Factory/src/llamafactory/api/app.py\", line 21, in <module>\n" +
		"    from ..chat import ChatModel\n" +
		"  File \"/mnt/data/LLaMA-Factory/src/llamafactory/chat/__init__.py\", line 16, in <module>\n" +
		"    from .chat_model import ChatModel\n" +
		"  File \"/mnt/data/LLaMA-Factory/src/llamafactory/chat/chat_model.py\", line 28, in <module>\n" +
		"    from .sglang_engine import SGLangEngine\n" +
		"  File \"/mnt/data/LLaMA-Factory/src/llamafactory/chat/sglang_engine.py\", line 36, in <module>\n" +
		"    from sglang.utils import launch_server_cmd, terminate_process, wait_for_server  # type: ignore\n"
	const llamaFactoryDeepest = `File "/mnt/data/LLaMA-Factory/src/llamafactory/chat/sglang_engine.py", line 36, in <module>`
	tests := []struct {
		name, in string
		want     []string // in the lead's matched text
		notWant  string   // not in it
	}{
		// A traceback with its header, cut in an import chain.
		{"lmdeploy's import chain (InternLM/lmdeploy#340)", lmdeployImport,
			[]string{"Traceback (most recent call last):", lmdeployDeepest}, ""},
		{"sglang's package import under frozen runpy (sgl-project/sglang#13276)",
			"Traceback (most recent call last):\n" +
				"  File \"<frozen runpy>\", line 189, in _run_module_as_main\n" +
				"  File \"<frozen runpy>\", line 112, in _get_module_details\n" +
				"  File \"/ceph/sharedfs/work/yutienchanglab/benjamin920101/miniconda3/envs/sglang_env/lib/python3.14/site-packages/sglang/__init__.py\", line 5, in <module>\n" +
				"    from sglang.lang.api import (\n",
			[]string{"Traceback (most recent call last):", `File "/ceph/sharedfs/work/yutienchanglab/benjamin920101/miniconda3/envs/sglang_env/lib/python3.14/site-packages/sglang/__init__.py", line 5, in <module>`}, ""},
		// A note logged just before the header is context.
		{"a DeepSpeed note before the CLI's traceback (hiyouga/LlamaFactory#7768)",
			"[2025-04-19 15:28:43,767] [INFO] [real_accelerator.py:203:get_accelerator] Setting ds_accelerator to cuda (auto detect)\n" +
				"Traceback (most recent call last):\n" + llamaFactoryFrames,
			[]string{"Traceback (most recent call last):", llamaFactoryDeepest}, "Setting ds_accelerator"},
		{"sglang's bracket-timed note before the CLI's traceback (sgl-project/sglang#25765)",
			"[2026-05-19 08:25:33] Setting swa_full_tokens_ratio to 0.1 for DeepseekV4ForCausalLM.\n" +
				"Traceback (most recent call last):\n" +
				"  File \"/usr/local/bin/sglang\", line 6, in <module>\n" +
				"    sys.exit(main())\n" +
				"             ^^^^^^\n" +
				"  File \"/root/sglang/python/sglang/srt/server_args.py\", line 7367, in prepare_server_args\n" +
				"    return ServerArgs.from_cli_args(raw_args)\n" +
				"           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
			[]string{"Traceback (most recent call last):", `File "/root/sglang/python/sglang/srt/server_args.py", line 7367, in prepare_server_args`}, "Setting swa_full_tokens_ratio"},
		// Frames with no header, cut: the deepest File line, not the
		// first frame's code nor a library frame.
		{"the CLI's frames pasted without their header (hiyouga/LlamaFactory#7768)", llamaFactoryFrames,
			[]string{llamaFactoryDeepest, "from sglang.utils import launch_server_cmd"}, "/usr/local/bin/llamafactory-cli"},
		{"a scheduler's frames without their header, cut in get_model (sgl-project/sglang#9195)",
			"  File \"/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/scheduler.py\", line 2733, in run_scheduler_process\n" +
				"    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, pp_rank, dp_rank)\n" +
				"  File \"/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/scheduler.py\", line 339, in __init__\n" +
				"    self.tp_worker = TpWorkerClass(\n" +
				"  File \"/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/model_runner.py\", line 276, in initialize\n" +
				"    self.load_model()\n" +
				"  File \"/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/model_runner.py\", line 616, in load_model\n" +
				"    self.model = get_model(\n",
			[]string{`File "/usr/local/lib/python3.10/dist-packages/sglang/srt/model_executor/model_runner.py", line 616, in load_model`}, "run_scheduler_process"},
		{"TensorRT-LLM's CUDA graph warm-up without its header (NVIDIA/TensorRT-LLM#8802)",
			"  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/model_engine.py\", line 652, in _capture_generation_cuda_graphs\n" +
				"    self.forward(batch,\n" +
				"  File \"/usr/local/lib/python3.12/dist-packages/torch/utils/_contextlib.py\", line 116, in decorate_context\n" +
				"    return func(*args, **kwargs)\n" +
				"           ^^^^^^^^^^^^^^^^^^^^^\n" +
				"  File \"/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/cuda_graph_runner.py\", line 192, in maybe_get_cuda_graph\n" +
				"    attn_metadata = self.attn_metadata.create_cuda_graph_metadata(\n",
			[]string{`File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/pyexecutor/cuda_graph_runner.py", line 192, in maybe_get_cuda_graph`}, ""},
		// Frames whose indentation a paste stripped, carets under their
		// source lines.
		{"a scheduler's frames pasted flush left (sgl-project/sglang#12190)",
			"```\n" +
				"File \"/tmp/hlu/sglang/python/sglang/srt/managers/scheduler.py\", line 2777, in run_scheduler_process\n" +
				"scheduler.event_loop_normal()\n" +
				"File \"/tmp/hlu/sglang/python/sglang/srt/managers/scheduler.py\", line 983, in event_loop_normal\n" +
				"batch = self.get_next_batch_to_run()\n" +
				"^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" +
				"File \"/tmp/hlu/sglang/python/sglang/srt/managers/scheduler.py\", line 1624, in get_next_batch_to_run\n" +
				"new_batch = self.prepare_mlp_sync_batch(new_batch)\n" +
				"^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
			[]string{`File "/tmp/hlu/sglang/python/sglang/srt/managers/scheduler.py", line 1624, in get_next_batch_to_run`}, ""},
		{"an engine core's frames pasted flush left (vllm-project/vllm#27542)",
			"File \"/root/vllm/env/lib/python3.12/site-packages/torch/nn/modules/module.py\", line 1786, in _call_impl\n" +
				"return forward_call(*args, **kwargs)\n" +
				"^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" +
				"File \"/root/vllm/env/lib/python3.12/site-packages/vllm/model_executor/models/gpt_oss.py\", line 705, in forward\n" +
				"return self.model(input_ids, positions, intermediate_tensors, inputs_embeds)\n" +
				"^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" +
				"File \"/root/vllm/env/lib/python3.12/site-packages/vllm/compilation/decorators.py\", line 408, in __call__\n" +
				"output = self.compiled_callable(*args, **kwargs)\n" +
				"^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
			[]string{`File "/root/vllm/env/lib/python3.12/site-packages/vllm/compilation/decorators.py", line 408, in __call__`}, ""},
		// Frames behind an engine's prefix, with caret lines, the first
		// a cut frame's source line.
		{"a vLLM worker's frames behind multiproc_executor's prefix (vllm-project/vllm#15607)",
			"(VllmWorker rank=1 pid=308557) ERROR 03-27 16:22:01 [multiproc_executor.py:375]     return forward_call(*args, **kwargs)\n" +
				"(VllmWorker rank=1 pid=308557) ERROR 03-27 16:22:01 [multiproc_executor.py:375]   File \"/opt/conda/lib/python3.10/site-packages/vllm/model_executor/models/deepseek_v2.py\", line 688, in forward\n" +
				"(VllmWorker rank=1 pid=308557) ERROR 03-27 16:22:01 [multiproc_executor.py:375]     hidden_states = self.model(input_ids, positions, intermediate_tensors,\n" +
				"(VllmWorker rank=1 pid=308557) ERROR 03-27 16:22:01 [multiproc_executor.py:375]   File \"/opt/conda/lib/python3.10/site-packages/vllm/compilation/decorators.py\", line 238, in __call__\n" +
				"(VllmWorker rank=1 pid=308557) ERROR 03-27 16:22:01 [multiproc_executor.py:375]     output = self.compiled_callable(*args, **kwargs)\n" +
				"(VllmWorker rank=1 pid=308557) ERROR 03-27 16:22:01 [multiproc_executor.py:375]   File \"/opt/conda/lib/python3.10/site-packages/torch/_dynamo/eval_frame.py\", line 574, in _fn\n" +
				"(VllmWorker rank=1 pid=308557) ERROR 03-27 16:22:01 [multiproc_executor.py:375]     return fn(*args, **kwargs)\n" +
				"(VllmWorker rank=1 pid=308557) ERROR 03-27 16:22:01 [multiproc_executor.py:375]   File \"/opt/conda/lib/python3.10/site-packages/vllm/model_executor/models/deepseek_v2.py\", line 626, in forward\n",
			[]string{`File "/opt/conda/lib/python3.10/site-packages/vllm/model_executor/models/deepseek_v2.py", line 626, in forward`}, ""},
		{"a vLLM worker's frames on ROCm behind multiproc_executor's prefix (vllm-project/vllm#18088)",
			"(VllmWorker rank=1 pid=239571) ERROR 05-13 16:11:49 [multiproc_executor.py:522]     model_output = self.model(input_ids, positions, intermediate_tensors,\n" +
				"(VllmWorker rank=1 pid=239571) ERROR 05-13 16:11:49 [multiproc_executor.py:522]   File \"/app/aiter-ck-moe-2-stage/vllm/compilation/decorators.py\", line 245, in __call__\n" +
				"(VllmWorker rank=1 pid=239571) ERROR 05-13 16:11:49 [multiproc_executor.py:522]     model_output = self.forward(*args, **kwargs)\n" +
				"(VllmWorker rank=1 pid=239571) ERROR 05-13 16:11:49 [multiproc_executor.py:522]   File \"/app/aiter-ck-moe-2-stage/vllm/model_executor/models/llama.py\", line 345, in forward\n" +
				"(VllmWorker rank=1 pid=239571) ERROR 05-13 16:11:49 [multiproc_executor.py:522]     def forward(\n" +
				"(VllmWorker rank=1 pid=239571) ERROR 05-13 16:11:49 [multiproc_executor.py:522]   File \"/usr/local/lib/python3.10/dist-packages/torch/nn/modules/module.py\", line 1751, in _wrapped_call_impl\n" +
				"(VllmWorker rank=1 pid=239571) ERROR 05-13 16:11:49 [multiproc_executor.py:522]     return self._call_impl(*args, **kwargs)\n",
			[]string{`File "/usr/local/lib/python3.10/dist-packages/torch/nn/modules/module.py", line 1751, in _wrapped_call_impl`}, ""},
		{"vLLM's API server frames behind its prefix, through contextlib (nlzy/vllm-gfx906#58)",
			"(APIServer pid=1)   File \"/usr/lib/python3.12/contextlib.py\", line 210, in __aenter__\n" +
				"(APIServer pid=1)     return await anext(self.gen)\n" +
				"(APIServer pid=1)            ^^^^^^^^^^^^^^^^^^^^^\n" +
				"(APIServer pid=1)   File \"/opt/torchenv/lib/python3.12/site-packages/vllm/entrypoints/openai/api_server.py\", line 195, in build_async_engine_client\n" +
				"(APIServer pid=1)     async with build_async_engine_client_from_engine_args(\n" +
				"(APIServer pid=1)   File \"/usr/lib/python3.12/contextlib.py\", line 210, in __aenter__\n" +
				"(APIServer pid=1)     return await anext(self.gen)\n" +
				"(APIServer pid=1)            ^^^^^^^^^^^^^^^^^^^^^\n" +
				"(APIServer pid=1)   File \"/opt/torchenv/lib/python3.12/site-packages/vllm/entrypoints/openai/api_server.py\", line 236, in build_async_engine_client_from_engine_args\n" +
				"(APIServer pid=1)     async_llm = AsyncLLM.from_vllm_config(\n" +
				"(APIServer pid=1)                 ^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
			[]string{`File "/opt/torchenv/lib/python3.12/site-packages/vllm/entrypoints/openai/api_server.py", line 236, in build_async_engine_client_from_engine_args`}, "__aenter__ …"},
		{"vLLM's API server frames from a caret line on (vllm-project/vllm#26628)",
			"(APIServer pid=588092)            ^^^^\n" +
				"(APIServer pid=588092)   File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/async_llm.py\", line 136, in __init__\n" +
				"(APIServer pid=588092)     self.engine_core = EngineCoreClient.make_async_mp_client(\n" +
				"(APIServer pid=588092)                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" +
				"(APIServer pid=588092)   File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core_client.py\", line 102, in make_async_mp_client\n" +
				"(APIServer pid=588092)     return AsyncMPClient(*client_args)\n" +
				"(APIServer pid=588092)            ^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" +
				"(APIServer pid=588092)   File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core_client.py\", line 769, in __init__\n" +
				"(APIServer pid=588092)     super().__init__(\n",
			[]string{`File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core_client.py", line 769, in __init__`}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := scanText(t, m, red, "cut.log", tt.in)
			if len(res.Alerts) != 1 {
				t.Fatalf("%d incidents, want one:%s", len(res.Alerts), describeAlerts(res.Alerts))
			}
			a := res.Alerts[0]
			for _, w := range tt.want {
				if !strings.Contains(a.Match.Text, w) {
					t.Errorf("matched text %q does not name %q", a.Match.Text, w)
				}
			}
			if tt.notWant != "" && strings.Contains(a.Match.Text, tt.notWant) {
				t.Errorf("matched text %q names %q", a.Match.Text, tt.notWant)
			}
		})
	}

	// The same traceback with its exception line leads at that line; cut
	// frames whose exception follows fold into it.
	for name, in := range map[string]string{
		"whole":                        lmdeployImport + "ModuleNotFoundError: No module named '_turbomind'\n",
		"frames, then their exception": lmdeployImport[len("Traceback (most recent call last):\n"):] + "ModuleNotFoundError: No module named '_turbomind'\n",
	} {
		res := scanText(t, m, red, "whole.log", in)
		if len(res.Alerts) != 1 {
			t.Fatalf("%s: %d incidents, want one:%s", name, len(res.Alerts), describeAlerts(res.Alerts))
		}
		if a := res.Alerts[0]; !strings.Contains(a.Match.Text, "No module named '_turbomind'") && (a.Match.Exception == nil || a.Match.Exception.Type != "ModuleNotFoundError") {
			t.Errorf("%s: led by %s %q, want the exception line", name, a.Record.Slug, a.Match.Text)
		}
	}
}

func describeAlerts(as []sinks.Alert) string {
	var b strings.Builder
	for _, a := range as {
		b.WriteString("\n  " + a.Record.Slug + " [" + a.Match.Text + "]")
	}
	return b.String()
}
