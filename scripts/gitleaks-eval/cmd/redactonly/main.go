// Command redactonly redacts stdin with logmatch's redactor alone: the
// baseline of the binary size comparison in ../../run.sh.
package main

import (
	"io"
	"os"

	"github.com/logmatch/logmatch/internal/redact"
)

func main() {
	r, err := redact.New(nil)
	if err != nil {
		panic(err)
	}
	b, _ := io.ReadAll(os.Stdin)
	_, _ = io.WriteString(os.Stdout, r.Redact(string(b)))
}
