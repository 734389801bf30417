package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/logmatch/logmatch/internal/catalog"
	"github.com/logmatch/logmatch/internal/catalogcheck"
	"github.com/logmatch/logmatch/internal/gen"
	"github.com/logmatch/logmatch/patterns"
)

const patternsLong = `Usage:
  logmatch patterns lint [--no-probe] [--show KINDS] [--record ID]... [--summary] [--format text|json] [PATH...]
  logmatch patterns gen --src DIR [--root DIR] [--repo OWNER/NAME] [--sha SHA] [--warnings] [--out FILE]
  logmatch patterns gen --refine FILE [--warnings] [--out FILE]
  logmatch patterns check --src TREE [--root DIR] [--sha SHA] [--repo OWNER/NAME] [--write] [PATH...]

Work with catalogs: check them, check them against a source tree, and
generate records from Python sources.`

const lintLong = `Usage:
  logmatch patterns lint [--no-probe] [--show KINDS] [--record ID]... [--summary] [--format text|json] [PATH...]

Loads catalogs (the embedded default when no PATH is given) and prints one
line per finding, then one summary line. Findings, by kind:
  problem     the catalog does not load cleanly ("file:line: field:
              message"): bad JSON, missing id or messagePattern, regexes
              that do not compile, duplicate ids, catastrophic backtracking
  self-miss   a pattern misses its own errorMessage
  shadowed    another record ranks first on this record's message
  overlap     another record also matches this record's message, ranking
              below it
  unanchored  the prefilter cannot key the pattern: tried on every entry
  expensive   the most expensive patterns on a standard input
Shadowed records and overlaps are counted in the summary and listed only
with --show (they run into the thousands in a large generated catalog).
--show picks the kinds listed (comma-separated, or all), --record the
records (id or slug), --summary prints only the summary line, and
--format json one JSON document with the counts, the findings and the
summary.`

var lintExit = exitHelp(
	"  0    no problem is an error (warnings and analysis findings do not count)",
	"  1    a problem is an error: a record was skipped or will misbehave",
	exitLineUsage,
)

const genLong = `Usage:
  logmatch patterns gen --src DIR [--root DIR] [--repo OWNER/NAME] [--sha SHA] [--warnings] [--out FILE]
  logmatch patterns gen --refine FILE [--warnings] [--out FILE]

Walks a Python source tree and writes a skeleton record for every raise,
returned exception and logger.error/critical/exception/warning call with
a message (a message assigned to a variable first included): the literal
text regex-escaped, each placeholder a named lazy group (named after the
f-string's variable), the last one reaching the end of the line. filePath
and githubUrl are relative to the repository's top (--root, or the first
parent with .git), so walking sglang/python keeps the python/ prefix.
Messages that are Python's, torch's or pydantic's own, re-raised with
their wording, get no record, and logger.warning sites get one only with
--warnings: most are notices a healthy server prints, and a record of
each would alert on them. --refine FILE applies the same rules to a
catalog an older logmatch generated.`

const checkLong = `Usage:
  logmatch patterns check --src TREE [--root DIR] [--sha SHA] [--repo OWNER/NAME] [--write] [PATH...]

Checks catalogs (the embedded default when no PATH is given) against a
source tree of the server they describe, and prints one line per
finding, then one summary line. For each record of --repo that names a
filePath, its text is looked for in the tree's raise and log calls and
string literals:
  moved   it is there, at another file or line (the new place is shown)
  gone    it is nowhere; a record for older versions only says so with
          removedIn, and is then not looked for
and in every record's solutions and preventionTips:
  flag    a --flag the tree's argument parsers do not define, or define
          only as a deprecated alias (the replacement is shown) or a
          removed flag; flags that follow another program's name in the
          same sentence (docker, pip, nvidia-smi...) are that program's
  env     an SGLANG_* variable the tree neither defines nor reads
  pip     a "pip install NAME" the tree's pyproject files do not name
TREE may be the repository or a directory in it: paths are relative to
the repository's top (--root, or the first parent with .git). The commit is read
from .git, or given with --sha. --write rewrites filePath, lineNumber,
githubUrl and analyzedSha of every record found, pinned to that commit,
in the catalog files named (not the embedded one); the advice is left to
a person.`

func newPatternsCmd(e env) *cobra.Command {
	c := &cobra.Command{
		Use:   "patterns",
		Short: `work with catalogs: "patterns lint", "patterns check", "patterns gen"`,
		Long:  patternsLong,
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			return usageError("missing subcommand: lint, check or gen")
		},
	}
	c.AddCommand(newLintCmd(e), newCheckCmd(e), newGenCmd(e))
	return own(c, exitHelp(
		"  0    success",
		"  1    lint: a problem is an error; check: a finding",
		exitLineUsage,
		"  3    gen: runtime failure: an unreadable tree, an unwritable --out",
	))
}

func newLintCmd(e env) *cobra.Command {
	var (
		noProbe     bool
		show        string
		records     []string
		summaryOnly bool
		format      string
	)
	c := &cobra.Command{
		Use:   "lint [flags] [PATH...]",
		Short: "check catalogs and analyse their records",
		Long:  lintLong,
		RunE: func(cmd *cobra.Command, args []string) error {
			kinds, err := catalogcheck.ParseKinds(show)
			if err != nil {
				return usageError("--show: %v", err)
			}
			if format != "text" && format != "json" {
				return usageError("--format: %q is not text or json", format)
			}
			l := lintCatalogs(args, noProbe)
			all := l.Findings()
			kept, hidden := catalogcheck.Filter{Kinds: kinds, Records: records}.Apply(all)
			if format == "json" {
				err = catalogcheck.WriteJSON(e.stdout, l, all, kept, hidden, summaryOnly)
			} else {
				err = catalogcheck.WriteText(e.stdout, l, kept, hidden, summaryOnly)
			}
			if err != nil {
				return fmt.Errorf("writing findings: %w", err)
			}
			if !l.Summary.OK() {
				return exitStatus{code: exitFound}
			}
			return nil
		},
	}
	fs := c.Flags()
	fs.BoolVar(&noProbe, "no-probe", false, "skip running patterns against pathological inputs (static checks only)")
	fs.StringVar(&show, "show", "", "kinds of finding to list, comma-separated, or all (default problem,self-miss,unanchored,expensive)")
	fs.StringArrayVar(&records, "record", nil, "list only findings about this record id or slug (repeatable)")
	fs.BoolVar(&summaryOnly, "summary", false, "print only the summary line")
	fs.StringVar(&format, "format", "text", "output format: text or json")
	return own(c, lintExit)
}

// lintCatalogs loads and analyses the catalogs at paths (the embedded
// default when none).
func lintCatalogs(paths []string, noProbe bool) catalogcheck.Lint {
	recs, probs := patterns.LoadForLint(paths, patterns.LintOptions{NoProbe: noProbe})
	l := catalogcheck.Lint{Summary: patterns.Summarize(recs, probs), Problems: probs}
	m, _ := catalog.Compile(recs, nil)
	if m.Len() > 0 {
		l.Report = catalogcheck.Check(m, catalogcheck.Options{})
		l.Analysed = true
	}
	return l
}

func newCheckCmd(e env) *cobra.Command {
	var src, root, sha, repo string
	var write bool
	c := &cobra.Command{
		Use:   "check --src TREE [flags] [PATH...]",
		Short: "check catalogs against the source tree they describe",
		Long:  checkLong,
		RunE: func(cmd *cobra.Command, args []string) error {
			if src == "" {
				return usageError("--src is required")
			}
			if write && len(args) == 0 {
				return usageError("--write needs the catalog files to rewrite: the embedded catalog cannot be")
			}
			t, err := gen.OpenTree(src, root, sha)
			if err != nil {
				return err
			}
			var recs []patterns.Record
			var probs []patterns.Problem
			if len(args) == 0 {
				recs, probs = patterns.Default()
			} else {
				recs, probs = patterns.Load(args...)
			}
			bad := false
			for _, p := range probs {
				fmt.Fprintf(e.stdout, "%s: %v\n", p.Level, p)
				bad = bad || p.Level == patterns.LevelError
			}
			res := gen.Check(recs, t, gen.CheckOptions{Repo: repo})
			for _, f := range res.Findings {
				fmt.Fprintln(e.stdout, f)
			}
			if write {
				changed, err := gen.WritePins(gen.Pins(recs, res, repo, t.SHA))
				for _, f := range changed {
					fmt.Fprintf(e.stdout, "rewrote %s\n", f)
				}
				if err != nil {
					return fmt.Errorf("--write: %w", err)
				}
			}
			fmt.Fprintf(e.stdout, "%s at %s\n", res, t.SHA)
			if bad || !res.OK() {
				return exitStatus{code: exitFound}
			}
			return nil
		},
	}
	fs := c.Flags()
	fs.StringVar(&src, "src", "", "source tree to check against: the repository or a directory in it (required)")
	fs.StringVar(&root, "root", "", "top of the repository --src is in, which filePath is relative to (default: the first parent with .git, else --src)")
	fs.StringVar(&sha, "sha", "", "commit the tree is at, when it has no .git to read it from")
	fs.StringVar(&repo, "repo", "sgl-project/sglang", "GitHub OWNER/NAME of the tree: only its records are looked for")
	fs.BoolVar(&write, "write", false, "rewrite filePath, lineNumber, githubUrl and analyzedSha of the records found, pinned to the commit")
	return own(c, exitHelp(
		"  0    no finding",
		"  1    a finding, or a catalog problem that is an error",
		exitLineUsage,
		"  3    runtime failure: an unreadable tree, an unknown commit, a catalog file that cannot be rewritten",
	))
}

func newGenCmd(e env) *cobra.Command {
	var src, root, repo, sha, out, refine string
	var warnings bool
	c := &cobra.Command{
		Use:   "gen --src DIR [flags]",
		Short: "write skeleton records for the error sites of a Python tree",
		Long:  genLong,
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (src == "") == (refine == "") {
				return usageError("give --src, or --refine with a generated catalog")
			}
			var recs []patterns.Record
			var skips []string
			if refine != "" {
				old, probs := patterns.LoadFile(refine)
				for _, p := range probs {
					if p.Level == patterns.LevelError {
						return fmt.Errorf("--refine: %w", p)
					}
				}
				recs, skips = gen.Refine(old, warnings)
			} else {
				var sites []gen.Skip
				var err error
				recs, sites, err = gen.GenerateDir(src, gen.Options{Repo: repo, SHA: sha, Root: root, Warnings: warnings})
				if err != nil {
					return err
				}
				for _, s := range sites {
					skips = append(skips, s.String())
				}
			}
			for _, s := range skips {
				fmt.Fprintf(e.stderr, "skipped: %s\n", s)
			}
			if out == "" {
				if err := gen.Write(e.stdout, recs); err != nil {
					return fmt.Errorf("writing records: %w", err)
				}
			} else if err := writeFile(out, recs); err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "%d records, %d sites skipped\n", len(recs), len(skips))
			return nil
		},
	}
	fs := c.Flags()
	fs.StringVar(&src, "src", "", "Python source tree to walk (required)")
	fs.StringVar(&root, "root", "", "top of the repository --src is in, which filePath is relative to (default: the first parent with .git, else --src)")
	fs.StringVar(&repo, "repo", "", "GitHub OWNER/NAME the tree is a checkout of, for repo and githubUrl")
	fs.StringVar(&sha, "sha", "", "commit the tree was taken from, to pin githubUrl")
	fs.StringVar(&out, "out", "", "write the records to FILE instead of standard output")
	fs.BoolVar(&warnings, "warnings", false, "keep logger.warning sites too (most are notices a healthy server prints)")
	fs.StringVar(&refine, "refine", "", "instead of walking a tree, drop from a catalog FILE an older gen wrote the records gen no longer writes")
	return own(c, exitHelp("  0    the records were written", exitLineUsage, "  3    runtime failure: an unreadable tree or --refine file, an unwritable --out"))
}

// writeFile writes the records to path; a failed close is a failed write.
func writeFile(path string, recs []patterns.Record) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--out: %w", err)
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
