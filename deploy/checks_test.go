package deploy

import (
	"fmt"
	"path"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"

	"github.com/logmatch/logmatch/internal/config"
)

// metricsPort is logmatch's --http-addr port in every deployment.
const metricsPort = 9464

// bundle is every object of one deployment (a kustomize build or a helm
// render), by kind.
type bundle struct {
	deployments []*appsv1.Deployment
	daemonSets  []*appsv1.DaemonSet
	services    []*corev1.Service
	configMaps  []*corev1.ConfigMap
	secrets     []*corev1.Secret
	accounts    []*corev1.ServiceAccount
	monitors    []*ServiceMonitor
}

func newBundle(objs []Object) *bundle {
	b := &bundle{}
	for _, o := range objs {
		switch v := o.Value.(type) {
		case *appsv1.Deployment:
			b.deployments = append(b.deployments, v)
		case *appsv1.DaemonSet:
			b.daemonSets = append(b.daemonSets, v)
		case *corev1.Service:
			b.services = append(b.services, v)
		case *corev1.ConfigMap:
			b.configMaps = append(b.configMaps, v)
		case *corev1.Secret:
			b.secrets = append(b.secrets, v)
		case *corev1.ServiceAccount:
			b.accounts = append(b.accounts, v)
		case *ServiceMonitor:
			b.monitors = append(b.monitors, v)
		}
	}
	return b
}

func (b *bundle) configMap(name string) *corev1.ConfigMap {
	for _, cm := range b.configMaps {
		if cm.Name == name {
			return cm
		}
	}
	return nil
}

// problems collects what a check found wrong.
type problems []string

func (p *problems) add(format string, args ...any) { *p = append(*p, fmt.Sprintf(format, args...)) }

// findContainer finds a container by name among the regular containers
// and the init containers (logmatch runs as a native sidecar, which is an
// init container with restartPolicy Always).
func findContainer(spec *corev1.PodSpec, name string) *corev1.Container {
	for i := range spec.Containers {
		if spec.Containers[i].Name == name {
			return &spec.Containers[i]
		}
	}
	for i := range spec.InitContainers {
		if spec.InitContainers[i].Name == name {
			return &spec.InitContainers[i]
		}
	}
	return nil
}

func findVolume(spec *corev1.PodSpec, name string) *corev1.Volume {
	for i := range spec.Volumes {
		if spec.Volumes[i].Name == name {
			return &spec.Volumes[i]
		}
	}
	return nil
}

func findMount(c *corev1.Container, volume string) *corev1.VolumeMount {
	for i := range c.VolumeMounts {
		if c.VolumeMounts[i].Name == volume {
			return &c.VolumeMounts[i]
		}
	}
	return nil
}

// portNumber resolves a probe's port, by number or by the container's
// port name.
func portNumber(c *corev1.Container, p intstr.IntOrString) int32 {
	if p.Type == intstr.Int {
		return p.IntVal
	}
	for _, cp := range c.Ports {
		if cp.Name == p.StrVal {
			return cp.ContainerPort
		}
	}
	return 0
}

// checkProbe wants an HTTP GET probe on path at the metrics port.
func checkProbe(p *problems, c *corev1.Container, kind string, probe *corev1.Probe, wantPath string) {
	switch {
	case probe == nil:
		p.add("%s: no %s probe", c.Name, kind)
	case probe.HTTPGet == nil:
		p.add("%s: %s probe is not an HTTP GET", c.Name, kind)
	case probe.HTTPGet.Path != wantPath:
		p.add("%s: %s probe path %q, want %q", c.Name, kind, probe.HTTPGet.Path, wantPath)
	case portNumber(c, probe.HTTPGet.Port) != metricsPort:
		p.add("%s: %s probe port %s, want %d", c.Name, kind, probe.HTTPGet.Port.String(), metricsPort)
	}
}

// checkLogmatchContainer checks what every logmatch container needs,
// whatever the mode: probes, resources, the locked-down security context
// (root allowed only when allowRoot), the downward-API variables. readyz is
// the readiness path the mode needs: a sidecar excludes sink health, since
// its readiness gates the sglang Pod's Service.
func checkLogmatchContainer(p *problems, c *corev1.Container, allowRoot bool, readyz string) {
	checkProbe(p, c, "liveness", c.LivenessProbe, "/healthz")
	checkProbe(p, c, "readiness", c.ReadinessProbe, readyz)
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if _, ok := c.Resources.Requests[r]; !ok {
			p.add("%s: no %s request", c.Name, r)
		}
		if _, ok := c.Resources.Limits[r]; !ok {
			p.add("%s: no %s limit", c.Name, r)
		}
	}
	sc := c.SecurityContext
	if sc == nil {
		p.add("%s: no securityContext", c.Name)
		return
	}
	if !allowRoot && (sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot) {
		p.add("%s: runAsNonRoot is not true", c.Name)
	}
	if !allowRoot && sc.RunAsUser != nil && *sc.RunAsUser == 0 {
		p.add("%s: runs as uid 0", c.Name)
	}
	if sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
		p.add("%s: readOnlyRootFilesystem is not true", c.Name)
	}
	if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
		p.add("%s: allowPrivilegeEscalation is not false", c.Name)
	}
	if sc.Privileged != nil && *sc.Privileged {
		p.add("%s: privileged", c.Name)
	}
	if sc.Capabilities == nil || len(sc.Capabilities.Drop) != 1 || sc.Capabilities.Drop[0] != "ALL" || len(sc.Capabilities.Add) > 0 {
		p.add("%s: capabilities must drop [ALL] and add none", c.Name)
	}
	if sc.SeccompProfile == nil || sc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		p.add("%s: seccompProfile is not RuntimeDefault", c.Name)
	}
	want := map[string]string{
		"LOGMATCH_POD_NAME":      "metadata.name",
		"LOGMATCH_POD_NAMESPACE": "metadata.namespace",
		"LOGMATCH_NODE_NAME":     "spec.nodeName",
	}
	for _, e := range c.Env {
		field, ok := want[e.Name]
		if !ok {
			continue
		}
		if e.ValueFrom == nil || e.ValueFrom.FieldRef == nil || e.ValueFrom.FieldRef.FieldPath != field {
			p.add("%s: env %s is not the downward-API field %s", c.Name, e.Name, field)
		}
		delete(want, e.Name)
	}
	for name := range want {
		p.add("%s: no env %s", c.Name, name)
	}
	hasMetricsPort := false
	for _, cp := range c.Ports {
		if cp.Name == "metrics" && cp.ContainerPort == metricsPort {
			hasMetricsPort = true
		}
	}
	if !hasMetricsPort {
		p.add("%s: no container port metrics/%d", c.Name, metricsPort)
	}
}

// checkNoSecretLiterals rejects a Slack or webhook URL, or a variable
// named like a secret, given as a literal env value in any container.
func checkNoSecretLiterals(p *problems, spec *corev1.PodSpec) {
	all := append(append([]corev1.Container{}, spec.InitContainers...), spec.Containers...)
	for _, c := range all {
		for _, e := range c.Env {
			up := strings.ToUpper(e.Name)
			secretName := strings.Contains(up, "SLACK") || strings.Contains(up, "WEBHOOK") || strings.Contains(up, "TOKEN") || strings.Contains(up, "SECRET")
			if e.Value != "" && (secretName || strings.Contains(e.Value, "hooks.slack.com")) {
				p.add("%s: env %s holds a secret literal; mount a Secret and use url_file", c.Name, e.Name)
			}
		}
	}
}

// checkSecretMounted wants a Secret volume of secretName mounted read-only
// in c, and returns the mount path ("" when not).
func checkSecretMounted(p *problems, spec *corev1.PodSpec, c *corev1.Container, secretName string) string {
	for _, v := range spec.Volumes {
		if v.Secret == nil || v.Secret.SecretName != secretName {
			continue
		}
		m := findMount(c, v.Name)
		if m == nil {
			p.add("%s: Secret %s (volume %s) is not mounted", c.Name, secretName, v.Name)
			return ""
		}
		if !m.ReadOnly {
			p.add("%s: Secret %s mounted writable", c.Name, secretName)
		}
		return m.MountPath
	}
	p.add("no volume of Secret %s", secretName)
	return ""
}

// logmatchConfig finds the ConfigMap behind the --config argument of c and
// loads its config.yaml with logmatch's own loader. readFile serves the
// Secret files the configuration names.
func logmatchConfig(p *problems, b *bundle, spec *corev1.PodSpec, c *corev1.Container, readFile func(string) ([]byte, error)) *config.Config {
	cfgPath := ""
	for i, a := range c.Args {
		if a == "--config" && i+1 < len(c.Args) {
			cfgPath = c.Args[i+1]
		}
	}
	if cfgPath == "" {
		p.add("%s: no --config argument in %q", c.Name, c.Args)
		return nil
	}
	data, place := mountedConfigMapFile(b, spec, c, cfgPath)
	if data == nil {
		p.add("%s: --config %s is not a file of a mounted ConfigMap", c.Name, cfgPath)
		return nil
	}
	cfg, err := config.Load(place, data, func(string) string { return "" }, readFile)
	if err != nil {
		// The loader's errors already name the place (ConfigMap key:line).
		p.add("%v", err)
		return nil
	}
	return cfg
}

// mountedConfigMapFile returns the contents of the file at path inside c as
// provided by a ConfigMap volume, and a name for messages.
func mountedConfigMapFile(b *bundle, spec *corev1.PodSpec, c *corev1.Container, file string) ([]byte, string) {
	for _, m := range c.VolumeMounts {
		rel, ok := strings.CutPrefix(file, strings.TrimSuffix(m.MountPath, "/")+"/")
		if !ok {
			continue
		}
		v := findVolume(spec, m.Name)
		if v == nil || v.ConfigMap == nil {
			continue
		}
		cm := b.configMap(v.ConfigMap.Name)
		if cm == nil {
			continue
		}
		key := rel
		for _, it := range v.ConfigMap.Items {
			if it.Path == rel {
				key = it.Key
			}
		}
		if d, ok := cm.Data[key]; ok {
			return []byte(d), "ConfigMap " + cm.Name + " " + key
		}
	}
	return nil, ""
}

// secretMounts lists where c mounts Secret volumes.
func secretMounts(spec *corev1.PodSpec, c *corev1.Container) []string {
	var dirs []string
	for _, m := range c.VolumeMounts {
		if v := findVolume(spec, m.Name); v != nil && v.Secret != nil {
			dirs = append(dirs, m.MountPath)
		}
	}
	return dirs
}

// under reports whether glob or file p lies inside directory dir.
func under(p, dir string) bool {
	return strings.HasPrefix(path.Clean(p), strings.TrimSuffix(dir, "/")+"/")
}

// secretReader serves fake contents for files under the Secret mount, and
// fails for any other path so a config naming an unmounted file is caught.
func secretReader(mounts ...string) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		for _, m := range mounts {
			if m != "" && under(name, m) {
				return []byte("https://hooks.slack.com/services/T0000/B0000/test\n"), nil
			}
		}
		return nil, fmt.Errorf("open %s: not a mounted Secret file", name)
	}
}

// checkMetricsService wants a Service selecting the pods with a port named
// metrics that reaches the metrics port.
func checkMetricsService(p *problems, b *bundle, podLabels map[string]string) {
	for _, s := range b.services {
		if len(s.Spec.Selector) == 0 {
			continue
		}
		selects := true
		for k, v := range s.Spec.Selector {
			if podLabels[k] != v {
				selects = false
			}
		}
		if !selects {
			continue
		}
		for _, port := range s.Spec.Ports {
			if port.Name == "metrics" && (port.TargetPort.IntVal == metricsPort || port.TargetPort.StrVal == "metrics") {
				return
			}
		}
	}
	p.add("no Service selects the pods with a port named metrics to %d", metricsPort)
}

// checkSidecar checks the sglang Deployment with its logmatch sidecar and
// health gating on; slackSecret names the Secret of the Slack webhook URL,
// "" when no Slack sink is expected.
func checkSidecar(b *bundle, slackSecret string) problems {
	return checkSidecarGating(b, slackSecret, true)
}

// checkSidecarGating is checkSidecar with health gating on or off.
func checkSidecarGating(b *bundle, slackSecret string, gated bool) problems {
	var p problems
	if len(b.deployments) != 1 {
		p.add("want one Deployment, got %d", len(b.deployments))
		return p
	}
	d := b.deployments[0]
	spec := &d.Spec.Template.Spec
	lm, sg := findContainer(spec, "logmatch"), findContainer(spec, "sglang")
	if lm == nil || sg == nil {
		p.add("Deployment %s: want containers logmatch and sglang", d.Name)
		return p
	}
	checkLogmatchContainer(&p, lm, false, "/readyz?exclude=sinks")
	checkSglangLiveness(&p, sg, gated)
	checkNoSecretLiterals(&p, spec)
	for _, r := range []corev1.ResourceName{corev1.ResourceMemory, "nvidia.com/gpu"} {
		if _, ok := sg.Resources.Limits[r]; !ok {
			p.add("sglang: no %s limit", r)
		}
	}
	if len(sg.Resources.Requests) == 0 {
		p.add("sglang: no resource requests")
	}
	if !strings.Contains(strings.Join(append(append([]string{}, sg.Command...), sg.Args...), " "), "sglang.launch_server") {
		p.add("sglang: does not run sglang.launch_server")
	}

	// The log volume: an emptyDir mounted in both containers.
	shared := ""
	for _, m := range lm.VolumeMounts {
		v := findVolume(spec, m.Name)
		if v != nil && v.EmptyDir != nil && findMount(sg, m.Name) != nil {
			shared = m.MountPath
			if !m.ReadOnly {
				p.add("logmatch: shared log volume %s mounted writable", m.Name)
			}
		}
	}
	if shared == "" {
		p.add("no emptyDir is mounted in both sglang and logmatch")
	}
	secretDir := ""
	if slackSecret != "" {
		secretDir = checkSecretMounted(&p, spec, lm, slackSecret)
	}
	cfg := logmatchConfig(&p, b, spec, lm, secretReader(secretMounts(spec, lm)...))
	if cfg != nil {
		for _, g := range cfg.Paths {
			if shared != "" && !under(g, shared) {
				p.add("config path %s is not on the shared volume %s", g, shared)
			}
		}
		checkStateDir(&p, spec, lm, cfg.StateDir)
		if slackSecret != "" {
			checkSlackSink(&p, cfg, secretDir)
		}
	}
	checkMetricsService(&p, b, d.Spec.Template.Labels)
	return p
}

// Bounds of the sglang liveness probe's patience (failureThreshold x
// periodSeconds) under health gating: long enough to ride out a logmatch
// restart, short enough that a hung server is restarted within minutes.
const (
	minGatePatience = 20
	maxGatePatience = 300
)

// checkSglangLiveness checks the sglang container's liveness probe: with
// health gating, an HTTP GET of logmatch's /livez on the metrics port (by
// number: a probe resolves port names in its own container), held back by
// a startupProbe while the server loads; without it, sglang's own /health.
func checkSglangLiveness(p *problems, sg *corev1.Container, gated bool) {
	probe := sg.LivenessProbe
	if !gated {
		switch {
		case probe == nil || probe.HTTPGet == nil:
			p.add("sglang: no HTTP liveness probe")
		case probe.HTTPGet.Path != "/health" || portNumber(sg, probe.HTTPGet.Port) == metricsPort:
			p.add("sglang: liveness probe %s on port %s, want sglang's own /health", probe.HTTPGet.Path, probe.HTTPGet.Port.String())
		}
		return
	}
	switch {
	case probe == nil:
		p.add("sglang: no liveness probe (health gating wants logmatch's /livez)")
		return
	case probe.HTTPGet == nil:
		p.add("sglang: liveness probe is not an HTTP GET")
		return
	case probe.HTTPGet.Path != "/livez":
		p.add("sglang: liveness probe path %q, want logmatch's \"/livez\"", probe.HTTPGet.Path)
	case probe.HTTPGet.Port.Type != intstr.Int || probe.HTTPGet.Port.IntVal != metricsPort:
		p.add("sglang: liveness probe port %s, want logmatch's port %d by number", probe.HTTPGet.Port.String(), metricsPort)
	}
	period, threshold := probe.PeriodSeconds, probe.FailureThreshold
	if period == 0 {
		period = 10 // the API's default
	}
	if threshold == 0 {
		threshold = 3
	}
	if patience := period * threshold; patience < minGatePatience || patience > maxGatePatience {
		p.add("sglang: liveness probe gives up after %ds (failureThreshold %d x periodSeconds %d), want %d to %ds", patience, threshold, period, minGatePatience, maxGatePatience)
	}
	if sg.StartupProbe == nil {
		p.add("sglang: no startupProbe: /livez would be probed while a restarted server loads")
	}
}

// checkDaemonSet checks the node agent; slackSecret as for checkSidecar.
func checkDaemonSet(b *bundle, slackSecret string) problems {
	var p problems
	if len(b.daemonSets) != 1 {
		p.add("want one DaemonSet, got %d", len(b.daemonSets))
		return p
	}
	ds := b.daemonSets[0]
	spec := &ds.Spec.Template.Spec
	lm := findContainer(spec, "logmatch")
	if lm == nil {
		p.add("DaemonSet %s: no container logmatch", ds.Name)
		return p
	}
	checkLogmatchContainer(&p, lm, true, "/readyz")
	checkNoSecretLiterals(&p, spec)
	podLogs := false
	for _, v := range spec.Volumes {
		if v.HostPath == nil || v.HostPath.Path != "/var/log/pods" {
			continue
		}
		m := findMount(lm, v.Name)
		switch {
		case m == nil:
			p.add("hostPath /var/log/pods is not mounted")
		case !m.ReadOnly:
			p.add("hostPath /var/log/pods is mounted writable")
		case m.MountPath != "/var/log/pods":
			p.add("hostPath /var/log/pods mounted at %s; CRI paths name pods only at /var/log/pods", m.MountPath)
		default:
			podLogs = true
		}
	}
	if !podLogs {
		p.add("/var/log/pods is not mounted read-only from the host")
	}
	if len(spec.Tolerations) == 0 {
		p.add("no tolerations: tainted GPU nodes get no agent")
	}
	if spec.ServiceAccountName == "" {
		p.add("no serviceAccountName")
	} else {
		found := false
		for _, sa := range b.accounts {
			found = found || sa.Name == spec.ServiceAccountName
		}
		if !found {
			p.add("ServiceAccount %s is not part of the deployment", spec.ServiceAccountName)
		}
	}
	secretDir := ""
	if slackSecret != "" {
		secretDir = checkSecretMounted(&p, spec, lm, slackSecret)
	}
	cfg := logmatchConfig(&p, b, spec, lm, secretReader(secretMounts(spec, lm)...))
	if cfg != nil {
		if cfg.Format != "cri" {
			p.add("config format %q, want cri", cfg.Format)
		}
		for _, g := range cfg.Paths {
			if !under(g, "/var/log/pods") {
				p.add("config path %s is outside /var/log/pods", g)
			}
		}
		checkStateDir(&p, spec, lm, cfg.StateDir)
		for _, v := range spec.Volumes {
			if m := findMount(lm, v.Name); m != nil && m.MountPath == cfg.StateDir && v.HostPath == nil {
				p.add("state dir %s is not on the node (hostPath)", cfg.StateDir)
			}
		}
		if slackSecret != "" {
			checkSlackSink(&p, cfg, secretDir)
		}
	}
	checkMetricsService(&p, b, ds.Spec.Template.Labels)
	return p
}

// checkStateDir wants the state dir on a writable volume, since the root
// filesystem is read-only.
func checkStateDir(p *problems, spec *corev1.PodSpec, c *corev1.Container, dir string) {
	for _, m := range c.VolumeMounts {
		if m.MountPath == dir {
			if m.ReadOnly {
				p.add("state dir %s is mounted read-only", dir)
			}
			if findVolume(spec, m.Name) == nil {
				p.add("state dir volume %s is not defined", m.Name)
			}
			return
		}
	}
	p.add("state dir %s is not a mounted volume", dir)
}

// checkSlackSink wants every slack sink's URL read from the mounted Secret.
func checkSlackSink(p *problems, cfg *config.Config, secretDir string) {
	n := 0
	for _, s := range cfg.Sinks {
		if s.Type != config.SinkSlack {
			continue
		}
		n++
		if s.Slack.URLFile == "" || secretDir == "" || !under(s.Slack.URLFile, secretDir) {
			p.add("slack sink %s: url_file %q is not in the mounted Secret %s", s.Name, s.Slack.URLFile, secretDir)
		}
	}
	if n == 0 {
		p.add("no slack sink")
	}
}

// toYAML renders v for failure messages.
func toYAML(v any) string {
	b, err := yaml.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
