package analysis_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/patterns"
)

// echoLines are the request and response dumps servers write with user
// text in them, %s standing for that text as the server escapes it.
var echoLines = []string{
	"[2026-12-04 10:00:00] Receive: obj=GenerateReqInput(text='%s', sampling_params={'max_new_tokens': 8}, rid='r1')",
	"[2026-12-04 10:00:00] Finish: obj=GenerateReqInput(rid='r1'), out={'text': '%s', 'meta_info': {'id': 'r1'}}",
	`[2026-12-04 10:00:00] {"timestamp": "2026-12-04T10:00:00", "event": "request.finished", "rid": "r1", "obj": {}, "out": {"text": "%s"}}`,
	"INFO 12-04 10:00:00 [logger.py:43] Received request chatcmpl-1: prompt: '%s', params: SamplingParams(n=1)",
	"INFO 12-04 10:00:00 [logger.py:60] Generated response chatcmpl-1: output: '%s', output_token_ids: [1, 2]",
}

// Issue 33 finding 1: a prompt or output quoting any fatal record's text is
// the users' text, not the server's failure: it matches no record and is
// no failure. The same text outside the dump still alerts.
func TestEchoedUserTextNeverMatches(t *testing.T) {
	m := defaultMatcher(t)
	an := analysis.New(m)
	quoted := 0
	for _, r := range m.Records() {
		if !r.Fatal {
			continue
		}
		text := strings.ReplaceAll(r.ErrorMessage, "\n", " ")
		es := entries("[2026-12-04 10:00:00 TP0] " + text)
		if len(es) != 1 {
			continue
		}
		d, ok := an.Analyze(&es[0])
		if !ok || d.Cause == nil || d.Cause.Record.ID != r.ID && !hitOf(&d, r.ID) {
			// The record's message, as its template reads, is not text
			// its pattern names ({n} placeholders): nothing to quote.
			continue
		}
		quoted++
		escaped := strings.NewReplacer(`\`, `\\`, `'`, `\'`, `"`, `\"`).Replace(text)
		for _, shape := range echoLines {
			line := fmt.Sprintf(shape, escaped)
			for _, e := range entries(line) {
				if d, ok := an.Analyze(&e); ok {
					t.Errorf("%s quoted in %q: a failure %q (%s)", r.Slug, line, d.Headline, d.Key)
				}
			}
		}
	}
	if quoted < 20 {
		t.Fatalf("only %d fatal records could be quoted; the test checks too little", quoted)
	}
}

func hitOf(d *analysis.Diagnosis, id string) bool {
	for _, h := range d.Hits() {
		if h.Record.ID == id {
			return true
		}
	}
	return false
}

// An echo zone ends with its line: a traceback the server prints after a
// request line, in the same entry, is still the server's own failure, and a
// record whose first match was in the zone still names the text after it.
func TestEchoZoneEndsWithItsLine(t *testing.T) {
	m := defaultMatcher(t)
	an := analysis.New(m)
	text := "[2026-12-04 10:00:00] Receive: obj=GenerateReqInput(text='CUDA error: an illegal memory access was encountered')\n" +
		"Traceback (most recent call last):\n" +
		"  File \"/app/scheduler.py\", line 7, in run\n" +
		"    forward()\n" +
		"RuntimeError: CUDA error: an illegal memory access was encountered\n"
	var slugs []string
	for _, e := range entries(text) {
		if d, ok := an.Analyze(&e); ok && d.Cause != nil {
			slugs = append(slugs, d.Cause.Record.Slug)
			if strings.Contains(d.Headline, "Receive:") {
				t.Errorf("headline %q is the request line", d.Headline)
			}
		}
	}
	if len(slugs) != 1 || slugs[0] != "cuda-illegal-memory-access" {
		t.Fatalf("causes = %v, want the traceback's cuda-illegal-memory-access", slugs)
	}
}

// An echo pattern is anchored at the message's start, so user text cannot
// open a zone inside a real error line and hide it.
func TestEchoMarkerInsideAnErrorHidesNothing(t *testing.T) {
	m := defaultMatcher(t)
	an := analysis.New(m)
	es := entries("[2026-12-04 10:00:00 TP0] RuntimeError: CUDA error: an illegal memory access was encountered (request Receive: obj=x)")
	d, ok := an.Analyze(&es[0])
	if !ok || d.Cause == nil || d.Cause.Record.Slug != "cuda-illegal-memory-access" {
		t.Fatalf("got %v %+v, want cuda-illegal-memory-access", ok, d.Cause)
	}
	for _, r := range m.Records() {
		if r.Role.Is(patterns.RoleEcho) && !strings.HasPrefix(r.MessagePattern, "^") {
			t.Errorf("echo record %s is not anchored at the message's start: %s", r.Slug, r.MessagePattern)
		}
	}
}

// Issue 35: with the server's release known, a record whose
// introducedIn/removedIn leave that release out is not matched; without
// it every record is.
func TestServerVersionDropsRecordsOfOtherReleases(t *testing.T) {
	m := defaultMatcher(t)
	an := analysis.New(m)
	es := entries("[2026-05-28 00:11:09] Watchdog timeout (self.watchdog_timeout=300)")
	slug := func() string {
		d, ok := an.Analyze(&es[0])
		if !ok || d.Cause == nil {
			return ""
		}
		return d.Cause.Record.Slug
	}
	if got := slug(); got != "watchdog-timeout-legacy" {
		t.Fatalf("no release: %q, want watchdog-timeout-legacy", got)
	}
	an.SetVersion("0.5.0")
	if got := slug(); got != "watchdog-timeout-legacy" {
		t.Errorf("0.5.0, before the record's removedIn: %q", got)
	}
	an.SetVersion("0.6.0")
	if got := slug(); got == "watchdog-timeout-legacy" {
		t.Errorf("0.6.0, after the record's removedIn: still matched")
	}
}
