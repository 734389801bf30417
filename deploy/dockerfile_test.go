package deploy

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

// buildLine is the release build of the image; .ci/run runs the same line
// (with VERSION=ci) because no container builder runs in CI.
const buildLine = `CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/logmatch ./cmd/logmatch`

// dockerInstructions returns the Dockerfile's instructions, one string per
// instruction with continuation lines joined and comments dropped.
func dockerInstructions(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	cur := ""
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if c, ok := strings.CutSuffix(l, `\`); ok {
			cur += strings.TrimSpace(c) + " "
			continue
		}
		out = append(out, cur+l)
		cur = ""
	}
	return out
}

// TestDockerfile checks what the image promises, since no container
// builder runs here: the build line, the distroless non-root final stage,
// the state volume, the entry point and the OCI labels from build args.
func TestDockerfile(t *testing.T) {
	ins := dockerInstructions(t, "Dockerfile")
	has := func(want string) bool {
		for _, i := range ins {
			if i == want {
				return true
			}
		}
		return false
	}
	var froms []string
	for _, i := range ins {
		if strings.HasPrefix(i, "FROM ") {
			froms = append(froms, i)
		}
	}
	wantFroms := []string{"FROM ${GO_IMAGE} AS build", "FROM gcr.io/distroless/static-debian12:nonroot"}
	if diff := cmp.Diff(wantFroms, froms); diff != "" {
		t.Errorf("stages (-want +got):\n%s", diff)
	}
	for _, want := range []string{
		"ARG GO_IMAGE=golang:1.26",
		"RUN " + buildLine,
		"COPY --from=build /out/logmatch /logmatch",
		`VOLUME ["/var/lib/logmatch"]`,
		"USER 65532:65532",
		`ENTRYPOINT ["/logmatch"]`,
		`CMD ["run"]`,
	} {
		if !has(want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	labels := ""
	for _, i := range ins {
		if strings.HasPrefix(i, "LABEL ") {
			labels += i
		}
	}
	for _, key := range []string{"source", "version", "revision", "title", "description", "licenses"} {
		if !strings.Contains(labels, "org.opencontainers.image."+key+"=") {
			t.Errorf("no label org.opencontainers.image.%s", key)
		}
	}
	for _, arg := range []string{"SOURCE", "VERSION", "REVISION", "LICENSES"} {
		if !strings.Contains(labels, "${"+arg+"}") {
			t.Errorf("labels do not use the build arg %s", arg)
		}
	}

	ci, err := os.ReadFile("../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	ciLine := regexp.MustCompile(`(?m)^CGO_ENABLED=0 go build .*$`).FindString(string(ci))
	want := strings.Replace(buildLine, "${VERSION}", "ci", 1)
	if got, _, _ := strings.Cut(ciLine, " -o "); !strings.HasPrefix(want, got+" -o ") {
		t.Errorf(".ci/run builds with\n  %s\nwhile the Dockerfile builds with\n  %s", ciLine, buildLine)
	}
}

// TestCollectorConfig checks the OpenTelemetry Collector example: OTLP on
// 4317 and 4318, and every pipeline naming only components it defines.
func TestCollectorConfig(t *testing.T) {
	data, err := os.ReadFile("otlp-gateway/config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Receivers  map[string]any `json:"receivers"`
		Processors map[string]any `json:"processors"`
		Exporters  map[string]any `json:"exporters"`
		Service    struct {
			Pipelines map[string]struct {
				Receivers  []string `json:"receivers"`
				Processors []string `json:"processors"`
				Exporters  []string `json:"exporters"`
			} `json:"pipelines"`
		} `json:"service"`
	}
	if err := yaml.UnmarshalStrict(data, &cfg); err != nil {
		t.Fatal(err)
	}
	var otlp struct {
		Protocols struct {
			GRPC struct{ Endpoint string } `json:"grpc"`
			HTTP struct{ Endpoint string } `json:"http"`
		} `json:"protocols"`
	}
	raw, err := yaml.Marshal(cfg.Receivers["otlp"])
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(raw, &otlp); err != nil {
		t.Fatal(err)
	}
	if otlp.Protocols.GRPC.Endpoint != "0.0.0.0:4317" || otlp.Protocols.HTTP.Endpoint != "0.0.0.0:4318" {
		t.Errorf("otlp receiver endpoints %+v, want grpc 0.0.0.0:4317 and http 0.0.0.0:4318", otlp.Protocols)
	}
	var pipelines []string
	for name, p := range cfg.Service.Pipelines {
		pipelines = append(pipelines, name)
		for _, c := range []struct {
			kind    string
			names   []string
			defined map[string]any
		}{{"receiver", p.Receivers, cfg.Receivers}, {"processor", p.Processors, cfg.Processors}, {"exporter", p.Exporters, cfg.Exporters}} {
			if len(c.names) == 0 && c.kind != "processor" {
				t.Errorf("pipeline %s has no %s", name, c.kind)
			}
			for _, n := range c.names {
				if _, ok := c.defined[n]; !ok {
					t.Errorf("pipeline %s names %s %s, which is not defined", name, c.kind, n)
				}
			}
		}
		if !strings.Contains(strings.Join(p.Processors, ","), "batch") {
			t.Errorf("pipeline %s has no batch processor", name)
		}
	}
	for _, want := range []string{"logs", "metrics"} {
		if _, ok := cfg.Service.Pipelines[want]; !ok {
			t.Errorf("no %s pipeline (have %q)", want, pipelines)
		}
	}
}
