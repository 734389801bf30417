package analysis_test

import (
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/matcher"
)

// asyncio's report of an exception no one retrieved names it in the
// future's repr; the traceback under it is that exception's, and one that
// ends otherwise (in the CancelledError it was raised while handling, or
// cut) lost its last link: the repr names the failure. On the line before
// the traceback, in an entry of its own, it still does; a repr that names
// no exception, or one an entry away, says nothing of the traceback.
func TestAnUnretrievedFuturesReprNamesItsException(t *testing.T) {
	m, err := matcher.Compile(nil, matcher.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tb := "Traceback (most recent call last):\n" +
		"  File \"/usr/lib/python3.12/asyncio/tasks.py\", line 520, in wait_for\n" +
		"    return await fut\n"
	for _, tt := range []struct{ name, in, want string }{
		{"a task's report over a cancelled wait",
			"[2026-02-01 10:00:00] Task exception was never retrieved\n" +
				"future: <Task finished name='Task-12' coro=<Worker.pull() done> exception=KeyError('shard-7')>\n" +
				tb + "asyncio.exceptions.CancelledError\n",
			"KeyError: shard-7"},
		{"a future's report over a cut traceback",
			"Future exception was never retrieved\n" +
				"future: <Future finished exception=ConnectionResetError(\"peer 10.0.0.3 closed the stream\")>\n" +
				tb,
			"ConnectionResetError: peer 10.0.0.3 closed the stream"},
		{"the traceback ends in the same exception",
			"Task exception was never retrieved\n" +
				"future: <Task finished name='Task-3' coro=<run() done> exception=ValueError('bad batch size 0')>\n" +
				tb + "ValueError: bad batch size 0\n",
			"ValueError: bad batch size 0"},
		{"the report in entries of their own",
			"[INFO] 2026-02-01 10:00:00 Task exception was never retrieved\n" +
				"future: <Task finished name='Task-12' coro=<Worker.pull() done> exception=KeyError('shard-7')>\n\n" +
				"[ERROR] 2026-02-01 10:00:00 " + tb + "asyncio.exceptions.CancelledError\n",
			"KeyError: shard-7"},
		{"a repr that names no exception",
			"Task was destroyed but it is pending!\n" +
				"future: <Task pending name='Task-9' coro=<loop() running>>\n" +
				tb + "asyncio.exceptions.CancelledError\n",
			"asyncio.exceptions.CancelledError"},
	} {
		an := analysis.New(m)
		var st analysis.Stream
		var got []string
		for _, e := range entries(tt.in) {
			if d, ok := an.AnalyzeStream(&st, &e); ok && d.Exception != nil {
				got = append(got, analysis.ExceptionLine(d.Exception))
			}
		}
		if len(got) != 1 || got[0] != tt.want {
			t.Errorf("%s: exceptions %q, want [%q]", tt.name, got, tt.want)
		}
	}
}
