package scan

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// matcherWithout compiles the default catalog less the records of slugs.
func matcherWithout(t *testing.T, slugs ...string) *matcher.Matcher {
	t.Helper()
	recs, problems := patterns.Default()
	for _, p := range problems {
		if p.Level == patterns.LevelError {
			t.Fatalf("default catalog: %v", p)
		}
	}
	kept := recs[:0:0]
	dropped := 0
	for _, r := range recs {
		if slicesContains(slugs, r.Slug) {
			dropped++
			continue
		}
		kept = append(kept, r)
	}
	if dropped != len(slugs) {
		t.Fatalf("dropped %d records of %v: the catalog no longer has them all", dropped, slugs)
	}
	m, probs := matcher.Compile(kept, matcher.Options{})
	if len(probs) > 0 {
		t.Fatalf("catalog does not compile: %v", probs)
	}
	return m
}

func slicesContains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

func scanText(t *testing.T, m *matcher.Matcher, inputs map[string]string, order ...string) []sinks.Alert {
	t.Helper()
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	s := New(m, Options{Entry: entry.Options{}, Now: func() time.Time { return now }})
	var in []Input
	for _, name := range order {
		in = append(in, Input{Name: name, R: strings.NewReader(inputs[name])})
	}
	res, err := s.Scan(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return res.Alerts
}

func describe(as []sinks.Alert) string {
	var b strings.Builder
	for _, a := range as {
		b.WriteString("\n  " + a.Record.Slug + " [" + a.Headline + "]")
		for _, c := range a.Consequences {
			b.WriteString("\n    + " + c.Slug + " [" + c.Headline + "]")
		}
	}
	return b.String()
}

// Corpus excerpt 233 with the record of the router's 5xx lines left out:
// its two generic error lines, unclassified, come before the router's
// 'No available workers' answer in the same second, and the answer must
// still lead, with the generic lines listed inside its incident.
func TestGenericLinesDoNotLead(t *testing.T) {
	m := matcherWithout(t, "router-request-server-error")
	const excerpt = "2025-11-08T10:07:09.123456Z ERROR sglang_router_rs::middleware: src/middleware.rs:256: request failed with server error status=503\n" +
		"2025-11-08T10:07:09.123502Z ERROR sglang_router_rs::middleware: src/middleware.rs:256: request failed with server error status=503\n" +
		"2025-11-08T10:07:09.123871Z  WARN sglang_router_rs::routers::http::router: src/routers/http/router.rs:312: No available workers (all circuits open or unhealthy)\n"
	as := scanText(t, m, map[string]string{"rollout.log": excerpt}, "rollout.log")
	t.Logf("alerts:%s", describe(as))
	if len(as) == 0 || as[0].Record.Slug != "router-no-available-workers" {
		t.Fatalf("lead is not the router's answer:%s", describe(as))
	}
	if len(as) != 1 {
		t.Errorf("want one incident, got %d:%s", len(as), describe(as))
	}
	var generic int
	for _, c := range as[0].Consequences {
		if c.Slug == "unclassified" {
			generic += c.Count
		}
	}
	if generic == 0 {
		t.Errorf("the generic lines are not listed in the cause's incident:%s", describe(as))
	}
}

// The rule's limits, on real line shapes: a generic line of another file
// is not of the cause's burst; an unclassified traceback is the failure
// itself and is never folded, whatever record follows it; a warning
// record does not outrank a generic error line.
func TestGenericLinesRuleLimits(t *testing.T) {
	m := matcherWithout(t, "router-request-server-error")
	const router = "2025-11-08T10:07:09.123871Z  WARN sglang_router_rs::routers::http::router: src/routers/http/router.rs:312: No available workers (all circuits open or unhealthy)\n"
	const failed = "2025-11-08T10:07:09.123456Z ERROR sglang_router_rs::middleware: src/middleware.rs:256: request failed with server error status=503\n"
	const tb = "[2025-11-08 10:07:09] Traceback (most recent call last):\n" +
		"  File \"/sgl-workspace/sglang/python/sglang/srt/entrypoints/http_server.py\", line 512, in generate_request\n" +
		"    ret = await _global_state.tokenizer_manager.generate_request(obj, request).__anext__()\n" +
		"  File \"/sgl-workspace/sglang/python/sglang/srt/managers/tokenizer_manager.py\", line 410, in generate_request\n" +
		"    tokenized_obj = await self._tokenize_one_request(obj)\n" +
		"KeyError: 'input_ids'\n"
	// Two moments of retraction within a minute: one alone is routine
	// under load and pages nothing (incident's retraction rule).
	const retract = "[2025-11-08 10:07:09 TP0] KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_tokens_gained: 1536, #new_token_ratio: 0.4107 -> 0.7000\n" +
		"[2025-11-08 10:07:31 TP0] KV cache pool is full. Retract requests. #retracted_reqs: 2, #new_tokens_gained: 2048, #new_token_ratio: 0.4107 -> 0.7000\n"
	tests := []struct {
		name   string
		inputs map[string]string
		order  []string
		want   []string // the incidents' slugs, lead first
	}{
		{"another file", map[string]string{"client.log": failed, "router.log": router}, []string{"client.log", "router.log"},
			[]string{"unclassified", "router-no-available-workers"}},
		{"a traceback before a cause", map[string]string{"server.log": tb + router}, []string{"server.log"},
			[]string{"unclassified", "router-no-available-workers"}},
		{"a generic line before a warning", map[string]string{"server.log": failed + retract}, []string{"server.log"},
			[]string{"unclassified", "kv-cache-pool-full-retract"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			as := scanText(t, m, tc.inputs, tc.order...)
			var got []string
			for _, a := range as {
				got = append(got, a.Record.Slug)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Fatalf("incidents %v, want %v:%s", got, tc.want, describe(as))
			}
			if as[0].Match.Exception == nil && tc.name == "a traceback before a cause" {
				t.Errorf("the lead is not the traceback:%s", describe(as))
			}
		})
	}
}
