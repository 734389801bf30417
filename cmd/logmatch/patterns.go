package main

import (
	"context"
	"fmt"
	"os"

	"github.com/logmatch/logmatch/internal/catalogcheck"
	"github.com/logmatch/logmatch/internal/gen"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

const patternsUsage = `Usage:
  logmatch patterns lint [--no-probe] [PATH...]
  logmatch patterns gen --src DIR [--repo OWNER/NAME] [--sha SHA] [--out FILE]

lint  loads catalogs (the embedded default when no PATH is given), prints
      "N records" and one line per problem ("file:line: field: message"):
      bad JSON, missing id or messagePattern, regexes that do not compile,
      duplicate ids, catastrophic backtracking; then the catalog analysis
      (own message not matched, overlapping records, patterns with no literal
      anchor, the most expensive patterns). Exit 1 when a problem is an error.

gen   walks a Python source tree and writes a skeleton record for every
      raise and logger.error/critical/exception/warning call with a message.
`

func cmdPatterns(ctx context.Context, args []string, e env) error {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, patternsUsage)
		return usageError("patterns: missing subcommand: lint or gen")
	}
	switch args[0] {
	case "lint":
		return cmdPatternsLint(ctx, args[1:], e)
	case "gen":
		return cmdPatternsGen(ctx, args[1:], e)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(e.stdout, patternsUsage)
		return nil
	}
	return usageError("patterns: unknown subcommand %q: want lint or gen", args[0])
}

func cmdPatternsLint(ctx context.Context, args []string, e env) error {
	fs := newFlagSet("patterns lint", patternsUsage, e)
	noProbe := fs.Bool("no-probe", false, "skip running patterns against pathological inputs (static checks only)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	recs, probs := patterns.LoadForLint(fs.Args(), patterns.LintOptions{NoProbe: *noProbe})
	sum := patterns.Summarize(recs, probs)
	fmt.Fprintf(e.stdout, "%d records\n", len(recs))
	for _, p := range probs {
		fmt.Fprintf(e.stdout, "%s: %v\n", p.Level, p)
	}
	if err := writeAnalysis(ctx, e, recs); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, sum)
	if !sum.OK() {
		return exitStatus{code: exitFound}
	}
	return nil
}

func cmdPatternsGen(_ context.Context, args []string, e env) error {
	fs := newFlagSet("patterns gen", patternsUsage, e)
	src := fs.String("src", "", "Python source tree to walk (required)")
	repo := fs.String("repo", "", "GitHub OWNER/NAME the tree is a checkout of, for repo and githubUrl")
	sha := fs.String("sha", "", "commit the tree was taken from, to pin githubUrl")
	out := fs.String("out", "", "write the records to FILE instead of standard output")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *src == "" {
		return usageError("patterns gen: --src is required")
	}
	if fs.NArg() > 0 {
		return usageError("patterns gen: unexpected argument %q", fs.Arg(0))
	}
	recs, skips, err := gen.GenerateDir(*src, gen.Options{Repo: *repo, SHA: *sha})
	if err != nil {
		return usageError("%w", err)
	}
	for _, s := range skips {
		fmt.Fprintf(e.stderr, "skipped: %s\n", s)
	}
	if *out == "" {
		if err := gen.Write(e.stdout, recs); err != nil {
			return fmt.Errorf("writing records: %w", err)
		}
	} else if err := writeFile(*out, recs); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "%d records, %d sites skipped\n", len(recs), len(skips))
	return nil
}

// writeFile writes the records to path; a failed close is a failed write.
func writeFile(path string, recs []patterns.Record) error {
	f, err := os.Create(path)
	if err != nil {
		return usageError("--out: %w", err)
	}
	if err := gen.Write(f, recs); err != nil {
		f.Close()
		return fmt.Errorf("--out: writing records: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	return nil
}

// writeAnalysis prints the catalog analysis: records whose own message
// their pattern misses, overlapping and shadowed records, patterns the
// prefilter cannot anchor, and the most expensive patterns. It informs;
// it does not change the exit status.
func writeAnalysis(_ context.Context, e env, recs []patterns.Record) error {
	m, _ := matcher.Compile(recs, matcher.Options{})
	if m.Len() == 0 {
		return nil
	}
	rep := catalogcheck.Check(m, catalogcheck.Options{})
	if err := rep.Render(e.stdout); err != nil {
		return fmt.Errorf("writing analysis: %w", err)
	}
	return nil
}
