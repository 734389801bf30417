package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/logmatch/logmatch/internal/catalog"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/factcache"
	"github.com/logmatch/logmatch/internal/logfile"
	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/internal/report"
	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/patterns"
)

const scanLong = `Usage:
  logmatch scan [--catalog PATH]... [--no-default-catalog] [--format text|json|markdown]
                [--report FILE.html] [--fail-on SEVERITY] [--catalog-cache DIR|off]
                [--server-version VERSION] FILE... | -

Reads whole log files (or standard input, "-") once, rebuilds entries and
tracebacks, matches them against the catalog and prints one incident per
failure and source: severity, record, count, ranks, what matched, the
exception, solutions and prevention tips. Flags may come before or after
the files.

--catalog adds records to the embedded default catalog (a record with the
same id replaces the default one); --no-default-catalog uses only the given
catalogs. --format json prints one logmatch.alert/v1 object per line;
--format markdown prints the findings as Markdown to paste into an issue.
--report writes them as one self-contained HTML page besides: a timeline
of the failures on each rank and process, the first failure first, then
every incident with its solutions (inline CSS and SVG, no script, fetches
nothing; reads offline and prints).
Files compressed with gzip or zstd (rotated logs: server.log.1.gz) are
read as text, whatever their name; a file that is not text (binary data,
another compression) is an error naming it: exit 3.
--server-version names the sglang release that wrote the logs (0.5.3): a
record whose introducedIn/removedIn leave that release out is not matched.
--catalog-cache keeps what the catalog's load derived (which patterns parse,
their literals, the prefilter's keys) for the next scan of this build, which
then loads the same catalog in about a third of the CPU; default
$XDG_CACHE_HOME/logmatch (~/.cache/logmatch), "off" for none.
On a terminal, a scan of several files or of more than a second shows its
progress on stderr: files done, MB read, MB/s and the incidents so far.`

var scanExit = exitHelp(
	"  0    the scan ran",
	"  1    --fail-on is given and an incident at or above that severity was found",
	exitLineUsage,
	exitLineFailure+" (the other files are still scanned)",
)

func newScanCmd(e env) *cobra.Command {
	var (
		catalogs  []string
		noDefault bool
		format    string
		failOn    string
		cacheDir  string
		reportTo  string
		version   string
	)
	c := &cobra.Command{
		Use:   "scan [flags] FILE... | -",
		Short: "scan log files (or stdin) once and print the incidents found",
		Long:  scanLong,
		RunE: func(cmd *cobra.Command, args []string) error {
			cat := catalog.Spec{Paths: catalogs, NoDefault: noDefault}
			cat.Cache, cat.OnCacheError = openCatalogCache(e, "scan", cacheDir, cmd.Flags().Changed("catalog-cache"))
			if version != "" {
				if _, err := patterns.ParseVersion(version); err != nil {
					return usageError("--server-version: %v", err)
				}
			}
			return runScan(cmd.Context(), e, args, cat, format, failOn, reportTo, version)
		},
	}
	fs := c.Flags()
	fs.StringArrayVar(&catalogs, "catalog", nil, "catalog file or directory to add (repeatable)")
	fs.BoolVar(&noDefault, "no-default-catalog", false, "do not load the embedded default catalog")
	fs.StringVar(&format, "format", "text", "output format: text, json or markdown")
	fs.StringVar(&reportTo, "report", "", "also write the findings to this `file` as a self-contained HTML page")
	fs.StringVar(&version, "server-version", "", "the sglang release that wrote the logs (0.5.3): records of other releases only are not matched")
	fs.StringVar(&failOn, "fail-on", "", "exit 1 when an incident at or above this severity is found (info, warning, error, critical)")
	catalogCacheFlag(fs, &cacheDir)
	return own(c, scanExit)
}

// catalogCacheFlag adds --catalog-cache, the fact cache of the commands
// that load a catalog and exit (scan, test).
func catalogCacheFlag(fs *pflag.FlagSet, dir *string) {
	fs.StringVar(dir, "catalog-cache", "", "`dir`ectory for what catalog loads derive, \"off\" for none (default $XDG_CACHE_HOME/logmatch)")
}

// openCatalogCache opens the fact cache of --catalog-cache: dir, or the
// user's cache directory when dir is empty. A cache that cannot be used is
// reported only when the operator named it (explicit); the command goes
// on without it.
func openCatalogCache(e env, cmd, dir string, explicit bool) (*factcache.Dir, func(error)) {
	warn := func(err error) { fmt.Fprintf(e.stderr, "logmatch %s: catalog cache: %v\n", cmd, err) }
	if dir == "off" {
		return nil, nil
	}
	if dir == "" {
		dir = userCacheDir(e.getenv)
		if dir == "" {
			return nil, nil
		}
	}
	d, err := factcache.Open(dir)
	if err != nil {
		if explicit {
			warn(err)
		}
		return nil, nil
	}
	return d, warn
}

// userCacheDir is os.UserCacheDir's answer on Linux, from getenv, with
// "logmatch" added; "" when neither variable is set.
func userCacheDir(getenv func(string) string) string {
	if d := getenv("XDG_CACHE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "logmatch")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".cache", "logmatch")
	}
	return ""
}

// scanGCPercent is a scan's GC target. At the default (100) the heap's
// first goal is 4 MB, which the cached catalog's records alone nearly
// fill: a collection then began as the scan did, and its mark assists and
// write barriers cost about a tenth of a scan of 300,000 lines (86-87 ms
// of CPU against 96-102). At 200 such a scan collects nothing, and the
// 50,000-record load takes 46 ms rather than 52, peak RSS unchanged (the
// images are mapped, not on the heap).
const scanGCPercent = 200

// scanGC raises the GC target to scanGCPercent for one scan, unless GOGC
// names the operator's own, and returns what puts the old one back.
func scanGC() (restore func()) {
	if _, set := os.LookupEnv("GOGC"); set {
		return func() {}
	}
	old := debug.SetGCPercent(scanGCPercent)
	if old <= 0 || old >= scanGCPercent {
		debug.SetGCPercent(old)
		return func() {}
	}
	return func() { debug.SetGCPercent(old) }
}

func runScan(ctx context.Context, e env, args []string, cat catalog.Spec, format, failOn, reportTo, version string) error {
	if format != "text" && format != "json" && format != "markdown" {
		return usageError("--format: %q is not text, json or markdown", format)
	}
	var threshold patterns.Severity
	if failOn != "" {
		sev, err := patterns.ParseSeverity(failOn)
		if err != nil {
			return usageError("--fail-on: %v", err)
		}
		threshold = sev
	}
	if len(args) == 0 {
		return usageError("no input: give one or more files, or - for standard input")
	}

	defer scanGC()()
	m, problems, err := catalog.Load(cat)
	for _, p := range problems {
		fmt.Fprintf(e.stderr, "logmatch scan: catalog: %s: %v\n", p.Level, p)
	}
	if err != nil {
		return configError(err)
	}

	var inputs []scan.Input
	var inputErrs []error
	prog := newProgress(e, len(args))
	for _, name := range args {
		if name == "-" {
			// Looked at when the scan reads it: its start may be slow
			// to come, and the files before it are scanned meanwhile.
			r := logfile.Lazy(prog.reader(e.stdin))
			defer r.Close()
			inputs = append(inputs, scan.Input{Name: "-", R: r})
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			inputErrs = append(inputErrs, err)
			continue
		}
		defer f.Close()
		// Compressed rotations are read as text; a file that is no text
		// is an error, never a scan that finds nothing.
		r, err := logfile.Open(prog.reader(f))
		if err != nil {
			inputErrs = append(inputErrs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		defer r.Close()
		inputs = append(inputs, scan.Input{Name: name, R: r})
	}

	if len(inputs) == 0 {
		// Nothing was scanned: a "no incidents" verdict would be a lie.
		// The input's fault, not a usage mistake: a runtime failure.
		return errors.Join(inputErrs...)
	}
	red, err := redact.New(nil)
	if err != nil {
		return err
	}
	s := scan.New(m, scan.Options{Entry: entry.Options{Redact: red.Redact}, Redact: red.RedactAlert, OnIncidents: prog.onIncidents(), ServerVersion: version})
	stop := prog.start(ctx)
	res, err := s.Scan(ctx, inputs)
	stop()
	if err != nil {
		inputErrs = append(inputErrs, err)
	}
	findings := report.Findings{Inputs: args, Lines: res.Stats.Lines, Entries: res.Stats.Entries, Alerts: res.Alerts, Generated: time.Now(), Version: version}
	// The renderers write an alert, or a line of text, at a time: through
	// a buffer, a scan's output takes a write call every 64 KB rather than
	// one an incident (or a line).
	out := bufio.NewWriterSize(e.stdout, 64<<10)
	switch format {
	case "json":
		err = scan.WriteJSON(out, res.Alerts)
	case "markdown":
		err = report.WriteMarkdown(out, findings)
	default:
		err = scan.WriteText(out, res)
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return fmt.Errorf("writing results: %w", err)
	}
	if reportTo != "" {
		if err := writeReport(reportTo, findings); err != nil {
			return err
		}
	}
	if len(inputErrs) > 0 {
		// The input's fault, but not a usage mistake: a runtime failure.
		return errors.Join(inputErrs...)
	}
	if threshold != "" {
		for _, a := range res.Alerts {
			if patterns.Severity(a.Record.Severity).Rank() >= threshold.Rank() {
				return exitStatus{code: exitFound}
			}
		}
	}
	return nil
}

// writeReport writes the HTML report to path through a temporary file in
// its directory, so a report that cannot be written whole leaves none.
func writeReport(path string, f report.Findings) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("--report: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing to remove
	if err := report.WriteHTML(tmp, f); err != nil {
		tmp.Close()
		return fmt.Errorf("--report %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("--report %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("--report %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("--report: %w", err)
	}
	return nil
}
