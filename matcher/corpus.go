package matcher

// defaultCorpus is a sample of what a healthy sglang server prints. The
// prefilter keys each pattern on its rarest window; a window seen here would
// fire on ordinary lines (PERF-NOTES: "Prefill batch, #new-seq: " is one
// pattern's literal and occurs in 30% of lines), so it is avoided as a key.
// It only steers the choice of keys: a poor sample costs speed, never hits.
//
// One line per line; Compile splits it.
const defaultCorpus = "" +
	"[2026-05-28 00:11:09 DP0 TP0 EP0] Prefill batch, #new-seq: 1, #new-token: 512, #cached-token: 0, token usage: 0.01, #running-req: 0, #queue-req: 0, input throughput (token/s): 1024.50\n" +
	"[2026-05-28 00:11:10 TP0] Decode batch, #running-req: 12, #token: 4096, token usage: 0.05, cuda graph: True, gen throughput (token/s): 512.34, #queue-req: 0\n" +
	"[2026-05-28 00:11:10.816 DP1 TP1] Decode batch. #running-req: 3, #token: 1700, token usage: 0.02, accept len: 1.80, gen throughput (token/s): 211.07, #queue-req: 0, timestamp: 2026-05-28T00:11:10\n" +
	"[2026-05-28 00:11:11] INFO:     127.0.0.1:48276 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n" +
	"[2026-05-28 00:11:11] INFO:     10.0.0.7:40192 - \"GET /health HTTP/1.1\" 200 OK\n" +
	"[2026-05-28 00:11:11] INFO:     10.0.0.7:40192 - \"GET /metrics HTTP/1.1\" 200 OK\n" +
	"[2026-05-28 00:11:11] INFO:     172.16.19.148:48276 - \"POST /v1/completions HTTP/1.1\" 200 OK\n" +
	"[2026-05-28 00:11:11] INFO:     172.16.19.148:48276 - \"POST /generate HTTP/1.1\" 200 OK\n" +
	"[2026-05-28 00:10:01] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', tokenizer_path='meta-llama/Llama-3.1-8B-Instruct', tokenizer_mode='auto', load_format='auto', trust_remote_code=False, dtype='auto', kv_cache_dtype='auto', quantization=None, context_length=None, device='cuda', served_model_name='meta-llama/Llama-3.1-8B-Instruct', host='0.0.0.0', port=30000, mem_fraction_static=0.88, max_running_requests=None, max_total_tokens=None, chunked_prefill_size=8192, max_prefill_tokens=16384, schedule_policy='fcfs', tp_size=1, pp_size=1, dp_size=1, ep_size=1, stream_interval=1, random_seed=42, log_level='info', attention_backend='flashinfer', sampling_backend='flashinfer', disable_radix_cache=False, enable_torch_compile=False, cuda_graph_max_bs=160)\n" +
	"[2026-05-28 00:10:05 TP0] Init torch distributed begin.\n" +
	"[2026-05-28 00:10:06 TP0] Init torch distributed ends. mem usage=0.00 GB\n" +
	"[2026-05-28 00:10:06 TP0] Load weight begin. avail mem=78.50 GB\n" +
	"[2026-05-28 00:10:07 TP0] Using model weights format ['*.safetensors']\n" +
	"Loading safetensors checkpoint shards: 100% Completed | 4/4 [00:03<00:00,  1.12it/s]\n" +
	"[2026-05-28 00:10:11 TP0] Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=63.42 GB, mem usage=15.08 GB.\n" +
	"[2026-05-28 00:10:11 TP0] KV Cache is allocated. #tokens: 425984, K size: 26.00 GB, V size: 26.00 GB\n" +
	"[2026-05-28 00:10:11 TP0] Memory pool end. avail mem=10.20 GB\n" +
	"[2026-05-28 00:10:12 TP0] Capture cuda graph begin. This can take up to several minutes. avail mem=10.10 GB\n" +
	"Capturing batches (bs=160 avail_mem=9.80 GB): 100%|██████████| 23/23 [00:05<00:00,  4.21it/s]\n" +
	"[2026-05-28 00:10:18 TP0] Capture cuda graph end. Time elapsed: 6.12 s. mem usage=0.35 GB. avail mem=9.75 GB.\n" +
	"[2026-05-28 00:10:18 TP0] max_total_num_tokens=425984, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=2048, context_len=131072, available_gpu_mem=9.75 GB\n" +
	"[2026-05-28 00:10:19] INFO:     Started server process [12345]\n" +
	"[2026-05-28 00:10:19] INFO:     Waiting for application startup.\n" +
	"[2026-05-28 00:10:19] INFO:     Application startup complete.\n" +
	"[2026-05-28 00:10:19] INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)\n" +
	"[2026-05-28 00:10:20] The server is fired up and ready to roll!\n" +
	"[2026-05-28 00:10:20] Endpoint '/get_model_info' is deprecated and will be removed in a future version. Please use '/model_info' instead.\n" +
	"[2026-05-28 00:12:00 TP0] Cache flushed successfully!\n" +
	"[2026-05-28 00:12:01] Receive: obj=GenerateReqInput(rid='3f2a', text='Hello', sampling_params={'max_new_tokens': 128, 'temperature': 0.7})\n" +
	"[2026-05-28 00:12:02] Finish: obj=GenerateReqInput(rid='3f2a'), out={'meta_info': {'id': '3f2a', 'finish_reason': {'type': 'length', 'length': 128}, 'prompt_tokens': 12, 'completion_tokens': 128, 'cached_tokens': 0, 'e2e_latency': 1.23}}\n" +
	"[2026-05-28 00:10:04 TP0] Attention backend not explicitly specified. Use flashinfer backend by default.\n" +
	"[2026-05-28 00:10:04 TP0] sglang is using nccl==2.21.5\n" +
	"[2026-05-28 00:10:04 TP0] Custom allreduce is disabled because this process group spans across nodes.\n"
