package config

import (
	"path/filepath"
	"time"

	"go.yaml.in/yaml/v3"
)

// Config is the complete, validated configuration of a logmatch run. Every
// field has the yaml key shown in its tag; PrintDefaults documents them.
type Config struct {
	// Paths are the files to follow, as globs; "-" is standard input.
	Paths []string `yaml:"paths"`
	// Engines say which serving engine writes the files under some globs,
	// instead of detecting it from their lines; the first rule whose glob
	// matches a path decides (see EngineOf).
	Engines []EngineRule `yaml:"engines"`
	// Format is the line framing: auto, raw, cri or docker.
	Format string `yaml:"format"`
	// StartAt is where a file without a checkpoint is read from:
	// beginning or end. A file with a checkpoint always resumes there.
	StartAt string `yaml:"start_at"`
	// Catalogs are catalog files or directories loaded besides (or, with
	// NoDefaultCatalog, instead of) the catalog built into logmatch.
	Catalogs []string `yaml:"catalogs"`
	// NoDefaultCatalog leaves out the built-in catalog.
	NoDefaultCatalog bool `yaml:"no_default_catalog"`
	// StateDir holds state.db: checkpoints and undelivered alerts.
	StateDir string `yaml:"state_dir"`
	// GroupWindow is how long repeats of an incident are counted before a
	// summary goes out; 0 sends every hit.
	GroupWindow Duration `yaml:"group_window"`
	// RepeatInterval is how often a still-happening incident is repeated
	// as a reminder; 0 sends no reminders.
	RepeatInterval Duration `yaml:"repeat_interval"`
	// SettleTime delays the first notification of an incident so that it
	// carries the whole burst (Alertmanager's group_wait); 0 = at once.
	SettleTime Duration `yaml:"settle_time"`
	// CorrelationWindow is how long after a root cause a consequence on
	// the same pod or node is folded into its incident; 0 = no folding.
	CorrelationWindow Duration `yaml:"correlation_window"`
	// ConsequenceWait is how long an incident made only of consequences
	// (a failed health check) waits for its cause before it is announced
	// alone; up to SettleTime, no longer than the settle time.
	ConsequenceWait Duration `yaml:"consequence_wait"`
	// MaxOpenIncidents bounds the incidents kept open for grouping, in
	// memory and in state.db. Past it, the least recently seen incident
	// with nothing left to announce is forgotten, or, when all have
	// something, the least recently seen is announced at once and closed
	// (both counted).
	MaxOpenIncidents int `yaml:"max_open_incidents"`
	// HTTPAddr serves /metrics and health checks; "" turns it off.
	HTTPAddr string `yaml:"http_addr"`
	// HTTPMaxConnections bounds the connections the HTTP server holds
	// open; at the bound the longest idle one is closed for a new one, so
	// idle clients never starve the probes nor take the file descriptors
	// the tailer needs.
	HTTPMaxConnections int `yaml:"http_max_connections"`
	// HTTPIdleTimeout closes a keep-alive connection idle for this long.
	HTTPIdleTimeout Duration `yaml:"http_idle_timeout"`
	// HTTPProbeDetail adds the matched log line (escaped) to /livez's
	// body; off, the body names the record, never log text.
	HTTPProbeDetail bool `yaml:"http_probe_detail"`
	// Accept lists the network inputs served on HTTPAddr: diagnose (POST
	// /v1/diagnose), loki (POST /loki/api/v1/push) and otlp (POST
	// /v1/logs, OTLP logs over HTTP) and alertmanager (POST
	// /v1/alertmanager, Alertmanager's webhook enriched with a diagnosis).
	Accept []string `yaml:"accept"`
	// AcceptTokenFile and AcceptTokenEnv name where the bearer token the
	// inputs require is (a file, an environment variable); neither set
	// lets every request in.
	AcceptTokenFile string `yaml:"accept_token_file"`
	AcceptTokenEnv  string `yaml:"accept_token_env"`
	// OTLPGRPCAddr serves OTLP logs over gRPC (with otlp in Accept) on an
	// address of its own; "" serves none.
	OTLPGRPCAddr string `yaml:"otlp_grpc_addr"`
	// AcceptMaxBytes bounds one request's body and the text it
	// decompresses to.
	AcceptMaxBytes int `yaml:"accept_max_bytes"`
	// AcceptTLSCertFile and AcceptTLSKeyFile serve http_addr and
	// otlp_grpc_addr over TLS with this certificate chain and key (PEM
	// files, taken again when they change); AcceptTLSClientCAFile then
	// makes the inputs require a client certificate signed by one of its
	// CAs (mTLS). Probes and /metrics need no client certificate.
	AcceptTLSCertFile     string `yaml:"accept_tls_cert_file"`
	AcceptTLSKeyFile      string `yaml:"accept_tls_key_file"`
	AcceptTLSClientCAFile string `yaml:"accept_tls_client_ca_file"`
	// AcceptLabels say which labels of a pushed stream (Loki labels, OTLP
	// resource attributes) are its source identity.
	AcceptLabels AcceptLabels `yaml:"accept_labels"`
	// LogLevel is debug, info, warn or error.
	LogLevel string `yaml:"log_level"`
	// LogFormat is text or json.
	LogFormat string `yaml:"log_format"`
	// ShutdownGrace bounds the final delivery and flush on stop.
	ShutdownGrace Duration `yaml:"shutdown_grace"`
	// Entry bounds multi-line entry assembly.
	Entry Entry `yaml:"entry"`
	// MaxLineBytes cuts longer physical lines (the cut is counted).
	MaxLineBytes int `yaml:"max_line_bytes"`
	// PollInterval is how often files are checked and globs re-expanded
	// when the file-system watch is off or cannot cover a directory (no
	// inotify, its limits reached, a directory that does not exist yet).
	PollInterval Duration `yaml:"poll_interval"`
	// Watch wakes the tailer on file-system events (inotify); false polls
	// every PollInterval instead.
	Watch bool `yaml:"watch"`
	// RescanInterval is the safety-net scan period while the watch covers
	// every directory (a directory on a network or FUSE file system is
	// polled every PollInterval instead).
	RescanInterval Duration `yaml:"rescan_interval"`
	// MaxOpenFiles bounds the files followed at once; beyond it the
	// matching files take turns: one idle longest is closed (its place
	// kept) for one that waits.
	MaxOpenFiles int `yaml:"max_open_files"`
	// RotatedDirs are directories rotation moves files into (logrotate's
	// olddir). A checkpointed file not found under the globs at start is
	// looked for there by its identity, and its lines after the
	// checkpoint are read.
	RotatedDirs []string `yaml:"rotated_dirs"`
	// SymlinkRoots are the directories a matched file may resolve into
	// through symbolic links, besides the fixed leading directories of
	// the globs; unset means /var/log/pods when a glob lies under
	// /var/log/containers. Files resolving elsewhere are refused.
	SymlinkRoots []string `yaml:"symlink_roots"`
	// Queue is the default bound of every sink's durable queue.
	Queue Queue `yaml:"queue"`
	// Retry is the default retry policy of every sink.
	Retry Retry `yaml:"retry"`
	// Redact removes secrets from log text before it leaves logmatch.
	Redact Redact `yaml:"redact"`
	// Command is the wrapped command's argv, usually given after "--";
	// logmatch runs it and reads its stdout and stderr.
	Command []string `yaml:"command"`
	// AlertOutput is where the stdout sink writes: "stdout", "stderr" or
	// the path of a file (appended to; /dev/fd/N names an inherited
	// descriptor). "" is stdout, or stderr with a wrapped command, whose
	// own output then has standard output to itself.
	AlertOutput string `yaml:"alert_output"`
	// OnFatal is what happens to the wrapped command when a gating
	// failure trips the liveness gate: "none" (only /livez fails) or
	// "terminate" (SIGTERM, SIGKILL after a grace period, and logmatch
	// exits with its own status so the supervisor restarts both).
	OnFatal string `yaml:"on_fatal"`
	// ServerVersion is the sglang release the watched server runs
	// ("0.5.3"): a record whose introducedIn/removedIn leave it out
	// describes a message that release never prints, and is not matched.
	// "" matches every record.
	ServerVersion string `yaml:"server_version"`
	// Sinks are where alerts go.
	Sinks SinkList `yaml:"sinks"`

	// Kubernetes is the identity of the pod logmatch runs in, read from
	// the environment at load time, never from the file.
	Kubernetes Kubernetes `yaml:"-"`
}

// Kubernetes holds the downward-API variables that label every alert's
// source; each is "" when unset (outside Kubernetes).
type Kubernetes struct {
	Pod       string // LOGMATCH_POD_NAME
	Namespace string // LOGMATCH_POD_NAMESPACE
	Node      string // LOGMATCH_NODE_NAME
	Container string // LOGMATCH_CONTAINER_NAME
	// Engine is the serving engine of the pod logmatch serves, from a pod
	// label through the downward API (LOGMATCH_ENGINE); it applies to
	// every path no engines rule names.
	Engine string // LOGMATCH_ENGINE
}

// EngineRule names the serving engine (sglang, vllm, tgi, trtllm,
// triton, lmdeploy, ollama or llamacpp) of the files its globs match.
type EngineRule struct {
	Paths  []string `yaml:"paths"`
	Engine string   `yaml:"engine"`
}

// EngineOf returns the configured engine of a followed path ("-" for
// standard input): the engine of the first rule with a glob matching it,
// else the pod's (Kubernetes.Engine), else "" for detection from the
// path's lines.
func (c *Config) EngineOf(path string) string {
	for _, r := range c.Engines {
		for _, g := range r.Paths {
			if ok, _ := filepath.Match(g, path); ok {
				return r.Engine
			}
		}
	}
	return c.Kubernetes.Engine
}

// Entry bounds one logical entry.
type Entry struct {
	MaxLines  int      `yaml:"max_lines"`  // lines kept per entry; the rest is cut and counted
	MaxBytes  int      `yaml:"max_bytes"`  // bytes kept per entry
	IdleFlush Duration `yaml:"idle_flush"` // an entry with no new line for this long is complete
}

// Queue bounds a sink's durable queue; the oldest items go first.
type Queue struct {
	MaxItems int      `yaml:"max_items"`
	MaxAge   Duration `yaml:"max_age"`
}

// Retry is a sink's delivery retry policy: exponential backoff with jitter
// between InitialBackoff and MaxBackoff, honouring Retry-After.
type Retry struct {
	// MaxAttempts is the number of attempts before an alert is dropped
	// (counted); 0 retries until the queue's max_age drops it.
	MaxAttempts    int      `yaml:"max_attempts"`
	InitialBackoff Duration `yaml:"initial_backoff"`
	MaxBackoff     Duration `yaml:"max_backoff"`
}

// Redact configures redaction of log text in alerts.
type Redact struct {
	// Builtin turns on the built-in rules (tokens, keys, passwords, URL
	// credentials).
	Builtin bool `yaml:"builtin"`
	// Patterns are extra regular expressions (Go RE2 syntax) whose matches
	// are replaced; with a group named "secret" only that group is.
	Patterns []string `yaml:"patterns"`
}

// Defaults of the settings; PrintDefaults shows them all.
const (
	DefaultFormat          = "auto"
	DefaultStartAt         = "beginning"
	DefaultStateDir        = "/var/lib/logmatch"
	DefaultGroupWindow     = 5 * time.Minute
	DefaultRepeatInterval  = 4 * time.Hour
	DefaultSettleTime      = 2 * time.Second  // as incident.DefaultSettle
	DefaultCorrelation     = 15 * time.Minute // as incident.DefaultCorrelation
	DefaultConsequenceWait = 30 * time.Second // as incident.DefaultConsequenceWait
	DefaultMaxIncidents    = 2000
	DefaultHTTPAddr        = ":9464"
	DefaultHTTPMaxConns    = 64
	DefaultHTTPIdle        = 30 * time.Second
	DefaultLogLevel        = "info"
	DefaultLogFormat       = "text"
	DefaultShutdownGrace   = 10 * time.Second
	DefaultEntryMaxLines   = 1000
	DefaultEntryMaxBytes   = 64 << 10 // as internal/entry
	DefaultIdleFlush       = 500 * time.Millisecond
	DefaultMaxLineBytes    = 256 << 10              // as internal/source
	DefaultPollInterval    = 250 * time.Millisecond // as internal/source
	DefaultRescanInterval  = 5 * time.Second        // as internal/source
	DefaultMaxOpenFiles    = 256                    // as internal/source
	DefaultQueueMaxItems   = 10000
	DefaultQueueMaxAge     = 24 * time.Hour
	DefaultMaxAttempts     = 0
	DefaultInitialBackoff  = time.Second
	DefaultMaxBackoff      = 5 * time.Minute
	DefaultOnFatal         = OnFatalNone
	DefaultAcceptMaxBytes  = 8 << 20
)

// The accept values: the network inputs.
const (
	AcceptDiagnose = "diagnose"
	AcceptLoki     = "loki"
	AcceptOTLP     = "otlp"
	// AcceptAlertmanager enriches Alertmanager's webhook alerts.
	AcceptAlertmanager = "alertmanager"
)

// The on_fatal values.
const (
	OnFatalNone      = "none"
	OnFatalTerminate = "terminate"
)

// AcceptLabels map a pushed stream's labels to its source identity. Each
// list is tried in order, the first label present wins; OTLP attribute
// names match with their dots as underscores (k8s.pod.name is
// k8s_pod_name). A stream's name (its incidents' source) is made of the
// labels found and the Extra ones it has; a stream with none of them is
// named by all its labels.
type AcceptLabels struct {
	Pod       []string `yaml:"pod"`
	Namespace []string `yaml:"namespace"`
	Container []string `yaml:"container"`
	// Extra labels are kept in a stream's identity beside its pod (a
	// cluster, a replica set): streams that differ in them are told apart.
	Extra []string `yaml:"extra"`
}

// defaultAcceptLabels read the names Promtail, Alloy, Fluent Bit, Vector
// and the Collector's k8sattributes processor give a pod's identity.
func defaultAcceptLabels() AcceptLabels {
	return AcceptLabels{
		Pod:       []string{"pod", "k8s_pod_name", "pod_name"},
		Namespace: []string{"namespace", "k8s_namespace_name", "namespace_name"},
		Container: []string{"container", "k8s_container_name", "container_name"},
	}
}

// Default returns the configuration used when neither file nor flags say
// otherwise. Its Sinks list is empty: loading adds a stdout sink when no
// sinks are configured anywhere.
func Default() *Config {
	return &Config{
		Format:             DefaultFormat,
		StartAt:            DefaultStartAt,
		StateDir:           DefaultStateDir,
		GroupWindow:        Duration(DefaultGroupWindow),
		RepeatInterval:     Duration(DefaultRepeatInterval),
		SettleTime:         Duration(DefaultSettleTime),
		CorrelationWindow:  Duration(DefaultCorrelation),
		ConsequenceWait:    Duration(DefaultConsequenceWait),
		MaxOpenIncidents:   DefaultMaxIncidents,
		HTTPAddr:           DefaultHTTPAddr,
		HTTPMaxConnections: DefaultHTTPMaxConns,
		HTTPIdleTimeout:    Duration(DefaultHTTPIdle),
		AcceptMaxBytes:     DefaultAcceptMaxBytes,
		AcceptLabels:       defaultAcceptLabels(),

		LogLevel:      DefaultLogLevel,
		LogFormat:     DefaultLogFormat,
		ShutdownGrace: Duration(DefaultShutdownGrace),
		Entry: Entry{
			MaxLines:  DefaultEntryMaxLines,
			MaxBytes:  DefaultEntryMaxBytes,
			IdleFlush: Duration(DefaultIdleFlush),
		},
		MaxLineBytes:   DefaultMaxLineBytes,
		PollInterval:   Duration(DefaultPollInterval),
		Watch:          true,
		RescanInterval: Duration(DefaultRescanInterval),
		MaxOpenFiles:   DefaultMaxOpenFiles,
		Queue:          Queue{MaxItems: DefaultQueueMaxItems, MaxAge: Duration(DefaultQueueMaxAge)},
		Retry: Retry{
			MaxAttempts:    DefaultMaxAttempts,
			InitialBackoff: Duration(DefaultInitialBackoff),
			MaxBackoff:     Duration(DefaultMaxBackoff),
		},
		Redact:  Redact{Builtin: true},
		OnFatal: DefaultOnFatal,
	}
}

// String renders the configuration as YAML with every secret redacted, for
// logs and `logmatch config --show`.
func (c *Config) String() string {
	b, err := yaml.Marshal(c)
	if err != nil {
		// Marshal fails only on types Config does not contain (channels,
		// functions); say so rather than print half a config.
		return "config: cannot render: " + err.Error()
	}
	return string(b)
}

// The environment variables that say which pod, namespace, node and
// container logmatch serves, set from the Kubernetes downward API. They are
// prefixed so that a generic variable of the same meaning, set for
// something else, never labels logmatch's alerts.
const (
	EnvPodName       = "LOGMATCH_POD_NAME"
	EnvPodNamespace  = "LOGMATCH_POD_NAMESPACE"
	EnvNodeName      = "LOGMATCH_NODE_NAME"
	EnvContainerName = "LOGMATCH_CONTAINER_NAME"
	// EnvEngine names the serving engine of the pod, set from one of its
	// labels (fieldRef metadata.labels['logmatch.io/engine']).
	EnvEngine = "LOGMATCH_ENGINE"
)
