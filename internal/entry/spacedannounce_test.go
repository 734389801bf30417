package entry

import (
	"strings"
	"testing"
)

// TestAnnouncedTracebackDoubleSpaced: a line that announces a traceback
// one blank line below it, the traceback's lines a blank line apart as
// the writer printed them: as posted and in a paste that doubled every
// blank, the traceback stays in the announcing line's entry, for three
// writers (TGI's launcher relaying a shard's stderr, vLLM's worker
// wrapper, a Python logger's record ending in a colon).
func TestAnnouncedTracebackDoubleSpaced(t *testing.T) {
	tb := "Traceback (most recent call last):\n\n  File \"/opt/conda/bin/text-generation-server\", line 8, in <module>\n\n    sys.exit(app())\n\n  File \"/opt/conda/lib/python3.10/site-packages/x/server.py\", line 235, in serve\n\n    asyncio.run(\n\nValueError: the shard could not start"
	for _, w := range []struct{ name, lead, first string }{
		{"TGI's relayed shard stderr", strings.Repeat("2024-03-14T13:19:25.453070Z  INFO shard-manager: text_generation_launcher: Waiting for shard to be ready... rank=2\n", 3) +
			"2024-03-14T13:19:25.553183Z ERROR shard-manager: text_generation_launcher: Shard complete standard error output:\n\n", "Shard complete standard error output:"},
		{"vLLM's worker", "INFO 03-14 13:19:25 [engine.py:100] starting\nINFO 03-14 13:19:25 [engine.py:101] loading\nINFO 03-14 13:19:25 [engine.py:102] loaded\nERROR 03-14 13:19:26 [multiproc_worker_utils.py:120] Exception in worker VllmWorkerProcess while processing method init_device:\n\n", "Exception in worker VllmWorkerProcess while processing method init_device:"},
		{"a Python logger's record", "2025-01-01 00:00:00,000 INFO worker started\n2025-01-01 00:00:01,000 INFO worker ready\n2025-01-01 00:00:02,000 INFO worker serving\n2025-01-01 00:00:03,000 ERROR worker Error in the worker process:\n\n", "Error in the worker process:"},
	} {
		for _, spaced := range []bool{false, true} {
			in := w.lead + tb
			name := w.name
			if spaced {
				in, name = doubleSpace(in), name+", double-spaced"
			}
			es := assemble(t, Options{}, in)
			var found *Entry
			for i := range es {
				if strings.Contains(es[i].Text, w.first) {
					found = &es[i]
				}
			}
			if found == nil {
				t.Errorf("%s: no entry holds %q", name, w.first)
				continue
			}
			if x := found.Traceback.Outermost(); x == nil || x.Type != "ValueError" {
				t.Errorf("%s: the announcing entry %q carries no ValueError", name, found.Text)
			}
		}
	}
}
