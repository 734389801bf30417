{{/* Name of the chart, overridable. */}}
{{- define "logmatch.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Full name of every object: release-chart, or the release alone when it already says logmatch. */}}
{{- define "logmatch.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Labels that select the pods. */}}
{{- define "logmatch.selectorLabels" -}}
app.kubernetes.io/name: {{ include "logmatch.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: {{ ternary "sglang" "node-agent" (eq .Values.mode "sidecar") }}
{{- end -}}

{{/* Labels of every object. */}}
{{- define "logmatch.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "logmatch.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* The logmatch image reference. */}}
{{- define "logmatch.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/* Name of the Secret the chart creates for inline sink URLs. */}}
{{- define "logmatch.sinkSecretName" -}}
{{- printf "%s-sinks" (include "logmatch.fullname" .) -}}
{{- end -}}

{{/* Whether the chart creates the sink Secret. */}}
{{- define "logmatch.createSinkSecret" -}}
{{- $s := .Values.sinks -}}
{{- if or (and $s.slack.enabled (not $s.slack.existingSecret)) (and $s.webhook.enabled (not $s.webhook.existingSecret)) -}}true{{- end -}}
{{- end -}}

{{/* Name of the ConfigMap holding the extra catalog, "" when there is none. */}}
{{- define "logmatch.catalogConfigMap" -}}
{{- if .Values.catalog.existingConfigMap -}}
{{- .Values.catalog.existingConfigMap -}}
{{- else if .Values.catalog.extra -}}
{{- printf "%s-catalog" (include "logmatch.fullname" .) -}}
{{- end -}}
{{- end -}}

{{/* Sanity checks that fail the render with a clear message. */}}
{{- define "logmatch.validate" -}}
{{- if not (has .Values.mode (list "sidecar" "daemonset")) -}}
{{- fail (printf "mode: want sidecar or daemonset, got %q" .Values.mode) -}}
{{- end -}}
{{- range $name := list "slack" "webhook" -}}
{{- $s := index $.Values.sinks $name -}}
{{- if and $s.enabled (not $s.existingSecret) (not $s.url) -}}
{{- fail (printf "sinks.%s: enabled without existingSecret or url" $name) -}}
{{- end -}}
{{- end -}}
{{- if and .Values.sinks.alertmanager.enabled (not .Values.sinks.alertmanager.url) -}}
{{- fail "sinks.alertmanager: enabled without url" -}}
{{- end -}}
{{- with .Values.healthGating -}}
{{- if and .enabled (lt (mul (int .periodSeconds) (int .failureThreshold)) 20) -}}
{{- fail (printf "healthGating: failureThreshold x periodSeconds is %ds; keep it at least 20s, or a logmatch restart restarts sglang" (mul (int .periodSeconds) (int .failureThreshold))) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* logmatch's config.yaml. */}}
{{- define "logmatch.config" -}}
{{- $s := .Values.sinks -}}
{{- if eq .Values.mode "sidecar" }}
# sglang's stdout and stderr, written by its wrapper on the shared volume.
paths:
  - /var/log/sglang/*.log
format: raw
start_at: beginning
{{- else }}
paths:
{{- range .Values.daemonset.paths }}
  - {{ . | quote }}
{{- end }}
format: cri
start_at: {{ .Values.daemonset.startAt }}
{{- end }}
state_dir: /var/lib/logmatch
http_addr: {{ printf ":%d" (int .Values.service.metricsPort) | quote }}
log_level: {{ .Values.logmatch.logLevel }}
log_format: {{ .Values.logmatch.logFormat }}
group_window: {{ .Values.logmatch.groupWindow }}
repeat_interval: {{ .Values.logmatch.repeatInterval }}
no_default_catalog: {{ .Values.catalog.noDefault }}
{{- if include "logmatch.catalogConfigMap" . }}
catalogs:
  - /etc/logmatch/catalog
{{- end }}
sinks:
{{- if $s.stdout.enabled }}
  - type: stdout
    min_severity: {{ $s.stdout.minSeverity }}
{{- end }}
{{- if $s.slack.enabled }}
  - type: slack
    min_severity: {{ $s.slack.minSeverity }}
    url_file: /etc/logmatch/secrets/slack/url
    {{- with $s.slack.channel }}
    channel: {{ . | quote }}
    {{- end }}
    {{- with $s.slack.username }}
    username: {{ . | quote }}
    {{- end }}
{{- end }}
{{- if $s.webhook.enabled }}
  - type: webhook
    min_severity: {{ $s.webhook.minSeverity }}
    url_file: /etc/logmatch/secrets/webhook/url
{{- end }}
{{- if $s.alertmanager.enabled }}
  - type: alertmanager
    min_severity: {{ $s.alertmanager.minSeverity }}
    url: {{ $s.alertmanager.url | quote }}
{{- end }}
{{- if $s.otel.enabled }}
  - type: otel
    min_severity: {{ $s.otel.minSeverity }}
    {{- with $s.otel.endpoint }}
    endpoint: {{ . | quote }}
    {{- end }}
    protocol: {{ $s.otel.protocol }}
    insecure: {{ $s.otel.insecure }}
{{- end }}
{{- end -}}

{{/* The logmatch container, shared by both modes; the caller adds the mode's own mounts after it. */}}
{{- define "logmatch.container" -}}
name: logmatch
image: {{ include "logmatch.image" . }}
imagePullPolicy: {{ .Values.image.pullPolicy }}
args: ["run", "--config", "/etc/logmatch/config/config.yaml"]
env:
  - name: LOGMATCH_POD_NAME
    valueFrom:
      fieldRef:
        fieldPath: metadata.name
  - name: LOGMATCH_POD_NAMESPACE
    valueFrom:
      fieldRef:
        fieldPath: metadata.namespace
  - name: LOGMATCH_NODE_NAME
    valueFrom:
      fieldRef:
        fieldPath: spec.nodeName
  {{- if eq .Values.mode "sidecar" }}
  - name: LOGMATCH_CONTAINER_NAME
    value: sglang
  {{- end }}
  {{- with .Values.logmatch.extraEnv }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
ports:
  - name: metrics
    containerPort: {{ .Values.service.metricsPort }}
livenessProbe:
  httpGet:
    path: /healthz
    port: {{ .Values.service.metricsPort }}
  {{- toYaml .Values.logmatch.livenessProbe | nindent 2 }}
readinessProbe:
  httpGet:
    {{- /* A sidecar's readiness gates the sglang Pod: leave sink health out. */}}
    path: {{ if eq .Values.mode "sidecar" }}/readyz?exclude=sinks{{ else }}/readyz{{ end }}
    port: {{ .Values.service.metricsPort }}
  {{- toYaml .Values.logmatch.readinessProbe | nindent 2 }}
resources:
  {{- toYaml .Values.logmatch.resources | nindent 2 }}
securityContext:
  {{- if eq .Values.mode "sidecar" }}
  runAsNonRoot: true
  runAsUser: 65532
  runAsGroup: 65532
  {{- else }}
  # kubelet's log files are root-owned 0640; root reads them as their owner,
  # with no capability at all.
  runAsNonRoot: false
  runAsUser: 0
  runAsGroup: 0
  {{- end }}
  readOnlyRootFilesystem: true
  allowPrivilegeEscalation: false
  capabilities:
    drop: ["ALL"]
  seccompProfile:
    type: RuntimeDefault
volumeMounts:
  - name: state
    mountPath: /var/lib/logmatch
  - name: config
    mountPath: /etc/logmatch/config
    readOnly: true
  {{- if include "logmatch.catalogConfigMap" . }}
  - name: catalog
    mountPath: /etc/logmatch/catalog
    readOnly: true
  {{- end }}
  {{- if .Values.sinks.slack.enabled }}
  - name: slack-url
    mountPath: /etc/logmatch/secrets/slack
    readOnly: true
  {{- end }}
  {{- if .Values.sinks.webhook.enabled }}
  - name: webhook-url
    mountPath: /etc/logmatch/secrets/webhook
    readOnly: true
  {{- end }}
{{- end -}}

{{/* Volumes of the logmatch container shared by both modes (not state). */}}
{{- define "logmatch.volumes" -}}
- name: config
  configMap:
    name: {{ include "logmatch.fullname" . }}
{{- with include "logmatch.catalogConfigMap" . }}
- name: catalog
  configMap:
    name: {{ . }}
{{- end }}
{{- if .Values.sinks.slack.enabled }}
- name: slack-url
  secret:
    secretName: {{ default (include "logmatch.sinkSecretName" .) .Values.sinks.slack.existingSecret }}
    defaultMode: 0440
    items:
      - key: {{ ternary .Values.sinks.slack.existingSecretKey "slack-url" (ne .Values.sinks.slack.existingSecret "") }}
        path: url
{{- end }}
{{- if .Values.sinks.webhook.enabled }}
- name: webhook-url
  secret:
    secretName: {{ default (include "logmatch.sinkSecretName" .) .Values.sinks.webhook.existingSecret }}
    defaultMode: 0440
    items:
      - key: {{ ternary .Values.sinks.webhook.existingSecretKey "webhook-url" (ne .Values.sinks.webhook.existingSecret "") }}
        path: url
{{- end }}
{{- end -}}
