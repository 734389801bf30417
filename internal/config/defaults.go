package config

import (
	"fmt"
	"io"
	"strings"
	"text/template"

	"github.com/logmatch/logmatch/sinks/alertmanager"
	"github.com/logmatch/logmatch/sinks/slack"
)

// defaultsText is the documented default configuration. Every key appears,
// set to its default or, where it has none, commented out with an example;
// the file loads back to Default() plus the stdout sink.
const defaultsText = `# logmatch configuration ({{.Comment}})
#
# Every key is shown with its default. Command-line flags override keys;
# a repeatable flag (--path, --catalog, --sink) replaces the whole list.
# Durations are Go durations: 500ms, 30s, 5m, 4h; 0 turns a window off.
#
# Environment variables logmatch reads:
#   OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL,
#   OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_INSECURE, OTEL_SERVICE_NAME,
#   OTEL_RESOURCE_ATTRIBUTES (and their _LOGS_ / _METRICS_ variants)
#       configure an otel sink wherever its own keys are unset.
#   LOGMATCH_POD_NAME, LOGMATCH_POD_NAMESPACE, LOGMATCH_NODE_NAME,
#   LOGMATCH_CONTAINER_NAME
#       label every alert's source; set them from the Kubernetes downward
#       API (fieldRef metadata.name, metadata.namespace, spec.nodeName).
#       Unprefixed names (POD_NAME, NODE_NAME) are not read.
#   LOGMATCH_ENGINE
#       the serving engine of the pod (sglang, vllm, tgi, trtllm, triton,
#       lmdeploy, ollama, llamacpp) for every path no engines rule names;
#       set it from a pod label (fieldRef metadata.labels['logmatch.io/engine']).
#   Any variable named by a *_env key below.
#
# Any value may use ${VAR} (or ${env:VAR}): it is replaced by the variable's
# value when the file is loaded, and an unset variable is an error. Write $$
# for a literal $ (a lone $ not followed by { stays as it is, so regexes
# ending in $ need no escaping).

# Log files to follow, as globs; "-" is standard input. With no paths,
# logmatch reads the output of the command (below, or after "--"), or
# standard input when there is no command either.
paths: []
#  - /var/log/sglang/*.log
#  - /var/log/pods/*/sglang/*.log

# The serving engine that writes the files under some globs: sglang, vllm,
# tgi, trtllm, triton, lmdeploy, ollama or llamacpp. Alerts name it and give
# its remedies. Without a rule (or LOGMATCH_ENGINE) the engine is detected
# from the lines of each stream; the first rule whose glob matches decides.
engines: []
#  - engine: vllm
#    paths: [/var/log/pods/*/vllm/*.log]

# Line framing: auto (detect), raw, cri (containerd/CRI-O) or docker (json-file).
format: {{.Format}}

# Where a file without a checkpoint is read from: beginning or end.
# A file with a checkpoint always resumes where logmatch stopped.
start_at: {{.StartAt}}

# Extra catalog files or directories (JSONL error records).
catalogs: []
# Leave out the catalog built into logmatch.
no_default_catalog: false

# Directory of state.db: read checkpoints and alerts not yet delivered.
# Use a volume that survives restarts (an emptyDir survives container restarts).
state_dir: {{.StateDir}}

# Repeats of an incident within this window are counted and summarised; 0 = off.
group_window: {{.GroupWindow}}
# A still-happening incident is repeated as a reminder this often; 0 = off.
repeat_interval: {{.RepeatInterval}}
# The first alert of an incident waits this long for the rest of the burst
# (the traceback, the other ranks, the consequences); 0 = at once.
settle_time: {{.SettleTime}}
# A consequence (a signal relayed to the parent, a peer's NCCL timeout) on
# the same pod or node within this window after a root cause is shown inside
# the root cause's incident, not alerted on its own; 0 = off.
correlation_window: {{.CorrelationWindow}}
# An incident made only of consequences (a failed health check, a peer's
# timeout) with no cause in sight waits this long for its cause before it is
# alerted alone: a stalled server reports the stall before the timeout that
# caused it. Causes are never held by it; 0 = the settle time.
consequence_wait: {{.ConsequenceWait}}
# Incidents kept open for grouping (in memory and in state.db); each holds
# its alert (up to about 35 KB with a long traceback). Past the bound the
# least recently seen incident with nothing left to announce is forgotten
# (a later repeat starts a new incident), or, when all have something left,
# the least recently seen is announced at once; both are counted in
# logmatch_incidents_evicted_total.
max_open_incidents: {{.MaxOpenIncidents}}

# Address of /metrics (Prometheus) and /healthz; "" = off. Unset, it is
# this when following files, and off when reading standard input or
# wrapping a command (a pipeline plugin or a wrapper that nothing probes).
# http_addr: "{{.HTTPAddr}}"
# Connections held at once; at the bound the longest idle one is closed for
# the new one, so idle clients never hold off the probes.
http_max_connections: {{.HTTPMaxConnections}}
# A keep-alive connection idle this long is closed.
http_idle_timeout: {{.HTTPIdleTimeout}}
# Show the matched log line (escaped) in /livez's body; off, the body names
# the record and time only: log text is not trusted.
http_probe_detail: {{.HTTPProbeDetail}}
# Network inputs served on http_addr: diagnose (POST /v1/diagnose answers
# with the incidents of the log text sent), loki (POST /loki/api/v1/push,
# Loki's push API), otlp (POST /v1/logs, OTLP logs over HTTP) and
# alertmanager (POST /v1/alertmanager: the log text in an alert's
# annotations diagnosed and sent to the sinks); pushed streams are read
# like followed files.
# accept: [diagnose, loki, otlp, alertmanager]
# A bearer token the inputs require, by reference: a file or a variable.
# accept_token_file: /var/run/secrets/logmatch/token
# accept_token_env: LOGMATCH_ACCEPT_TOKEN_VALUE
# OTLP logs over gRPC (with otlp in accept) on an address of its own.
# otlp_grpc_addr: ":4317"
# One request's body, and the text it decompresses to, at most.
accept_max_bytes: {{.AcceptMaxBytes}}
# TLS for http_addr and otlp_grpc_addr (PEM files, taken again when they
# change); with a client CA bundle the inputs require a client certificate
# it signed (mTLS). Probes and /metrics need none.
# accept_tls_cert_file: /var/run/secrets/logmatch-tls/tls.crt
# accept_tls_key_file: /var/run/secrets/logmatch-tls/tls.key
# accept_tls_client_ca_file: /var/run/secrets/logmatch-tls/ca.crt
# Which labels of a pushed stream (Loki labels, OTLP resource attributes,
# dots read as underscores) are its source identity: the first present of
# each list, and the extra labels; a stream with none of them is named by
# all its labels.
accept_labels:
  pod: [{{join .AcceptLabels.Pod ", "}}]
  namespace: [{{join .AcceptLabels.Namespace ", "}}]
  container: [{{join .AcceptLabels.Container ", "}}]
  # extra: [cluster]
# logmatch's own log: level debug, info, warn or error; format text or json.
log_level: {{.LogLevel}}
log_format: {{.LogFormat}}
# On stop, time allowed to deliver queued alerts and flush state.
shutdown_grace: {{.ShutdownGrace}}

# Bounds of one logical entry (a message with its continuation lines or a
# traceback); what they cut is counted.
entry:
  max_lines: {{.Entry.MaxLines}}
  max_bytes: {{.Entry.MaxBytes}}
  # An entry with no new line for this long is complete.
  idle_flush: {{.Entry.IdleFlush}}
# Longer physical lines are cut (and counted).
max_line_bytes: {{.MaxLineBytes}}
# Files are followed through a file-system watch (inotify), with a full
# look every rescan_interval as a safety net for a lost event. Without the
# watch (watch: false, no inotify, its limits reached, a directory not there
# yet), and in a directory on a network or FUSE file system, which another
# machine changes without an event, they are polled every poll_interval.
watch: {{.Watch}}
rescan_interval: {{.RescanInterval}}
poll_interval: {{.PollInterval}}
# Files followed at once. Beyond it the matching files take turns: the file
# idle longest is closed (its position kept) and one that waits is opened;
# logmatch_source_files{state="waiting"} counts the files waiting.
max_open_files: {{.MaxOpenFiles}}
# Directories rotation moves files into (logrotate's olddir). A file
# checkpointed under the globs and moved there while logmatch was stopped
# is found by its identity and read on from its checkpoint.
rotated_dirs: []
#  - /var/log/sglang/old
# Directories a matching file may resolve into through symbolic links,
# besides the fixed leading directories of the globs; unset means
# /var/log/pods when a glob lies under /var/log/containers. A file that
# resolves elsewhere (a link to /etc/shadow, to a mounted secret) is refused.
# symlink_roots: [/var/log/pods]

# Default bound of every sink's durable queue; the oldest alerts are dropped
# (and counted) first. A sink may override it with its own queue: key.
queue:
  max_items: {{.Queue.MaxItems}}
  max_age: {{.Queue.MaxAge}}

# Default retry policy of every sink (exponential backoff with jitter,
# Retry-After honoured). max_attempts 0 retries until queue.max_age.
retry:
  max_attempts: {{.Retry.MaxAttempts}}
  initial_backoff: {{.Retry.InitialBackoff}}
  max_backoff: {{.Retry.MaxBackoff}}

# Redaction of log text before it leaves logmatch.
redact:
  # Built-in rules: bearer tokens, API keys, passwords, URL credentials.
  builtin: {{.Redact.Builtin}}
  # Extra regular expressions (Go RE2 syntax); matches are masked, or only
  # the group named "secret" when there is one.
  patterns: []
  #  - 'hf_[A-Za-z0-9]{30,}'

# The command logmatch runs and watches, usually given after "--".
command: []
# Where the stdout sink writes alerts: stdout, stderr, or a file path
# (appended; /dev/fd/3 for an inherited descriptor). Unset: stdout, or
# stderr with a command, whose stdout then passes through untouched. On a
# stream the command also writes to, an alert waits for the command to end
# its line (at most 2s), so it is always a line of its own.
alert_output: "{{.AlertOutput}}"
#  - python3
#  - -m
#  - sglang.launch_server
# What a gating failure (a catalog record marked fatal) does to the command:
# none (only /livez fails) or terminate (SIGTERM, SIGKILL after 10s; logmatch
# then exits with status 75 so its supervisor restarts it).
on_fatal: {{.OnFatal}}
# The sglang release the watched server runs ("0.5.3"): records whose
# introducedIn/removedIn leave it out are not matched. "" matches all.
server_version: "{{.ServerVersion}}"

# Where alerts go. Every sink has type, name (default: the type; unique),
# min_severity (info, warning, error or critical; default error for slack,
# info otherwise), and may override queue and retry. The other keys belong
# to the sink's type and are checked by it. Secrets (url, secret,
# bearer_token, header values) can be given inline, or by reference:
# key_file (a file, trimmed; Kubernetes Secrets mount as files) or key_env
# (a variable). Without any sinks key, logmatch writes alerts to stdout.
sinks:
  - type: stdout
    name: stdout
    min_severity: info
#  - type: slack
#    name: slack
#    min_severity: error
#    url_file: /etc/logmatch/slack-webhook-url  # or url, or url_env
#    digest_threshold: {{.DigestThreshold}}  # more waiting alerts than this go as one digest; 0 = never
#    username: logmatch
#    channel: "#sglang-alerts"
#    icon_emoji: ":rotating_light:"             # or icon_url
#    timeout: {{.SinkTimeout}}
#  - type: webhook
#    name: webhook
#    url_env: LOGMATCH_WEBHOOK_URL  # or url, or url_file
#    secret_file: /etc/logmatch/webhook-hmac-key  # HMAC key that signs the body
#    # secret: inline-key                          # instead of secret_file
#    # secret_env: LOGMATCH_WEBHOOK_SECRET         # instead of secret_file
#    headers:
#      X-Team: inference
#    timeout: {{.SinkTimeout}}
#  - type: alertmanager
#    name: alertmanager
#    url: http://alertmanager.monitoring:9093
#    resolve_timeout: {{.ResolveTimeout}}  # endsAt horizon, kept above group_window (default: the larger of 15m and 3 x group_window)
#    bearer_token_file: /etc/logmatch/alertmanager-token  # for an authenticating proxy; or bearer_token, bearer_token_env
#    labels:
#      cluster: prod-eu
#    generator_url: https://logs.example.com/sglang
#    timeout: {{.SinkTimeout}}
#  - type: otel
#    name: otel
#    endpoint: http://otel-collector.monitoring:4317  # unset: OTEL_EXPORTER_OTLP_ENDPOINT
#    protocol: grpc                                   # or http/protobuf
#    insecure: true
#    headers:
#      Authorization: Bearer token-value
#    timeout: {{.SinkTimeout}}
#    queue:
#      max_items: {{.Queue.MaxItems}}
#      max_age: {{.Queue.MaxAge}}
#    retry:
#      max_attempts: {{.Retry.MaxAttempts}}
#      initial_backoff: {{.Retry.InitialBackoff}}
#      max_backoff: {{.Retry.MaxBackoff}}
`

var defaultsTemplate = template.Must(template.New("defaults").Funcs(template.FuncMap{"join": strings.Join}).Parse(defaultsText))

// PrintDefaults writes the complete default configuration as commented
// YAML: every key with its default, the sink types as commented examples,
// and the environment variables that matter. The output loads back (see
// Load) as the default configuration.
func PrintDefaults(w io.Writer) error {
	d := Default()
	data := struct {
		*Config
		Comment         string
		DigestThreshold int
		SinkTimeout     Duration
		ResolveTimeout  Duration
	}{
		Config:          d,
		Comment:         "logmatch config --print-defaults",
		DigestThreshold: slack.DefaultDigestThreshold,
		SinkTimeout:     Duration(slack.DefaultTimeout),
		ResolveTimeout:  Duration(alertmanager.DefaultResolveTimeout),
	}
	if err := defaultsTemplate.Execute(w, data); err != nil {
		return fmt.Errorf("config: print defaults: %w", err)
	}
	return nil
}
