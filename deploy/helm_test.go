package deploy

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const chartDir = "helm/logmatch"

// execOutput runs a command and returns its standard output, or its
// standard error with the error.
func execOutput(name string, args ...string) ([]byte, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stderr.Bytes(), err
	}
	return stdout.Bytes(), nil
}

// helmPath finds helm, skipping the test when it is missing unless
// LOGMATCH_TEST_REQUIRE_TOOLS=1 (CI), where a missing tool is a failure.
func helmPath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("helm")
	if err != nil {
		if os.Getenv("LOGMATCH_TEST_REQUIRE_TOOLS") == "1" {
			t.Fatalf("helm not found on PATH and LOGMATCH_TEST_REQUIRE_TOOLS=1: %v", err)
		}
		t.Skip("helm not on PATH; .ci/deploy.sh installs it (set LOGMATCH_TEST_REQUIRE_TOOLS=1 to fail instead)")
	}
	return p
}

// kubeVersion is the cluster version the chart is rendered for. helm built
// from source (go install) assumes v1.20 without a cluster, below the
// chart's kubeVersion (native sidecars need 1.29).
const kubeVersion = "1.33.0"

// helmArgs turns "key=value" into --set and "json:key=value" into
// --set-json arguments after the template command.
func helmArgs(sets []string) []string {
	args := []string{"template", "lm", chartDir, "--namespace", "inference", "--kube-version", kubeVersion}
	for _, s := range sets {
		if v, ok := strings.CutPrefix(s, "json:"); ok {
			args = append(args, "--set-json", v)
			continue
		}
		args = append(args, "--set", s)
	}
	return args
}

// helmTemplate renders the chart with the given values (see helmArgs) and
// decodes the output strictly.
func helmTemplate(t *testing.T, helm string, sets ...string) *bundle {
	t.Helper()
	args := helmArgs(sets)
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(helm, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("helm %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	objs, err := DecodeStrict("helm template "+strings.Join(sets, ","), stdout.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return newBundle(objs)
}

// kinds lists the kinds of a bundle with their counts, for a diff.
func kinds(b *bundle) map[string]int {
	m := map[string]int{}
	add := func(k string, n int) {
		if n > 0 {
			m[k] = n
		}
	}
	add("Deployment", len(b.deployments))
	add("DaemonSet", len(b.daemonSets))
	add("Service", len(b.services))
	add("ConfigMap", len(b.configMaps))
	add("Secret", len(b.secrets))
	add("ServiceAccount", len(b.accounts))
	add("ServiceMonitor", len(b.monitors))
	return m
}

func TestHelmTemplate(t *testing.T) {
	helm := helmPath(t)
	extra, err := json.Marshal(`{"id":"site-test","messagePattern":"site test failure","severity":"error","errorMessage":"site test failure"}`)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		sets      []string
		wantKinds map[string]int
		check     func(*bundle) problems
	}{
		{
			name: "sidecar with a Slack URL the chart stores",
			sets: []string{
				"mode=sidecar",
				"sinks.slack.enabled=true",
				"sinks.slack.url=https://hooks.slack.com/services/T0/B0/x",
				"serviceMonitor.enabled=true",
				"json:catalog.extra=" + string(extra),
			},
			wantKinds: map[string]int{"Deployment": 1, "Service": 1, "ConfigMap": 2, "Secret": 1, "ServiceAccount": 1, "ServiceMonitor": 1},
			check:     func(b *bundle) problems { return checkSidecar(b, "lm-logmatch-sinks") },
		},
		{
			name: "daemonset with an existing Slack Secret and every sink",
			sets: []string{
				"mode=daemonset",
				"sinks.slack.enabled=true",
				"sinks.slack.existingSecret=team-slack",
				"sinks.slack.existingSecretKey=webhook",
				"sinks.alertmanager.enabled=true",
				"sinks.alertmanager.url=http://alertmanager.monitoring:9093",
				"sinks.otel.enabled=true",
				"sinks.otel.endpoint=http://otel-collector.monitoring:4317",
				"sinks.otel.insecure=true",
				"sinks.webhook.enabled=true",
				"sinks.webhook.url=https://hooks.example.test/logmatch",
			},
			wantKinds: map[string]int{"DaemonSet": 1, "Service": 1, "ConfigMap": 1, "Secret": 1, "ServiceAccount": 1},
			check:     func(b *bundle) problems { return checkDaemonSet(b, "team-slack") },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := helmTemplate(t, helm, tt.sets...)
			if diff := cmp.Diff(tt.wantKinds, kinds(b)); diff != "" {
				t.Errorf("kinds (-want +got):\n%s", diff)
			}
			if p := tt.check(b); len(p) > 0 {
				t.Errorf("rendered chart:\n%s", strings.Join(p, "\n"))
			}
			checkCatalogs(t, b)
			for _, d := range b.deployments {
				sg := findContainer(&d.Spec.Template.Spec, "sglang")
				chart, err := os.ReadFile(chartDir + "/files/sglang-wrapper.sh")
				if err != nil {
					t.Fatal(err)
				}
				if sg == nil || len(sg.Args) == 0 || sg.Args[0] != string(chart) {
					t.Errorf("sglang container does not run files/sglang-wrapper.sh as rendered")
				}
			}
			for _, sm := range b.monitors {
				if len(sm.Spec.Endpoints) != 1 || sm.Spec.Endpoints[0].Port != "metrics" {
					t.Errorf("ServiceMonitor %s endpoints: %s", sm.Name, toYAML(sm.Spec.Endpoints))
				}
			}
		})
	}
}

// TestHelmDefaultsRender renders each mode with the chart's own defaults:
// what "helm install" without values gives must decode and pass the same
// checks (no Slack sink is configured by default).
func TestHelmDefaultsRender(t *testing.T) {
	helm := helmPath(t)
	for _, mode := range []string{"sidecar", "daemonset"} {
		t.Run(mode, func(t *testing.T) {
			b := helmTemplate(t, helm, "mode="+mode)
			var p problems
			if mode == "sidecar" {
				p = checkSidecar(b, "")
			} else {
				p = checkDaemonSet(b, "")
			}
			if len(p) > 0 {
				t.Errorf("rendered chart:\n%s", strings.Join(p, "\n"))
			}
		})
	}
}

// TestHelmRejectsBadValues wants the chart's own validation to stop a
// render with a message naming the value.
func TestHelmRejectsBadValues(t *testing.T) {
	helm := helmPath(t)
	tests := []struct {
		name string
		sets []string
		want string
	}{
		{name: "unknown mode", sets: []string{"mode=operator"}, want: `mode: want sidecar or daemonset, got "operator"`},
		{name: "slack without URL", sets: []string{"sinks.slack.enabled=true"}, want: "sinks.slack: enabled without existingSecret or url"},
		{name: "alertmanager without URL", sets: []string{"sinks.alertmanager.enabled=true"}, want: "sinks.alertmanager: enabled without url"},
		{
			name: "impatient health gating",
			sets: []string{"healthGating.periodSeconds=5", "healthGating.failureThreshold=2"},
			want: "healthGating: failureThreshold x periodSeconds is 10s; keep it at least 20s, or a logmatch restart restarts sglang",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := exec.Command(helm, helmArgs(tt.sets)...).CombinedOutput()
			if err == nil {
				t.Fatalf("helm template succeeded, want an error containing %q", tt.want)
			}
			if !strings.Contains(string(out), tt.want) {
				t.Errorf("helm template error:\n%s\nwant it to contain %q", out, tt.want)
			}
		})
	}
}

// TestHelmHealthGating renders the sidecar with health gating tuned and
// switched off: the sglang container's liveness follows the values.
func TestHelmHealthGating(t *testing.T) {
	helm := helmPath(t)
	b := helmTemplate(t, helm, "mode=sidecar", "healthGating.periodSeconds=15", "healthGating.failureThreshold=4")
	if p := checkSidecar(b, ""); len(p) > 0 {
		t.Errorf("tuned gating:\n%s", strings.Join(p, "\n"))
	}
	lp := findContainer(&b.deployments[0].Spec.Template.Spec, "sglang").LivenessProbe
	if lp.PeriodSeconds != 15 || lp.FailureThreshold != 4 || lp.TimeoutSeconds != 2 {
		t.Errorf("sglang liveness probe = %s, want the values' period 15, threshold 4, timeout 2", toYAML(lp))
	}
	b = helmTemplate(t, helm, "mode=sidecar", "healthGating.enabled=false")
	if p := checkSidecarGating(b, "", false); len(p) > 0 {
		t.Errorf("gating off:\n%s", strings.Join(p, "\n"))
	}
	if p := checkSidecar(b, ""); len(p) == 0 {
		t.Error("the gating check passes a chart rendered with gating off")
	}
}
