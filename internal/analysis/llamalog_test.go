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
