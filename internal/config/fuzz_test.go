package config

import (
	"regexp"
	"strings"
	"testing"
)

// placeRE is how every problem starts: the file with a line, the file
// alone (an error without a position), or a key path.
var placeRE = regexp.MustCompile(`^(logmatch\.yaml(:\d+)?: |[a-z_]+(\[\d+\])?(\.[A-Za-z0-9_.\-\[\]]+)?: )`)

// FuzzLoad feeds arbitrary files to the loader: it must never panic, and
// every problem it reports must say where.
func FuzzLoad(f *testing.F) {
	var b strings.Builder
	if err := PrintDefaults(&b); err != nil {
		f.Fatal(err)
	}
	f.Add(b.String())
	for _, s := range []string{
		"",
		"paths: [a\n",
		"sinks:\n  - type: slack\n    url_file: /run/secrets/slack\n    chanel: x\n",
		"entry: &e {max_lines: 1}\nqueue: *e\n",
		"sinks:\n  - &s {type: stdout}\n  - *s\n",
		"group_window: [1m]\nrepeat_interval: {a: 1}\n",
		"<<: {format: raw}\n",
		"- a\n",
		"a: b\n---\nc: d\n",
		"sinks:\n  - type: webhook\n    url: 'http://h/x'\n    headers: {'': v}\n",
		"state_dir: ${STATE}/x\nmax_line_bytes: ${LINE_BYTES}\nredact:\n  patterns: ['a$$b', '${', '${env:X}', '$${STATE}']\n",
		"sinks:\n  - type: alertmanager\n    url: http://h\n    resolve_timeout: 1m\n    labelz: {a: b}\n  - type: otel\n    endpoint: x\n",
		"engines:\n  - engine: vllm\n    paths: ['[', /a/*.log, '']\n  - {engine: vLLM}\n  - engine: [tgi]\n    paths: x\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, yaml string) {
		_, err := Load("logmatch.yaml", []byte(yaml), testEnv.getenv, testEnv.readFile)
		if err == nil {
			return
		}
		for _, line := range strings.Split(err.Error(), "\n") {
			if !placeRE.MatchString(line) {
				t.Errorf("problem %q does not say where", line)
			}
		}
	})
}

// FuzzParseSinkSpec feeds --sink values: parsing never panics, and an
// error never shows the secret parts of a URL (its user info, path or
// query), which Slack and webhook URLs carry.
func FuzzParseSinkSpec(f *testing.F) {
	for _, s := range [][2]string{
		{"slack", "T0/B0/xyzzy"}, {"ops:webhook", "token123"}, {"otel", "abcd"}, {"x:otel", "pw"},
		{"pagerduty", "key0"}, {"bad name:slack", "s3cr"}, {"", "solo"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, head, secret string) {
		for _, spec := range []string{
			head,
			head + "=https://user:" + secret + "@example.com/" + secret + "?k=" + secret,
			head + "=grpc://example.com:4317/" + secret,
		} {
			_, err := parseSinkSpec(spec)
			if err == nil || len(secret) < 4 || strings.Contains(head, secret) {
				continue
			}
			msg := err.Error()
			for _, fixed := range []string{"NAME", "TYPE", "VALUE", "stdout", "slack", "webhook", "alertmanager", "otel", "grpc", "http", "HOST", "PORT", "sink", "want", "scheme", "example.com"} {
				msg = strings.ReplaceAll(msg, fixed, "")
			}
			if strings.Contains(msg, secret) {
				t.Fatalf("%q: error shows the secret: %v", spec, err)
			}
		}
	})
}
