package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/pipeline"
	"github.com/logmatch/logmatch/sinks"
)

const notifyLong = `Usage:
  logmatch notify [--config FILE] [--sink SPEC]... [run flags]

Sends one clearly labelled test alert (slug logmatch-test-alert, severity
critical, kind new) to each configured sink, directly: no queue, no
retry, no severity filter. Prints each sink's answer, so a new Slack
webhook, Alertmanager route or Collector endpoint can be checked before
the first real failure.`

var notifyExit = exitHelp(
	"  0    every sink accepted the test alert",
	"  1    a sink did not: its answer is printed",
	exitLineUsage,
)

func newNotifyCmd(e env) *cobra.Command {
	var flags *config.Flags
	c := &cobra.Command{
		Use:   "notify [flags]",
		Short: "send a test alert to each configured sink",
		Long:  notifyLong,
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := flags.Load(e.getenv, os.ReadFile)
			if err != nil {
				return configError(err)
			}
			a := testAlert(time.Now())
			failed := 0
			for _, r := range pipeline.SendTest(cmd.Context(), cfg.Sinks, a, e.getenv, e.stdout) {
				switch {
				case r.Err == nil:
					fmt.Fprintf(e.stdout, "%s (%s): ok, accepted in %s\n", r.Sink, r.Type, r.Elapsed.Round(time.Millisecond))
				case r.Retryable:
					failed++
					fmt.Fprintf(e.stdout, "%s (%s): failed, may pass later: %v\n", r.Sink, r.Type, r.Err)
				default:
					failed++
					fmt.Fprintf(e.stdout, "%s (%s): failed: %v\n", r.Sink, r.Type, r.Err)
				}
			}
			if failed > 0 {
				return exitStatus{code: exitFound, msg: fmt.Sprintf("notify: %d of %s failed", failed, plural(len(cfg.Sinks), "sink", "sinks"))}
			}
			return nil
		},
	}
	flags = config.RegisterFlags(c.Flags())
	return own(c, notifyExit)
}

// testAlert is the alert notify sends: every field an alert has, and
// every one of them saying it is a test.
func testAlert(now time.Time) *sinks.Alert {
	const msg = "This is a test alert sent by logmatch notify. No action is needed."
	host, _ := os.Hostname()
	return &sinks.Alert{
		Schema:      sinks.Schema,
		Fingerprint: fmt.Sprintf("logmatch-test-%d", now.Unix()),
		Time:        now,
		LastTime:    now,
		Count:       1,
		Kind:        sinks.KindNew,
		Record: sinks.Record{
			ID:           "logmatch-test",
			Slug:         "logmatch-test-alert",
			Repo:         "logmatch",
			Severity:     "critical",
			ErrorMessage: msg,
			Solutions:    []string{"Nothing to fix: this alert checks that logmatch can reach this destination."},
			Tags:         []string{"test"},
		},
		Match:  sinks.Match{Text: msg},
		Source: sinks.Source{Path: "logmatch notify", Node: host},
		Entry:  msg,
	}
}
