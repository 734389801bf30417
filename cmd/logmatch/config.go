package main

import (
	"github.com/spf13/cobra"

	"github.com/logmatch/logmatch/internal/config"
)

const configLong = `Usage:
  logmatch config --print-defaults

Prints a complete, commented configuration file for "logmatch run
--config": every key with its default and the environment variables that
matter. The output loads as it is. To check a configuration, use
"logmatch validate".`

func newConfigCmd(e env) *cobra.Command {
	var print bool
	c := &cobra.Command{
		Use:   "config --print-defaults",
		Short: "print a complete commented configuration",
		Long:  configLong,
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !print {
				return usageError("want --print-defaults")
			}
			return config.PrintDefaults(e.stdout)
		},
	}
	c.Flags().BoolVar(&print, "print-defaults", false, "print the complete commented default configuration")
	return own(c, exitHelp("  0    the configuration was printed", "  2    usage error"))
}
