package incident_test

import (
	"strings"
	"testing"
)

// A server's access line is its own record of the status it answered a
// request with; the traceback it prints beside it, cut before its
// exception line, is the handler's failure that the status reports. The
// traceback leads and the access line is listed in its incident, whatever
// record reads the status. A client's summary of its failed call, printed
// before the call's cut traceback, still leads it (clientSummary).

// serverTraceback is a request handler's traceback cut before its
// exception line, under the ASGI server's frames.
var serverTraceback = []string{
	"Traceback (most recent call last):",
	`  File "/usr/local/lib/python3.10/dist-packages/uvicorn/protocols/http/httptools_impl.py", line 411, in run_asgi`,
	"    result = await app(  # type: ignore[func-returns-value]",
	`  File "/usr/local/lib/python3.10/dist-packages/starlette/routing.py", line 74, in app`,
	"    response = await func(request)",
}

func TestAServersTracebackLeadsItsAccessLine(t *testing.T) {
	m := crashMatcher(t)
	access := []struct{ name, line, header string }{
		{"uvicorn under sglang's stamp", `[2025-06-01 12:00:01] INFO:     10.0.0.5:40122 - "POST /generate HTTP/1.1" 500 Internal Server Error`, "[2025-06-01 12:00:01] "},
		{"uvicorn.access under Python logging", `2025-06-01 12:00:01,120 - uvicorn.access - INFO - 127.0.0.1:50000 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error`, "2025-06-01 12:00:01,121 - app.server - ERROR - "},
		{"a 503 to a chat request", `[2025-06-01 12:00:01] INFO:     10.42.1.149:39062 - "POST /v1/chat/completions HTTP/1.1" 503 Service Unavailable`, "[2025-06-01 12:00:01] "},
	}
	for _, a := range access {
		for _, l := range layouts {
			lines := []string{l.line(healthy[0]), l.line(a.line)}
			for i, s := range serverTraceback {
				if i == 0 {
					s = a.header + s
				}
				lines = append(lines, l.line(s))
			}
			got := scanLines(t, m, lines)
			if len(got) != 1 || got[0].Record.ID != "" || !strings.Contains(got[0].Headline, "Traceback") {
				t.Errorf("%s, %s: want one incident led by the handler's traceback, got %d:%s", a.name, l.name, len(got), describe(got))
				continue
			}
			if len(got[0].Consequences) != 1 || !strings.Contains(got[0].Consequences[0].Headline, "HTTP/1.1") {
				t.Errorf("%s, %s: want the access line listed in the incident, got %+v", a.name, l.name, got[0].Consequences)
			}
		}
	}
}

func TestAClientsSummaryStillLeadsItsCallsTraceback(t *testing.T) {
	m := crashMatcher(t)
	lines := []string{
		healthy[0],
		"Error: Server error '503 Service Unavailable' for url 'http://10.0.0.1:4674/generate'",
		"Traceback (most recent call last):",
		`  File "/srv/app/main.py", line 88, in main`,
		"    run()",
		`  File "/usr/local/lib/python3.10/dist-packages/httpx/_client.py", line 40, in send`,
		"    raise_for_status()",
	}
	got := scanLines(t, m, lines)
	if len(got) != 1 || got[0].Record.ID == "" || !strings.Contains(got[0].Headline, "Server error '503") {
		t.Errorf("want one incident led by the client's summary, got %d:%s", len(got), describe(got))
	}
}
