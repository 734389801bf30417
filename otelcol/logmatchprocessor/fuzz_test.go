package logmatchprocessor

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/processor/processorhelper"
)

// FuzzProcessLogs feeds arbitrary record bodies through the processor. Whatever
// the body, the record must come out once, with its body untouched; a
// miss must leave the attributes empty, a hit must name a catalog record,
// and the same body must give the same result twice (the pooled Assembler
// carries nothing from one record to the next).
func FuzzProcessLogs(f *testing.F) {
	for _, s := range []string{
		schedulerException,
		seedLine,
		healthyLine,
		stalledLine,
		"",
		"\n\n\n",
		strings.ReplaceAll(schedulerException, "\n", "\r\n"),
		healthyLine + "\n" + schedulerException + "\n" + seedLine,
		"Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nKeyError: 'a'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"x.py\", line 3, in <module>\nRuntimeError: Ascend Transfer Engine initialization failed.",
		"Fatal Python error: Segmentation fault\n\nThread 0x00007f (most recent call first):\n  File \"scheduler.py\", line 1 in run",
	} {
		f.Add(s)
	}
	// Each record diagnosed alone: the incidents have a target of their own.
	cfg := defaultConfig(func(c *Config) {
		c.Catalogs = []string{"testdata/warning.jsonl"}
		c.EmitIncidents = false
	})
	p := startProcessor(f, cfg, consumertest.NewNop())
	// An unclassified failure names no record.
	known := map[string]bool{"": true}
	for _, r := range p.m.Records() {
		known[r.ID] = true
	}
	once := func(t *testing.T, body string) []record {
		out, err := p.processLogs(context.Background(), logsOf(t, input{Body: body}))
		if err != nil && err != processorhelper.ErrSkipProcessingData {
			t.Fatalf("processLogs: %v", err)
		}
		return records([]plog.Logs{out})
	}
	f.Fuzz(func(t *testing.T, body string) {
		got := once(t, body)
		if len(got) != 1 {
			t.Fatalf("%d records out, want 1", len(got))
		}
		if got[0].Body != body {
			t.Fatalf("body changed: %q -> %q", body, got[0].Body)
		}
		if got[0].Attrs != nil {
			id, _ := got[0].Attrs[AttrRecordID].(string)
			if !known[id] {
				t.Fatalf("hit names record %q, not in the catalog; attributes %v", id, got[0].Attrs)
			}
		}
		if diff := cmp.Diff(got, once(t, body)); diff != "" {
			t.Fatalf("second run differs (-first +second):\n%s", diff)
		}
	})
}
