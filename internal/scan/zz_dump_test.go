package scan_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/redact"
)

func TestZZDump(t *testing.T) {
	pat := os.Getenv("DUMP")
	if pat == "" {
		t.Skip()
	}
	m := corpusMatcher(t)
	red, _ := redact.New(nil)
	for _, p := range strings.Fields(pat) {
		files, _ := filepath.Glob(filepath.Join(corpusDir, p+"-*.log"))
		for _, f := range files {
			res := scanCorpusFile(t, m, red, filepath.Base(f))
			fmt.Printf("=== %s (%d)\n", filepath.Base(f), len(res.Alerts))
			for _, a := range res.Alerts {
				exc := ""
				if a.Match.Exception != nil {
					exc = a.Match.Exception.Type + ": " + a.Match.Exception.Message
				}
				h := a.Headline
				if len(h) > 110 {
					h = h[:110]
				}
				if len(exc) > 80 {
					exc = exc[:80]
				}
				var cons []string
				for _, c := range a.Consequences {
					cons = append(cons, c.Slug)
				}
				var ctx []string
				for _, c := range a.Context {
					ctx = append(ctx, c.Slug)
				}
				fmt.Printf("  %s role=%s sev=%s t=%s ranks=%v\n    head=%q\n    exc=%q cons=%v ctx=%v\n", a.Record.Slug, a.Record.Role, a.Record.Severity, a.Time.Format("2006-01-02T15:04:05.000"), a.Ranks, h, exc, cons, ctx)
				if os.Getenv("SOL") != "" {
					for _, s := range a.Record.Solutions {
						fmt.Printf("    - %s\n", s)
					}
				}
			}
		}
	}
}
