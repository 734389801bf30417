package deploy

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/logmatch/logmatch/patterns"
)

// slackSecret is the Secret the plain manifests expect the operator to
// create.
const slackSecret = "logmatch-slack"

// TestManifestFilesDecodeStrictly decodes every YAML file under kubernetes/
// on its own, and wants each one listed in its directory's kustomization.
func TestManifestFilesDecodeStrictly(t *testing.T) {
	var files []string
	err := filepath.WalkDir("kubernetes", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk kubernetes: %v", err)
	}
	if len(files) == 0 {
		t.Fatal("no manifest files under kubernetes/")
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if filepath.Base(f) == "kustomization.yaml" {
				return
			}
			objs, err := DecodeStrict(f, data)
			if err != nil {
				t.Fatal(err)
			}
			if len(objs) == 0 {
				t.Fatal("no objects")
			}
			k, err := readKustomization(filepath.Join(filepath.Dir(f), "kustomization.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(k.Resources, filepath.Base(f)) {
				t.Errorf("%s is not among the resources of its kustomization.yaml: %q", f, k.Resources)
			}
		})
	}
}

// kustomization is the part of kustomization.yaml this test reads.
type kustomization struct {
	Resources []string `json:"resources"`
}

func readKustomization(name string) (*kustomization, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var k kustomization
	if err := yaml.Unmarshal(data, &k); err != nil {
		return nil, err
	}
	return &k, nil
}

// build runs kustomize (the library kubectl apply -k uses) on dir and
// decodes its output strictly.
func build(t *testing.T, dir string) *bundle {
	t.Helper()
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	m, err := k.Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		t.Fatalf("kustomize build %s: %v", dir, err)
	}
	out, err := m.AsYaml()
	if err != nil {
		t.Fatalf("kustomize build %s: %v", dir, err)
	}
	objs, err := DecodeStrict("kustomize build "+dir, out)
	if err != nil {
		t.Fatal(err)
	}
	return newBundle(objs)
}

func TestKustomizeSidecar(t *testing.T) {
	b := build(t, "kubernetes/sidecar")
	if p := checkSidecar(b, slackSecret); len(p) > 0 {
		t.Errorf("sidecar deployment:\n%s", strings.Join(p, "\n"))
	}
	checkCatalogs(t, b)
}

func TestKustomizeDaemonSet(t *testing.T) {
	b := build(t, "kubernetes/daemonset")
	if p := checkDaemonSet(b, slackSecret); len(p) > 0 {
		t.Errorf("node agent:\n%s", strings.Join(p, "\n"))
	}
	checkCatalogs(t, b)
}

// checkCatalogs loads every *.jsonl key of every ConfigMap with logmatch's
// catalog loader and wants no problem at all, warnings included.
func checkCatalogs(t *testing.T, b *bundle) {
	t.Helper()
	for _, cm := range b.configMaps {
		for key, data := range cm.Data {
			if !strings.HasSuffix(key, ".jsonl") {
				continue
			}
			dir := t.TempDir()
			f := filepath.Join(dir, key)
			if err := os.WriteFile(f, []byte(data), 0o600); err != nil {
				t.Fatal(err)
			}
			recs, probs := patterns.Load(f)
			for _, pr := range probs {
				t.Errorf("ConfigMap %s %s: %v", cm.Name, key, pr)
			}
			if len(recs) == 0 {
				t.Errorf("ConfigMap %s %s: no records", cm.Name, key)
			}
		}
	}
}

// TestChecksCatchBreakage breaks one thing at a time in the real manifests
// and wants the checks to name it, so a passing manifest test means
// something.
func TestChecksCatchBreakage(t *testing.T) {
	sidecar := func(t *testing.T, edit func(d *appsv1.Deployment, b *bundle)) problems {
		b := build(t, "kubernetes/sidecar")
		edit(b.deployments[0], b)
		return checkSidecar(b, slackSecret)
	}
	node := func(t *testing.T, edit func(d *appsv1.DaemonSet, b *bundle)) problems {
		b := build(t, "kubernetes/daemonset")
		edit(b.daemonSets[0], b)
		return checkDaemonSet(b, slackSecret)
	}
	lm := func(spec *corev1.PodSpec) *corev1.Container { return findContainer(spec, "logmatch") }
	tests := []struct {
		name  string
		check func(t *testing.T) problems
		want  []string
	}{
		{
			name: "sidecar untouched",
			check: func(t *testing.T) problems {
				return sidecar(t, func(*appsv1.Deployment, *bundle) {})
			},
		},
		{
			name: "log volume not mounted in sglang",
			check: func(t *testing.T) problems {
				return sidecar(t, func(d *appsv1.Deployment, _ *bundle) {
					sg := findContainer(&d.Spec.Template.Spec, "sglang")
					sg.VolumeMounts = slices.DeleteFunc(sg.VolumeMounts, func(m corev1.VolumeMount) bool { return m.MountPath == "/var/log/sglang" })
				})
			},
			want: []string{
				"no emptyDir is mounted in both sglang and logmatch",
			},
		},
		{
			name: "liveness on the wrong path and no readiness",
			check: func(t *testing.T) problems {
				return sidecar(t, func(d *appsv1.Deployment, _ *bundle) {
					c := lm(&d.Spec.Template.Spec)
					c.LivenessProbe.HTTPGet.Path = "/metrics"
					c.ReadinessProbe = nil
				})
			},
			want: []string{
				`logmatch: liveness probe path "/metrics", want "/healthz"`,
				"logmatch: no readiness probe",
			},
		},
		{
			name: "no memory limit, privilege escalation allowed",
			check: func(t *testing.T) problems {
				return sidecar(t, func(d *appsv1.Deployment, _ *bundle) {
					c := lm(&d.Spec.Template.Spec)
					delete(c.Resources.Limits, corev1.ResourceMemory)
					yes := true
					c.SecurityContext.AllowPrivilegeEscalation = &yes
				})
			},
			want: []string{
				"logmatch: no memory limit",
				"logmatch: allowPrivilegeEscalation is not false",
			},
		},
		{
			name: "slack URL as an env literal instead of the Secret",
			check: func(t *testing.T) problems {
				return sidecar(t, func(d *appsv1.Deployment, _ *bundle) {
					spec := &d.Spec.Template.Spec
					c := lm(spec)
					c.Env = append(c.Env, corev1.EnvVar{Name: "SLACK_URL", Value: "https://hooks.slack.com/services/T/B/x"})
					spec.Volumes = slices.DeleteFunc(spec.Volumes, func(v corev1.Volume) bool { return v.Secret != nil })
				})
			},
			want: []string{
				"logmatch: env SLACK_URL holds a secret literal; mount a Secret and use url_file",
				"no volume of Secret logmatch-slack",
				"ConfigMap logmatch config.yaml:21: sinks[1].url_file: open /etc/logmatch/slack/url: not a mounted Secret file",
			},
		},
		{
			name: "downward-API variable missing",
			check: func(t *testing.T) problems {
				return sidecar(t, func(d *appsv1.Deployment, _ *bundle) {
					c := lm(&d.Spec.Template.Spec)
					c.Env = slices.DeleteFunc(c.Env, func(e corev1.EnvVar) bool { return e.Name == "LOGMATCH_NODE_NAME" })
				})
			},
			want: []string{"logmatch: no env LOGMATCH_NODE_NAME"},
		},
		{
			name: "config reads outside the shared volume",
			check: func(t *testing.T) problems {
				return sidecar(t, func(_ *appsv1.Deployment, b *bundle) {
					cm := b.configMap("logmatch")
					cm.Data["config.yaml"] = strings.Replace(cm.Data["config.yaml"], "/var/log/sglang/*.log", "/var/log/other/*.log", 1)
				})
			},
			want: []string{"config path /var/log/other/*.log is not on the shared volume /var/log/sglang"},
		},
		{
			name: "sglang liveness back on its own /health",
			check: func(t *testing.T) problems {
				return sidecar(t, func(d *appsv1.Deployment, _ *bundle) {
					sg := findContainer(&d.Spec.Template.Spec, "sglang")
					sg.LivenessProbe.HTTPGet.Path = "/health"
					sg.LivenessProbe.HTTPGet.Port = intstr.FromString("http")
				})
			},
			want: []string{
				`sglang: liveness probe path "/health", want logmatch's "/livez"`,
			},
		},
		{
			name: "sglang liveness on logmatch's port name, impatient, no startup probe",
			check: func(t *testing.T) problems {
				return sidecar(t, func(d *appsv1.Deployment, _ *bundle) {
					sg := findContainer(&d.Spec.Template.Spec, "sglang")
					sg.LivenessProbe.HTTPGet.Port = intstr.FromString("metrics")
					sg.LivenessProbe.PeriodSeconds, sg.LivenessProbe.FailureThreshold = 5, 1
					sg.StartupProbe = nil
				})
			},
			want: []string{
				"sglang: liveness probe port metrics, want logmatch's port 9464 by number",
				"sglang: liveness probe gives up after 5s (failureThreshold 1 x periodSeconds 5), want 20 to 300s",
				"sglang: no startupProbe: /livez would be probed while a restarted server loads",
			},
		},
		{
			name: "node agent untouched",
			check: func(t *testing.T) problems {
				return node(t, func(*appsv1.DaemonSet, *bundle) {})
			},
		},
		{
			name: "pod logs mounted writable",
			check: func(t *testing.T) problems {
				return node(t, func(ds *appsv1.DaemonSet, _ *bundle) {
					c := lm(&ds.Spec.Template.Spec)
					for i := range c.VolumeMounts {
						if c.VolumeMounts[i].MountPath == "/var/log/pods" {
							c.VolumeMounts[i].ReadOnly = false
						}
					}
				})
			},
			want: []string{
				"hostPath /var/log/pods is mounted writable",
				"/var/log/pods is not mounted read-only from the host",
			},
		},
		{
			name: "capability added, no tolerations",
			check: func(t *testing.T) problems {
				return node(t, func(ds *appsv1.DaemonSet, _ *bundle) {
					c := lm(&ds.Spec.Template.Spec)
					c.SecurityContext.Capabilities.Add = []corev1.Capability{"DAC_OVERRIDE"}
					ds.Spec.Template.Spec.Tolerations = nil
				})
			},
			want: []string{
				"logmatch: capabilities must drop [ALL] and add none",
				"no tolerations: tainted GPU nodes get no agent",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.check(t)
			if diff := cmp.Diff(tt.want, []string(got)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}
