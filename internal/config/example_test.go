package config_test

import (
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"github.com/logmatch/logmatch/internal/config"
)

// ExampleFlags_Load is how `logmatch run` builds its configuration: its
// flags are registered on the command's flag set, the command line is
// parsed, and Load reads the --config file and applies the flags over it;
// everything after "--" is the wrapped command.
func ExampleFlags_Load() {
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
	fs := pflag.NewFlagSet("logmatch run", pflag.ContinueOnError)
	flags := config.RegisterFlags(fs)
	if err := fs.Parse([]string{
		"--config", "/etc/logmatch/logmatch.yaml", "--group-window", "2m",
		"--", "python3", "-m", "sglang.launch_server",
	}); err != nil {
		fmt.Println(err)
		return
	}
	cfg, err := flags.Load(getenv, readFile)
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

// ExampleFlags_Load_errors shows that every problem is reported at once,
// each with its place.
func ExampleFlags_Load_errors() {
	fs := pflag.NewFlagSet("logmatch run", pflag.ContinueOnError)
	flags := config.RegisterFlags(fs)
	if err := fs.Parse([]string{"--group-window", "5", "--sink", "slack", "--log-level", "loud"}); err != nil {
		fmt.Println(err)
		return
	}
	_, err := flags.Load(os.Getenv, os.ReadFile)
	fmt.Println(err)
	// Output:
	// --group-window: invalid duration "5" (want a duration such as 30s, 5m or 4h)
	// --sink slack: want slack=URL
	// --log-level: unknown value "loud" (want debug, info, warn or error)
}
