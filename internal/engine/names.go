package engine

// The engines logmatch knows, by the names the catalog, the configuration
// and every alert use. A record's remedies and engines fields are keyed by
// them.
const (
	SGLang   = "sglang"
	VLLM     = "vllm"
	TGI      = "tgi"      // Text Generation Inference
	TRTLLM   = "trtllm"   // TensorRT-LLM
	Triton   = "triton"   // Triton Inference Server
	LMDeploy = "lmdeploy" // LMDeploy and its TurboMind engine
	Ollama   = "ollama"
	LlamaCPP = "llamacpp" // llama.cpp, its server and tools
)

// Names lists the known engines in the order documentation shows them.
var Names = []string{SGLang, VLLM, TGI, TRTLLM, Triton, LMDeploy, Ollama, LlamaCPP}

// Known reports whether name is one of Names, spelled exactly.
func Known(name string) bool {
	switch name {
	case SGLang, VLLM, TGI, TRTLLM, Triton, LMDeploy, Ollama, LlamaCPP:
		return true
	}
	return false
}
