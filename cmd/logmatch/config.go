package main

import (
	"context"

	"github.com/logmatch/logmatch/internal/config"
)

const configUsage = `Usage:
  logmatch config --print-defaults

Prints a complete, commented configuration file for "logmatch run
--config": every key with its default and the environment variables that
matter. The output loads as it is.
`

func cmdConfig(_ context.Context, args []string, e env) error {
	fs := newFlagSet("config", configUsage, e)
	print := fs.Bool("print-defaults", false, "print the complete commented default configuration")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if !*print || fs.NArg() > 0 {
		return usageError("config: want --print-defaults")
	}
	return config.PrintDefaults(e.stdout)
}
