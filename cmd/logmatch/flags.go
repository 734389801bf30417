package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// errHelp is returned when -h or --help was asked for: the usage was
// printed to stdout and the process exits 0.
var errHelp = errors.New("help requested")

// newFlagSet returns a flag set whose usage text is usage followed by the
// flag defaults; -h and --help print it to stdout.
func newFlagSet(name, usage string, e env) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprint(e.stdout, usage)
		if hasFlags(fs) {
			fmt.Fprintln(e.stdout, "\nFlags:")
			fs.SetOutput(e.stdout)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		}
	}
	return fs
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// parseFlags parses args, turning -h into errHelp (after printing usage)
// and any other problem into a usage error that names the flag.
func parseFlags(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
		return errHelp
	default:
		return usageError("%s: %v (see \"logmatch %s --help\")", fs.Name(), err, fs.Name())
	}
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string { return strings.Join(*s, ",") }

func (s *stringList) Set(v string) error {
	*s = append(*s, v)
	return nil
}
