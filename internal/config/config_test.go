package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"

	"github.com/logmatch/logmatch/patterns"
)

// fakeEnv is the environment and file system a test loads with.
type fakeEnv struct {
	vars  map[string]string
	files map[string]string
}

func (e fakeEnv) getenv(k string) string { return e.vars[k] }

func (e fakeEnv) readFile(name string) ([]byte, error) {
	v, ok := e.files[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return []byte(v), nil
}

var testEnv = fakeEnv{
	vars: map[string]string{
		"SLACK_URL":   "https://hooks.slack.com/services/T000/B000/envtoken",
		"HOOK_SECRET": "  env-hmac-key\n",
		"EMPTY":       "",
		"STATE":       "/data",
		"LINE_BYTES":  "4096",
	},
	files: map[string]string{
		"/run/secrets/slack": "https://hooks.slack.com/services/T000/B000/filetoken\n",
		"/run/secrets/hmac":  "file-hmac-key\n",
		"/run/secrets/empty": " \n",
	},
}

func load(t *testing.T, yaml string) (*Config, error) {
	t.Helper()
	return Load("logmatch.yaml", []byte(yaml), testEnv.getenv, testEnv.readFile)
}

// defaultSink is a sink of type typ with every default filled in.
func defaultSink(typ string) Sink {
	s := Sink{
		Type:        typ,
		Name:        typ,
		MinSeverity: patterns.SeverityInfo,
		Queue:       Queue{MaxItems: DefaultQueueMaxItems, MaxAge: Duration(DefaultQueueMaxAge)},
		Retry: Retry{
			MaxAttempts:    DefaultMaxAttempts,
			InitialBackoff: Duration(DefaultInitialBackoff),
			MaxBackoff:     Duration(DefaultMaxBackoff),
		},
	}
	n := newSink(typ)
	s.Slack, s.Webhook, s.Alertmanager, s.OTel = n.Slack, n.Webhook, n.Alertmanager, n.OTel
	switch typ {
	case SinkSlack:
		s.MinSeverity = patterns.SeverityError
		s.Slack.MinSeverity = "error"
	case SinkWebhook:
		s.Webhook.MinSeverity = "info"
	case SinkAlertmanager:
		s.Alertmanager.MinSeverity = "info"
	}
	return s
}

// loaded is what an empty file loads to, changed by edit.
func loaded(edit func(c *Config)) *Config {
	c := Default()
	c.Paths = []string{"-"}
	c.Sinks = []Sink{defaultSink(SinkStdout)}
	if edit != nil {
		edit(c)
	}
	if c.HTTPAddr == DefaultHTTPAddr && (len(c.Command) > 0 || slices.Equal(c.Paths, []string{"-"})) {
		c.HTTPAddr = "" // standard input or a wrapped command: no listener by default
	}
	return c
}

func TestLoadKeys(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want *Config
	}{
		{name: "empty file", yaml: "", want: loaded(nil)},
		{name: "comments only", yaml: "# nothing\n", want: loaded(nil)},
		{
			name: "paths",
			yaml: "paths: [/var/log/sglang/*.log, '-']\n",
			want: loaded(func(c *Config) { c.Paths = []string{"/var/log/sglang/*.log", "-"} }),
		},
		{name: "format", yaml: "format: cri\n", want: loaded(func(c *Config) { c.Format = "cri" })},
		{name: "start_at", yaml: "start_at: end\n", want: loaded(func(c *Config) { c.StartAt = "end" })},
		{
			name: "on_fatal",
			yaml: "on_fatal: terminate\ncommand: [python3, -m, sglang.launch_server]\n",
			want: loaded(func(c *Config) {
				c.OnFatal = OnFatalTerminate
				c.Command = []string{"python3", "-m", "sglang.launch_server"}
				c.Paths = nil // the command's output is read, not standard input
			}),
		},
		{
			name: "catalogs without the default",
			yaml: "catalogs: [/etc/logmatch/catalog.jsonl]\nno_default_catalog: true\n",
			want: loaded(func(c *Config) {
				c.Catalogs = []string{"/etc/logmatch/catalog.jsonl"}
				c.NoDefaultCatalog = true
			}),
		},
		{name: "state_dir", yaml: "state_dir: /data/state\n", want: loaded(func(c *Config) { c.StateDir = "/data/state" })},
		{
			name: "group_window off and repeat_interval",
			yaml: "group_window: 0\nrepeat_interval: 1h30m\n",
			want: loaded(func(c *Config) {
				c.GroupWindow = 0
				c.RepeatInterval = Duration(90 * time.Minute)
			}),
		},
		{
			name: "settle_time and correlation_window",
			yaml: "settle_time: 0\ncorrelation_window: 11m\n",
			want: loaded(func(c *Config) {
				c.SettleTime = 0
				c.CorrelationWindow = Duration(11 * time.Minute)
			}),
		},
		{name: "http_addr off", yaml: "http_addr: ''\n", want: loaded(func(c *Config) { c.HTTPAddr = "" })},
		{name: "http_addr", yaml: "http_addr: 127.0.0.1:9000\n", want: loaded(func(c *Config) { c.HTTPAddr = "127.0.0.1:9000" })},
		{
			name: "logging",
			yaml: "log_level: debug\nlog_format: json\n",
			want: loaded(func(c *Config) { c.LogLevel, c.LogFormat = "debug", "json" }),
		},
		{
			name: "shutdown_grace",
			yaml: "shutdown_grace: 30s\n",
			want: loaded(func(c *Config) { c.ShutdownGrace = Duration(30 * time.Second) }),
		},
		{
			name: "entry",
			yaml: "entry:\n  max_lines: 50\n  max_bytes: 4096\n  idle_flush: 500ms\n",
			want: loaded(func(c *Config) {
				c.Entry = Entry{MaxLines: 50, MaxBytes: 4096, IdleFlush: Duration(500 * time.Millisecond)}
			}),
		},
		{
			name: "entry keeps unset keys",
			yaml: "entry:\n  max_lines: 50\n",
			want: loaded(func(c *Config) { c.Entry.MaxLines = 50 }),
		},
		{
			name: "line bound and polling",
			yaml: "max_line_bytes: 2048\npoll_interval: 1s\n",
			want: loaded(func(c *Config) {
				c.MaxLineBytes = 2048
				c.PollInterval = Duration(time.Second)
			}),
		},
		{
			name: "tailer watch, bounds and symlink roots",
			yaml: "watch: false\nrescan_interval: 7s\nmax_open_files: 1000\nsymlink_roots: [/var/log/pods, /data/logs]\n",
			want: loaded(func(c *Config) {
				c.Watch = false
				c.RescanInterval = Duration(7 * time.Second)
				c.MaxOpenFiles = 1000
				c.SymlinkRoots = []string{"/var/log/pods", "/data/logs"}
			}),
		},
		{
			name: "incident bound",
			yaml: "max_open_incidents: 500\n",
			want: loaded(func(c *Config) { c.MaxOpenIncidents = 500 }),
		},
		{
			name: "queue and retry defaults reach every sink",
			yaml: "queue:\n  max_items: 50\n  max_age: 1h\nretry:\n  max_attempts: 3\n  initial_backoff: 2s\n  max_backoff: 1m\n",
			want: loaded(func(c *Config) {
				c.Queue = Queue{MaxItems: 50, MaxAge: Duration(time.Hour)}
				c.Retry = Retry{MaxAttempts: 3, InitialBackoff: Duration(2 * time.Second), MaxBackoff: Duration(time.Minute)}
				c.Sinks[0].Queue, c.Sinks[0].Retry = c.Queue, c.Retry
			}),
		},
		{
			name: "redact",
			yaml: "redact:\n  builtin: false\n  patterns: ['hf_[A-Za-z0-9]{30,}']\n",
			want: loaded(func(c *Config) {
				c.Redact = Redact{Builtin: false, Patterns: []string{"hf_[A-Za-z0-9]{30,}"}}
			}),
		},
		{
			name: "command replaces stdin",
			yaml: "command: [python3, -m, sglang.launch_server]\n",
			want: loaded(func(c *Config) {
				c.Command = []string{"python3", "-m", "sglang.launch_server"}
				c.Paths = nil
			}),
		},
		{
			name: "stdout sink",
			yaml: "sinks:\n  - type: stdout\n    name: out\n    min_severity: WARN\n",
			want: loaded(func(c *Config) {
				c.Sinks[0].Name = "out"
				c.Sinks[0].MinSeverity = patterns.SeverityWarning
			}),
		},
		{
			name: "slack sink, every key",
			yaml: `sinks:
  - type: slack
    name: team-slack
    min_severity: critical
    url: https://hooks.slack.com/services/T000/B000/inline
    digest_threshold: 0
    username: logmatch
    channel: "#alerts"
    icon_emoji: ":rotating_light:"
    timeout: 3s
    queue:
      max_items: 10
    retry:
      max_attempts: 5
`,
			want: loaded(func(c *Config) {
				s := defaultSink(SinkSlack)
				s.Name = "team-slack"
				s.MinSeverity = patterns.SeverityCritical
				s.Slack.MinSeverity = "critical"
				s.Slack.URL = "https://hooks.slack.com/services/T000/B000/inline"
				s.Slack.DigestThreshold = 0
				s.Slack.Username, s.Slack.Channel = "logmatch", "#alerts"
				s.Slack.IconEmoji = ":rotating_light:"
				s.Slack.Timeout = 3 * time.Second
				s.Queue.MaxItems = 10
				s.Retry.MaxAttempts = 5
				c.Sinks = []Sink{s}
			}),
		},
		{
			name: "slack url from file, digest threshold 1",
			yaml: "sinks:\n  - type: slack\n    url_file: /run/secrets/slack\n    digest_threshold: 1\n",
			want: loaded(func(c *Config) {
				s := defaultSink(SinkSlack)
				s.Slack.URLFile = "/run/secrets/slack"
				s.Slack.DigestThreshold = 1
				c.Sinks = []Sink{s}
			}),
		},
		{
			name: "webhook, every key, secrets from env and file",
			yaml: `sinks:
  - type: webhook
    url_env: SLACK_URL
    secret_env: HOOK_SECRET
    headers:
      X-Team: inference
    timeout: 1s
  - type: webhook
    name: signed
    url: http://127.0.0.1:8080/hook
    secret_file: /run/secrets/hmac
  - type: webhook
    name: inline
    url: http://127.0.0.1:8080/hook
    secret: inline-key
`,
			want: loaded(func(c *Config) {
				a := defaultSink(SinkWebhook)
				a.Webhook.URLEnv = "SLACK_URL"
				a.Webhook.SecretEnv = "HOOK_SECRET"
				a.Webhook.Headers = map[string]string{"X-Team": "inference"}
				a.Webhook.Timeout = time.Second
				b := defaultSink(SinkWebhook)
				b.Name, b.Webhook.URL = "signed", "http://127.0.0.1:8080/hook"
				b.Webhook.SecretFile = "/run/secrets/hmac"
				i := defaultSink(SinkWebhook)
				i.Name, i.Webhook.URL, i.Webhook.Secret = "inline", "http://127.0.0.1:8080/hook", "inline-key"
				c.Sinks = []Sink{a, b, i}
			}),
		},
		{
			name: "alertmanager, every key",
			yaml: `sinks:
  - type: alertmanager
    url: http://127.0.0.1:9093
    resolve_timeout: 10m
    bearer_token: abc
    labels: {cluster: eu-1}
    generator_url: https://logs.example.com/
`,
			want: loaded(func(c *Config) {
				s := defaultSink(SinkAlertmanager)
				s.Alertmanager.URL = "http://127.0.0.1:9093"
				s.Alertmanager.ResolveTimeout = 10 * time.Minute
				s.Alertmanager.BearerToken = "abc"
				s.Alertmanager.Labels = map[string]string{"cluster": "eu-1"}
				s.Alertmanager.GeneratorURL = "https://logs.example.com/"
				c.Sinks = []Sink{s}
			}),
		},
		{
			name: "alertmanager resolve_timeout follows a long group window",
			yaml: "group_window: 10m\nsinks:\n  - type: alertmanager\n    url: http://127.0.0.1:9093\n",
			want: loaded(func(c *Config) {
				c.GroupWindow = Duration(10 * time.Minute)
				s := defaultSink(SinkAlertmanager)
				s.Alertmanager.URL = "http://127.0.0.1:9093"
				s.Alertmanager.ResolveTimeout = 30 * time.Minute
				c.Sinks = []Sink{s}
			}),
		},
		{
			name: "otel, every key",
			yaml: `sinks:
  - type: otel
    endpoint: http://collector:4317
    protocol: grpc
    insecure: true
    headers: {api-key: k}
  - type: otel
    name: otel-env
`,
			want: loaded(func(c *Config) {
				s := defaultSink(SinkOTel)
				s.OTel.Endpoint, s.OTel.Protocol, s.OTel.Insecure = "http://collector:4317", "grpc", true
				s.OTel.Headers = map[string]string{"api-key": "k"}
				e := defaultSink(SinkOTel)
				e.Name = "otel-env"
				c.Sinks = []Sink{s, e}
			}),
		},
		{
			name: "environment references",
			yaml: "state_dir: ${STATE}/lm\nmax_line_bytes: ${LINE_BYTES}\nredact:\n  patterns: ['cost=\\$$\\d+$', 'x${env:STATE}']\n",
			want: loaded(func(c *Config) {
				c.StateDir = "/data/lm"
				c.MaxLineBytes = 4096
				c.Redact.Patterns = []string{`cost=\$\d+$`, "x/data"}
			}),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := load(t, tc.yaml)
			if err != nil {
				t.Fatalf("Load() error:\n%v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Load() (-want +got):\n%s", diff)
			}
		})
	}
}

func TestKubernetesFromEnv(t *testing.T) {
	env := fakeEnv{vars: map[string]string{
		"LOGMATCH_POD_NAME": "sglang-0", "LOGMATCH_POD_NAMESPACE": "inference", "LOGMATCH_NODE_NAME": "gpu-7", "LOGMATCH_CONTAINER_NAME": "sglang",
	}}
	cfg, err := Load("logmatch.yaml", nil, env.getenv, env.readFile)
	if err != nil {
		t.Fatal(err)
	}
	want := Kubernetes{Pod: "sglang-0", Namespace: "inference", Node: "gpu-7", Container: "sglang"}
	if diff := cmp.Diff(want, cfg.Kubernetes); diff != "" {
		t.Errorf("Kubernetes (-want +got):\n%s", diff)
	}
}

// TestKubernetesNotFromGenericEnv: the unprefixed names a shell or
// another tool may set are not logmatch's.
func TestKubernetesNotFromGenericEnv(t *testing.T) {
	env := fakeEnv{vars: map[string]string{
		"POD_NAME": "other-pod", "POD_NAMESPACE": "other", "NODE_NAME": "laptop", "CONTAINER_NAME": "shell",
	}}
	cfg, err := Load("logmatch.yaml", nil, env.getenv, env.readFile)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Kubernetes != (Kubernetes{}) {
		t.Errorf("Kubernetes from generic variables: %+v", cfg.Kubernetes)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want string // the whole joined error
	}{
		{
			name: "unknown keys, all of them",
			yaml: "pathz: [a]\nentry:\n  max_line: 3\nsinks:\n  - type: slack\n    url: https://h/x\n    chanel: '#a'\n",
			want: "logmatch.yaml:1: pathz: unknown key (did you mean paths?)\n" +
				"logmatch.yaml:3: entry.max_line: unknown key (did you mean max_lines?)\n" +
				"logmatch.yaml:7: sinks[0].chanel: unknown key (did you mean channel?)",
		},
		{
			name: "problems read top to bottom, a sink's among the others",
			yaml: "sinks:\n  - type: stdout\n    nme: x\ngroup_windw: 5m\n",
			want: "logmatch.yaml:3: sinks[0].nme: unknown key (a stdout sink has only type, name, min_severity, queue and retry)\n" +
				"logmatch.yaml:4: group_windw: unknown key (did you mean group_window?)",
		},
		{
			name: "wrong types",
			yaml: "entry:\n  max_lines: many\nno_default_catalog: perhaps\npaths: /var/log\n",
			want: "logmatch.yaml:2: entry.max_lines: cannot unmarshal !!str `many` into int\n" +
				"logmatch.yaml:3: no_default_catalog: cannot unmarshal !!str `perhaps` into bool\n" +
				"logmatch.yaml:4: paths: cannot unmarshal !!str `/var/log` into []string",
		},
		{
			name: "bad durations",
			yaml: "group_window: 5\nrepeat_interval: [4h]\n",
			want: `logmatch.yaml:1: group_window: invalid duration "5" (want a duration such as 30s, 5m or 4h)` + "\n" +
				"logmatch.yaml:2: repeat_interval: want a duration such as 30s, 5m or 4h",
		},
		{
			name: "severity, as in the issue",
			yaml: "sinks:\n  - type: stdout\n  - type: webhook\n    name: hook\n    url: http://127.0.0.1/x\n\n\n\n\n\n\n    min_severity: fatal\n",
			want: `logmatch.yaml:12: sinks[1].min_severity: unknown severity "fatal" (want info, warning, error or critical)`,
		},
		{
			name: "enumerations",
			yaml: "format: json\nstart_at: middle\nlog_level: trace\nlog_format: xml\n",
			want: `logmatch.yaml:1: format: unknown value "json" (want auto, raw, cri or docker)` + "\n" +
				`logmatch.yaml:2: start_at: unknown value "middle" (want beginning or end)` + "\n" +
				`logmatch.yaml:3: log_level: unknown value "trace" (want debug, info, warn or error)` + "\n" +
				`logmatch.yaml:4: log_format: unknown value "xml" (want text or json)`,
		},
		{
			name: "bounds and durations",
			yaml: "group_window: -1m\nshutdown_grace: 0\nentry:\n  max_lines: 0\n  max_bytes: 100\n  idle_flush: 0s\nmax_line_bytes: 10\npoll_interval: 0\n",
			want: "logmatch.yaml:1: group_window: must not be negative\n" +
				"logmatch.yaml:2: shutdown_grace: must be more than 0\n" +
				"logmatch.yaml:4: entry.max_lines: must be at least 1, got 0\n" +
				"logmatch.yaml:5: entry.max_bytes: must be at least 1024, got 100\n" +
				"logmatch.yaml:6: entry.idle_flush: must be more than 0\n" +
				"logmatch.yaml:7: max_line_bytes: must be at least 1024, got 10\n" +
				"logmatch.yaml:8: poll_interval: must be more than 0",
		},
		{
			name: "tailer bounds",
			yaml: "rescan_interval: 0s\nmax_open_files: 0\nsymlink_roots: [logs]\n",
			want: "logmatch.yaml:1: rescan_interval: must be more than 0\n" +
				"logmatch.yaml:2: max_open_files: must be at least 1, got 0\n" +
				`logmatch.yaml:3: symlink_roots[0]: want an absolute directory, got "logs"`,
		},
		{
			name: "incident bound",
			yaml: "max_open_incidents: 0\n",
			want: "logmatch.yaml:1: max_open_incidents: must be at least 1, got 0",
		},
		{
			name: "negative settle and correlation",
			yaml: "settle_time: -1s\ncorrelation_window: -1m\n",
			want: "logmatch.yaml:1: settle_time: must not be negative\n" +
				"logmatch.yaml:2: correlation_window: must not be negative",
		},
		{
			name: "repeat shorter than window",
			yaml: "group_window: 10m\nrepeat_interval: 5m\n",
			want: "logmatch.yaml:2: repeat_interval: 5m is shorter than group_window 10m",
		},
		{
			name: "http_addr",
			yaml: "http_addr: localhost\n",
			want: `logmatch.yaml:1: http_addr: want host:port or :port, got "localhost"`,
		},
		{
			name: "http_addr port",
			yaml: "http_addr: ':http'\n",
			want: `logmatch.yaml:1: http_addr: bad port "http"`,
		},
		{
			name: "queue and retry",
			yaml: "queue:\n  max_items: 0\n  max_age: 0s\nretry:\n  max_attempts: -1\n  initial_backoff: 1m\n  max_backoff: 1s\n",
			want: "logmatch.yaml:2: queue.max_items: must be at least 1, got 0\n" +
				"logmatch.yaml:3: queue.max_age: must be more than 0\n" +
				"logmatch.yaml:5: retry.max_attempts: must be at least 0, got -1\n" +
				"logmatch.yaml:7: retry.max_backoff: 1s is shorter than initial_backoff 1m",
		},
		{
			name: "sink queue and retry",
			yaml: "sinks:\n  - type: stdout\n    queue:\n      max_age: -1s\n    retry:\n      initial_backoff: 0s\n",
			want: "logmatch.yaml:4: sinks[0].queue.max_age: must be more than 0\n" +
				"logmatch.yaml:6: sinks[0].retry.initial_backoff: must be more than 0",
		},
		{
			name: "catalogs",
			yaml: "no_default_catalog: true\n",
			want: "logmatch.yaml:1: no_default_catalog: no catalog left: give catalogs (or --catalog) or keep the built-in one",
		},
		{
			name: "paths",
			yaml: "paths: ['', '/var/log/[a.log']\ncatalogs: ['']\n",
			want: "logmatch.yaml:1: paths[0]: empty path\n" +
				`logmatch.yaml:1: paths[1]: bad glob "/var/log/[a.log": syntax error in pattern` + "\n" +
				"logmatch.yaml:2: catalogs[0]: empty path",
		},
		{
			name: "state_dir and command",
			yaml: "state_dir: ''\ncommand: ['', x]\n",
			want: "logmatch.yaml:1: state_dir: must not be empty\n" +
				"logmatch.yaml:2: command: empty program name",
		},
		{
			name: "redact pattern",
			yaml: "redact:\n  patterns: ['(unclosed', 'a*', 'token=(?P<secret>\\S+)']\n",
			want: "logmatch.yaml:2: redact.patterns[0]: error parsing regexp: missing closing ): `(unclosed`\n" +
				"logmatch.yaml:2: redact.patterns[1]: matches the empty string",
		},
		{
			name: "no sinks",
			yaml: "sinks: []\n",
			want: "logmatch.yaml:1: sinks: no sinks: list at least one, or remove the key for the default stdout sink",
		},
		{
			name: "null sinks",
			yaml: "sinks:\n",
			want: "logmatch.yaml:1: sinks: no sinks: list at least one, or remove the key for the default stdout sink",
		},
		{
			name: "sink that is not a mapping, value hidden",
			yaml: "sinks:\n  - https://hooks.slack.com/services/T/B/x\n",
			want: "logmatch.yaml:2: sinks[0]: cannot unmarshal !!str `[redacted]` into Sink",
		},
		{
			name: "sink types",
			yaml: "sinks:\n  - name: x\n  - type: pagerduty\n",
			want: "logmatch.yaml:2: sinks[0].type: missing (want stdout, slack, webhook, alertmanager or otel)\n" +
				`logmatch.yaml:3: sinks[1].type: unknown sink type "pagerduty" (want stdout, slack, webhook, alertmanager or otel)`,
		},
		{
			name: "keys of another sink type",
			yaml: "sinks:\n  - type: webhook\n    url: http://h/x\n    channel: '#a'\n    digest_threshold: 3\n  - type: stdout\n    timeout: 1s\n",
			want: "logmatch.yaml:4: sinks[0].channel: unknown key\n" +
				"logmatch.yaml:5: sinks[0].digest_threshold: unknown key\n" +
				"logmatch.yaml:7: sinks[1].timeout: unknown key (a stdout sink has only type, name, min_severity, queue and retry)",
		},
		{
			name: "names",
			yaml: "sinks:\n  - type: stdout\n  - type: stdout\n  - type: stdout\n    name: 'has space'\n",
			want: `logmatch.yaml:3: sinks[1].name: duplicate sink name "stdout" (also sinks[0]); give each sink its own name (the name key, or --sink NAME:TYPE=URL)` + "\n" +
				`logmatch.yaml:5: sinks[2].name: bad sink name "has space" (letters, digits, '_', '.', '-'; at most 64)`,
		},
		{
			name: "slack url missing",
			yaml: "sinks:\n  - type: slack\n",
			want: "logmatch.yaml:2: sinks[0].url: one of url, url_file or url_env is required",
		},
		{
			name: "slack url twice",
			yaml: "sinks:\n  - type: slack\n    url: https://h/x\n    url_env: SLACK_URL\n",
			want: "logmatch.yaml:3: sinks[0].url: give only one of url, url_file or url_env",
		},
		{
			name: "slack url references",
			yaml: "sinks:\n  - type: slack\n    url_file: /run/secrets/nope\n  - type: slack\n    name: b\n    url_file: /run/secrets/empty\n  - type: slack\n    name: c\n    url_env: EMPTY\n",
			want: "logmatch.yaml:3: sinks[0].url_file: open /run/secrets/nope: file does not exist\n" +
				"logmatch.yaml:6: sinks[1].url_file: /run/secrets/empty is empty\n" +
				"logmatch.yaml:9: sinks[2].url_env: environment variable EMPTY is empty or unset",
		},
		{
			name: "slack digest threshold and icon",
			yaml: "sinks:\n  - type: slack\n    url: https://h/x\n    digest_threshold: -1\n    icon_emoji: siren\n",
			want: "logmatch.yaml:4: sinks[0].digest_threshold: -1 is negative (0 never digests)\n" +
				`logmatch.yaml:5: sinks[0].icon_emoji: "siren" is not an emoji code like :rotating_light:`,
		},
		{
			name: "urls",
			yaml: "sinks:\n  - type: webhook\n    url: ftp://h/x\n  - type: alertmanager\n  - type: slack\n    url: ''\n",
			want: "logmatch.yaml:3: sinks[0].url: not an absolute http or https URL\n" +
				"logmatch.yaml:4: sinks[1].url: required\n" +
				"logmatch.yaml:6: sinks[2].url: one of url, url_file or url_env is required",
		},
		{
			name: "webhook secret twice and headers",
			yaml: "sinks:\n  - type: webhook\n    url: http://h/x\n    secret: a\n    secret_file: /run/secrets/hmac\n    headers:\n      'Bad Header': v\n",
			want: "logmatch.yaml:4: sinks[0].secret: give only one of secret, secret_file or secret_env\n" +
				`logmatch.yaml:6: sinks[0].headers: "Bad Header" is not a valid header name`,
		},
		{
			name: "otel and alertmanager",
			yaml: "sinks:\n  - type: otel\n    protocol: http/json\n    endpoint: collector:4317\n  - type: alertmanager\n    name: am\n    url: http://h\n    resolve_timeout: 5m\n",
			want: `logmatch.yaml:3: sinks[0].protocol: unsupported protocol "http/json" (want "grpc" or "http/protobuf")` + "\n" +
				`logmatch.yaml:4: sinks[0].endpoint: "collector:4317" is not an http:// or https:// URL with a host` + "\n" +
				"logmatch.yaml:8: sinks[1].resolve_timeout: 5m is not above group_window 5m: Alertmanager would resolve an active incident between its updates",
		},
		{
			name: "environment references",
			yaml: "state_dir: ${NOPE}\npaths: ['${bad-name}']\n",
			want: "logmatch.yaml:1: state_dir: environment variable NOPE is unset or empty\n" +
				`logmatch.yaml:2: paths[0]: bad reference "${bad-name}": want ${VAR} or ${env:VAR} (write $$ for a literal $)`,
		},
		{
			name: "syntax error",
			yaml: "paths: [a\nformat: raw\n",
			want: "logmatch.yaml:1: did not find expected ',' or ']'",
		},
		{
			name: "not a mapping",
			yaml: "- a\n- b\n",
			want: "logmatch.yaml:1: want a mapping of settings at the top level",
		},
		{
			name: "accept_tls and accept_labels",
			yaml: "paths: [/a]\naccept: [loki]\naccept_tls_key_file: /k\naccept_tls_client_ca_file: /ca\naccept_labels:\n  pod: [pod, k8s.pod.name]\n  extra: [k8s_pod_name, 'a b']\n",
			want: "logmatch.yaml:3: accept_tls_key_file: the key needs its certificate: set accept_tls_cert_file too\n" +
				"logmatch.yaml:4: accept_tls_client_ca_file: client certificates are verified over TLS: set accept_tls_cert_file and accept_tls_key_file too\n" +
				`logmatch.yaml:7: accept_labels.extra[0]: "k8s_pod_name" is already accept_labels.pod[1]` + "\n" +
				`logmatch.yaml:7: accept_labels.extra[1]: "a b" is not a label name (letters, digits, _ and ., not starting with a digit, at most 128)`,
		},
		{
			name: "two documents",
			yaml: "format: raw\n---\nformat: cri\n",
			want: "logmatch.yaml:2: a second YAML document; the config is one document",
		},
		{
			name: "duplicate key",
			yaml: "format: raw\nformat: cri\n",
			want: `logmatch.yaml:2: format: mapping key "format" already defined at line 1`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := load(t, tc.yaml)
			if err == nil {
				t.Fatalf("Load() = %v, want an error", got)
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("Load() error (-want +got):\n%s", diff)
			}
		})
	}
}

// parseRunArgs builds the configuration from the arguments of `logmatch
// run` the way the binary does: the run flags registered on a flag set,
// the arguments parsed, then Flags.Load.
func parseRunArgs(args []string, getenv func(string) string, readFile func(string) ([]byte, error)) (*Config, error) {
	set := pflag.NewFlagSet("logmatch run", pflag.ContinueOnError)
	set.SetOutput(io.Discard)
	f := RegisterFlags(set)
	if err := set.Parse(args); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return f.Load(getenv, readFile)
}

func TestRunArgs(t *testing.T) {
	file := "paths: [/var/log/a.log]\n" +
		"group_window: 1m\n" +
		"log_level: debug\n" +
		"sinks:\n" +
		"  - type: slack\n" +
		"    url_file: /run/secrets/slack\n" +
		"    channel: '#a'\n"
	env := fakeEnv{vars: testEnv.vars, files: map[string]string{"/etc/logmatch.yaml": file}}
	for k, v := range testEnv.files {
		env.files[k] = v
	}
	fromFile := func(edit func(c *Config)) *Config {
		return loaded(func(c *Config) {
			c.Paths = []string{"/var/log/a.log"}
			c.GroupWindow = Duration(time.Minute)
			c.LogLevel = "debug"
			s := defaultSink(SinkSlack)
			s.Slack.URLFile = "/run/secrets/slack"
			s.Slack.Channel = "#a"
			c.Sinks = []Sink{s}
			if edit != nil {
				edit(c)
			}
		})
	}
	tests := []struct {
		name string
		args []string
		want *Config
	}{
		{name: "file only", args: []string{"--config", "/etc/logmatch.yaml"}, want: fromFile(nil)},
		{name: "no file, no flags", args: nil, want: loaded(nil)},
		{
			name: "flags override keys",
			args: []string{
				"--config", "/etc/logmatch.yaml", "--group-window", "0", "--repeat-interval", "2h",
				"--log-level", "warn", "--log-format", "json", "--http-addr", "", "--state-dir", "/s",
				"--start-at", "end", "--format", "docker", "--settle-time", "0", "--correlation-window", "20m",
			},
			want: fromFile(func(c *Config) {
				c.GroupWindow, c.RepeatInterval = 0, Duration(2*time.Hour)
				c.SettleTime, c.CorrelationWindow = 0, Duration(20*time.Minute)
				c.LogLevel, c.LogFormat, c.HTTPAddr, c.StateDir = "warn", "json", "", "/s"
				c.StartAt, c.Format = "end", "docker"
			}),
		},
		{
			name: "repeatable flags replace lists",
			args: []string{
				"--config", "/etc/logmatch.yaml", "--path", "/x/*.log", "--path", "-",
				"--catalog", "/c1", "--catalog", "/c2", "--no-default-catalog",
			},
			want: fromFile(func(c *Config) {
				c.Paths = []string{"/x/*.log", "-"}
				c.Catalogs = []string{"/c1", "/c2"}
				c.NoDefaultCatalog = true
			}),
		},
		{
			name: "sink flags replace the file's sinks",
			args: []string{
				"--config", "/etc/logmatch.yaml", "--sink", "stdout", "--sink", "webhook=http://127.0.0.1:1/h",
				"--sink", "alertmanager=http://127.0.0.1:9093", "--sink", "otel=http://collector:4318",
			},
			want: fromFile(func(c *Config) {
				w := defaultSink(SinkWebhook)
				w.Webhook.URL = "http://127.0.0.1:1/h"
				a := defaultSink(SinkAlertmanager)
				a.Alertmanager.URL = "http://127.0.0.1:9093"
				o := defaultSink(SinkOTel)
				o.OTel.Endpoint = "http://collector:4318"
				o.OTel.Protocol = "http/protobuf"
				c.Sinks = []Sink{defaultSink(SinkStdout), w, a, o}
			}),
		},
		{
			name: "named sinks: two webhooks, and the otel scheme picks the protocol",
			args: []string{
				"--sink", "ops:webhook=http://127.0.0.1:1/ops", "--sink", "ml-team:webhook=http://127.0.0.1:1/ml",
				"--sink", "otel=grpc://collector:4317", "--sink", "tls:otel=grpcs://collector.example:443",
				"--sink", "http:otel=https://collector.example/otlp",
			},
			want: loaded(func(c *Config) {
				w1 := defaultSink(SinkWebhook)
				w1.Name, w1.Webhook.URL = "ops", "http://127.0.0.1:1/ops"
				w2 := defaultSink(SinkWebhook)
				w2.Name, w2.Webhook.URL = "ml-team", "http://127.0.0.1:1/ml"
				g := defaultSink(SinkOTel)
				g.OTel.Endpoint, g.OTel.Protocol = "http://collector:4317", "grpc"
				gs := defaultSink(SinkOTel)
				gs.Name, gs.OTel.Endpoint, gs.OTel.Protocol = "tls", "https://collector.example:443", "grpc"
				h := defaultSink(SinkOTel)
				h.Name, h.OTel.Endpoint, h.OTel.Protocol = "http", "https://collector.example/otlp", "http/protobuf"
				c.Sinks = []Sink{w1, w2, g, gs, h}
			}),
		},
		{
			name: "slack and bare otel specs",
			args: []string{"--sink", "slack=https://hooks.slack.com/services/x", "--sink", "otel"},
			want: loaded(func(c *Config) {
				s := defaultSink(SinkSlack)
				s.Slack.URL = "https://hooks.slack.com/services/x"
				c.Sinks = []Sink{s, defaultSink(SinkOTel)}
			}),
		},
		{
			name: "flags after the command's place, in any order",
			args: []string{"--sink", "stdout", "--config", "/etc/logmatch.yaml", "--no-default-catalog", "--catalog", "/c1"},
			want: fromFile(func(c *Config) {
				c.Sinks = []Sink{defaultSink(SinkStdout)}
				c.Catalogs, c.NoDefaultCatalog = []string{"/c1"}, true
			}),
		},
		{
			name: "command after --",
			args: []string{"--config", "/etc/logmatch.yaml", "--", "python3", "-m", "sglang.launch_server", "--port", "30000"},
			want: fromFile(func(c *Config) {
				c.Command = []string{"python3", "-m", "sglang.launch_server", "--port", "30000"}
			}),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseRunArgs(tc.args, env.getenv, env.readFile)
			if err != nil {
				t.Fatalf("run flags: error:\n%v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("run flags: (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRunArgsErrors(t *testing.T) {
	env := fakeEnv{vars: testEnv.vars, files: map[string]string{
		"bad.yaml": "format: raw\nstart_at: never\nsinks:\n  - type: slack\n    url: https://h/x\n",
	}}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{
			name: "flag values",
			args: []string{"--group-window", "5", "--repeat-interval", "x", "--log-level", "loud", "--format", "json", "--http-addr", "nohost"},
			want: `--group-window: invalid duration "5" (want a duration such as 30s, 5m or 4h)` + "\n" +
				`--repeat-interval: invalid duration "x" (want a duration such as 30s, 5m or 4h)` + "\n" +
				`--format: unknown value "json" (want auto, raw, cri or docker)` + "\n" +
				`--http-addr: want host:port or :port, got "nohost"` + "\n" +
				`--log-level: unknown value "loud" (want debug, info, warn or error)`,
		},
		{
			name: "file and flag problems together",
			args: []string{"--config", "bad.yaml", "--log-format", "xml"},
			want: `bad.yaml:2: start_at: unknown value "never" (want beginning or end)` + "\n" +
				`--log-format: unknown value "xml" (want text or json)`,
		},
		{
			name: "on-fatal",
			args: []string{"--on-fatal", "kill", "--", "python3"},
			want: `--on-fatal: unknown value "kill" (want none or terminate)`,
		},
		{
			name: "on-fatal terminate without a command",
			args: []string{"--on-fatal", "terminate", "--path", "/var/log/x.log"},
			want: "--on-fatal: terminate needs a wrapped command (after --)",
		},
		{
			name: "a flag fixes the file",
			args: []string{"--config", "bad.yaml", "--start-at", "later"},
			want: `--start-at: unknown value "later" (want beginning or end)`,
		},
		{
			name: "missing config file",
			args: []string{"--config", "nope.yaml", "--format", "raw"},
			want: "--config: open nope.yaml: file does not exist",
		},
		{
			name: "sink specs",
			args: []string{
				"--sink", "stdout=x", "--sink", "slack", "--sink", "pagerduty=k", "--sink", "otel=",
				"--sink", "webhook=ftp://h/x", "--sink", "webhook=http://h/y",
			},
			want: "--sink stdout: takes no value\n" +
				"--sink slack: want slack=URL\n" +
				`--sink: unknown sink type "pagerduty" (want stdout, slack, webhook, alertmanager or otel)` + "\n" +
				"--sink otel: empty endpoint after =\n" +
				"--sink webhook: url: not an absolute http or https URL\n" +
				`--sink webhook: name: duplicate sink name "webhook" (also sinks[0]); give each sink its own name (the name key, or --sink NAME:TYPE=URL)`,
		},
		{
			name: "named sink and otel endpoint specs",
			args: []string{
				"--sink", "otel=http://collector:4317", "--sink", "otel=grpc://collector:4318", "--sink", "otel=ftp://collector:21",
				"--sink", "otel=collector:4317", "--sink", "bad name:webhook=http://h/x", "--sink", "ops:pagerduty=k",
				"--sink", "https://hooks.slack.com/services/T/B/secret",
			},
			want: "--sink otel: http:// on port 4317, OTLP/gRPC's port: write grpc://collector:4317 for OTLP/gRPC, or the HTTP port (4318)\n" +
				"--sink otel: grpc:// on port 4318, OTLP/HTTP's port: write http://collector:4318 for OTLP/HTTP, or the gRPC port (4317)\n" +
				`--sink otel: scheme "ftp": want grpc, grpcs, http or https (the scheme picks OTLP/gRPC or OTLP/HTTP)` + "\n" +
				"--sink otel: want grpc://HOST:PORT, grpcs://HOST:PORT, http://HOST:PORT or https://HOST:PORT (the scheme picks OTLP/gRPC or OTLP/HTTP)\n" +
				`--sink webhook: bad sink name "bad name" before the type (letters, digits, '_', '.', '-'; at most 64)` + "\n" +
				`--sink: unknown sink type "pagerduty" (want stdout, slack, webhook, alertmanager or otel)` + "\n" +
				"--sink: want [NAME:]TYPE or [NAME:]TYPE=VALUE with TYPE stdout, slack, webhook, alertmanager or otel (a URL goes after the =, as in slack=URL)",
		},
		{
			name: "unknown flag",
			args: []string{"--colour"},
			want: "config: unknown flag: --colour",
		},
		{
			name: "an argument before --",
			args: []string{"server.log", "--", "python3"},
			want: `unexpected argument "server.log": a command to wrap goes after --`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseRunArgs(tc.args, env.getenv, env.readFile)
			if err == nil {
				t.Fatalf("run flags: = %v, want an error", got)
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("run flags: error (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDurationString(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{5 * time.Minute, "5m"},
		{4 * time.Hour, "4h"},
		{90 * time.Minute, "1h30m"},
		{2*time.Hour + 30*time.Second, "2h0m30s"},
		{250 * time.Millisecond, "250ms"},
	}
	for _, tc := range tests {
		if got := Duration(tc.d).String(); got != tc.want {
			t.Errorf("Duration(%v).String() = %q, want %q", tc.d, got, tc.want)
		}
		if d, err := parseDuration(Duration(tc.d).String()); err != nil || d != tc.d {
			t.Errorf("parseDuration(%q) = %v, %v; want %v", Duration(tc.d).String(), d, err, tc.d)
		}
	}
}

// Check returns what loaded besides every problem, and says which
// settings to trust: validate checks the catalogs, globs and command of a
// configuration that has problems elsewhere.
func TestCheckSaysWhatLoaded(t *testing.T) {
	env := fakeEnv{vars: map[string]string{"DIR": "/etc/lm"}, files: map[string]string{
		"syntax.yaml":  "catalogs: [a.jsonl\nstate_dir: /x\n",
		"list.yaml":    "catalogs: [a.jsonl]\nstate_dir: /var/lm\npaths: [/logs/*.log]\n",
		"typo.yaml":    "catalogs: ['${DIR}/a.jsonl']\ngroup_windw: 5m\nstate_dir: /var/lm\n",
		"badcat.yaml":  "catalogs: {a: 1}\nstate_dir: /var/lm\n",
		"unset.yaml":   "catalogs: ['${NOPE}/a.jsonl']\npaths: ['/logs/*.log']\n",
		"scalar.yaml":  "just words\n",
		"badsink.yaml": "catalogs: [a.jsonl]\nsinks:\n  - type: slack\n    chanel: '#a'\n",
	}}
	tests := []struct {
		name         string
		args         []string
		loaded       []string
		notLoaded    []string
		catalogs     []string
		wantProblems int
	}{
		{"clean", []string{"--config", "list.yaml"}, []string{"catalogs", "paths", "state_dir"}, nil, []string{"a.jsonl"}, 0},
		{"a file that does not parse", []string{"--config", "syntax.yaml"}, nil, []string{"catalogs", "paths", "state_dir"}, nil, 1},
		{"a file that does not parse, catalogs by flag", []string{"--config", "syntax.yaml", "--catalog", "b.jsonl"}, []string{"catalogs"}, []string{"state_dir"}, []string{"b.jsonl"}, 1},
		{"a file that is not a mapping", []string{"--config", "scalar.yaml"}, nil, []string{"catalogs"}, nil, 1},
		{"a missing file", []string{"--config", "none.yaml"}, nil, []string{"catalogs"}, nil, 1},
		{"a missing file, catalogs by flag", []string{"--config", "none.yaml", "--catalog", "b.jsonl"}, []string{"catalogs"}, nil, []string{"b.jsonl"}, 1},
		{"an unknown key elsewhere", []string{"--config", "typo.yaml"}, []string{"catalogs", "state_dir"}, []string{"group_windw"}, []string{"/etc/lm/a.jsonl"}, 1},
		{"catalogs of the wrong type", []string{"--config", "badcat.yaml"}, []string{"state_dir", "paths"}, []string{"catalogs"}, nil, 1},
		{"an unset variable in a catalog", []string{"--config", "unset.yaml"}, []string{"paths"}, []string{"catalogs"}, nil, 1},
		{"a bad sink", []string{"--config", "badsink.yaml"}, []string{"catalogs"}, []string{"sinks"}, []string{"a.jsonl"}, 2},
		{"a bad flag", []string{"--group-window", "soon", "--catalog", "b.jsonl"}, []string{"catalogs"}, []string{"group_window"}, []string{"b.jsonl"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := pflag.NewFlagSet("validate", pflag.ContinueOnError)
			f := RegisterFlags(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			c := f.Check(env.getenv, env.readFile)
			if len(c.Problems) != tc.wantProblems {
				t.Errorf("%d problems, want %d: %v", len(c.Problems), tc.wantProblems, c.Problems)
			}
			for _, k := range tc.loaded {
				if !c.Loaded(k) {
					t.Errorf("Loaded(%q) = false, want true (problems %v)", k, c.Problems)
				}
			}
			for _, k := range tc.notLoaded {
				if c.Loaded(k) {
					t.Errorf("Loaded(%q) = true, want false (problems %v)", k, c.Problems)
				}
			}
			if c.Loaded("catalogs") {
				if diff := cmp.Diff(tc.catalogs, c.Config.Catalogs); diff != "" {
					t.Errorf("catalogs (-want +got):\n%s", diff)
				}
			}
			_, err := f.Load(env.getenv, env.readFile)
			if (err != nil) != (tc.wantProblems > 0) || err != nil && err.Error() != errors.Join(c.Problems...).Error() {
				t.Errorf("Load error %v, want the problems of Check %v", err, c.Problems)
			}
		})
	}
}

// TestFlagsFromEnv: each flag has a LOGMATCH_ variable; the flag wins
// over it, it wins over the file, a list takes commas, and a problem
// names the variable it came from.
// TestHTTPListenerByMode: files get the default listener; standard input
// and a wrapped command none unless one is asked for, so a second
// pipeline plugin on a machine does not find the port taken.
func TestHTTPListenerByMode(t *testing.T) {
	env := fakeEnv{files: map[string]string{"/etc/a.yaml": "http_addr: \":9500\"\n"}}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--path", "/var/log/*.log"}, DefaultHTTPAddr},
		{[]string{"--path", "-"}, ""},
		{nil, ""},
		{[]string{"--", "python3", "-m", "sglang.launch_server"}, ""},
		{[]string{"--path", "-", "--http-addr", ":9600"}, ":9600"},
		{[]string{"--config", "/etc/a.yaml", "--", "python3"}, ":9500"},
	} {
		c, err := parseRunArgs(tc.args, env.getenv, env.readFile)
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if c.HTTPAddr != tc.want {
			t.Errorf("%q: http_addr %q, want %q", tc.args, c.HTTPAddr, tc.want)
		}
	}
}

func TestFlagsFromEnv(t *testing.T) {
	files := map[string]string{"/etc/logmatch.yaml": "paths: [/file/*.log]\nstate_dir: /file/state\ngroup_window: 1m\n"}
	tests := []struct {
		name    string
		args    []string
		vars    map[string]string
		check   func(t *testing.T, c *Config)
		wantErr string
	}{
		{
			name: "variables fill what the flags leave",
			args: []string{"--config", "/etc/logmatch.yaml", "--state-dir", "/flag/state"},
			vars: map[string]string{
				"LOGMATCH_STATE_DIR": "/env/state", "LOGMATCH_PATH": "/a/*.log, /b/*.log", "LOGMATCH_GROUP_WINDOW": "30s",
				"LOGMATCH_NO_DEFAULT_CATALOG": "true", "LOGMATCH_CATALOG": "/c1,/c2", "LOGMATCH_SINK": "ops:webhook=http://127.0.0.1:1/a,otel=grpc://c:4317",
			},
			check: func(t *testing.T, c *Config) {
				if c.StateDir != "/flag/state" {
					t.Errorf("state_dir %q: the flag must win over LOGMATCH_STATE_DIR", c.StateDir)
				}
				if diff := cmp.Diff([]string{"/a/*.log", "/b/*.log"}, c.Paths); diff != "" {
					t.Errorf("paths (-want +got):\n%s", diff)
				}
				if c.GroupWindow != Duration(30*time.Second) || !c.NoDefaultCatalog {
					t.Errorf("group_window %v, no_default_catalog %v: the variables must win over the file", c.GroupWindow, c.NoDefaultCatalog)
				}
				if len(c.Sinks) != 2 || c.Sinks[0].Name != "ops" || c.Sinks[1].OTel.Protocol != "grpc" {
					t.Errorf("sinks %+v", c.Sinks)
				}
			},
		},
		{
			name:    "a bad value names its variable",
			args:    []string{"--config", "/etc/logmatch.yaml"},
			vars:    map[string]string{"LOGMATCH_GROUP_WINDOW": "soon", "LOGMATCH_SINK": "pagerduty=https://secret.example/token"},
			wantErr: "LOGMATCH_GROUP_WINDOW: ",
		},
		{
			name:    "a sink's error names the variable, never the URL",
			args:    []string{"--config", "/etc/logmatch.yaml"},
			vars:    map[string]string{"LOGMATCH_SINK": "pagerduty=https://secret.example/token"},
			wantErr: `LOGMATCH_SINK: unknown sink type "pagerduty"`,
		},
		{
			name:    "a bad boolean",
			vars:    map[string]string{"LOGMATCH_NO_DEFAULT_CATALOG": "maybe"},
			wantErr: "LOGMATCH_NO_DEFAULT_CATALOG: not a valid --no-default-catalog",
		},
		{
			name: "unprefixed and unrelated variables are not read",
			args: []string{"--config", "/etc/logmatch.yaml"},
			vars: map[string]string{"STATE_DIR": "/x", "PATH": "/usr/bin", "LOGMATCH_TEST_REQUIRE_TOOLS": "1"},
			check: func(t *testing.T, c *Config) {
				if c.StateDir != "/file/state" || len(c.Paths) != 1 {
					t.Errorf("state_dir %q paths %q", c.StateDir, c.Paths)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := fakeEnv{vars: tc.vars, files: files}
			c, err := parseRunArgs(tc.args, env.getenv, env.readFile)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, want an error with %q", err, tc.wantErr)
				}
				if strings.Contains(err.Error(), "secret.example") {
					t.Errorf("the error shows the sink's URL: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, c)
		})
	}
	if got := EnvName("correlation-window"); got != "LOGMATCH_CORRELATION_WINDOW" {
		t.Errorf("EnvName = %q", got)
	}
}

// engines rules and LOGMATCH_ENGINE say a path's engine: the first rule
// whose glob matches, else the pod's, else "" for detection. An unknown
// engine is an error naming where it was given.
func TestEngineOf(t *testing.T) {
	env := fakeEnv{vars: map[string]string{EnvEngine: "sglang"}}
	cfg, err := Load("c.yaml", []byte(`
engines:
  - engine: vllm
    paths: [/var/log/pods/*_vllm-*/*/*.log, "-"]
  - engine: tgi
    paths: [/var/log/tgi/*.log]
`), env.getenv, env.readFile)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"/var/log/pods/llm_vllm-0_123/vllm/0.log": "vllm",
		"-":                    "vllm",
		"/var/log/tgi/a.log":   "tgi",
		"/var/log/other/a.log": "sglang",
	} {
		if got := cfg.EngineOf(path); got != want {
			t.Errorf("EngineOf(%q) = %q, want %q", path, got, want)
		}
	}
	noPod, err := Load("c.yaml", []byte("engines: [{engine: ollama, paths: [/var/log/ollama.log]}]\n"), fakeEnv{}.getenv, fakeEnv{}.readFile)
	if err != nil {
		t.Fatal(err)
	}
	if got := noPod.EngineOf("/var/log/x.log"); got != "" {
		t.Errorf("EngineOf of an unnamed path = %q, want \"\" (detect)", got)
	}

	_, err = Load("c.yaml", []byte("engines:\n  - engine: vLLM\n    paths: [/a]\n  - engine: tgi\n"), fakeEnv{vars: map[string]string{EnvEngine: "tensorrt"}}.getenv, fakeEnv{}.readFile)
	if err == nil {
		t.Fatal("unknown engines loaded")
	}
	for _, want := range []string{
		`c.yaml:2: engines[0].engine: unknown value "vLLM"`,
		`c.yaml:4: engines[1].paths: no paths`,
		`LOGMATCH_ENGINE: unknown engine "tensorrt"`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// server_version must be a release number; the flag and the variable set
// it as every other key.
func TestServerVersion(t *testing.T) {
	if _, err := Load("c.yaml", []byte("server_version: \"0.5.x\"\n"), fakeEnv{}.getenv, fakeEnv{}.readFile); err == nil || !strings.Contains(err.Error(), "server_version") {
		t.Errorf("a bad server_version: %v", err)
	}
	cfg, err := parseRunArgs([]string{"--server-version", "0.5.3"}, fakeEnv{}.getenv, fakeEnv{}.readFile)
	if err != nil || cfg.ServerVersion != "0.5.3" {
		t.Errorf("--server-version: %q, %v", cfg.ServerVersion, err)
	}
	cfg, err = parseRunArgs(nil, fakeEnv{vars: map[string]string{"LOGMATCH_SERVER_VERSION": "0.4.6"}}.getenv, fakeEnv{}.readFile)
	if err != nil || cfg.ServerVersion != "0.4.6" {
		t.Errorf("LOGMATCH_SERVER_VERSION: %q, %v", cfg.ServerVersion, err)
	}
}
