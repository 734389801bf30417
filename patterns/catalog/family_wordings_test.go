package catalog_test

import (
	"testing"
)

// Families whose writers print one failure in several wordings, each
// written from the writer's sources across its releases and composed the
// ways the line arrives (bare, behind the writer's own header, at the end
// of a traceback), with near lines that must not be claimed:
//   - llama.cpp's grammar: the grammar parser's own lines ("error parsing
//     grammar", "failed to parse grammar" behind the function that gave up),
//     common_sampler_init's when the grammar sampler cannot be built or
//     rejects the generation prompt ("error initializing grammar sampler for
//     grammar:", later "grammar sampler rejected generation prefill"), and
//     the server's error for the request ("Failed to parse grammar" until
//     2025, "Failed to initialize samplers" with the sampler's reason since),
//     which a client relays in its 400 body; Ollama's runner answers
//     "unable to create sampling context" when the grammar its format
//     became cannot be built;
//   - HCCL's parameter-plane link set-up: the plog line of the socket
//     manager that waited ("wait socket establish timeout, role[r]
//     rank[n] timeout[t]", the unit added in later CANN; the channel
//     variants of the newer communication library) and its caller's
//     summary, beside the EI0006 report the error manager prints;
//   - transformers' AutoConfig on a model type it has no config class
//     for: a bare KeyError from CONFIG_MAPPING (an OrderedDict in 4.0-4.9,
//     the lazy mapping's __getitem__ after), the ValueError later 4.x
//     raises from it, and the AutoModel wording for a config class;
//   - a checkpoint tensor the model class has no parameter for: the
//     engines' own loops (a KeyError on params_dict[name]) and vLLM's
//     AutoWeightsLoader ("There is no module or parameter named <prefix>
//     in <model class>");
//   - torch's caching allocator words an exhausted device the same on
//     CUDA, HIP and XPU, and its MPS twin on Apple silicon as "MPS backend
//     out of memory (MPS allocated: ...)";
//   - torch's c10d formats a failed NCCL call as "NCCL error in:
//     <file>:<line>, <ncclGetErrorString text>, NCCL version <v>" (raised
//     as RuntimeError until 1.13, DistBackendError since 2.0); the text,
//     which NCCL lengthened with a hint in 2.12-2.19, names the result and
//     decides the record.
func familyWordings() []writerWording {
	llama := func(level, msg string) string { return "0.03.112.418 " + level + " " + msg }
	plog := func(file, msg string) string {
		return "[ERROR] HCCL(48211,python3):2025-11-04-09:12:40.318.207 [" + file + "] [48377]" + msg
	}
	ncclErr := func(class, file, text, version string) string {
		return class + ": NCCL error in: " + file + ", " + text + ", NCCL version " + version
	}
	const (
		pgNCCL113 = "../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269"
		pgNCCL1x  = "/pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:514"
		utils2x   = "../torch/csrc/distributed/c10d/NCCLUtils.hpp:219"
		utils25   = "/pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77"
	)
	autoConfig := func(frames string) string {
		return "Traceback (most recent call last):\n" +
			`  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/hf_transformers_utils.py", line 38, in get_config` + "\n" +
			"    config = AutoConfig.from_pretrained(\n" + frames
	}
	return []writerWording{
		{family: "llama.cpp: the grammar sampler cannot be built for a request", want: "llamacpp-grammar-parse-error", lines: []string{
			llama("E", "common_sampler_init: error initializing grammar sampler for grammar:"),
			"common_sampler_init: error initializing grammar sampler for grammar:\nroot ::= \"<|im_start|>assistant\\n\" object",
			"Dec 02 08:14:09 gpu-3 llama-server[2211]: [8081] " + llama("E", "common_sampler_init: error initializing grammar sampler for grammar:"),
			llama("E", "common_sampler_init: grammar sampler rejected generation prefill"),
			"srv    send_error: task id = 4, error: Failed to parse grammar",
			llama("E", "srv    send_error: task id = 1, error: Failed to initialize samplers: Unexpected empty grammar stack after accepting piece: <think>"),
			"openai.BadRequestError: Error code: 400 - {'error': {'code': 400, 'message': 'Failed to initialize samplers: failed to parse grammar', 'type': 'invalid_request_error'}}",
			"ollama._types.ResponseError: Failed to create new sequence: unable to create sampling context (status code: 500)",
			"time=2025-03-02T10:11:12.345Z level=ERROR source=server.go:712 msg=\"Failed to create new sequence: unable to create sampling context\"",
			"llama_grammar_init_impl: failed to parse grammar",
			"parse: error parsing grammar: expecting name at :2:1",
		}},
		{family: "llama.cpp: routine grammar and sampler lines", lines: []string{
			llama("I", "srv  params_from_: Chat format: peg-native"),
			llama("I", "slot launch_slot_: id  0 | task 3 | sampler chain: logits -> logit-bias -> penalties -> top-k -> temp-ext -> dist"),
			"srv  params_from_: Grammar lazy: true",
		}},
		{family: "HCCL: a parameter-plane link not established in time", want: "hccl-connect-failed", lines: []string{
			plog("hccl_socket_manager.cc:778", "[Wait][LinkEstablish]wait socket establish timeout, role[1] rank[12] timeout[120]"),
			plog("hccl_socket_manager.cc:813", "[Wait][LinkEstablish]wait socket establish timeout, role[0] rank[5] timeout[1800 s]"),
			plog("channel_manager.cc:412", "[InitChannel][Timeout] wait socket establish timeout, channel connect timeout after 120 sec, elapsed[120031]ms, retryCount[0]"),
			plog("hccl_socket_manager.cc:393", "[Create][Sockets]Wait links establish completed failed, local role is client. ret[9]"),
			"[rank3]: EI0006: [PID: 48211] 2025-11-04-09:12:40.318.207 Getting socket times out. Reason: Remote Rank did not send the data in time. Please check the reason for the rank being stuck",
		}},
		{family: "HCCL: routine link lines", lines: []string{
			"[INFO] HCCL(48211,python3):2025-11-04-09:10:40.101.772 [hccl_socket_manager.cc:702] [48377][Create][Sockets]socket establish start, role[0] rank[5]",
			"export HCCL_CONNECT_TIMEOUT=1800  # wait longer for socket establishment across nodes",
		}},
		{family: "transformers: AutoConfig has no config class for the model type", want: "transformers-unknown-model-type", lines: []string{
			// 4.0-4.9: CONFIG_MAPPING is an OrderedDict.
			autoConfig(`  File "/usr/local/lib/python3.8/site-packages/transformers/models/auto/configuration_auto.py", line 398, in from_pretrained` + "\n" +
				"    config_class = CONFIG_MAPPING[config_dict[\"model_type\"]]\n" +
				"KeyError: 'gpt_neox'\n"),
			// 4.10 on: the lazy mapping's __getitem__, with 3.11's markers.
			autoConfig(`  File "/usr/local/lib/python3.11/site-packages/transformers/models/auto/configuration_auto.py", line 1039, in from_pretrained` + "\n" +
				"    config_class = CONFIG_MAPPING[config_dict[\"model_type\"]]\n" +
				"                   ~~~~~~~~~~~~~~^^^^^^^^^^^^^^^^^^^^^^^^^^^\n" +
				`  File "/usr/local/lib/python3.11/site-packages/transformers/models/auto/configuration_auto.py", line 734, in __getitem__` + "\n" +
				"    raise KeyError(key)\n" +
				"KeyError: 'qwen2'\n"),
			hdr("Scheduler hit an exception: ") + autoConfig(
				`  File "/opt/conda/lib/python3.10/site-packages/transformers/models/auto/configuration_auto.py", line 710, in __getitem__`+"\n"+
					"    raise KeyError(key)\n"+
					"KeyError: 'mistral'\n"),
			// A double-spaced paste keeps a blank line after each line.
			autoConfig(`  File "/usr/local/lib/python3.11/site-packages/transformers/models/auto/configuration_auto.py", line 1039, in from_pretrained` + "\n\n" +
				"    config_class = CONFIG_MAPPING[config_dict[\"model_type\"]]\n\n" +
				"                   ~~~~~~~~~~~~~~^^^^^^^^^^^^^^^^^^^^^^^^^^^\n\n" +
				`  File "/usr/local/lib/python3.11/site-packages/transformers/models/auto/configuration_auto.py", line 734, in __getitem__` + "\n\n" +
				"    raise KeyError(key)\n\n" +
				"KeyError: 'minicpmv'\n"),
			tb("ValueError: The checkpoint you are trying to load has model type `glm5_next` but Transformers does not recognize this architecture. This could be because of an issue with the checkpoint, or because your version of Transformers is out of date."),
			rawTB("ValueError: The checkpoint you are trying to load has model type `qwen3_next` but Transformers does not recognize this architecture. This could be because of an issue with the checkpoint, or because your version of Transformers is out of date.\n\nYou can update Transformers with the command `pip install --upgrade transformers`."),
			tb("ValueError: Unrecognized configuration class <class 'transformers_modules.chatglm3.configuration_chatglm.ChatGLMConfig'> for this kind of AutoModel: AutoModelForCausalLM."),
		}},
		{family: "transformers: KeyErrors that are not a model type", lines: []string{
			rawTB("KeyError: 'model_type'"),
		}},
		{family: "a checkpoint tensor the model class has no parameter for", want: "load-weights-key-error", lines: []string{
			tb("KeyError: 'model.layers.0.self_attn.qkv_proj.weight_scale'"),
			rawTB("ValueError: There is no module or parameter named 'model.layers.11.mlp.gate.e_score_correction_bias' in TransformersMoEForCausalLM"),
			tb("ValueError: There is no module or parameter named 'visual' in Qwen3_5Model"),
			rawTB("ValueError: Following weights were not initialized from checkpoint: {'lm_head.weight'}"),
		}},
		{family: "torch's caching allocator on every device it is built for", want: "cuda-out-of-memory", lines: []string{
			tb("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.20 GiB is free."),
			rawTB("RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total capacity; 14.20 GiB already allocated; 3.12 MiB free; 14.50 GiB reserved in total by PyTorch)"),
			rawTB("RuntimeError: MPS backend out of memory (MPS allocated: 18.13 GiB, other allocations: 1.20 GiB, max allowed: 20.40 GiB). Tried to allocate 1.50 GiB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may cause system failure)."),
		}},
		{family: "c10d: NCCL's internal error", want: "nccl-internal-error", lines: []string{
			tb(ncclErr("RuntimeError", pgNCCL1x, "internal error", "2.7.8")),
			rawTB(ncclErr("RuntimeError", pgNCCL113, "internal error", "2.14.3")),
			rawTB(ncclErr("torch.distributed.DistBackendError", "../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275", "internal error", "2.14.3")),
			tb(ncclErr("torch.distributed.DistBackendError", utils2x, "internal error - please report this issue to the NCCL developers", "2.18.1") + "\nncclInternalError: Internal check failed.\nLast error:\nNet : Call to recv from 10.0.0.2<43214> failed : Connection reset by peer"),
		}},
		{family: "c10d: NCCL's internal error as the reason an aborted communicator gives", want: "nccl-internal-error", lines: []string{
			tb("RuntimeError: NCCL communicator was aborted on rank 3.  Original reason for failure was: NCCL error: internal error, NCCL version 2.10.3"),
		}},
		{family: "c10d: NCCL's unhandled cuda error", want: "nccl-unhandled-cuda-error", lines: []string{
			rawTB(ncclErr("RuntimeError", pgNCCL113, "unhandled cuda error", "2.14.3")),
			tb(ncclErr("torch.distributed.DistBackendError", utils25, "unhandled cuda error (run with NCCL_DEBUG=INFO for details)", "2.21.5")),
		}},
		{family: "c10d: NCCL's system error", want: "nccl-unhandled-system-error", lines: []string{
			rawTB(ncclErr("RuntimeError", pgNCCL1x, "unhandled system error", "2.7.8")),
			tb(ncclErr("torch.distributed.DistBackendError", utils2x, "unhandled system error (run with NCCL_DEBUG=INFO for details)", "2.19.3")),
		}},
		{family: "c10d: NCCL's invalid usage or argument", want: "nccl-invalid-usage", lines: []string{
			rawTB(ncclErr("RuntimeError", pgNCCL113, "invalid usage", "2.14.3")),
			tb(ncclErr("torch.distributed.DistBackendError", utils2x, "invalid usage (run with NCCL_DEBUG=WARN for details)", "2.18.1")),
			tb(ncclErr("torch.distributed.DistBackendError", utils25, "invalid argument (run with NCCL_DEBUG=WARN for details)", "2.21.5")),
		}},
		{family: "c10d: NCCL's remote error", want: "nccl-remote-process-exited", lines: []string{
			tb(ncclErr("torch.distributed.DistBackendError", utils2x, "remote process exited or there was a network error", "2.18.1")),
		}},
	}
}

// TestFamilyWordings checks each family's wordings across its writers'
// releases.
func TestFamilyWordings(t *testing.T) {
	checkWordings(t, compileCatalog(t), familyWordings())
}
