package main

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/logmatch/logmatch/sinks"
)

// helpTemplate prints a command's help once: its own text (which starts
// with its synopsis), its subcommands, its flags. Commands that write their
// own synopsis carry the "synopsis" annotation; cobra's completion
// commands get a generated one.
const helpTemplate = `{{if index .Annotations "synopsis"}}{{.Long | trimTrailingWhitespaces}}{{else}}Usage:
  {{.UseLine}}{{with .Long}}

{{. | trimTrailingWhitespaces}}{{end}}{{end}}{{if .HasAvailableSubCommands}}

Commands:{{range .Commands}}{{if .IsAvailableCommand}}
  {{rpad .Name .NamePadding}} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

Flags:
{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableInheritedFlags}}

Global flags:
{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{with index .Annotations "footer"}}

{{.}}{{end}}
`

// Exit status lines shared by the commands' help.
const (
	exitLineUsage   = "  2    usage error (bad flags or arguments), or a configuration or catalog that does not load"
	exitLineFailure = "  3    runtime failure: unreadable input, a locked or damaged state directory, a port in use"
)

// exitHelp formats a command's exit codes for its help.
func exitHelp(lines ...string) string {
	return strings.Join(lines, "\n")
}

// rootFooter sums up every command's exit codes, as the README's table
// does; each command's help lists its own.
var rootFooter = "Exit status:\n" + exitHelp(
	"  0    success",
	"  1    something was found: scan --fail-on matched, patterns lint or validate found a problem,",
	"       test --expect was not met, a sink refused notify's test alert",
	exitLineUsage,
	exitLineFailure,
	"  N    run -- COMMAND: the wrapped command's own exit status",
	"  75   run --on-fatal terminate -- COMMAND: a gating failure ended the wrapped command",
	"  126  run -- COMMAND: the wrapped command cannot be run",
	"  127  run -- COMMAND: the wrapped command was not found, as in a shell",
) + "\n\n" + `Run "logmatch <command> --help" for a command's flags and exit codes.`

const rootLong = `logmatch recognises failures in sglang logs and tells you how to fix them.

Usage:
  logmatch <command> [flags] [arguments]`

// newRoot builds the command tree for one invocation; tests build their
// own with their own streams.
func newRoot(e env) *cobra.Command {
	root := &cobra.Command{
		Use:           "logmatch",
		Short:         "recognise failures in sglang logs and say how to fix them",
		Long:          rootLong,
		Version:       versionString(),
		Annotations:   map[string]string{"synopsis": "own", "footer": rootFooter},
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// Bare "logmatch": the help, on stderr since it is a mistake.
			cmd.SetOut(e.stderr)
			_ = cmd.Help()
			return exitStatus{code: exitUsage}
		},
	}
	root.SuggestionsMinimumDistance = 2
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.SetHelpTemplate(helpTemplate)
	root.SetVersionTemplate("logmatch {{.Version}}\n")
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return usageError("%v%s", err, didYouMean(cmd, err))
	})
	root.CompletionOptions.HiddenDefaultCmd = false
	root.AddCommand(
		newScanCmd(e),
		newRunCmd(e),
		newValidateCmd(e),
		newTestCmd(e),
		newNotifyCmd(e),
		newPatternsCmd(e),
		newConfigCmd(e),
		newVersionCmd(e),
	)
	root.SetHelpCommand(&cobra.Command{
		Use:   "help [command]",
		Short: "help about any command",
		Long:  "Usage:\n  logmatch help [command]\n\nPrints the help of a command, as \"logmatch <command> --help\" does.",
		RunE: func(cmd *cobra.Command, args []string) error {
			c, rest, err := root.Find(args)
			if err != nil || len(rest) > 0 {
				return usageError("unknown help topic %q", strings.Join(args, " "))
			}
			return c.Help()
		},
	})
	// cobra adds its completion command while executing; add it now, so an
	// unknown shell is a usage error rather than the help on stdout.
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.Args = noArgs
			c.RunE = func(*cobra.Command, []string) error {
				return usageError("want a shell: bash, zsh, fish or powershell")
			}
			c.Long = completionLong
			own(c, exitHelp("  0    with a shell: the script was printed", "  2    usage error: no shell, or one logmatch has no script for"))
			for _, sh := range c.Commands() {
				sh.Annotations = map[string]string{"footer": "Exit status:\n" + exitHelp("  0    the script was printed", "  2    usage error (bad flags or arguments)")}
			}
		}
	}
	return root
}

const completionLong = `Usage:
  logmatch completion bash|zsh|fish|powershell

Prints a completion script for the shell: source <(logmatch completion bash).
Each shell's help says where to install it for good.`

// own marks a command whose Long text starts with its own synopsis, and
// sets the exit-code footer of its help.
func own(c *cobra.Command, exitCodes string) *cobra.Command {
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations["synopsis"] = "own"
	if exitCodes != "" {
		c.Annotations["footer"] = "Exit status:\n" + exitCodes
	}
	return c
}

// noArgs rejects positional arguments as a usage error; an unknown
// subcommand is named as such.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if cmd.HasAvailableSubCommands() {
		msg := "unknown command \"" + args[0] + "\""
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			msg += " (did you mean " + strings.Join(s, " or ") + "?)"
		}
		return usageError("%s", msg)
	}
	return usageError("unexpected argument %q", args[0])
}

func newVersionCmd(e env) *cobra.Command {
	return own(&cobra.Command{
		Use:   "version",
		Short: "print the version",
		Long:  "Usage:\n  logmatch version\n\nPrints the version, the commit and the Go version (also: logmatch --version).",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cmd.Printf("logmatch %s\n", versionString())
			return nil
		},
	}, exitHelp("  0    the version was printed", "  2    usage error (an argument)"))
}

// didYouMean suggests the command's flags near a mistyped one, as cobra
// does for commands: " (did you mean --catalog?)", or "" for an error
// that is not about an unknown flag, or when none is near.
func didYouMean(cmd *cobra.Command, err error) string {
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "unknown flag: --")
	if !ok {
		return ""
	}
	name, _, _ = strings.Cut(name, "=")
	var near []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		if d := sinks.EditDistance(name, f.Name); d <= max(1, min(2, len(name)/3)) || (len(name) >= 3 && strings.HasPrefix(f.Name, name)) {
			near = append(near, "--"+f.Name)
		}
	})
	if len(near) == 0 || len(near) > 3 {
		return ""
	}
	return " (did you mean " + strings.Join(near, " or ") + "?)"
}

// plural is n and the word for n of it: "1 sink", "2 sinks".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
