package analysis_test

import (
	"testing"

	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// TestAConsequenceHeaderYieldsToTheExceptionItCarries: a header that a
// consequence record names ("Error in chat completion stream generator.",
// a handler's "request failed") logged with a traceback says where the
// failure surfaced; the exception it carries, no record naming it, names
// the failure (headline, exception, key), and the header is its context.
// The entry stays a consequence, of a failure in sight (the incident
// grouper folds it there), alerted alone as that exception. A record naming the exception leads
// as always; a header with no exception, or one whose exception line a
// record names, keeps the records' reading; an exception that points elsewhere
// for its root cause stays a consequence.
//
// Lines with no header of their own (a bare header line, then a
// traceback) are two entries, which the incident grouper folds.
func TestAConsequenceHeaderYieldsToTheExceptionItCarries(t *testing.T) {
	rec := func(slug, pat string, role patterns.Role) patterns.Record {
		return patterns.Record{ID: slug, Slug: slug, MessagePattern: pat, Severity: patterns.SeverityError,
			Role: role, Solutions: []string{"fix " + slug}}
	}
	m, _ := matcher.Compile([]patterns.Record{
		rec("stream-failed", `Error in (?:chat )?completion stream generator\.`, patterns.RoleConsequence),
		rec("handler-failed", `request handler failed for request [0-9a-f]+`, patterns.RoleConsequence),
		rec("peer-closed", `Connection closed by peer`, patterns.RoleConsequence),
		rec("vocab-missing", `vocab file not found`, patterns.RoleCause),
	}, matcher.Options{})
	tb := func(header, exc string) string {
		return header + "\n" +
			"Traceback (most recent call last):\n" +
			"  File \"/srv/app/serving.py\", line 642, in stream\n" +
			"    parser.process(token_id)\n" +
			"  File \"/srv/lib/tokparse/__init__.py\", line 627, in process\n" +
			"    self._inner.process(token)\n" +
			exc + "\n"
	}
	const vllmHeader = "ERROR 08-06 23:25:57 [serving_chat.py:1001] Error in chat completion stream generator."
	vllm := func(s string) string {
		out := ""
		for _, l := range splitLines(s) {
			out += "(APIServer pid=27525) ERROR 08-06 23:25:57 [serving_chat.py:1001] " + l + "\n"
		}
		return out
	}
	for _, tt := range []struct {
		name, text string
		want       diagnosis
	}{
		{"a stream generator's header, the parser's exception",
			tb("ERROR 08-06 23:25:57 [serving_chat.py:1001] Error in chat completion stream generator.",
				"tokparse.ParseError: unexpected tokens remaining in message header"),
			diagnosis{role: patterns.RoleConsequence, signal: "exception", exc: "tokparse.ParseError", context: []string{"stream-failed"},
				severity: patterns.SeverityError, headline: "tokparse.ParseError: unexpected tokens remaining in message header"}},
		{"the same behind vLLM's process prefix on every line",
			vllm(tb("Error in completion stream generator.", "KeyError: 'harmony_channel'")),
			diagnosis{role: patterns.RoleConsequence, signal: "exception", exc: "KeyError", context: []string{"stream-failed"},
				severity: patterns.SeverityError, headline: "KeyError: 'harmony_channel'"}},
		{"a handler's words, a chained exception",
			"2025-08-06 23:25:57,100 ERROR request handler failed for request 8f2c\n" +
				"Traceback (most recent call last):\n  File \"/srv/app/h.py\", line 3, in handle\n    x = load()\n" +
				"OSError: [Errno 28] No space left on device\n\nDuring handling of the above exception, another exception occurred:\n\n" +
				"Traceback (most recent call last):\n  File \"/srv/app/h.py\", line 5, in handle\n    raise ServiceError(str(e))\n" +
				"app.errors.ServiceError: [Errno 28] No space left on device\n",
			diagnosis{role: patterns.RoleConsequence, signal: "exception", exc: "app.errors.ServiceError", root: "OSError", context: []string{"handler-failed"},
				severity: patterns.SeverityError, headline: "app.errors.ServiceError: [Errno 28] No space left on device"}},
		{"a record naming the carried exception leads",
			tb(vllmHeader, "OSError: vocab file not found: /models/o200k_base.tiktoken"),
			diagnosis{slug: "vocab-missing", role: patterns.RoleCause, signal: "record", exc: "OSError", severity: patterns.SeverityError,
				headline: "OSError: vocab file not found: /models/o200k_base.tiktoken"}},
		{"an exception pointing to its root cause elsewhere stays a consequence",
			tb(vllmHeader, "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause."),
			diagnosis{role: patterns.RoleConsequence, signal: "exception", exc: "vllm.v1.engine.exceptions.EngineDeadError", context: []string{"stream-failed"},
				severity: patterns.SeverityError, headline: "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause."}},
		{"an exception that sends the reader to the errors above stays a consequence",
			tb("2025-08-06 23:25:57,100 ERROR request handler failed for request 8f2c", "RuntimeError: Initialization failed. Please see the error messages above."),
			diagnosis{role: patterns.RoleConsequence, signal: "exception", exc: "RuntimeError", context: []string{"handler-failed"},
				severity: patterns.SeverityError, headline: "RuntimeError: Initialization failed. Please see the error messages above."}},
		{"so does one that says to check the logs above",
			tb(vllmHeader, "app.StartError: start failed, check the worker logs above"),
			diagnosis{role: patterns.RoleConsequence, signal: "exception", exc: "app.StartError", context: []string{"stream-failed"},
				severity: patterns.SeverityError, headline: "app.StartError: start failed, check the worker logs above"}},
		{"an exception that only says it failed leaves the lead to the header's record",
			tb("2025-08-06 23:25:57,100 ERROR request handler failed for request 8f2c", "RuntimeError: generation failed"),
			diagnosis{slug: "handler-failed", role: patterns.RoleConsequence, signal: "record", exc: "RuntimeError", severity: patterns.SeverityError,
				headline: "request handler failed for request 8f2c"}},
		{"one over a root no record reads carries the root",
			vllmHeader + "\n" +
				"Traceback (most recent call last):\n  File \"/srv/app/h.py\", line 3, in handle\n    x = parse(tok)\n" +
				"KeyError: 'harmony_channel'\n\nDuring handling of the above exception, another exception occurred:\n\n" +
				"Traceback (most recent call last):\n  File \"/srv/app/h.py\", line 5, in handle\n    raise RuntimeError(\"request failed\")\n" +
				"RuntimeError: request failed\n",
			diagnosis{role: patterns.RoleConsequence, signal: "exception", exc: "KeyError", context: []string{"stream-failed"},
				severity: patterns.SeverityError, headline: "KeyError: 'harmony_channel'"}},
		{"the header alone keeps its record",
			"2025-08-06 23:25:57,100 ERROR request handler failed for request 8f2c\n",
			diagnosis{slug: "handler-failed", role: patterns.RoleConsequence, signal: "record", severity: patterns.SeverityError,
				headline: "request handler failed for request 8f2c"}},
		{"an exception line a record names keeps the records' reading",
			tb(vllmHeader, "ConnectionResetError: Connection closed by peer"),
			diagnosis{slug: "stream-failed", role: patterns.RoleConsequence, signal: "record", exc: "ConnectionResetError",
				severity: patterns.SeverityError, headline: "Error in chat completion stream generator."}},
	} {
		ds, _ := analyzeAll(t, m, tt.text)
		if len(ds) != 1 || !equal(ds[0], tt.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, ds, tt.want)
		}
	}
}

func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\n' {
			i++
		}
		out = append(out, s[:i])
		if i < len(s) {
			i++
		}
		s = s[i:]
	}
	return out
}

// TestAConsequenceRecordReadingItsOwnExceptionLeads: a consequence record
// is matched once in an entry, at its first line. When the same record
// also reads the exception the header's traceback carries (vLLM's
// "AsyncLLM output_handler failed." over its EngineDeadError), the
// exception is that record's failure, and the record leads, classified,
// rather than the exception unclassified with the record as context. A
// carried exception the record does not read still leads unclassified.
func TestAConsequenceRecordReadingItsOwnExceptionLeads(t *testing.T) {
	m, _ := matcher.Compile([]patterns.Record{
		{ID: "engine-dead", Slug: "engine-dead", MessagePattern: `EngineDeadError\b|AsyncLLM output_handler failed\b|\bMQLLMEngine is already dead\b`,
			Severity: patterns.SeverityError, Role: patterns.RoleConsequence, Solutions: []string{"find the engine's own error"}},
	}, matcher.Options{})
	tb := func(prefix, header, exc string) string {
		lines := []string{header, "Traceback (most recent call last):",
			`  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/async_llm.py", line 660, in output_handler`,
			"    outputs = await engine_core.get_output_async()",
			`  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core_client.py", line 1061, in get_output_async`,
			"    raise self._format_exception(outputs) from None", exc}
		out := ""
		for _, l := range lines {
			out += prefix + l + "\n"
		}
		return out
	}
	const dead = "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause."
	for _, tt := range []struct {
		name, text string
		want       diagnosis
	}{
		{"vLLM V1's output handler over its EngineDeadError",
			tb("ERROR 06-19 14:45:12 [async_llm.py:704] ", "AsyncLLM output_handler failed.", dead),
			diagnosis{slug: "engine-dead", role: patterns.RoleConsequence, signal: "record", exc: "vllm.v1.engine.exceptions.EngineDeadError",
				severity: patterns.SeverityError, headline: "AsyncLLM output_handler failed."}},
		{"the same behind the API server's process prefix",
			tb("(APIServer pid=1) ERROR 06-19 14:45:12 [async_llm.py:704] ", "AsyncLLM output_handler failed.", dead),
			diagnosis{slug: "engine-dead", role: patterns.RoleConsequence, signal: "record", exc: "vllm.v1.engine.exceptions.EngineDeadError",
				severity: patterns.SeverityError, headline: "AsyncLLM output_handler failed."}},
		{"an exception the record does not read leads unclassified",
			tb("ERROR 06-19 14:45:12 [async_llm.py:704] ", "AsyncLLM output_handler failed.", "KeyError: 'request_id'"),
			diagnosis{role: patterns.RoleConsequence, signal: "exception", exc: "KeyError", context: []string{"engine-dead"},
				severity: patterns.SeverityError, headline: "KeyError: 'request_id'"}},
	} {
		ds, _ := analyzeAll(t, m, tt.text)
		if len(ds) != 1 || !equal(ds[0], tt.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, ds, tt.want)
		}
	}
}
