package catalog_test

import (
	"testing"

	"github.com/logmatch/logmatch/patterns"
)

// The cross-layer families: wordings of five failure families as the processes that
// raise them print them. NCCL's socket and bootstrap layer (misc/socket.cc,
// bootstrap.cc WARN lines, with and without the host:pid:tid prefix), the
// Hugging Face Hub's rate limit as each of its clients says it
// (huggingface_hub and transformers through requests or httpx, llama.cpp's
// downloader, Ollama pulling an hf.co model), vLLM's LoRA loader refusing an
// adapter's weights, llama.cpp's GBNF grammar parser, and the context-length
// refusals of programs built on llama.cpp. Each family names the record
// that must lead; want "" marks routine lines of the same components.

// A crossLayerTable is one family table and the engine whose log it is read in
// ("" for layers under every engine: read as raises_test.go reads them).
type crossLayerTable struct {
	engine string
	shapes func(f raiseFamily, line string) []string
	raiseLibrary
}

var crossLayerFamilies = []crossLayerTable{
	{shapes: raiseShapes, raiseLibrary: raiseLibrary{name: "nccl socket and bootstrap", families: []raiseFamily{
		{family: "peer closed the connection", want: "nccl-bootstrap-connection-closed", bare: true, lines: []string{
			"node-1:2288:2597 [1] NCCL WARN socketProgress: Connection closed by remote peer node-2<53018>",
			"node-1:2288:2597 [0] misc/socket.cc:71 NCCL WARN socketProgress: Connection closed by remote peer 10.0.0.3<36138>",
			"[0] misc/socket.cc:71 NCCL WARN socketProgress: Connection closed by remote peer 10.0.0.3<36138>\n[0] NCCL INFO misc/socket.cc:80 -> 6\n[0] NCCL INFO bootstrap.cc:701 -> 6\n[0] NCCL INFO init.cc:1402 -> 6",
		}},
		{family: "unexpected magic or type", want: "nccl-bootstrap-connection-closed", bare: true, lines: []string{
			"node-1:2288:2597 [0] misc/socket.cc:484 NCCL WARN socketFinalizeAccept: wrong magic 4a3f1c2b7d9e0f11 != 3f8a2c1d5e6b7a90",
			"node-1:2288:2597 [0] misc/socket.cc:503 NCCL WARN socketFinalizeAccept: wrong type 2 != 1",
		}},
		{family: "accept failed", want: "nccl-bootstrap-connection-closed", bare: true, lines: []string{
			"node-1:2288:2597 [0] misc/socket.cc:447 NCCL WARN socketTryAccept: Accept failed: Invalid argument",
			"node-1:2288:2597 [0] misc/socket.cc:442 NCCL WARN socketTryAccept: exceeded error retry count (34), Connection aborted",
		}},
		{family: "connect retries and timeouts exhausted", want: "nccl-socket-connect-failed", bare: true, lines: []string{
			"node-1:2288:2597 [0] misc/socket.cc:467 NCCL WARN socketStartConnect: exceeded retries (34)",
			"node-1:2288:2597 [0] misc/socket.cc:525 NCCL WARN socketPollConnect: exceeded timeouts (3)",
		}},
		{family: "older socket-layer wording of a closed peer", want: "nccl-remote-process-exited", bare: true, lines: []string{
			"node-1:2288:2597 [1] misc/socket.cc:538 NCCL WARN Net : Connection closed by remote peer node-2<47861>",
		}},
		{family: "near misses", bare: true, lines: []string{
			"[0] NCCL INFO misc/socket.cc:80 -> 6",
			"node-1:2288:2597 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>",
			"node-1:2288:2597 [0] NCCL INFO Call to connect returned Connection refused, retrying",
			"node-1:2288:2597 [0] NCCL INFO socketPollConnect: connect returned Connection refused, retrying (1/34) after sleep for 100 msec",
		}},
	}}},
	{shapes: raiseShapes, raiseLibrary: raiseLibrary{name: "hub rate limit", families: []raiseFamily{
		{family: "requests and huggingface_hub", want: "hf-rate-limited", lines: []string{
			"requests.exceptions.HTTPError: 429 Client Error: Too Many Requests for URL: https://huggingface.co/Qwen/Qwen3-8B/resolve/main/config.json",
			"requests.exceptions.HTTPError: 429 Client Error: Too Many Requests for url: https://huggingface.co/Qwen/Qwen3-8B/resolve/main/config.json",
			// A paste cut at 80 columns inside the URL's scheme.
			"requests.exceptions.HTTPError: 429 Client Error: Too Many Requests for URL: http\ns://huggingface.co/Qwen/Qwen3-8B/resolve/main/config.json",
			"huggingface_hub.errors.HfHubHTTPError: 429 Client Error: Too Many Requests for url: https://huggingface.co/api/models/Qwen/Qwen3-8B/revision/main",
			"huggingface_hub.errors.HfHubHTTPError: Client error '429 Too Many Requests' for url 'https://huggingface.co/api/models/Qwen/Qwen3-8B/revision/main'",
		}},
		{family: "Rust downloaders (hf-hub crate)", want: "hf-rate-limited", bare: true, lines: []string{
			`{"timestamp":"2026-03-28T18:27:28.911113Z","level":"ERROR","message":"Download failed: request error: HTTP status client error (429 Too Many Requests) for url (https://huggingface.co/Qwen/Qwen3-Embedding-8B/resolve/main/config.json)","target":"text_embeddings_backend"}`,
			"Error: Download failed: request error: HTTP status client error (429 Too Many Requests) for url (https://huggingface.co/Qwen/Qwen3-8B/resolve/main/tokenizer.json)",
		}},
		{family: "Ollama pulling an hf.co model", want: "hf-rate-limited", bare: true, lines: []string{
			`Error: pull model manifest: 429: {"error":"We had to rate limit your IP (10.0.0.7). To continue using our service, create a HF account or login to your existing account, and make sure you pass a HF_TOKEN if you're using the API."}`,
		}},
		{family: "llama.cpp's downloader", want: "hf-rate-limited", bare: true, lines: []string{
			"get_repo_files: error: GET failed (429): <!DOCTYPE html>",
			"common_download_file_single_online: HEAD failed, status: 429",
		}},
		{family: "near misses", bare: true, lines: []string{
			"common_download_file_single_online: HEAD failed, status: 404",
			"no remote preset found, skipping",
			`INFO:     10.0.0.7:51234 - "POST /v1/chat/completions HTTP/1.1" 429 Too Many Requests`,
			"pulling manifest",
		}},
	}}},
	{engine: "vllm", shapes: func(f raiseFamily, line string) []string { return vllmCoreShapes(line) }, raiseLibrary: raiseLibrary{name: "vllm lora loader", families: []raiseFamily{
		{family: "weights that are no LoRA pair", want: "vllm-lora-adapter-incompatible", lines: []string{
			"ValueError: base_model.model.lm_head.weight is unsupported LoRA weight",
			"ValueError: base_model.model.model.embed_tokens.weight is unsupported LoRA weight",
		}},
		{family: "adapter config features vLLM cannot apply", want: "vllm-lora-adapter-incompatible", lines: []string{
			"ValueError: vLLM only supports modules_to_save being None.",
			"ValueError: vLLM only supports modules_to_save being None. vLLM does not yet support DoRA.",
			"ValueError: vLLM does not yet support RSLoRA.",
		}},
		{family: "target modules and tensors", want: "vllm-lora-adapter-incompatible", lines: []string{
			"ValueError: While loading /adapters/sql, expected target modules in ['q_proj', 'v_proj'] but received ['lm_head']. Please verify that the loaded LoRA module is correct",
			"ValueError: /adapters/sql doesn't contain tensors",
		}},
		{family: "rank above the maximum", want: "vllm-lora-rank-exceeds-max", lines: []string{
			"ValueError: LoRA rank 64 is greater than max_lora_rank 16.",
		}},
	}}},
	{engine: "llamacpp", shapes: raiseShapes, raiseLibrary: raiseLibrary{name: "llama.cpp grammar parser", families: []raiseFamily{
		{family: "syntax", want: "llamacpp-grammar-parse-error", bare: true, lines: []string{
			"parse: error parsing grammar: expecting name at {",
			"parse: error parsing grammar: expecting ::= at := value",
			"parse: error parsing grammar: unexpected end of input",
			"llama_grammar_init_impl: failed to parse grammar",
		}},
		{family: "undefined or recursive rules", want: "llamacpp-grammar-parse-error", bare: true, lines: []string{
			"parse: error parsing grammar: Undefined rule identifier 'value'",
			"llama_grammar_init_impl: left recursion detected for nonterminal expr (3)",
			`llama_grammar_init_impl: grammar does not contain a "root" symbol`,
		}},
		{family: "near misses", bare: true, lines: []string{
			"generate: n_ctx = 512, n_batch = 512, n_predict = 256, n_keep = 0",
			"main: grammar:\nroot ::= value",
		}},
	}}},
	{engine: "llamacpp", shapes: raiseShapes, raiseLibrary: raiseLibrary{name: "context length on llama.cpp bindings", families: []raiseFamily{
		{family: "prompt too long", want: "llamacpp-request-exceeds-context", bare: true, lines: []string{
			"[2026-10-14 17:39:06.691] [error] [WASI-NN] GGML backend: Error: prompt too long (570 tokens, max 508)",
			"[2026-10-14 17:39:06.691] [error] [WASI-NN] GGML backend: Error: prompt too long (570 tokens, max 508)\nthread 'main' panicked at src/main.rs:71:14:\ncalled `Result::unwrap()` on an `Err` value: BackendError(InvalidArgument)\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
			"main: error: prompt is too long (4100 tokens, max 4092)",
			"srv  send_error: task id = 12, error: the request exceeds the available context size, try increasing it",
		}},
		{family: "near misses", bare: true, lines: []string{
			"main: prompt: 'hello' (12 tokens)",
		}},
	}}},
}

// TestCrossLayerFamilies checks the families above and logs each table's count of
// families claimed.
func TestCrossLayerFamilies(t *testing.T) {
	m := compileCatalog(t)
	for _, tab := range crossLayerFamilies {
		check := familyCheck{
			shapes: tab.shapes,
			lead: func(text string) (*patterns.Record, []string) {
				if tab.engine == "" {
					return raiseLead(m, text)
				}
				return engineLead(m, tab.engine, text)
			},
		}
		t.Run(tab.name, func(t *testing.T) { check.run(t, tab.name, tab.families) })
	}
}

var crossLayerExamples = map[string]example{
	"nccl-bootstrap-connection-closed": {
		match: []string{
			"node-1:2288:2597 [1] NCCL WARN socketProgress: Connection closed by remote peer node-2<53018>",
			"node-1:2288:2597 [0] misc/socket.cc:484 NCCL WARN socketFinalizeAccept: wrong magic 4a3f1c2b7d9e0f11 != 3f8a2c1d5e6b7a90",
		},
		miss: []string{
			"node-1:2288:2597 [0] NCCL INFO bootstrap.cc:701 -> 6",
			"node-1:2288:2597 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>",
		},
	},
}

var crossLayerWidened = map[string]example{
	"hf-rate-limited": {match: []string{
		"requests.exceptions.HTTPError: 429 Client Error: Too Many Requests for URL: https://huggingface.co/Qwen/Qwen3-8B/resolve/main/config.json",
		"get_repo_files: error: GET failed (429): <!DOCTYPE html>",
	}, miss: []string{"common_download_file_single_online: HEAD failed, status: 404"}},
}

func init() { addExamples(crossLayerExamples, crossLayerWidened) }
