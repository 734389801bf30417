// Package catalog holds the error records shipped inside the logmatch
// binary: every *.jsonl file in this directory is embedded at build time.
// It only exposes the files; patterns.Default parses and validates them, so
// a record here obeys exactly the rules of a user's catalog.
//
// sglang.jsonl holds sglang's records and the shared layers' (torch and
// c10d, CUDA and ROCm, NCCL, NVSHMEM and DeepEP, Mooncake, NIXL and UCX,
// Triton and FlashInfer JIT, Hugging Face and peft, Ray, the NVIDIA driver and
// container runtime, the Linux kernel and Kubernetes, the HTTP, gRPC and IPC
// layers around a server) with per-engine remedies; engines.jsonl the other
// engines' wrappers and consequences; vllm.jsonl, tgi.jsonl, trtllm.jsonl
// (TensorRT-LLM and Triton), lmdeploy.jsonl, ollama.jsonl and
// llamacpp.jsonl each engine's own error messages, with advice that names
// that engine's options; ray.jsonl Ray's, engine-neutral. The examples of
// the engine files are in testdata/engine-records.json.
//
// The serving stack's neighbours are read by their own vocabularies too
// (neighbour_vocabulary_test.go): Mooncake's store master and clients (its
// error codes, client expiry, leadership, eviction), its transfer engine's
// metadata and handshake, the Python store's API as KV-cache layers call
// it, LMCache's buffer and remote backend, NIXL's statuses, Dynamo's NATS
// and etcd, Triton's compiler on each GPU backend, the OpenAI harmony
// parser, the engines' tool-call and reasoning parsers, Jinja templates,
// and the HTTP clients of benchmark scripts and trainers whose server went
// away.
//
// The shared layers' records cover whole vocabularies, not excerpts: the
// error names and texts of the CUDA and HIP runtimes, NCCL's results, the
// C library's errno texts, gRPC's status codes, NVML, ROCm SMI, ibverbs'
// work completions, UCX's statuses, CANN's error codes, torch_npu's device
// errors, cuBLAS, cuDNN, pyzmq, TLS, the resolver, and the fatal signals as
// a shell and faulthandler report them; and the platform around a serving
// process: the NVIDIA and NVSwitch drivers' Xid and SXid reports,
// nvidia-smi, the amdgpu driver's hangs and resets, the Linux kernel's
// reports of faults, OOM kills, stuck tasks and memory errors, the C
// library's heap aborts and dynamic loader, CPython's fatal errors, Python's
// process pools and asyncio's exception handler, thread creation refused,
// NCCL's shared memory, the Ascend runtime's aclError codes and the CANN
// modules' error codes, systemd's unit results, exit statuses, Slurm's and
// mpirun's reports, the kubelet's and container runtime's errors, kubectl's
// pod statuses, HTTP access lines of a failing probe or endpoint, Ray's
// actor, raylet and GCS deaths, and the shells that run a launch script.
// vocabulary_test.go and platform_vocabulary_test.go list each vocabulary
// with the shapes its callers print it in and the record that must lead on
// every string (or that no failure record claims it), so a change to a
// record cannot silently drop a string.
//
// A record's line reaches logmatch altered: a paste loses its closing quote
// or wraps it in inline code or bold, a caller logs the exception's repr or
// puts syslog's, srun's, glog's or a logger's prefix before it, a terminal
// or a collector cuts it, another release capitalises a word or counts in
// "(s)". variants_test.go derives these variants from every record's
// examples and checks the record still leads each (a pattern spells the
// failure's keyphrase, not its whole sentence); what a record cannot lead
// is listed by variant with why. Its wording vocabularies hold the same
// failure across its source's releases and callers (the kernel's OOM
// report, Slurm's step OOM, NCCL's result texts, vLLM's adapter loads).
//
// A line's level decides only when no record reads it: then an ERROR or
// CRITICAL line alerts and an INFO or WARNING line stays silent. A record
// decides whatever the level, so a failure its library prints below error
// level is heard through its record (a client's httpx INFO line of a 503, a
// feature enabled without its package, c10d's W line of a port in use),
// and a routine line a library prints at error level (gRPC's keepalive
// GoAway, asyncio's unclosed session at exit) is silenced by a record of
// severity info, tagged routine: an info record never alerts by itself,
// and a failure record that reads the same line still wins over it.
package catalog
