package config

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestSecretsNeverPrinted loads secrets every way there is, then checks
// that no rendering of the config and no error message contains them.
func TestSecretsNeverPrinted(t *testing.T) {
	secrets := []string{"inline-token-1", "envtoken", "filetoken", "hmac-inline-2", "header-value-3", "flag-token-4"}
	yaml := `sinks:
  - type: slack
    url: https://hooks.slack.com/services/T/B/inline-token-1
  - type: webhook
    url_env: SLACK_URL
    secret: hmac-inline-2
    headers: {Authorization: header-value-3}
  - type: slack
    name: s2
    url_file: /run/secrets/slack
`
	cfg, err := load(t, yaml)
	if err != nil {
		t.Fatal(err)
	}
	flagCfg, err := parseRunArgs([]string{"--sink", "webhook=https://h/flag-token-4"}, testEnv.getenv, testEnv.readFile)
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	renderings := map[string]string{
		"String":   cfg.String(),
		"flag cfg": flagCfg.String(),
		"%v":       fmt.Sprintf("%v", cfg),
		"%+v":      fmt.Sprintf("%+v", *cfg),
		"%#v":      fmt.Sprintf("%#v", *cfg),
		"%v sink":  fmt.Sprintf("%v", cfg.Sinks[0]),
		"%d sink":  fmt.Sprintf("%d", cfg.Sinks[0]),
		"%x sink":  fmt.Sprintf("%x", cfg.Sinks[1]),
		"%q sink":  fmt.Sprintf("%q", cfg.Sinks[1]),
		"%+v flag": fmt.Sprintf("%+v", flagCfg.Sinks),
		"json":     string(js),
		"sink str": cfg.Sinks[1].String(),
	}

	// Errors that mention the sinks holding secrets.
	bad := []string{
		"sinks:\n  - type: slack\n    url: 'ht tp://inline-token-1'\n",
		"sinks:\n  - type: slack\n    url: inline-token-1\n    url_env: SLACK_URL\n",
		"sinks:\n  - type: webhook\n    url: 'https://h/x'\n    secret: hmac-inline-2\n    headers: {'Bad Name': header-value-3}\n    secret_env: SLACK_URL\n",
		"sinks:\n  - type: webhook\n    url: {token: inline-token-1}\n",
		"sinks:\n  - type: stdout\n    url: inline-token-1\n",
		"sinks:\n  - type: webhook\n    url: 'https://h/x'\n    headers: header-value-3\n",
		"sinks:\n  - https://hooks.slack.com/services/inline-token-1\n",
		"sinks:\n  - type: slack\n    url: https://h/x\n    headers: [header-value-3]\n",
		"sinks: inline-token-1\n",
	}
	for i, y := range bad {
		_, err := load(t, y)
		if err == nil {
			t.Fatalf("bad config %d loaded", i)
		}
		renderings[fmt.Sprintf("error %d", i)] = err.Error()
	}
	badArgs := [][]string{
		{"--sink", "https://hooks.slack.com/services/flag-token-4"},
		{"--sink", "webhook=ftp://flag-token-4"},
		{"--sink", "slack=https://h/flag-token-4", "--sink", "slack=https://h/flag-token-4"},
	}
	for i, args := range badArgs {
		_, err := parseRunArgs(args, testEnv.getenv, testEnv.readFile)
		if err == nil {
			t.Fatalf("bad args %d loaded", i)
		}
		renderings[fmt.Sprintf("flag error %d", i)] = err.Error()
	}

	for name, text := range renderings {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("%s shows secret %q:\n%s", name, s, text)
			}
		}
	}
	for _, want := range []string{"url: '[redacted]'", "secret: '[redacted]'", "Authorization: '[redacted]'", "url_env: SLACK_URL"} {
		if !strings.Contains(renderings["String"], want) {
			t.Errorf("String() lacks %q:\n%s", want, renderings["String"])
		}
	}
	if got := cfg.Sinks[0].Slack.URL; got != "https://hooks.slack.com/services/T/B/inline-token-1" {
		t.Errorf("Slack.URL = %q", got)
	}
}
