package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// readme is the document whose Collector configurations are checked.
const readme = "../../../README.md"

// topologies returns the README's YAML blocks that begin with a
// "# topology: NAME" line, by name.
func topologies(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?ms)^```yaml\n(# topology: ([^\n]+)\n.*?)^```\n").FindAllStringSubmatch(string(b), -1)
	out := map[string]string{}
	for _, m := range blocks {
		out[m[2]] = m[1]
	}
	return out
}

// validate runs the distribution's "validate" subcommand on config.
func validate(t *testing.T, config string) error {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := newCommand()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs([]string{"validate", "--config", "file:" + path})
	return cmd.Execute()
}

// TestReadmeTopologies checks the Collector configurations the README
// documents: the agent per node and the gateway with this distribution's
// "validate"; the gateway's agents, which need the load_balancing exporter
// this distribution lacks, for routing by the resource and with their
// exporter swapped for OTLP.
func TestReadmeTopologies(t *testing.T) {
	got := topologies(t)
	var names []string
	for n := range got {
		names = append(names, n)
	}
	slices.Sort(names)
	if want := []string{"agent per node", "gateway", "gateway agent"}; !slices.Equal(names, want) {
		t.Fatalf("README topologies %q, want %q", names, want)
	}
	for _, name := range []string{"agent per node", "gateway"} {
		t.Run(name, func(t *testing.T) {
			cfg := got[name]
			if err := validate(t, cfg); err != nil {
				t.Errorf("validate: %v\n%s", err, cfg)
			}
			if !strings.Contains(cfg, "logmatch:") {
				t.Errorf("no logmatch processor:\n%s", cfg)
			}
			// The check can fail: the same configuration with a value
			// the processor refuses is refused.
			bad := strings.Replace(cfg, "forward: all", "forward: sometimes", 1)
			if err := validate(t, bad); err == nil || !strings.Contains(err.Error(), `forward: "sometimes"`) {
				t.Errorf("validate with forward: sometimes: %v, want the processor's refusal", err)
			}
		})
	}
	t.Run("gateway agent", func(t *testing.T) {
		var doc map[string]any
		if err := yaml.Unmarshal([]byte(got["gateway agent"]), &doc); err != nil {
			t.Fatal(err)
		}
		exporters, _ := doc["exporters"].(map[string]any)
		lb, _ := exporters["load_balancing"].(map[string]any)
		if lb == nil || lb["routing_key"] != "resource" {
			t.Fatalf("load_balancing exporter %v, want routing_key: resource", lb)
		}
		resolver, _ := lb["resolver"].(map[string]any)
		if k8s, _ := resolver["k8s"].(map[string]any); k8s == nil || k8s["service"] == nil {
			t.Errorf("resolver %v, want the k8s resolver naming the gateways' service", resolver)
		}
		// The rest of the agent, with an OTLP exporter in the
		// load_balancing exporter's place.
		delete(exporters, "load_balancing")
		exporters["otlp_grpc"] = map[string]any{"endpoint": "otelcol-logmatch-gateway.observability:4317"}
		pipelines := doc["service"].(map[string]any)["pipelines"].(map[string]any)
		pipelines["logs"].(map[string]any)["exporters"] = []string{"otlp_grpc"}
		b, err := yaml.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if err := validate(t, string(b)); err != nil {
			t.Errorf("validate: %v\n%s", err, b)
		}
	})
}
