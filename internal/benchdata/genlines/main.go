// Command genlines writes realistic sglang log lines for benchmarks:
//
//	go run ./internal/benchdata/genlines -n 300000 -catalog FILE -error-rate 0.001 > lines.log
//
// Error lines are built from the errorMessage of the catalog's records.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/logmatch/logmatch/internal/benchdata"
	"github.com/logmatch/logmatch/patterns"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "genlines:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("genlines", flag.ContinueOnError)
	n := fs.Int("n", 100000, "number of lines")
	catalog := fs.String("catalog", "", "catalog JSONL whose errorMessage fields make the error lines")
	rate := fs.Float64("error-rate", 0, "fraction of error lines, 0 to 1 (needs -catalog)")
	seed := fs.Uint64("seed", 1, "random seed; one seed, one output")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *rate < 0 || *rate > 1 {
		return fmt.Errorf("-error-rate: %v is outside [0, 1]", *rate)
	}
	var msgs []string
	if *catalog != "" {
		f, err := os.Open(*catalog)
		if err != nil {
			return fmt.Errorf("-catalog: %w", err)
		}
		recs, problems := patterns.Parse(f, *catalog)
		f.Close()
		for _, p := range problems {
			if p.Level == patterns.LevelError {
				fmt.Fprintln(os.Stderr, "genlines:", p.Error())
			}
		}
		for _, r := range recs {
			if r.ErrorMessage != "" {
				msgs = append(msgs, r.ErrorMessage)
			}
		}
		if len(msgs) == 0 {
			return fmt.Errorf("-catalog: %s: no record has an errorMessage", *catalog)
		}
	} else if *rate > 0 {
		return errors.New("-error-rate needs -catalog for the error messages")
	}
	g := benchdata.New(benchdata.Config{Seed: *seed, ErrorRate: *rate, ErrorMessages: msgs})
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	for range *n {
		w.WriteString(g.Line())
		w.WriteByte('\n')
	}
	return w.Flush()
}
