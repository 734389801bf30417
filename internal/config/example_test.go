package config_test

import (
	"fmt"
	"os"

	"github.com/logmatch/logmatch/internal/config"
)

// ExampleParseArgs is how `logmatch run` builds its configuration: flags
// override the file, and everything after "--" is the wrapped command.
func ExampleParseArgs() {
	files := map[string]string{
		"/etc/logmatch/logmatch.yaml": "group_window: 1m\nsinks:\n  - type: slack\n    url_env: SLACK_URL\n",
	}
	readFile := func(name string) ([]byte, error) {
		if v, ok := files[name]; ok {
			return []byte(v), nil
		}
		return os.ReadFile(name)
	}
	getenv := func(k string) string {
		if k == "SLACK_URL" {
			return "https://hooks.slack.com/services/T0/B0/example"
		}
		return ""
	}
	cfg, err := config.ParseArgs([]string{
		"--config", "/etc/logmatch/logmatch.yaml", "--group-window", "2m",
		"--", "python3", "-m", "sglang.launch_server",
	}, getenv, readFile)
	if err != nil {
		fmt.Println(err)
		return
	}
	s := cfg.Sinks[0]
	fmt.Println(cfg.GroupWindow, cfg.Command)
	fmt.Println(s.Name, s.MinSeverity, s.Slack.URLEnv)
	// Output:
	// 2m [python3 -m sglang.launch_server]
	// slack error SLACK_URL
}

// ExampleParseArgs_errors shows that every problem is reported at once,
// each with its place.
func ExampleParseArgs_errors() {
	_, err := config.ParseArgs([]string{"--group-window", "5", "--sink", "slack", "--log-level", "loud"}, os.Getenv, os.ReadFile)
	fmt.Println(err)
	// Output:
	// --group-window: invalid duration "5" (want a duration such as 30s, 5m or 4h)
	// --sink slack: want slack=URL
	// --log-level: unknown value "loud" (want debug, info, warn or error)
}
