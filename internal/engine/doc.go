// Package engine names the serving engines logmatch knows (sglang, vLLM,
// TGI, TensorRT-LLM, Triton, LMDeploy, Ollama, llama.cpp) and tells which
// one wrote a stream from the shapes of its lines: the header each
// engine's logger writes, the process prefixes, the module paths of its
// tracebacks, the names of its binaries and libraries.
//
// A Detector is fed a stream's lines until it is confident, then keeps its
// answer: a stream is written by one engine, and a decided Detector costs
// one comparison per line. It stops looking, undecided, after a bounded
// number of lines, so a stream of another program never costs more. The
// package is pure: no I/O, no state beyond the Detector.
package engine
