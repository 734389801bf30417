package entry

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestZZDebug(t *testing.T) {
	b, err := os.ReadFile(os.Getenv("ZZ"))
	if err != nil {
		t.Skip()
	}
	for _, block := range strings.Split(string(b), "\n====\n") {
		t.Log("-----")
		for _, e := range assemble(t, Options{Reference: time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)}, block) {
			t.Logf("%d+%d fmt=%q native=%q lvl=%q time=%v inh=%v prefix=%q proc=%q msg=%q", e.FirstOffset, e.Lines, e.Format, e.Native, e.Level, e.Time.Format(time.DateTime), e.TimeInherited, e.Prefix, e.Process, e.Message)
		}
	}
}
