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
package catalog
