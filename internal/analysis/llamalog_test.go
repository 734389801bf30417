package analysis

import "testing"

// TestLlamaLogError reads llama.cpp's timed log prefix at level E, alone
// and behind a journal's and the router's prefixes, and leaves silent its
// I, W and D lines and other lines that open with numbers.
func TestLlamaLogError(t *testing.T) {
	for l, want := range map[string]bool{
		"0.02.693.199 E common_sampler_init: error initializing grammar sampler for grammar:": true,
		"12.59.001.042 E llama_model_load: error loading model: tensor 'blk.0' not found":     true,

		"0.02.680.001 I srv  update_slots: all slots are idle":   false,
		"0.02.692.823 W srv  get_availabl: prompt cache is full": false,
		"0.02.692.823 D slot update: n_past = 8":                 false,
		"2025.11.19 E something":                                 false,
		"10.0.0.1 E":                                             false,
		"":                                                       false,
	} {
		if got := llamaLogError(l); got != want {
			t.Errorf("llamaLogError(%q) = %v, want %v", l, got, want)
		}
	}
	for text, want := range map[string]bool{
		"May 27 11:47:51 bazzite llama-server[173789]: [37747] 0.02.693.199 E common_sampler_init: error initializing grammar sampler for grammar:": true,
		"May 27 11:47:51 bazzite llama-server[173789]: [37747] 0.02.680.001 I srv  update_slots: all slots are idle":                                false,
	} {
		s, _ := signalledOne(t, text)
		if got := s != ""; got != want {
			t.Errorf("%q: signal %q, want %v", text, s, want)
		}
	}
}

// FuzzLlamaLogLevel checks that llamaLogLevel never panics and returns a
// level letter or 0.
func FuzzLlamaLogLevel(f *testing.F) {
	for _, s := range []string{"0.02.693.199 E x", "0.02.693.199 ", "1.22.333.", "9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		switch llamaLogLevel(s) {
		case 0, 'I', 'W', 'E', 'D':
		default:
			t.Fatalf("llamaLogLevel(%q) is no level", s)
		}
	})
}

// TestGGUFReaderLine reads ggml's GGUF reader's error lines as failures
// alone, behind a journal's prefix (Ollama's runner under systemd) and
// behind llama-server's router prefix, and leaves silent the loader's
// routine lines and the reader's deprecation notice.
func TestGGUFReaderLine(t *testing.T) {
	for text, want := range map[string]bool{
		"gguf_init_from_file: invalid magic number 67676a74":                                                                                         true,
		"Mar 01 10:00:00 host ollama[1234]: gguf_init_from_file_impl: tensor 'blk.0.ffn_down_exps.weight' has invalid ggml type 39 (NONE)":           true,
		"[37747] gguf_init_from_file: failed to open GGUF file '/models/gemma-3-12b-it-qat-q4_0.gguf'":                                               true,
		"llama_model_loader: loaded meta data with 34 key-value pairs and 389 tensors from /root/.ollama/models/blobs/sha256-8c62 (version GGUF V3)": false,
		"llama_model_loader: - type  f32:   65 tensors":                                                                                              false,
		"gguf_init_from_file: GGUFv1 is deprecated. please update if possible.":                                                                      false,
	} {
		s, _ := signalledOne(t, text)
		if got := s != ""; got != want {
			t.Errorf("%q: signal %q, want %v", text, s, want)
		}
	}
}
