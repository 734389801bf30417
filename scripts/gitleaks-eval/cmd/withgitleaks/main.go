// Command withgitleaks is redactonly plus gitleaks' detect package with
// its default rules: what adopting it for alert text would link in.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/zricethezav/gitleaks/v8/detect"

	"github.com/logmatch/logmatch/internal/redact"
)

func main() {
	r, err := redact.New(nil)
	if err != nil {
		panic(err)
	}
	d, err := detect.NewDetectorDefaultConfig()
	if err != nil {
		panic(err)
	}
	b, _ := io.ReadAll(os.Stdin)
	s := r.Redact(string(b))
	_, _ = io.WriteString(os.Stdout, s)
	fmt.Fprintln(os.Stderr, len(d.DetectString(s)), "findings")
}
