package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/logmatch/logmatch/internal/catalog"
	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/patterns"
)

const validateLong = `Usage:
  logmatch validate [--config FILE] [--catalog PATH]... [run flags]

Loads and checks everything "logmatch run" would with the same flags,
without starting anything, opening the state or sending a thing: the
configuration file and flags (unknown keys with a "did you mean"), the
secrets each sink references, every catalog, the redaction rules, the
wrapped command. Prints each problem as "file:line: key: message", then
one summary line. A configuration with problems does not stop the
checks: the catalogs --catalog or the configuration names (when that part
of it loads), the globs and the command are still checked. Globs that
match no file are warnings: the files may appear later.`

var validateExit = exitHelp(
	"  0    everything loads (warnings do not count)",
	"  1    something does not load: each problem is printed",
	"  2    usage error: a flag that does not parse",
)

func newValidateCmd(e env) *cobra.Command {
	var flags *config.Flags
	c := &cobra.Command{
		Use:   "validate [flags]",
		Short: "check a configuration and its catalogs without running",
		Long:  validateLong,
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runValidate(e, flags)
		},
	}
	flags = config.RegisterFlags(c.Flags())
	return own(c, validateExit)
}

func runValidate(e env, flags *config.Flags) error {
	problems, warnings := 0, 0
	report := func(err error) {
		for _, line := range strings.Split(err.Error(), "\n") {
			if line != "" {
				fmt.Fprintln(e.stdout, line)
				problems++
			}
		}
	}
	warn := func(format string, args ...any) {
		fmt.Fprintf(e.stdout, "warning: "+format+"\n", args...)
		warnings++
	}
	note := func(format string, args ...any) {
		fmt.Fprintf(e.stdout, "note: "+format+"\n", args...)
	}

	// The configuration's problems first, all of them; then everything
	// the settings that did load name, as run would load it.
	chk := flags.Check(e.getenv, os.ReadFile)
	for _, err := range chk.Problems {
		report(err)
	}
	cfg := chk.Config

	records := -1
	if chk.Loaded("catalogs") {
		noDefault := cfg.NoDefaultCatalog && chk.Loaded("no_default_catalog")
		// Every missing catalog is a problem of its own; the others are
		// still loaded and checked.
		var paths []string
		for _, p := range cfg.Catalogs {
			if _, err := os.Stat(p); err != nil {
				report(fmt.Errorf("catalog %s: %w", p, err))
				continue
			}
			paths = append(paths, p)
		}
		if !noDefault || len(paths) > 0 {
			m, probs, err := catalog.Load(catalog.Spec{Paths: paths, NoDefault: noDefault})
			for _, p := range probs {
				if p.Level == patterns.LevelError {
					report(p)
				} else {
					warn("%v", p)
				}
			}
			if err != nil {
				report(err)
			} else {
				records = m.Len()
			}
		}
	} else {
		note("catalogs not checked: the configuration's catalogs did not load (give --catalog to check them)")
	}
	if chk.Loaded("paths") {
		for _, g := range cfg.Paths {
			if g == "-" || g == "" {
				continue
			}
			if files, _ := filepath.Glob(g); len(files) == 0 {
				warn("paths: %s matches no file now", g)
			}
		}
	}
	if chk.Loaded("state_dir") && cfg.StateDir != "" {
		if st, err := os.Stat(cfg.StateDir); err == nil && !st.IsDir() {
			report(fmt.Errorf("state_dir: %s is not a directory", cfg.StateDir))
		} else if err != nil && !errors.Is(err, os.ErrNotExist) {
			report(fmt.Errorf("state_dir: %w", err))
		}
	}
	if chk.Loaded("command") && len(cfg.Command) > 0 && cfg.Command[0] != "" {
		if err := lookCommand(cfg.Command[0]); err != nil {
			report(fmt.Errorf("command: %s", strings.TrimPrefix(err.Error(), "run: ")))
		}
	}

	if problems > 0 {
		fmt.Fprintf(e.stdout, "%s, %s\n", plural(problems, "problem", "problems"), plural(warnings, "warning", "warnings"))
		return exitStatus{code: exitFound}
	}
	var names []string
	for _, s := range cfg.Sinks {
		names = append(names, s.Name)
	}
	fmt.Fprintf(e.stdout, "ok: %s (%s), %s, %s\n", plural(len(cfg.Sinks), "sink", "sinks"), strings.Join(names, ", "),
		plural(records, "catalog record", "catalog records"), plural(warnings, "warning", "warnings"))
	return nil
}
