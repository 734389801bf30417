// Package eval measures gitleaks' detect package (v8.30.0, default rules)
// against logmatch's own redactor on the log excerpts of testdata/corpus:
// CPU per log line and per alert-sized text (benchmarks in eval_test.go),
// and what each flags in logs that hold no secret (cmd/fpreport). run.sh
// adds the dependency and binary size figures. internal/redact/GITLEAKS.md
// records the outcome.
package eval

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// CorpusDir is the corpus of real log excerpts, from this directory.
const CorpusDir = "../../testdata/corpus"

// Corpus returns each excerpt's text by file name, in name order.
func Corpus(dir string) (names []string, texts []string, err error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.log"))
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(paths)
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, err
		}
		names = append(names, filepath.Base(p))
		texts = append(texts, string(b))
	}
	return names, texts, nil
}

// Lines returns the non-empty lines of texts.
func Lines(texts []string) []string {
	var out []string
	for _, t := range texts {
		for _, l := range strings.Split(t, "\n") {
			if l != "" {
				out = append(out, l)
			}
		}
	}
	return out
}

// AlertTexts cuts each text to max bytes, the size of an alert's entry.
func AlertTexts(texts []string, max int) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		if len(t) > max {
			t = t[:max]
		}
		out[i] = t
	}
	return out
}
