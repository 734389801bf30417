package scan_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/logmatch/logmatch/internal/redact"
)

func TestZZUnclassified(t *testing.T) {
	if os.Getenv("UNCL") == "" {
		t.Skip()
	}
	m := corpusMatcher(t)
	red, _ := redact.New(nil)
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.log"))
	for _, f := range files {
		n, _ := strconv.Atoi(filepath.Base(f)[:3])
		if n >= 269 {
			continue
		}
		res := scanCorpusFile(t, m, red, filepath.Base(f))
		for _, a := range res.Alerts {
			if a.Record.ID != "" && a.Record.Role != "wrapper" {
				continue
			}
			h := a.Headline
			if len(h) > 150 {
				h = h[:150]
			}
			s := ""
			if len(a.Record.Solutions) > 0 {
				s = a.Record.Solutions[0]
				if len(s) > 90 {
					s = s[:90]
				}
			}
			fmt.Printf("%s\n   H: %s\n   S: %s\n", filepath.Base(f), h, s)
		}
	}
}
