package deploy

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/source"
)

// The pod the attach tests pretend to be, as the downward API would tell.
var testPod = map[string]string{
	"metadata.name":      "sglang-7d9c5b6f4-x2k8p",
	"metadata.namespace": "inference",
	"metadata.uid":       "0b6f4c1e-9a5d-4c62-8e1f-3d2a7b9c4e10",
	"spec.nodeName":      "gpu-node-7",
}

// buildAttached builds a kustomization that holds the example Deployment
// and includes one component, as an operator's own kustomization would.
func buildAttached(t *testing.T, component string) *bundle {
	t.Helper()
	root := t.TempDir()
	if err := os.CopyFS(filepath.Join(root, "components"), os.DirFS("kustomize/components")); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(root, "app")
	if err := os.Mkdir(app, 0o755); err != nil {
		t.Fatal(err)
	}
	dep, err := os.ReadFile("kustomize/examples/existing-sglang/deployment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	k := "resources:\n  - deployment.yaml\ncomponents:\n  - ../components/" + component + "\n"
	for name, data := range map[string][]byte{"deployment.yaml": dep, "kustomization.yaml": []byte(k)} {
		if err := os.WriteFile(filepath.Join(app, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), app)
	if err != nil {
		t.Fatalf("kustomize build with %s: %v", component, err)
	}
	out, err := m.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	objs, err := DecodeStrict("kustomize build with "+component, out)
	if err != nil {
		t.Fatal(err)
	}
	return newBundle(objs)
}

func exampleDeployment(t *testing.T) *appsv1.Deployment {
	t.Helper()
	data, err := os.ReadFile("kustomize/examples/existing-sglang/deployment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	objs, err := DecodeStrict("deployment.yaml", data)
	if err != nil || len(objs) != 1 {
		t.Fatalf("example deployment: %v", err)
	}
	return objs[0].Value.(*appsv1.Deployment)
}

// TestKustomizeAttachToExistingDeployment adds logmatch to the example
// sglang Deployment with each component and checks what an operator
// relies on: sglang's container untouched, logmatch a native sidecar
// reading its own pod's kubelet log directory read-only, its identity
// from the downward API, its configuration loading with logmatch's own
// loader, and a Secret only where Slack is wanted.
func TestKustomizeAttachToExistingDeployment(t *testing.T) {
	orig := exampleDeployment(t)
	for _, tc := range []struct {
		component string
		slack     bool
	}{{"sidecar-trial", false}, {"sidecar", true}} {
		t.Run(tc.component, func(t *testing.T) {
			b := buildAttached(t, tc.component)
			secret := ""
			if tc.slack {
				secret = slackSecret
			}
			if p := checkAttached(b, orig, secret); len(p) > 0 {
				t.Errorf("%s:\n%s", tc.component, strings.Join(p, "\n"))
			}
		})
	}
}

// checkAttached checks a Deployment built from orig with a component.
// slackSecret is the Secret the Slack sink reads, "" when there must be
// no Secret at all.
func checkAttached(b *bundle, orig *appsv1.Deployment, slackSecret string) problems {
	var p problems
	if len(b.deployments) != 1 {
		p.add("want one Deployment, got %d", len(b.deployments))
		return p
	}
	d := b.deployments[0]
	spec := &d.Spec.Template.Spec
	if !reflect.DeepEqual(spec.Containers, orig.Spec.Template.Spec.Containers) {
		p.add("the Deployment's containers changed:\n%s\nwant:\n%s", toYAML(spec.Containers), toYAML(orig.Spec.Template.Spec.Containers))
	}
	if !reflect.DeepEqual(d.Spec.Template.Labels, orig.Spec.Template.Labels) || !reflect.DeepEqual(d.Spec.Selector, orig.Spec.Selector) {
		p.add("the pod labels or the selector changed")
	}
	for _, v := range orig.Spec.Template.Spec.Volumes {
		if w := findVolume(spec, v.Name); w == nil || !reflect.DeepEqual(*w, v) {
			p.add("volume %s of the Deployment is gone or changed", v.Name)
		}
	}
	var lm *corev1.Container
	for i := range spec.InitContainers {
		if spec.InitContainers[i].Name == "logmatch" {
			lm = &spec.InitContainers[i]
		}
	}
	if lm == nil {
		p.add("no logmatch init container")
		return p
	}
	if lm.RestartPolicy == nil || *lm.RestartPolicy != corev1.ContainerRestartPolicyAlways {
		p.add("logmatch: not a native sidecar (restartPolicy Always)")
	}
	// Root, to read kubelet's 0640 files as their owner, with nothing else.
	checkLogmatchContainer(&p, lm, true, "/readyz?exclude=sinks")
	checkNoSecretLiterals(&p, spec)

	// The node's pod logs, read-only.
	m := findMount(lm, "logmatch-pod-logs")
	v := findVolume(spec, "logmatch-pod-logs")
	switch {
	case m == nil || v == nil || v.HostPath == nil:
		p.add("logmatch: no hostPath volume logmatch-pod-logs mounted")
	case v.HostPath.Path != "/var/log/pods" || m.MountPath != "/var/log/pods" || !m.ReadOnly:
		p.add("logmatch: pod logs %s mounted at %s (read-only %v), want /var/log/pods read-only", v.HostPath.Path, m.MountPath, m.ReadOnly)
	case v.HostPath.Type == nil || *v.HostPath.Type != corev1.HostPathDirectory:
		p.add("logmatch: the pod log hostPath is not of type Directory")
	}
	for _, m := range lm.VolumeMounts {
		if v := findVolume(spec, m.Name); v != nil && v.HostPath != nil && !m.ReadOnly {
			p.add("logmatch: hostPath %s mounted writable", v.HostPath.Path)
		}
	}

	// The arguments as the kubelet runs them: $(VAR) expanded from the
	// container's env, the downward API's fields from testPod.
	env := map[string]string{}
	for _, e := range lm.Env {
		switch {
		case e.ValueFrom != nil && e.ValueFrom.FieldRef != nil:
			env[e.Name] = testPod[e.ValueFrom.FieldRef.FieldPath]
		case e.ValueFrom == nil:
			env[e.Name] = e.Value
		}
	}
	if env["LOGMATCH_POD_UID"] != testPod["metadata.uid"] {
		p.add("logmatch: no env LOGMATCH_POD_UID from metadata.uid")
	}
	if env[config.EnvContainerName] != "sglang" || findContainer(spec, "sglang") == nil {
		p.add("logmatch: %s is %q, not the sglang container", config.EnvContainerName, env[config.EnvContainerName])
	}
	args := make([]string, len(lm.Args))
	for i, a := range lm.Args {
		args[i] = expandKubeVars(a, env)
	}
	if len(args) == 0 || args[0] != "run" {
		p.add("logmatch: args %q do not start with run", args)
		return p
	}
	readFile := func(name string) ([]byte, error) {
		if data, _ := mountedConfigMapFile(b, spec, lm, name); data != nil {
			return data, nil
		}
		return secretReader(secretMounts(spec, lm)...)(name)
	}
	// As the binary's run command does: its flags registered, the
	// arguments parsed, then the configuration loaded.
	set := pflag.NewFlagSet("logmatch run", pflag.ContinueOnError)
	set.SetOutput(io.Discard)
	flags := config.RegisterFlags(set)
	err := set.Parse(args[1:])
	var cfg *config.Config
	if err == nil {
		cfg, err = flags.Load(func(k string) string { return env[k] }, readFile)
	}
	if err != nil {
		p.add("logmatch run %q: %v", args[1:], err)
		return p
	}
	mine := "/var/log/pods/" + testPod["metadata.namespace"] + "_" + testPod["metadata.name"] + "_" + testPod["metadata.uid"] + "/sglang/0.log"
	others := []string{
		"/var/log/pods/" + testPod["metadata.namespace"] + "_other-pod_1111/sglang/0.log",
		strings.Replace(mine, "/sglang/", "/logmatch/", 1),
	}
	if len(cfg.Paths) != 1 {
		p.add("paths %q, want this pod's sglang log directory", cfg.Paths)
	} else {
		if ok, _ := filepath.Match(cfg.Paths[0], mine); !ok {
			p.add("path %s does not match this pod's sglang log %s", cfg.Paths[0], mine)
		}
		for _, o := range others {
			if ok, _ := filepath.Match(cfg.Paths[0], o); ok {
				p.add("path %s matches %s, which is not sglang's log of this pod", cfg.Paths[0], o)
			}
		}
	}
	if pod, ok := source.ParsePodPath(mine); !ok || pod.Name != testPod["metadata.name"] || pod.Namespace != testPod["metadata.namespace"] || pod.Container != "sglang" {
		p.add("alerts would say %+v for %s", pod, mine)
	}
	if cfg.Format != string(source.FormatCRI) {
		p.add("format %q, want cri (kubelet's files)", cfg.Format)
	}
	if cfg.Kubernetes.Pod != testPod["metadata.name"] || cfg.Kubernetes.Node != testPod["spec.nodeName"] {
		p.add("identity %+v, not from the downward API", cfg.Kubernetes)
	}
	checkStateDir(&p, spec, lm, cfg.StateDir)
	var types []string
	for _, s := range cfg.Sinks {
		types = append(types, string(s.Type))
	}
	if slackSecret == "" {
		for _, v := range spec.Volumes {
			if v.Secret != nil {
				p.add("the trial mounts Secret %s", v.Secret.SecretName)
			}
		}
		if !slices.Equal(types, []string{string(config.SinkStdout)}) {
			p.add("trial sinks %q, want stdout only", types)
		}
		return p
	}
	dir := checkSecretMounted(&p, spec, lm, slackSecret)
	checkSlackSink(&p, cfg, dir)
	if sg := findContainer(spec, "sglang"); sg != nil {
		for _, m := range sg.VolumeMounts {
			if v := findVolume(spec, m.Name); v != nil && v.Secret != nil {
				p.add("sglang mounts Secret %s", v.Secret.SecretName)
			}
		}
	}
	return p
}

// expandKubeVars expands $(VAR) as the kubelet does in a container's
// args: a defined variable is replaced, $$ is a literal $, an undefined
// reference stays as it is.
func expandKubeVars(s string, env map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i++
			continue
		case '(':
			if j := strings.IndexByte(s[i:], ')'); j > 0 {
				if v, ok := env[s[i+2:i+j]]; ok {
					b.WriteString(v)
					i += j
					continue
				}
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// TestAttachChecksCatchBreakage breaks the attached Deployment the ways
// that matter and wants checkAttached to say so, so the checks above
// cannot pass vacuously.
func TestAttachChecksCatchBreakage(t *testing.T) {
	orig := exampleDeployment(t)
	for _, tc := range []struct {
		name    string
		breakIt func(d *appsv1.Deployment)
		want    string
	}{
		{"sglang's command changed", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Containers[0].Command = []string{"/bin/bash", "-c", "tee"}
		}, "the Deployment's containers changed"},
		{"logs mounted writable", func(d *appsv1.Deployment) {
			for i := range d.Spec.Template.Spec.InitContainers[0].VolumeMounts {
				d.Spec.Template.Spec.InitContainers[0].VolumeMounts[i].ReadOnly = false
			}
		}, "hostPath /var/log/pods mounted writable"},
		{"another pod's logs", func(d *appsv1.Deployment) {
			a := d.Spec.Template.Spec.InitContainers[0].Args
			a[len(a)-1] = "/var/log/pods/*/sglang/*.log"
		}, "which is not sglang's log of this pod"},
		{"no uid", func(d *appsv1.Deployment) {
			c := &d.Spec.Template.Spec.InitContainers[0]
			c.Env = slices.DeleteFunc(c.Env, func(e corev1.EnvVar) bool { return e.Name == "LOGMATCH_POD_UID" })
		}, "no env LOGMATCH_POD_UID"},
		{"not a sidecar", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.InitContainers[0].RestartPolicy = nil
		}, "not a native sidecar"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := buildAttached(t, "sidecar-trial")
			tc.breakIt(b.deployments[0])
			p := checkAttached(b, orig, "")
			if !strings.Contains(strings.Join(p, "\n"), tc.want) {
				t.Errorf("got problems %q, want one with %q", p, tc.want)
			}
		})
	}
}

// TestKustomizeFilesDecodeStrictly decodes every YAML file under
// kustomize/ strictly (patches too: a misspelt field would be dropped by
// kustomize without a word) and wants each one named by its directory's
// kustomization, and every example to build.
func TestKustomizeFilesDecodeStrictly(t *testing.T) {
	var files []string
	err := filepath.WalkDir("kustomize", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".yaml") && d.Name() != "kustomization.yaml" {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no files under kustomize/: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeStrict(f, data); err != nil {
			t.Errorf("%v", err)
		}
		k, err := os.ReadFile(filepath.Join(filepath.Dir(f), "kustomization.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(k), " "+filepath.Base(f)+"\n") {
			t.Errorf("%s is not named in its kustomization.yaml", f)
		}
	}
	examples, _ := filepath.Glob("kustomize/examples/*")
	for _, dir := range examples {
		build(t, dir)
	}
}

// TestKubectlPatchAttaches applies the trial's patch.yaml as kubectl patch
// --type strategic does (the API server's strategic merge) to the example
// Deployment, with the ConfigMap applied beside it: the documented way to
// attach to a Deployment that runs without kustomize.
func TestKubectlPatchAttaches(t *testing.T) {
	orig := exampleDeployment(t)
	origJSON, err := json.Marshal(orig)
	if err != nil {
		t.Fatal(err)
	}
	patchYAML, err := os.ReadFile("kustomize/components/sidecar-trial/patch.yaml")
	if err != nil {
		t.Fatal(err)
	}
	patch, err := yaml.YAMLToJSON(patchYAML)
	if err != nil {
		t.Fatal(err)
	}
	out, err := strategicpatch.StrategicMergePatch(origJSON, patch, appsv1.Deployment{})
	if err != nil {
		t.Fatalf("strategic merge: %v", err)
	}
	var d appsv1.Deployment
	if err := json.Unmarshal(out, &d); err != nil {
		t.Fatal(err)
	}
	cmYAML, err := os.ReadFile("kustomize/components/sidecar-trial/configmap.yaml")
	if err != nil {
		t.Fatal(err)
	}
	objs, err := DecodeStrict("configmap.yaml", cmYAML)
	if err != nil {
		t.Fatal(err)
	}
	b := newBundle(objs)
	b.deployments = []*appsv1.Deployment{&d}
	if p := checkAttached(b, orig, ""); len(p) > 0 {
		t.Errorf("kubectl patch:\n%s", strings.Join(p, "\n"))
	}
}

// TestReadmeAttachWalkthrough builds the kustomization the README's
// walk-through writes, in the layout it describes (the repository beside
// the directory of the Deployment's manifest), and wants the attached
// Deployment, on the image it pushed, in fewer than ten commands.
func TestReadmeAttachWalkthrough(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "**Add logmatch to an sglang Deployment you already run**")
	if !ok {
		t.Fatal("the README has no walk-through for an existing Deployment")
	}
	_, block, _ := strings.Cut(rest, "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	_, k, ok := strings.Cut(block, "cat > kustomization.yaml <<'EOF'\n")
	k, _, ok2 := strings.Cut(k, "\n  EOF\n")
	if !ok || !ok2 {
		t.Fatalf("no kustomization in the walk-through:\n%s", block)
	}
	commands := 0
	inHeredoc := false
	for _, l := range strings.Split(block, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case inHeredoc:
			inHeredoc = l != "EOF"
		case l != "":
			commands++
			inHeredoc = strings.Contains(l, "<<'EOF'")
		}
	}
	if commands >= 10 {
		t.Errorf("the walk-through takes %d commands, want fewer than ten", commands)
	}

	root := t.TempDir()
	if err := os.CopyFS(filepath.Join(root, "logmatch", "deploy", "kustomize"), os.DirFS("kustomize")); err != nil {
		t.Fatal(err)
	}
	serving := filepath.Join(root, "serving")
	if err := os.Mkdir(serving, 0o755); err != nil {
		t.Fatal(err)
	}
	dep, err := os.ReadFile("kustomize/examples/existing-sglang/deployment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var kust strings.Builder
	for _, l := range strings.Split(k, "\n") {
		kust.WriteString(strings.TrimPrefix(l, "  ") + "\n")
	}
	for name, data := range map[string]string{"sglang.yaml": string(dep), "kustomization.yaml": kust.String()} {
		if err := os.WriteFile(filepath.Join(serving, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), serving)
	if err != nil {
		t.Fatalf("kustomize build of the README's kustomization:\n%s\n%v", kust.String(), err)
	}
	out, err := m.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	objs, err := DecodeStrict("the README's kustomization", out)
	if err != nil {
		t.Fatal(err)
	}
	b := newBundle(objs)
	if p := checkAttached(b, exampleDeployment(t), ""); len(p) > 0 {
		t.Errorf("the README's walk-through:\n%s", strings.Join(p, "\n"))
	}
	if len(b.deployments) == 1 {
		for _, c := range b.deployments[0].Spec.Template.Spec.InitContainers {
			if c.Name == "logmatch" && c.Image != "registry.example.com/logmatch:v1" {
				t.Errorf("logmatch runs %s, not the image the walk-through pushed", c.Image)
			}
		}
	}
}
