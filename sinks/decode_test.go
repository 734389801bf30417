package sinks

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

type inner struct {
	Max int `yaml:"max_items"`
}

type outer struct {
	URL     string            `yaml:"url"`
	Timeout string            `yaml:"timeout"`
	Inner   inner             `yaml:"queue"`
	Headers map[string]string `yaml:"headers"`
}

// DecodeStrict rejects unknown keys at any depth, with their line and a
// suggestion, and still decodes the keys that are right.
func TestDecodeStrict(t *testing.T) {
	var n yaml.Node
	src := "url: http://x\ntimout: 3s\nqueue:\n  max_item: 3\nheaders: {A: b}\n"
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatal(err)
	}
	var got outer
	err := DecodeStrict(n.Content[0], &got)
	te, ok := err.(*yaml.TypeError)
	if !ok || len(te.Errors) != 2 {
		t.Fatalf("err = %v, want two problems", err)
	}
	for i, want := range []string{
		"line 2: field timout not found in type sinks.outer (did you mean timeout?)",
		"line 4: field max_item not found in type sinks.inner (did you mean max_items?)",
	} {
		if te.Errors[i] != want {
			t.Errorf("problem %d = %q, want %q", i, te.Errors[i], want)
		}
	}
	if got.URL != "http://x" || got.Headers["A"] != "b" {
		t.Errorf("decoded %+v", got)
	}
	if s := Suggest("zzzz", []string{"url", "timeout"}); s != "" {
		t.Errorf("Suggest(zzzz) = %q, want none", s)
	}
	if !strings.Contains(Suggest("chanel", []string{"channel", "username"}), "channel") {
		t.Error("no suggestion for chanel")
	}
}
