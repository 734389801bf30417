package catalog_test

import (
	"os"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// A raiseFamily is one family of a Python library's raise statements: the
// messages one cause produces, whatever the file, repository or value they
// name, and the record that must lead on each. Every message is composed
// the way Python prints it, as the last line of a traceback: inside the
// block a dying sglang scheduler logs and bare on stderr. want "" marks a
// near miss: a line no failure record may claim.
type raiseFamily struct {
	family string
	want   string
	// or, when set, is a second record whose advice fits the family as
	// well: a line led by either is claimed.
	or string
	// bare, when set, checks the lines as they are, not as an exception
	// at the end of a traceback: a library's log line.
	bare  bool
	lines []string
}

// A raiseLibrary is the families of one library a serving process imports.
type raiseLibrary struct {
	name     string
	families []raiseFamily
}

// raiseShapes composes an exception line the ways a serving log prints it.
func raiseShapes(f raiseFamily, line string) []string {
	if f.bare {
		return []string{line}
	}
	return []string{tb(line), rawTB(line)}
}

// raiseLead is the record that claims the exception in text: the cause of
// the first entry a failure record leads (a message of several lines can
// leave its continuation lines to later entries, which say nothing of
// their own), else the first wrapper that leads one, else what vocabLead
// finds.
func raiseLead(m *matcher.Matcher, text string) (*patterns.Record, []string) {
	a := entry.NewAssembler(entry.Options{})
	var ents []entry.Entry
	for i, line := range strings.Split(text, "\n") {
		ents = append(ents, a.Push(entry.Line{Text: line, Source: "raises", Stream: "stderr", Offset: int64(i)})...)
	}
	ents = append(ents, a.Flush()...)
	an := analysis.New(m)
	var wrapper *patterns.Record
	for i := range ents {
		d, ok := an.Analyze(&ents[i])
		if !ok || d.Cause == nil || d.Cause.Record.Severity == patterns.SeverityInfo {
			continue
		}
		r := d.Cause.Record
		if r.Role.Is(patterns.RoleWrapper) {
			if wrapper == nil {
				wrapper = r
			}
			continue
		}
		var context []string
		for _, h := range d.Context {
			context = append(context, h.Record.Slug)
		}
		return r, context
	}
	if wrapper != nil {
		return wrapper, nil
	}
	return vocabLead(m, text)
}

// TestLibraryRaises checks that every family of every library's raise
// statements is led by its record on every composed line, and logs each
// library's count of families claimed. With LOGMATCH_RAISES_DISCOVER set it
// logs the lines led otherwise instead of failing: the way to see what a
// new family's lines lead with before naming its record.
func TestLibraryRaises(t *testing.T) {
	m := compileCatalog(t)
	check := familyCheck{
		shapes: raiseShapes,
		lead:   func(text string) (*patterns.Record, []string) { return raiseLead(m, text) },
	}
	for _, lib := range raiseLibraries {
		t.Run(lib.name, func(t *testing.T) { check.run(t, lib.name, lib.families) })
	}
}

// A familyCheck is how one table of families is read: the texts a family's
// line is composed into, the record that leads a text (with the records of
// its context), and, for a lead that names the wanted record, why it is
// still wrong ("" when it is not; nil checks nothing more).
type familyCheck struct {
	shapes func(f raiseFamily, line string) []string
	lead   func(text string) (*patterns.Record, []string)
	veto   func(lead *patterns.Record) string
}

// run checks that every family is led by its record on every composed
// text (and that a near miss is led by none), and logs the count of
// families claimed. With LOGMATCH_RAISES_DISCOVER set it logs the texts led
// otherwise instead of failing: the way to see what a new family's lines
// lead with before naming its record.
func (c familyCheck) run(t *testing.T, name string, families []raiseFamily) {
	t.Helper()
	discover := os.Getenv("LOGMATCH_RAISES_DISCOVER") != ""
	claimed, failures := 0, 0
	for _, f := range families {
		if f.want != "" {
			failures++
		}
		ok := true
		for _, line := range f.lines {
			for _, text := range c.shapes(f, line) {
				lead, context := c.lead(text)
				good := leads(lead, context, f.want) || f.or != "" && leads(lead, context, f.or)
				why := ""
				if good && c.veto != nil {
					if why = c.veto(lead); why != "" {
						good = false
						why = " (" + why + ")"
					}
				}
				if good {
					continue
				}
				ok = false
				got := ""
				if lead != nil {
					got = lead.Slug
				}
				want := f.want
				if want == "" {
					want = "no failure record"
				}
				if discover {
					t.Logf("DISCOVER %s / %s: leads %q%s, want %s: %s", name, f.family, got, why, want, strings.SplitN(line, "\n", 2)[0])
				} else {
					t.Errorf("%s / %s: %q leads%s, want %s\n%s", name, f.family, got, why, want, text)
				}
			}
		}
		if ok && f.want != "" {
			claimed++
		}
	}
	t.Logf("%s: %d of %d families claimed", name, claimed, failures)
}

var raiseLibraries = []raiseLibrary{
	transformersRaises,
	hubRaises,
	safetensorsRaises,
	torchRaises,
	tritonRaises,
	flashinferRaises,
	grammarRaises,
	serverRaises,
	rayRaises,
	httpClientRaises,
	mediaRaises,
}

// httpClientRaises: the HTTP clients around a server (httpx and httpcore,
// aiohttp's client_exceptions.py, requests' exceptions.py over urllib3), as
// a router, a benchmark, a health checker or an RL trainer calling the
// server prints them.
var httpClientRaises = raiseLibrary{
	name: "HTTP clients",
	families: []raiseFamily{
		{family: "cannot connect", want: "http-upstream-connect-failed", lines: []string{
			"httpx.ConnectError: All connection attempts failed",
			"httpx.ConnectError: [Errno 111] Connection refused",
			"aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host 127.0.0.1:30000 ssl:default [Connect call failed ('127.0.0.1', 30000)]",
			"requests.exceptions.ConnectionError: HTTPConnectionPool(host='localhost', port=30000): Max retries exceeded with url: /health (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f>: Failed to establish a new connection: [Errno 111] Connection refused'))",
		}},
		{family: "server went away mid-response", want: "http-upstream-disconnected", lines: []string{
			"httpx.RemoteProtocolError: Server disconnected without sending a response.",
			"aiohttp.client_exceptions.ServerDisconnectedError: Server disconnected",
			"aiohttp.client_exceptions.ClientPayloadError: Response payload is not completed: <TransferEncodingError: 400, message='Not enough data for satisfy transfer length header.'>",
		}},
		{family: "read timed out", want: "http-client-read-timeout", lines: []string{
			"requests.exceptions.ReadTimeout: HTTPConnectionPool(host='localhost', port=30000): Read timed out. (read timeout=600)",
			"httpx.ReadTimeout: timed out",
		}},
		{family: "server answered an error status", want: "http-client-server-error-status", or: "router-request-server-error", lines: []string{
			"httpx.HTTPStatusError: Server error '500 Internal Server Error' for url 'http://localhost:30000/generate'",
			"requests.exceptions.HTTPError: 503 Server Error: Service Unavailable for url: http://localhost:30000/v1/chat/completions",
			"aiohttp.client_exceptions.ClientResponseError: 502, message='Bad Gateway', url='http://router:8000/generate'",
		}},
		{family: "server rejected the request", want: "http-client-request-rejected", lines: []string{
			"httpx.HTTPStatusError: Client error '400 Bad Request' for url 'http://localhost:30000/v1/chat/completions'",
			"requests.exceptions.HTTPError: 400 Client Error: Bad Request for url: http://localhost:30000/generate",
		}},
	},
}

// mediaRaises: the libraries that read a request's images and a model's
// tokenizer model file: Pillow (PIL/Image.py, ImageFile.py) and
// sentencepiece (sentencepiece_processor.cc as its Python binding raises
// it).
var mediaRaises = raiseLibrary{
	name: "Pillow and sentencepiece",
	families: []raiseFamily{
		{family: "image not decodable", want: "image-decode-failed", lines: []string{
			"PIL.UnidentifiedImageError: cannot identify image file <_io.BytesIO object at 0x7f3a2c1b5e90>",
			"OSError: image file is truncated (12 bytes not processed)",
		}},
		{family: "tokenizer.model unreadable", want: "sentencepiece-model-parse-failed", lines: []string{
			"RuntimeError: Internal: src/sentencepiece_processor.cc(1101) [model_proto->ParseFromArray(serialized.data(), serialized.size())] ",
		}},
		{family: "tokenizer.model missing", want: "hf-config-file-missing", lines: []string{
			"OSError: Not found: \"/models/llama/tokenizer.model\": No such file or directory Error #2",
		}},
	},
}

// rayRaises: Ray's exceptions as a serving process on Ray meets them
// (python/ray/exceptions.py, worker.py).
var rayRaises = raiseLibrary{
	name: "ray",
	families: []raiseFamily{
		{family: "actor died", want: "ray-actor-died", lines: []string{
			"ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n\tclass_name: RayWorkerWrapper\n\tactor_id: 8a5b0b6a0c0d0e0f\n\tpid: 4242",
			"ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task.",
		}},
		{family: "worker crashed", want: "ray-worker-died-system-error", lines: []string{
			"ray.exceptions.WorkerCrashedError: The worker died unexpectedly while executing this task. Check python-core-worker-*.log files for more information.",
		}},
		{family: "killed by the memory monitor", want: "ray-memory-monitor-killed-worker", lines: []string{
			"ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\nMemory on the node (IP: 10.0.0.5, ID: abc) where the task (actor ID: def, name=RayWorkerWrapper.__init__) was running was 950.00GB / 1000.00GB (0.95), which exceeds the memory usage threshold of 0.95.",
		}},
		{family: "get timed out", want: "ray-get-timeout", lines: []string{
			"ray.exceptions.GetTimeoutError: Get timed out: some object(s) not ready.",
		}},
		{family: "runtime environment setup failed", want: "ray-runtime-env-setup-failed", lines: []string{
			"ray.exceptions.RuntimeEnvSetupError: Failed to set up runtime environment.\nCould not create the actor because its associated runtime env failed to be created.",
		}},
		{family: "no cluster to join", want: "ray-no-running-cluster", lines: []string{
			"ConnectionError: Could not find any running Ray instance. Please specify the one to connect to by setting `--address` flag or `RAY_ADDRESS` environment variable.",
		}},
		{family: "object store full", want: "ray-object-store-full", lines: []string{
			"ray.exceptions.ObjectStoreFullError: Failed to put object 00ffffff in object store because it is full. Object size is 2147483648 bytes.\nThe local object store is full of objects that are still in scope and cannot be evicted.",
		}},
	},
}

// transformersRaises: transformers' configuration, tokenizer and model
// loading (configuration_utils.py, models/auto/*.py, tokenization_utils_base.py,
// modeling_utils.py, dynamic_module_utils.py, utils/hub.py, import_utils.py),
// with the import failures of Python itself that a library version other
// than the pinned one causes.
var transformersRaises = raiseLibrary{
	name: "transformers",
	families: []raiseFamily{
		{family: "file missing from a model directory or repository", want: "hf-config-file-missing", lines: []string{
			"OSError: /models/Qwen3-8B does not appear to have a file named config.json. Checkout 'https://huggingface.co//models/Qwen3-8B/tree/None' for available files.",
			"OSError: meta-llama/Llama-3.1-8B-Instruct does not appear to have a file named preprocessor_config.json. Checkout 'https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/tree/main' for available files.",
		}},
		{family: "no weights file in a directory", want: "hf-config-file-missing", lines: []string{
			"OSError: Error no file named pytorch_model.bin, model.safetensors, tf_model.h5, model.ckpt.index or flax_model.msgpack found in directory /models/llama.",
			"OSError: Error no file named model.safetensors, or pytorch_model.bin, found in directory /data/ckpt/step-1000.",
		}},
		{family: "unrecognised model (no model_type)", want: "model-config-unrecognized", lines: []string{
			"ValueError: Unrecognized model in /models/custom. Should have a `model_type` key in its config.json, or contain one of the following strings in its name: albert, align, altclip, bark, bart, bert",
		}},
		{family: "model type unknown to this transformers", want: "transformers-unknown-model-type", lines: []string{
			"ValueError: The checkpoint you are trying to load has model type `qwen3_next` but Transformers does not recognize this architecture. This could be because of an issue with the checkpoint, or because your version of Transformers is out of date.",
		}},
		{family: "configuration class unknown to an auto class", want: "transformers-unknown-model-type", lines: []string{
			"ValueError: Unrecognized configuration class <class 'transformers_modules.DeepSeek-V3.configuration_deepseek.DeepseekV3Config'> for this kind of AutoModel: AutoModelForCausalLM.\nModel type should be one of AriaTextConfig, BambaConfig, BartConfig.",
			"ValueError: Unrecognized configuration class <class 'transformers.models.qwen2_vl.configuration_qwen2_vl.Qwen2VLConfig'> to build an AutoTokenizer.\nModel type should be one of AlbertConfig, AlignConfig.",
		}},
		{family: "custom code needs trust_remote_code", want: "trust-remote-code-required", lines: []string{
			"ValueError: The repository for /models/internlm2-chat contains custom code which must be executed to correctly load the model. You can inspect the repository content at https://hf.co//models/internlm2-chat.\nPlease pass the argument `trust_remote_code=True` to allow custom code to be run.",
			"ValueError: Loading /models/chatglm3-6b requires you to execute the configuration file in that repo on your local machine. Make sure you have read the code there to avoid malicious use, then set the option `trust_remote_code=True` to remove this error.",
			"ValueError: Loading deepseek-ai/DeepSeek-V3 requires you to execute the tokenizer file in that repo on your local machine. Make sure you have read the code there to avoid malicious use, then set the option `trust_remote_code=True` to remove this error.",
		}},
		{family: "gated repository", want: "hf-gated-repo", lines: []string{
			"OSError: You are trying to access a gated repo.\nMake sure to have access to it at https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct.\n401 Client Error. (Request ID: Root=1-66a1b2c3-0123456789abcdef)\n\nCannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/resolve/main/config.json.\nAccess to model meta-llama/Llama-3.1-8B-Instruct is restricted. You must have access to it and be authenticated to access it. Please log in.",
		}},
		{family: "neither a local folder nor a model id", want: "hf-repository-not-found", lines: []string{
			"OSError: Qwen/Qwen3-8b-instruct is not a local folder and is not a valid model identifier listed on 'https://huggingface.co/models'\nIf this is a private repository, make sure to pass a token having permission to this repo either by logging in with `huggingface-cli login` or by passing `token=<your_token>`",
			"OSError: /mnt/models/llama is not a local folder and is not a valid model identifier listed on 'https://huggingface.co/models'",
		}},
		{family: "revision not in the repository", want: "hf-repository-not-found", lines: []string{
			"OSError: v2.0 is not a valid git identifier (branch name, tag name or commit id) that exists for this model name. Check the model page at 'https://huggingface.co/Qwen/Qwen3-8B' for available revisions.",
		}},
		{family: "offline and not cached", want: "hf-offline-cache-miss", lines: []string{
			"OSError: We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files and it looks like Qwen/Qwen3-8B is not the path to a directory containing a file named config.json.\nCheckout your internet connection or see how to run the library in offline mode at 'https://huggingface.co/docs/transformers/installation#offline-mode'.",
			"OSError: We couldn't connect to 'https://huggingface.co' to load the files, and couldn't find them in the cached files.\nCheck your internet connection or see how to run the library in offline mode at 'https://huggingface.co/docs/transformers/installation#offline-mode'.",
			// transformers' older model loader.
			"OSError: We couldn't connect to 'https://huggingface.co' to load this model, couldn't find it in the cached files and it looks like meta-llama/Llama-3.1-8B is not the path to a directory containing a file named pytorch_model.bin, tf_model.h5, model.ckpt or flax_model.msgpack.",
		}},
		{family: "datasets cannot reach the Hub", want: "hf-hub-unreachable", lines: []string{
			"ConnectionError: Couldn't reach 'openai/gsm8k' on the Hub (ConnectionError)",
			"ConnectionError: Couldn't reach 'ShareGPT/ShareGPT_V3_unfiltered_cleaned_split' on the Hub (LocalEntryNotFoundError)",
			"ConnectionError: Couldn't reach https://huggingface.co/datasets/openai/gsm8k/resolve/main/README.md (ConnectTimeout)",
		}},
		{family: "tokenizer cannot be loaded", want: "cannot-load-tokenizer", lines: []string{
			"OSError: Can't load tokenizer for 'mistralai/Mistral-7B-v0.1'. If you were trying to load it from 'https://huggingface.co/models', make sure you don't have a local directory with the same name. Otherwise, make sure 'mistralai/Mistral-7B-v0.1' is the correct path to a directory containing all relevant files for a LlamaTokenizerFast tokenizer.",
		}},
		{family: "tokenizer class this version lacks", want: "transformers-too-old-for-model", lines: []string{
			"ValueError: Tokenizer class Qwen2Tokenizer does not exist or is not currently imported.",
		}},
		{family: "tokenizer backend package missing", want: "tokenizer-backend-missing", lines: []string{
			"ImportError: \nLlamaTokenizer requires the SentencePiece library but it was not found in your environment. Checkout the instructions on the\ninstallation page of its repo: https://github.com/google/sentencepiece#installation and follow the ones\nthat match your environment. Please note that you may need to restart your runtime after installation.",
		}},
		{family: "library version without a name the code imports", want: "python-import-name-mismatch", lines: []string{
			"ImportError: cannot import name 'KwargsForCausalLM' from 'transformers.models.llama4.modeling_llama4' (/opt/venv/lib/python3.12/site-packages/transformers/models/llama4/modeling_llama4.py). Did you mean: 'Llama4ForCausalLM'?",
			"ImportError: cannot import name 'is_torch_fx_available' from 'transformers.utils.import_utils' (/usr/local/lib/python3.12/dist-packages/transformers/utils/import_utils.py)",
		}},
		{family: "optional package not installed", want: "python-module-not-found", lines: []string{
			"ModuleNotFoundError: No module named 'flash_attn'",
			"ImportError: Please install bitsandbytes>=0.44.0 via `pip install bitsandbytes>=0.44.0` to use bitsandbytes quantizer.",
		}},
		{family: "near misses: circular imports", lines: []string{
			"ImportError: cannot import name 'Engine' from partially initialized module 'sglang' (most likely due to a circular import) (/sgl/python/sglang/__init__.py)",
			"AttributeError: partially initialized module 'torch' has no attribute 'Tensor' (most likely due to a circular import)",
		}},
		{family: "remote code needs a package", want: "remote-code-missing-package", lines: []string{
			"ImportError: This modeling file requires the following packages that were not found in your environment: flash_attn. Run `pip install flash_attn`",
			"ImportError: This modeling file requires the following packages that were not found in your environment: einops, timm. Run `pip install einops timm`",
		}},
		{family: "fast tokenizer cannot be built", want: "tokenizer-backend-missing", lines: []string{
			"ValueError: Couldn't instantiate the backend tokenizer from one of: \n(1) a `tokenizers` library serialization file, \n(2) a slow tokenizer instance to convert or \n(3) an equivalent slow tokenizer class to instantiate and convert. \nYou need to have sentencepiece or tiktoken installed to convert a slow tokenizer to a fast one.",
		}},
		{family: "no processor files", want: "hf-config-file-missing", lines: []string{
			"ValueError: Unrecognized image processor in /models/Qwen2-VL-7B. Should have a `image_processor_type` key in its preprocessor_config.json of config.json, or one of the following `model_type` keys in its config.json: align, aria, beit",
			"ValueError: Unrecognized processing class in /models/llava. Can't instantiate a processor, a tokenizer, an image processor or a feature extractor for this model. Make sure the repository contains the files of at least one of those processing classes.",
		}},
		{family: "weights file unreadable", want: "checkpoint-file-corrupt", lines: []string{
			"OSError: Unable to load weights from pytorch checkpoint file for '/models/x/pytorch_model.bin' at '/models/x/pytorch_model.bin'. If you tried to load a PyTorch model from a TF 2.0 checkpoint, please set from_tf=True.",
		}},
		{family: "chat template not set", want: "chat-template-not-set", lines: []string{
			"ValueError: Cannot use chat template functions because tokenizer.chat_template is not set and no template argument was passed! For information about writing templates and setting the tokenizer.chat_template attribute, please see the documentation at https://huggingface.co/docs/transformers/main/en/chat_templating",
			"ValueError: Cannot use apply_chat_template() because tokenizer.chat_template is not set and no template argument was passed!",
		}},
		{family: "chat template raised while rendering", want: "chat-template-render-error", lines: []string{
			"jinja2.exceptions.TemplateError: Conversation roles must alternate user/assistant/user/assistant/...",
			"jinja2.exceptions.UndefinedError: 'dict object' has no attribute 'content'",
			"jinja2.exceptions.TemplateSyntaxError: unexpected '}'",
		}},
		{family: "config lacks an attribute the engine reads", want: "model-config-attribute-missing", lines: []string{
			"AttributeError: 'Qwen3MoeConfig' object has no attribute 'rope_parameters'",
			"AttributeError: 'InternVLChatConfig' object has no attribute 'hidden_size'",
		}},
		{family: "rope_scaling this version cannot read", want: "transformers-too-old-for-model", lines: []string{
			"ValueError: `rope_scaling` must be a dictionary with two fields, `type` and `factor`, got {'factor': 8.0, 'low_freq_factor': 1.0, 'high_freq_factor': 4.0, 'original_max_position_embeddings': 8192, 'rope_type': 'llama3'}",
		}},
		{family: "near misses", lines: []string{
			"You are using the default legacy behaviour of the <class 'transformers.models.llama.tokenization_llama.LlamaTokenizer'>.",
			"Special tokens have been added in the vocabulary, make sure the associated word embeddings are fine-tuned or trained.",
		}, bare: true},
	},
}

// hubRaises: huggingface_hub's download path (errors.py, utils/_http.py,
// file_download.py, _snapshot_download.py, utils/_validators.py), by the
// cause a message names; vocabulary_test.go's hfHubErrors lists the same
// library's exception classes one by one.
var hubRaises = raiseLibrary{
	name: "huggingface_hub",
	families: []raiseFamily{
		{family: "offline mode: not in the cache", want: "hf-offline-cache-miss", lines: []string{
			"huggingface_hub.errors.LocalEntryNotFoundError: Cannot find the requested files in the disk cache and outgoing traffic has been disabled. To enable hf.co look-ups and downloads online, set 'local_files_only' to False.",
			"huggingface_hub.errors.LocalEntryNotFoundError: An error happened while trying to locate the file on the Hub and we cannot find the requested files in the local cache. Please check your connection and try again or make sure your Internet connection is on.",
		}},
		{family: "offline mode: a call needs the Hub", want: "hf-offline-cache-miss", lines: []string{
			"huggingface_hub.errors.OfflineModeIsEnabled: Cannot reach https://huggingface.co/api/models/Qwen/Qwen3-8B/revision/main: offline mode is enabled. To disable it, please unset the `HF_HUB_OFFLINE` environment variable.",
		}},
		{family: "gated repository", want: "hf-gated-repo", lines: []string{
			"huggingface_hub.errors.GatedRepoError: 403 Client Error. (Request ID: Root=1-66a1b2c3-0123456789abcdef)\n\nCannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json.\nAccess to model meta-llama/Llama-3.1-8B is restricted and you are not in the authorized list. Visit https://huggingface.co/meta-llama/Llama-3.1-8B to ask for access.",
		}},
		{family: "repository, revision or file not found", want: "hf-repository-not-found", or: "hf-unauthorized-401", lines: []string{
			"huggingface_hub.errors.RepositoryNotFoundError: 401 Client Error. (Request ID: Root=1-66a1b2c3-0123456789abcdef)\n\nRepository Not Found for url: https://huggingface.co/api/models/acme/private-model/revision/main.\nPlease make sure you specified the correct `repo_id` and `repo_type`.\nIf you are trying to access a private or gated repo, make sure you are authenticated.",
			"huggingface_hub.errors.RevisionNotFoundError: 404 Client Error. (Request ID: Root=1-66a1b2c3-0123456789abcdef)\n\nRevision Not Found for url: https://huggingface.co/api/models/Qwen/Qwen3-8B/revision/v9.\nInvalid rev id: v9",
			"huggingface_hub.errors.EntryNotFoundError: 404 Client Error. (Request ID: Root=1-66a1b2c3-0123456789abcdef)\n\nEntry Not Found for url: https://huggingface.co/Qwen/Qwen3-8B/resolve/main/generation_config.json.",
		}},
		{family: "hf_transfer enabled but missing", want: "hf-transfer-failed", lines: []string{
			"ValueError: Fast download using 'hf_transfer' is enabled (HF_HUB_ENABLE_HF_TRANSFER=1) but 'hf_transfer' package is not available in your environment. Try `pip install hf_transfer`.",
		}},
		{family: "hf_transfer download failed", want: "hf-transfer-failed", lines: []string{
			"RuntimeError: An error occurred while downloading using `hf_transfer`. Consider disabling HF_HUB_ENABLE_HF_TRANSFER for better error handling.",
		}},
		{family: "download truncated", want: "hf-download-incomplete", lines: []string{
			"OSError: Consistency check failed: file should be of size 4976698672 but has size 1245184 (model-00001-of-00004.safetensors).\nThis is usually due to network issues while downloading the file. Please retry with `force_download=True`.",
		}},
		{family: "disk full while downloading", want: "no-space-left-on-device", lines: []string{
			"OSError: [Errno 28] No space left on device",
		}},
		{family: "token required but none", want: "hf-unauthorized-401", lines: []string{
			"huggingface_hub.errors.LocalTokenNotFoundError: Token is required (`token=True`), but no token found. You need to provide a token or be logged in to Hugging Face with `hf auth login` or `huggingface_hub.login`. See https://huggingface.co/settings/tokens.",
		}},
		{family: "Hub server error", want: "hf-hub-unreachable", lines: []string{
			"huggingface_hub.errors.HfHubHTTPError: 500 Server Error: Internal Server Error for url: https://huggingface.co/api/models/Qwen/Qwen3-8B/revision/main (Request ID: Root=1-66a1b2c3-0123456789abcdef)",
			"huggingface_hub.errors.HfHubHTTPError: 504 Server Error: Gateway Time-out for url: https://huggingface.co/api/models/Qwen/Qwen3-8B",
		}},
		{family: "fine-grained token lacks gated access", want: "hf-gated-repo", lines: []string{
			"huggingface_hub.errors.HfHubHTTPError: 403 Forbidden: Please enable access to public gated repositories in your fine-grained token settings to view this repository.",
		}},
		{family: "cache not writable", want: "filesystem-access-denied", lines: []string{
			"PermissionError: [Errno 13] Permission denied: '/root/.cache/huggingface/hub/models--Qwen--Qwen3-8B'",
		}},
		{family: "rate limited", want: "hf-rate-limited", lines: []string{
			"huggingface_hub.errors.HfHubHTTPError: 429 Client Error: Too Many Requests for url: https://huggingface.co/api/models/Qwen/Qwen3-8B/tree/main?recursive=True&expand=False",
		}},
		{family: "invalid repo id", want: "hf-invalid-repo-id", lines: []string{
			"huggingface_hub.errors.HFValidationError: Repo id must be in the form 'repo_name' or 'namespace/repo_name': '/models/Qwen3-8B/'. Use `repo_type` argument if needed.",
			"huggingface_hub.errors.HFValidationError: Repo id must use alphanumeric chars or '-', '_', '.', '--' and '..' are forbidden, '-' and '.' cannot start or end the name, max length is 96: 'Qwen/Qwen3 8B'.",
		}},
		{family: "near misses", bare: true, lines: []string{
			"Fetching 17 files: 100%|██████████| 17/17 [00:00<00:00, 5023.15it/s]",
			"Downloading shards: 100%|██████████| 4/4 [01:12<00:00, 18.05s/it]",
		}},
	},
}

// safetensorsRaises: the Rust loaders' errors as their Python bindings
// raise them: safetensors_rust (bindings/python/src/lib.rs,
// safetensors/src/tensor.rs) and tokenizers (bindings/python/src, the
// serde errors of tokenizer.json, decode's id conversion).
var safetensorsRaises = raiseLibrary{
	name: "safetensors and tokenizers",
	families: []raiseFamily{
		{family: "header unreadable", want: "safetensors-header-invalid", lines: []string{
			"safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge",
			"safetensors_rust.SafetensorError: Error while deserializing header: MetadataIncompleteBuffer",
			"safetensors_rust.SafetensorError: Error while deserializing header: InvalidHeaderDeserialization",
			"safetensors_rust.SafetensorError: Error while deserializing header: header too large",
			"safetensors_rust.SafetensorError: Error while deserializing header: incomplete metadata, file not fully covered",
		}},
		{family: "tensor absent from the file", want: "load-weights-key-error", lines: []string{
			"safetensors_rust.SafetensorError: File does not contain tensor model.layers.0.mlp.gate_proj.weight",
		}},
		{family: "metadata inconsistent with the data", want: "safetensors-header-invalid", lines: []string{
			"safetensors_rust.SafetensorError: Error while deserializing header: InvalidOffset(\"model.embed_tokens.weight\")",
			"safetensors_rust.SafetensorError: Error while deserializing header: TensorInvalidInfo",
		}},
		{family: "disk full while writing", want: "no-space-left-on-device", lines: []string{
			"safetensors_rust.SafetensorError: Error while serializing: IoError(Os { code: 28, kind: StorageFull, message: \"No space left on device\" })",
		}},
		{family: "tiktoken: encoding file not downloadable", want: "tiktoken-vocab-download-failed", lines: []string{
			"openai_harmony.HarmonyError: error downloading or loading vocab file",
			"requests.exceptions.ConnectionError: HTTPSConnectionPool(host='openaipublic.blob.core.windows.net', port=443): Max retries exceeded with url: /encodings/o200k_base.tiktoken (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f>: Failed to establish a new connection: [Errno 101] Network is unreachable'))",
		}},
		{family: "tokenizers: token id out of range", want: "tokenizer-decode-id-out-of-range", lines: []string{
			"OverflowError: out of range integral type conversion attempted",
		}},
		{family: "tokenizer.json of a newer tokenizers", want: "tokenizers-json-unsupported", lines: []string{
			"Exception: data did not match any variant of untagged enum ModelWrapper at line 1251003 column 3",
			"Exception: data did not match any variant of untagged enum PyPreTokenizerTypeWrapper at line 69 column 3",
		}},
	},
}

// torchRaises: torch's device, dtype and CUDA checks (c10/cuda, aten,
// torch/cuda/__init__.py), load_state_dict (nn/modules/module.py),
// torch.distributed's store and init (distributed_c10d.py, rendezvous.py,
// TCPStore.cpp, gloo's tcp pair), dynamo and inductor (torch/_dynamo/exc.py,
// torch/_inductor/exc.py), cuBLAS and cuDNN checks (CUDABlas.cpp), the
// loading of compiled extensions, and flash-attn's checks on the GPU and
// head dimension.
var torchRaises = raiseLibrary{
	name: "torch",
	families: []raiseFamily{
		{family: "tensors on different devices", want: "tensors-on-different-devices", lines: []string{
			"RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!",
			"RuntimeError: Expected all tensors to be on the same device, but got index is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA__index_select)",
		}},
		{family: "operator lacks a kernel for a dtype", want: "torch-op-dtype-not-implemented", lines: []string{
			"RuntimeError: \"addmm_impl_cpu_\" not implemented for 'Half'",
			"RuntimeError: \"rms_norm_kernel\" not implemented for 'Float8_e4m3fn'",
			"NotImplementedError: \"index_select_cuda\" not implemented for 'Float8_e4m3fn'",
		}},
		{family: "dtypes of operands differ", want: "torch-dtype-mismatch", lines: []string{
			"RuntimeError: expected scalar type BFloat16 but found Float",
			"RuntimeError: expected mat1 and mat2 to have the same dtype, but got: float != c10::BFloat16",
		}},
		{family: "torch built without CUDA", want: "torch-not-compiled-with-cuda", lines: []string{
			"AssertionError: Torch not compiled with CUDA enabled",
		}},
		{family: "no GPU visible", want: "no-cuda-gpus-available", lines: []string{
			"RuntimeError: No CUDA GPUs are available",
			"RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx",
		}},
		{family: "driver older than torch's CUDA", want: "cuda-driver-version-insufficient", lines: []string{
			"RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org to install a PyTorch version that has been compiled with your version of the CUDA driver.",
		}},
		{family: "no kernel image for the GPU", want: "cuda-no-kernel-image", lines: []string{
			"RuntimeError: CUDA error: no kernel image is available for execution on the device\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
		}},
		{family: "GPU capability outside the build", want: "cuda-no-kernel-image", bare: true, lines: []string{
			"/usr/local/lib/python3.12/dist-packages/torch/cuda/__init__.py:262: UserWarning: \nNVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.\nThe current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.",
		}},
		{family: "CUDA in a forked child", want: "cuda-reinit-forked-subprocess", lines: []string{
			"RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method",
		}},
		{family: "checkpoint shapes differ from the model", want: "load-weights-shape-mismatch", lines: []string{
			"RuntimeError: Error(s) in loading state_dict for LlamaForCausalLM:\n\tsize mismatch for model.embed_tokens.weight: copying a param with shape torch.Size([128256, 4096]) from checkpoint, the shape in current model is torch.Size([32000, 4096]).",
		}},
		{family: "checkpoint keys differ from the model", want: "load-weights-key-error", lines: []string{
			"RuntimeError: Error(s) in loading state_dict for Qwen2ForCausalLM:\n\tMissing key(s) in state_dict: \"lm_head.weight\". ",
			"RuntimeError: Error(s) in loading state_dict for LoraModel:\n\tUnexpected key(s) in state_dict: \"base_model.model.lm_head.lora_A.weight\". ",
		}},
		{family: "checkpoint is not a torch archive", want: "checkpoint-file-corrupt", lines: []string{
			"RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory",
			"_pickle.UnpicklingError: invalid load key, 'v'.",
		}},
		{family: "weights-only load refused", want: "torch-weights-only-load-failed", lines: []string{
			"_pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have two options, do those steps only if you trust the source of the checkpoint. \n\t(1) In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`.\n\tWeightsUnpickler error: Unsupported global: GLOBAL argparse.Namespace was not an allowed global by default.",
		}},
		{family: "sampling probabilities invalid", want: "cuda-probability-tensor-inf-nan", lines: []string{
			"RuntimeError: probability tensor contains either `inf`, `nan` or element < 0",
		}},
		{family: "torch built without NCCL", want: "torch-distributed-backend-not-built", lines: []string{
			"RuntimeError: Distributed package doesn't have NCCL built in",
		}},
		{family: "rendezvous environment unset", want: "c10d-rendezvous-env-unset", lines: []string{
			"ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable MASTER_ADDR expected, but not set",
		}},
		{family: "CUDA driver cannot initialise", want: "no-cuda-gpus-available", lines: []string{
			"RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu.",
		}},
		{family: "forward compatibility on a GPU without it", want: "cuda-driver-mismatch", lines: []string{
			"RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non supported HW",
		}},
		{family: "fabric manager not ready", want: "cuda-system-not-ready", lines: []string{
			"RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 802: system not yet initialized",
		}},
		{family: "GPU too old for torch", want: "cuda-no-kernel-image", lines: []string{
			"RuntimeError: Found GPU0 Tesla K80 which is of cuda capability 3.7.\nPyTorch no longer supports this GPU because it is too old.\nThe minimum cuda capability supported by this library is 5.0.",
		}},
		{family: "inductor: no Triton", want: "torch-inductor-triton-missing", lines: []string{
			"torch._inductor.exc.TritonMissing: Cannot find a working triton installation. Either the package is not installed or it is too old. More information on installing Triton can be found at: https://github.com/triton-lang/triton",
			"torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nRuntimeError: Cannot find a working triton installation. Either the package is not installed or it is too old. More information on installing Triton can be found at https://github.com/openai/triton",
		}},
		{family: "sgl-kernel built against another torch", want: "sgl-kernel-undefined-symbol", lines: []string{
			"ImportError: /usr/local/lib/python3.12/dist-packages/sgl_kernel/common_ops.abi3.so: undefined symbol: _ZN3c104cuda9SetDeviceEa",
		}},
		{family: "compiled extension built against another torch", want: "torch-extension-undefined-symbol", lines: []string{
			"ImportError: /opt/venv/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationESs",
		}},
		{family: "CUDA library missing", want: "cuda-shared-library-missing", lines: []string{
			"ImportError: libcudart.so.12: cannot open shared object file: No such file or directory",
			"OSError: libnccl.so.2: cannot open shared object file: No such file or directory",
		}},
		{family: "gloo peer closed the connection", want: "gloo-connection-closed-by-peer", lines: []string{
			"RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [10.0.0.2]:4567",
		}},
		{family: "gloo mesh not formed", want: "gloo-connect-full-mesh-failed", lines: []string{
			"RuntimeError: Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error",
		}},
		{family: "store: NCCL id exchange failed", want: "c10d-nccl-unique-id-exchange-failed", lines: []string{
			"torch.distributed.DistBackendError: [1] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Socket Timeout",
		}},
		{family: "library without an attribute the code uses", want: "python-import-name-mismatch", lines: []string{
			"AttributeError: module 'triton.language' has no attribute 'constexpr_function'",
			"AttributeError: module 'torch' has no attribute 'float8_e4m3fn'",
		}},
		{family: "collective timed out in the watchdog", want: "nccl-watchdog-collective-timeout", lines: []string{
			"RuntimeError: [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600051 milliseconds before timing out.",
		}},
		{family: "torchrun child failed", want: "torch-elastic-child-failed", lines: []string{
			"torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n============================================================\nsglang.launch_server FAILED",
		}},
		{family: "CUDA checkpoint on a host without CUDA", want: "no-cuda-gpus-available", lines: []string{
			"RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.",
		}},
		{family: "allocator's NVML check", want: "torch-allocator-nvml-assert", lines: []string{
			"RuntimeError: NVML_SUCCESS == r INTERNAL ASSERT FAILED at \"../c10/cuda/CUDACachingAllocator.cpp\":830, please report a bug to PyTorch. ",
		}},
		{family: "cuDNN runtime older than the build", want: "cudnn-version-incompatible", lines: []string{
			"RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (9, 1, 0) but found runtime version (8, 9, 2). PyTorch already comes bundled with cuDNN.",
		}},
		{family: "system C or C++ library too old", want: "system-library-version-too-old", lines: []string{
			"ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.32' not found (required by /opt/venv/lib/python3.11/site-packages/sgl_kernel/common_ops.abi3.so)",
			"ImportError: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /opt/venv/lib/python3.11/site-packages/flashinfer/data/libflashinfer.so)",
		}},
		{family: "store: clients did not join", want: "c10d-store-wait-for-clients-timeout", lines: []string{
			"torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 1/2 clients joined.",
		}},
		{family: "store: bare socket timeout", want: "c10d-store-socket-wait-timeout", lines: []string{
			"RuntimeError: Socket Timeout",
			"torch.distributed.DistStoreError: Socket Timeout",
		}},
		{family: "store: key wait timed out", want: "c10d-nccl-unique-id-exchange-failed", lines: []string{
			"torch.distributed.DistStoreError: wait timeout after 600000ms, keys: /default_pg/0//cuda//0",
		}},
		{family: "store: client could not connect", want: "c10d-client-socket-timeout", lines: []string{
			"torch.distributed.DistNetworkError: The client socket has timed out after 600000ms while trying to connect to (10.0.0.1, 29500).",
		}},
		{family: "store: port in use", want: "c10d-server-socket-address-in-use", lines: []string{
			"torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: 29500, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use",
		}},
		{family: "process group used before init", want: "c10d-default-group-not-initialized", lines: []string{
			"ValueError: Default process group has not been initialized, please make sure to call init_process_group.",
		}},
		{family: "dynamo: backend compiler failed", want: "torch-dynamo-backend-compiler-failed", lines: []string{
			"torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nRuntimeError: Triton Error",
		}},
		{family: "dynamo: unsupported construct", want: "torch-dynamo-unsupported", lines: []string{
			"torch._dynamo.exc.Unsupported: Attempted to call function marked as skipped",
		}},
		{family: "dynamo: fake-tensor run failed", want: "torch-dynamo-internal-error", lines: []string{
			"torch._dynamo.exc.TorchRuntimeError: Failed running call_function <built-in function linear>(*(FakeTensor(..., device='cuda:0', size=(s0, 4096), dtype=torch.bfloat16), Parameter(FakeTensor(..., device='cuda:0', size=(4096, 4096)))), **{}):",
			"torch._dynamo.exc.TorchRuntimeError: Dynamo failed to run FX node with fake tensors: call_function <built-in method matmul>(*(FakeTensor(...)), **{}): got RuntimeError('a and b must have same reduction dim')",
		}},
		{family: "dynamo: recompile limit as an exception", want: "torch-dynamo-recompile-limit", lines: []string{
			"torch._dynamo.exc.CacheLimitExceeded: cache_size_limit reached",
		}},
		{family: "dynamo: internal error", want: "torch-dynamo-internal-error", lines: []string{
			"torch._dynamo.exc.InternalTorchDynamoError: AttributeError: 'NoneType' object has no attribute 'shape'",
		}},
		{family: "inductor: lowering failed", want: "torch-inductor-lowering-failed", lines: []string{
			"torch._inductor.exc.InductorError: LoweringException: AssertionError: ",
		}},
		{family: "inductor: C++ compile failed", want: "torch-inductor-cpp-compile-error", lines: []string{
			"torch._inductor.exc.InductorError: CppCompileError: C++ compile error",
		}},
		{family: "cuBLAS status", want: "cublas-status-error", lines: []string{
			"RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasGemmEx( handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16BF, lda, b, CUDA_R_16BF, ldb, &fbeta, c, CUDA_R_16BF, ldc, CUDA_R_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`",
			"RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`",
		}},
		{family: "cuDNN status", want: "cudnn-status-error", lines: []string{
			"RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED",
		}},
		{family: "out of memory", want: "cuda-out-of-memory", lines: []string{
			"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.02 GiB is free.",
		}},
		{family: "flash-attn: GPU too old", want: "flash-attn-unsupported-gpu", lines: []string{
			"RuntimeError: FlashAttention only supports Ampere GPUs or newer.",
		}},
		{family: "flash-attn: head dimension", want: "flash-attn-unsupported-gpu", lines: []string{
			"RuntimeError: FlashAttention forward only supports head dimension at most 256",
		}},
		{family: "near misses", bare: true, lines: []string{
			"W1206 12:00:00.123000 1234 torch/distributed/run.py:793] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded",
			"/usr/local/lib/python3.12/dist-packages/torch/cuda/__init__.py:61: FutureWarning: The pynvml package is deprecated.",
		}},
	},
}

// tritonRaises: Triton's compiler and launcher (runtime/errors.py,
// compiler/errors.py, backends/nvidia/compiler.py).
var tritonRaises = raiseLibrary{
	name: "triton",
	families: []raiseFamily{
		{family: "out of resources", want: "triton-out-of-resources", lines: []string{
			"triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 131072, Hardware limit: 101376. Reducing block sizes or `num_stages` may help.",
			"triton.runtime.errors.OutOfResources: out of resource: threads, Required: 2048, Hardware limit: 1024. Reducing block sizes or `num_stages` may help.",
		}},
		{family: "kernel compilation failed", want: "triton-compilation-error", lines: []string{
			"triton.compiler.errors.CompilationError: at 12:4:\n    offs = tl.arange(0, BLOCK)\n    ^",
		}},
		{family: "ptxas failed", want: "triton-ptxas-failed", lines: []string{
			"triton.runtime.errors.PTXASError: PTXAS error: Internal Triton PTX codegen error\n`ptxas` stderr:\nptxas fatal   : Unresolved extern function '__nv_expf'",
			"triton.runtime.errors.PTXASError: PTXAS error: Internal Triton PTX codegen error\n`ptxas` stderr:\nptxas fatal   : Value 'sm_120a' is not defined for option 'gpu-name'",
			"RuntimeError: Internal Triton PTX codegen error: \nptxas fatal   : Unresolved extern function '__nv_expf'",
		}},
		{family: "launch with a bad argument", want: "triton-launch-invalid-argument", lines: []string{
			"RuntimeError: Triton Error [CUDA]: invalid argument",
		}},
		{family: "no C compiler for the launcher", want: "triton-c-compiler-not-found", lines: []string{
			"RuntimeError: Failed to find C compiler. Please specify via CC environment variable.",
		}},
		{family: "CPU tensor handed to a kernel", want: "triton-cpu-tensor-argument", lines: []string{
			"ValueError: Pointer argument (at 0) cannot be accessed from Triton (cpu tensor?)",
		}},
	},
}

// flashinferRaises: FlashInfer's JIT build (jit/cpp_ext.py) and its kernel
// dispatch checks (include/flashinfer/utils.cuh, exception.h).
var flashinferRaises = raiseLibrary{
	name: "flashinfer",
	families: []raiseFamily{
		{family: "JIT build failed", want: "flashinfer-ninja-build-failed", lines: []string{
			"RuntimeError: Ninja build failed. Ninja output:\nninja: Entering directory `/root/.cache/flashinfer/90/cached_ops'\nFAILED: batch_prefill_with_kv_cache/batch_prefill.cuda.o",
			"subprocess.CalledProcessError: Command '['ninja', '-v', '-C', '/root/.cache/flashinfer/jit', '-f', '/root/.cache/flashinfer/jit/build.ninja']' returned non-zero exit status 1.",
		}},
		{family: "unsupported head dim or configuration", want: "flashinfer-unsupported-kernel-config", lines: []string{
			"RuntimeError: Error in function 'BatchPrefillWithPagedKVCacheDispatched' at /workspace/include/flashinfer/attention/prefill.cuh:2270: FlashInfer Internal Error: Invalid configuration : NUM_MMA_Q=1 NUM_MMA_D_QK=12 NUM_MMA_D_VO=12 NUM_MMA_KV=1 NUM_WARPS_Q=4 NUM_WARPS_KV=1",
			"RuntimeError: Error in function 'operator()' at /workspace/csrc/batch_decode.cu:120: Unsupported head_dim: 80",
		}},
		{family: "package missing", want: "no-module-flashinfer", lines: []string{
			"ModuleNotFoundError: No module named 'flashinfer'",
		}},
		{family: "cubin and package versions differ", want: "flashinfer-package-version-mismatch", lines: []string{
			"RuntimeError: flashinfer-cubin version (0.4.1) does not match flashinfer version (0.5.2). Please install the same version of both packages.",
		}},
	},
}

// grammarRaises: the grammar backends' errors on a request's constraint
// (xgrammar's cpp/*.cc checks, outlines' json_schema.py, llguidance's
// parser) as they reach the log.
var grammarRaises = raiseLibrary{
	name: "grammar backends",
	families: []raiseFamily{
		{family: "xgrammar: EBNF or regex syntax", want: "xgrammar-grammar-parse-error", lines: []string{
			"RuntimeError: [02:31:58] /project/cpp/grammar_parser.cc:101: EBNF parser error at line 1, column 9: Expect element",
			"RuntimeError: [02:31:58] /project/cpp/regex_converter.cc:63: Regex parsing error at position 4: Unmatched ')'",
		}},
		{family: "xgrammar: JSON schema unsupported", want: "grammar-invalid-json-schema", lines: []string{
			"RuntimeError: [02:31:58] /project/cpp/json_schema_converter.cc:829: Unsupported type \"foo\"",
		}},
		{family: "sglang: invalid grammar skipped", want: "grammar-invalid-json-schema", bare: true, lines: []string{
			hdr("Hit invalid json_schema: {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"foo\"}}} with error: Unsupported type"),
			hdr("Skip invalid regex: [a-z with error: Regex parsing error"),
		}},
		{family: "xgrammar: constraint rejected by class", want: "grammar-invalid-json-schema", lines: []string{
			"xgrammar.exception.InvalidJSONSchemaError: Unsatisfiable schema: minimum 5 is greater than maximum 3",
			"xgrammar.exception.InvalidStructuralTagError: Invalid structural tag: the begin of a tag must not be empty",
			"xgrammar.exception.InvalidJSONError: Failed to parse JSON: unexpected end of input",
		}},
		{family: "outlines: schema unsupported", want: "grammar-invalid-json-schema", lines: []string{
			"NotImplementedError: Transformation of JSON schema type 'foo' is not supported by Outlines",
		}},
		{family: "outlines: version mismatch", want: "outlines-version-mismatch", lines: []string{
			"ImportError: cannot import name 'build_regex_from_object' from 'outlines.fsm.json_schema'",
		}},
	},
}

// serverRaises: the HTTP server and request layer (pydantic_core's
// ValidationError, uvicorn's server.py and config.py).
var serverRaises = raiseLibrary{
	name: "pydantic and uvicorn",
	families: []raiseFamily{
		{family: "request fails validation", want: "openai-request-validation-error", lines: []string{
			"pydantic_core._pydantic_core.ValidationError: 1 validation error for ChatCompletionRequest\nmessages\n  Field required [type=missing, input_value={'model': 'x'}, input_type=dict]",
		}},
		{family: "uvicorn: address not on this host", want: "network-address-not-available", bare: true, lines: []string{
			"ERROR:    [Errno 99] error while attempting to bind on address ('10.0.0.9', 30000): cannot assign requested address",
		}},
		{family: "uvicorn: port in use", want: "address-already-in-use", bare: true, lines: []string{
			"ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 30000): address already in use",
			"ERROR:    [Errno 98] error while attempting to bind on address ('::', 8000, 0, 0): [errno 98] address already in use",
		}},
		{family: "ASGI application raised", want: "exception-in-asgi-application", bare: true, lines: []string{
			"ERROR:    Exception in ASGI application",
		}},
		{family: "response longer than declared", want: "h11-local-protocol-error", lines: []string{
			"h11._util.LocalProtocolError: Too much data for declared Content-Length",
			"RuntimeError: Response content longer than Content-Length",
		}},
		{family: "near misses: a client that went away", lines: []string{
			"starlette.requests.ClientDisconnect",
			"RuntimeError: No response returned.",
		}},
		{family: "near misses", bare: true, lines: []string{
			"INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)",
			"INFO:     127.0.0.1:45678 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK",
			"INFO:     Waiting for application startup.",
			"WARNING:  Unsupported upgrade request.",
			"WARNING:  No supported WebSocket library detected. Please use \"pip install 'uvicorn[standard]'\", or install 'websockets' or 'wsproto' manually.",
		}},
	},
}

// raisesExamples are the examples of the records the library families
// above brought in; raisesWidened the lines of records they widened.
var raisesExamples = map[string]example{
	"hf-transfer-failed": {
		match: []string{
			"ValueError: Fast download using 'hf_transfer' is enabled (HF_HUB_ENABLE_HF_TRANSFER=1) but 'hf_transfer' package is not available in your environment. Try `pip install hf_transfer`.",
			rawTB("RuntimeError: An error occurred while downloading using `hf_transfer`. Consider disabling HF_HUB_ENABLE_HF_TRANSFER for better error handling."),
		},
		miss: []string{
			"export HF_HUB_ENABLE_HF_TRANSFER=1",
			"Fast download using 'hf_transfer' is enabled",
		},
	},
	"hf-download-incomplete": {
		match: []string{
			"OSError: Consistency check failed: file should be of size 4976698672 but has size 1245184 (model-00001-of-00004.safetensors).",
			tb("OSError: Consistency check failed: file should be of size 11422654 but has size 0 (tokenizer.json).\nThis is usually due to network issues while downloading the file. Please retry with `force_download=True`."),
		},
		miss: []string{"Consistency check passed for model-00001-of-00004.safetensors"},
	},
	"remote-code-missing-package": {
		match: []string{
			rawTB("ImportError: This modeling file requires the following packages that were not found in your environment: flash_attn. Run `pip install flash_attn`"),
			"ImportError: This modeling file requires the following packages that were not found in your environment: einops, timm. Run `pip install einops timm`",
		},
		miss: []string{"ImportError: This modeling file requires flash_attn"},
	},
	"torch-op-dtype-not-implemented": {
		match: []string{
			"RuntimeError: \"addmm_impl_cpu_\" not implemented for 'Half'",
			tb("NotImplementedError: \"index_select_cuda\" not implemented for 'Float8_e4m3fn'"),
		},
		miss: []string{
			"NotImplementedError: Method forward_cpu is not implemented for this layer",
			"RuntimeError: not implemented for 'Half'",
		},
	},
	"torch-inductor-triton-missing": {
		match: []string{
			"torch._inductor.exc.TritonMissing: Cannot find a working triton installation. Either the package is not installed or it is too old.",
			tb("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nRuntimeError: Cannot find a working triton installation. Either the package is not installed or it is too old."),
		},
		miss: []string{"triton 3.4.0 installation found at /usr/local/lib/python3.12/dist-packages/triton"},
	},
	"c10d-rendezvous-env-unset": {
		match: []string{
			"ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable MASTER_ADDR expected, but not set",
			rawTB("ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable RANK expected, but not set"),
		},
		miss: []string{"Initializing torch.distributed using env:// rendezvous with MASTER_ADDR=10.0.0.1"},
	},
	"tokenizer-decode-id-out-of-range": {
		match: []string{
			"OverflowError: out of range integral type conversion attempted",
			hdr("DetokenizerManager hit an exception: Traceback (most recent call last):\n  File \"/sgl-workspace/sglang/python/sglang/srt/managers/detokenizer_manager.py\", line 240, in run_detokenizer_process\n    manager.event_loop()\nOverflowError: out of range integral type conversion attempted"),
		},
		miss: []string{"OverflowError: Python int too large to convert to C long"},
	},
	"python-module-not-found": {
		match: []string{
			rawTB("ModuleNotFoundError: No module named 'vllm'"),
			tb("ModuleNotFoundError: No module named 'bitsandbytes'"),
			"[rank0]: ModuleNotFoundError: No module named 'deep_gemm'",
			// A status wrapper (Triton's model load, a gRPC status) quoting
			// the cause: the quoted error is the failure.
			"E0625 12:00:00.123456 1 model_lifecycle.cc:626] failed to load 'postprocessing' version 1: Internal: ModuleNotFoundError: No module named 'tokenizers'",
			"ImportError: Please install bitsandbytes>=0.44.0 via `pip install bitsandbytes>=0.44.0` to use bitsandbytes quantizer.",
		},
		miss: []string{
			"Failed to import from vllm._C with ModuleNotFoundError(\"No module named 'vllm'\")",
			"Cannot determine GPU compute capability: ModuleNotFoundError: No module named 'pynvml'",
			"Ignore import error when loading sglang.srt.models.mllama4: No module named 'timm'",
		},
	},
	"python-import-name-mismatch": {
		match: []string{
			"ImportError: cannot import name 'KwargsForCausalLM' from 'transformers.models.llama4.modeling_llama4' (/opt/venv/lib/python3.12/site-packages/transformers/models/llama4/modeling_llama4.py). Did you mean: 'Llama4ForCausalLM'?",
			tb("ImportError: cannot import name 'fused_marlin_moe' from 'sgl_kernel' (/usr/local/lib/python3.12/dist-packages/sgl_kernel/__init__.py)"),
		},
		miss: []string{
			"Ignore import error when loading sglang.srt.models.minicpmo. cannot import name 'WhisperEncoder' from 'transformers.models.whisper'",
			"ImportError: cannot import name 'ServerArgs' from 'sglang' (unknown location)",
			"ImportError: cannot import name 'Engine' from partially initialized module 'sglang' (most likely due to a circular import)",
			"ImportError: cannot import name 'build_regex_from_object' from 'outlines.fsm.json_schema'",
		},
	},
	// Python's NameError family: a name with no value where the code runs,
	// with its type or pasted without it.
	"python-name-not-defined": {
		match: []string{
			tb("NameError: name 'torch_npu' is not defined"),
			rawTB("NameError: name 'sgl_build_tree_kernel' is not defined. Did you mean: 'build_tree_kernel'?"),
			"'CompressedTensorsW8A16Fp8' is not defined. Did you mean: 'CompressedTensorsW8A8Fp8'?",
			tb("UnboundLocalError: cannot access local variable 'output' where it is not associated with a value"),
			tb("UnboundLocalError: local variable 'logits' referenced before assignment"),
			tb("NameError: cannot access free variable 'handle' where it is not associated with a value in enclosing scope"),
		},
		miss: []string{
			// Another language's, and a message that only quotes a name.
			"Uncaught ReferenceError: process is not defined",
			"'CompressedTensorsW8A16Fp8' is not defined in this release",
			mainLog("Environment variable SGLANG_FOO is not defined, using the default"),
		},
	},
	"model-config-attribute-missing": {
		match: []string{
			rawTB("AttributeError: 'Qwen3MoeConfig' object has no attribute 'rope_parameters'"),
			tb("AttributeError: 'InternVLChatConfig' object has no attribute 'hidden_size'"),
		},
		miss: []string{
			"AttributeError: 'ServerArgs' object has no attribute 'encoder_only'",
			"RuntimeError: Model generation returned no output. Error from scheduler: Error executing request 1: 'QwenImageArchConfig' object has no attribute 'image_token_id'",
		},
	},
	"tiktoken-vocab-download-failed": {
		match: []string{
			tb("openai_harmony.HarmonyError: error downloading or loading vocab file"),
			"requests.exceptions.ConnectionError: HTTPSConnectionPool(host='openaipublic.blob.core.windows.net', port=443): Max retries exceeded with url: /encodings/cl100k_base.tiktoken (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f>: Failed to establish a new connection: [Errno 110] Connection timed out'))",
		},
		miss: []string{"Loaded tiktoken vocab file from /etc/encodings/o200k_base.tiktoken"},
	},
	"cudnn-version-incompatible": {
		match: []string{
			tb("RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (9, 1, 0) but found runtime version (8, 9, 2). PyTorch already comes bundled with cuDNN."),
			"RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (9, 5, 1) but found runtime version (9, 1, 0).",
		},
		miss: []string{"cuDNN version: 90501"},
	},
	"system-library-version-too-old": {
		match: []string{
			rawTB("ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.32' not found (required by /opt/venv/lib/python3.11/site-packages/sgl_kernel/common_ops.abi3.so)"),
			"ImportError: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /opt/venv/lib/python3.11/site-packages/flashinfer/data/libflashinfer.so)",
		},
		miss: []string{"ldd (Ubuntu GLIBC 2.35-0ubuntu3.8) 2.35"},
	},
	"torch-not-compiled-with-cuda": {
		match: []string{
			rawTB("AssertionError: Torch not compiled with CUDA enabled"),
			tb("AssertionError: Torch not compiled with CUDA enabled"),
		},
		miss: []string{"torch.version.cuda=12.8 torch.cuda.is_available()=True"},
	},
}

var raisesWidened = map[string]example{
	"grammar-invalid-json-schema": {
		match: []string{tb("xgrammar.exception.InvalidJSONSchemaError: Unsatisfiable schema: minimum 5 is greater than maximum 3")},
		miss:  []string{"from xgrammar.exception import InvalidJSONSchemaError"},
	},
	"network-address-not-available": {
		match: []string{
			"ERROR:    [Errno 99] error while attempting to bind on address ('10.0.0.9', 30000): cannot assign requested address",
			"[2026-05-28 00:11:09] ERROR:    [Errno 99] error while attempting to bind on address ('fd00::9', 8000, 0, 0): [errno 99] cannot assign requested address",
		},
		miss: []string{"ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 30000): address already in use"},
	},
	"python-import-name-mismatch": {
		match: []string{"AttributeError: module 'triton.language' has no attribute 'constexpr_function'"},
		miss:  []string{"AttributeError: partially initialized module 'torch' has no attribute 'Tensor' (most likely due to a circular import)"},
	},
	"torch-dynamo-recompile-limit": {
		match: []string{"torch._dynamo.exc.CacheLimitExceeded: cache_size_limit reached"},
	},
	"image-decode-failed": {
		match: []string{"OSError: image file is truncated (12 bytes not processed)"},
		miss:  []string{"WARNING: image file is large (4096x4096), resizing"},
	},
	"http-upstream-connect-failed": {
		match: []string{
			"httpx.ConnectError: All connection attempts failed",
			"2025-12-11 15:49:06.760126+08:00 - gpustack.worker.model_file_manager - ERROR - Failed to watch model files: All connection attempts failed",
		},
	},
	"http-client-read-timeout": {
		match: []string{"requests.exceptions.ReadTimeout: HTTPConnectionPool(host='localhost', port=30000): Read timed out. (read timeout=600)"},
		miss:  []string{"requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='huggingface.co', port=443): Read timed out. (read timeout=10)"},
	},
	"c10d-store-socket-wait-timeout": {
		match: []string{rawTB("RuntimeError: Socket Timeout"), "torch.distributed.DistStoreError: Socket Timeout"},
		miss:  []string{"[W socket.cpp:663] [c10d] The client socket has timed out after 1s while trying to connect to (10.0.0.1, 29500)."},
	},
	"flash-attn-unsupported-gpu": {
		match: []string{"RuntimeError: FlashAttention forward only supports head dimension at most 256"},
		miss:  []string{"FlashAttention head dimension 128 selected"},
	},
	"tokenizer-backend-missing": {
		match: []string{"ValueError: Couldn't instantiate the backend tokenizer from one of: \n(1) a `tokenizers` library serialization file, \n(2) a slow tokenizer instance to convert or \n(3) an equivalent slow tokenizer class to instantiate and convert. \nYou need to have sentencepiece or tiktoken installed to convert a slow tokenizer to a fast one."},
	},
	"checkpoint-file-corrupt": {
		match: []string{"OSError: Unable to load weights from pytorch checkpoint file for '/models/x/pytorch_model.bin' at '/models/x/pytorch_model.bin'. If you tried to load a PyTorch model from a TF 2.0 checkpoint, please set from_tf=True."},
	},
	"no-cuda-gpus-available": {
		match: []string{
			"RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu.",
			"RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.",
		},
	},
	"hf-config-file-missing": {
		match: []string{
			"OSError: Error no file named pytorch_model.bin, model.safetensors, tf_model.h5, model.ckpt.index or flax_model.msgpack found in directory /models/llama.",
			"ValueError: Unrecognized image processor in /models/Qwen2-VL-7B. Should have a `image_processor_type` key in its preprocessor_config.json of config.json",
			"OSError: Not found: \"/models/llama/tokenizer.model\": No such file or directory Error #2",
		},
		miss: []string{"Loading weights from model.safetensors found in directory /models/llama"},
	},
	"transformers-unknown-model-type": {
		match: []string{"ValueError: Unrecognized configuration class <class 'transformers_modules.DeepSeek-V3.configuration_deepseek.DeepseekV3Config'> for this kind of AutoModel: AutoModelForCausalLM."},
	},
	"trust-remote-code-required": {
		match: []string{"ValueError: Loading /models/chatglm3-6b requires you to execute the configuration file in that repo on your local machine. Make sure you have read the code there to avoid malicious use, then set the option `trust_remote_code=True` to remove this error."},
	},
	"hf-repository-not-found": {
		match: []string{"OSError: v2.0 is not a valid git identifier (branch name, tag name or commit id) that exists for this model name. Check the model page at 'https://huggingface.co/Qwen/Qwen3-8B' for available revisions."},
	},
	"hf-unauthorized-401": {
		match: []string{"huggingface_hub.errors.LocalTokenNotFoundError: Token is required (`token=True`), but no token found. You need to provide a token or be logged in to Hugging Face."},
	},
	"cuda-no-kernel-image": {
		match: []string{
			"NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.",
			"RuntimeError: Found GPU0 Tesla K80 which is of cuda capability 3.7.\nPyTorch no longer supports this GPU because it is too old.",
		},
	},
	"load-weights-key-error": {
		match: []string{"RuntimeError: Error(s) in loading state_dict for LoraModel:\n\tUnexpected key(s) in state_dict: \"base_model.model.lm_head.lora_A.weight\". "},
	},
	"torch-dynamo-internal-error": {
		match: []string{"torch._dynamo.exc.TorchRuntimeError: Failed running call_function <built-in function linear>(*(FakeTensor(..., device='cuda:0', size=(s0, 4096)),), **{}):"},
	},
	"flashinfer-unsupported-kernel-config": {
		match: []string{"RuntimeError: Error in function 'operator()' at /workspace/csrc/batch_decode.cu:120: Unsupported head_dim: 80"},
	},
	"flashinfer-kernel-error": {
		match: []string{"RuntimeError: Error in function 'operator()' at /workspace/csrc/norm.cu:42: Unsupported dtype Float"},
	},
}

func init() { addExamples(raisesExamples, raisesWidened) }
