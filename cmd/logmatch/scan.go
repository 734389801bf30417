package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/pipeline"
	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/patterns"
)

const scanUsage = `Usage:
  logmatch scan [--catalog PATH]... [--no-default-catalog] [--format text|json]
                [--fail-on SEVERITY] FILE... | -

Reads whole log files (or standard input, "-") once, rebuilds entries and
tracebacks, matches them against the catalog and prints one incident per
failure and source: severity, record, count, ranks, what matched, the
exception, solutions and prevention tips.

--catalog adds records to the embedded default catalog (a record with the
same id replaces the default one); --no-default-catalog uses only the given
catalogs. --format json prints one logmatch.alert/v1 object per line.

Exit status: 0 when the scan ran; 1 when --fail-on is given and an incident
at or above that severity was found; 2 for usage errors or unreadable input.
`

func cmdScan(ctx context.Context, args []string, e env) error {
	fs := newFlagSet("scan", scanUsage, e)
	var catalogs stringList
	fs.Var(&catalogs, "catalog", "catalog file or directory to add (repeatable)")
	noDefault := fs.Bool("no-default-catalog", false, "do not load the embedded default catalog")
	format := fs.String("format", "text", "output format: text or json")
	failOn := fs.String("fail-on", "", "exit 1 when an incident at or above this severity is found (info, warning, error, critical)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *format != "text" && *format != "json" {
		return usageError("--format: %q is not text or json", *format)
	}
	var threshold patterns.Severity
	if *failOn != "" {
		sev, err := patterns.ParseSeverity(*failOn)
		if err != nil {
			return usageError("--fail-on: %v", err)
		}
		threshold = sev
	}
	if fs.NArg() == 0 {
		return usageError("scan: no input: give one or more files, or - for standard input")
	}

	m, problems, err := pipeline.LoadMatcher(pipeline.Catalog{Paths: catalogs, NoDefault: *noDefault})
	for _, p := range problems {
		fmt.Fprintf(e.stderr, "logmatch: catalog: %s: %v\n", p.Level, p)
	}
	if err != nil {
		return usageError("%w", err)
	}

	var inputs []scan.Input
	var inputErrs []error
	for _, name := range fs.Args() {
		if name == "-" {
			inputs = append(inputs, scan.Input{Name: "-", R: e.stdin})
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			inputErrs = append(inputErrs, err)
			continue
		}
		defer f.Close()
		inputs = append(inputs, scan.Input{Name: name, R: f})
	}

	if len(inputs) == 0 {
		// Nothing was scanned: a "no incidents" verdict would be a lie.
		return usageError("%w", errors.Join(inputErrs...))
	}
	red, err := redact.New(nil)
	if err != nil {
		return err
	}
	s := scan.New(m, scan.Options{Entry: entry.Options{}, Redact: red.RedactAlert})
	res, err := s.Scan(ctx, inputs)
	if err != nil {
		inputErrs = append(inputErrs, err)
	}
	if *format == "json" {
		err = scan.WriteJSON(e.stdout, res.Alerts)
	} else {
		err = scan.WriteText(e.stdout, res)
	}
	if err != nil {
		return fmt.Errorf("writing results: %w", err)
	}
	if len(inputErrs) > 0 {
		return usageError("%w", errors.Join(inputErrs...))
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
