package analysis_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

// A line pasted with Markdown's inline markup (a bold phrase, a code span)
// is matched as if it had none; the hit stays on the line as posted.
func TestInlineMarkupIsReadThrough(t *testing.T) {
	const line = "[rank4]:[E304 12:54:52.122900428 ProcessGroupNCCL.cpp:616] [Rank 4] %sWatchdog caught collective operation timeout:%s WorkNCCL(SeqNum=151721, OpType=_ALLGATHER_BASE, NumelIn=8080, NumelOut=129280, Timeout(ms)=600000) ran for 600049 milliseconds before timing out."
	an := analysis.New(defaultMatcher(t))
	for _, tt := range []struct{ name, in, slug string }{
		{"bold", fmt.Sprintf(line, "**", "**"), "nccl-watchdog-collective-timeout"},
		{"a code span around the phrase", fmt.Sprintf(line, "`", "`"), "nccl-watchdog-collective-timeout"},
		{"a code span around the line, bold inside", "`" + fmt.Sprintf(line, "**", "**") + "`", "nccl-watchdog-collective-timeout"},
		// Near misses: markup never makes a line match that would not
		// without it.
		{"bold on a healthy line", "[2025-06-01 12:00:00 TP0] **Watchdog** caught up: all collectives done", ""},
		{"a power in a message", "[2025-06-01 12:00:00 TP0] ERROR: max_total_tokens must be below 2**31", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got string
			for _, e := range entries(tt.in + "\n") {
				if d, ok := an.Analyze(&e); ok && d.Cause != nil {
					got = d.Cause.Record.Slug
					if !strings.Contains(d.Cause.Line, "Watchdog caught collective operation timeout:") {
						t.Errorf("hit on %q, want the line as posted", d.Cause.Line)
					}
				}
			}
			if got != tt.slug {
				t.Fatalf("record %q, want %q", got, tt.slug)
			}
		})
	}
}
