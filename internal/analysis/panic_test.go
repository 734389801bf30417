package analysis_test

import (
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/analysis"
)

// A Rust panic leads with its message, in every form Rust prints it, and
// its triage names the router (or the launcher) and the panic family.
func TestRustPanicHeadsWithItsMessage(t *testing.T) {
	m := defaultMatcher(t)
	tests := []struct {
		name, in, headline, process string
	}{
		{
			name: "Rust 1.73 on: location line, message on the next, a dependency's path in the cargo registry",
			in: "thread '<unnamed>' panicked at /home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/tokio-1.45.1/src/runtime/blocking/shutdown.rs:51:21:\n" +
				"Cannot drop a runtime in a context where blocking is not allowed. This happens when a runtime is dropped from within an asynchronous context.\n",
			headline: "thread '<unnamed>' panicked at tokio-1.45.1/src/runtime/blocking/shutdown.rs:51:21: Cannot drop a runtime in a context where blocking is not allowed. " +
				"This happens when a runtime is dropped from within an asynchronous context.",
			process: "router",
		},
		{
			name: "the router's own source, with the backtrace note",
			in: "thread 'tokio-runtime-worker' panicked at src/routers/http/router.rs:123:45:\n" +
				"called `Option::unwrap()` on a `None` value\n" +
				"note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n",
			headline: "thread 'tokio-runtime-worker' panicked at src/routers/http/router.rs:123:45: called `Option::unwrap()` on a `None` value",
			process:  "router",
		},
		{
			name:     "Rust 1.90's thread id",
			in:       "thread 'main' (4721) panicked at src/main.rs:88:10:\nfailed to parse the worker list: expected a URL at entry 3\n",
			headline: "thread 'main' panicked at src/main.rs:88:10: failed to parse the worker list: expected a URL at entry 3",
			process:  "router",
		},
		{
			name:     "the older one-line form, TGI's launcher",
			in:       "thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: Os { code: 2 }', launcher/src/main.rs:1040:10\n",
			headline: "thread 'main' panicked at launcher/src/main.rs:1040:10: called `Result::unwrap()` on an `Err` value: Os { code: 2 }",
			process:  "launcher",
		},
	}
	for _, tt := range tests {
		an := analysis.New(m)
		var got []analysis.Diagnosis
		for _, e := range entries(tt.in) {
			if d, ok := an.Analyze(&e); ok {
				d.Triage = analysis.TriageOf(&e, nil)
				got = append(got, d)
			}
		}
		if len(got) != 1 {
			t.Errorf("%s: %d failures, want 1", tt.name, len(got))
			continue
		}
		d := got[0]
		if d.Headline != tt.headline {
			t.Errorf("%s: headline\n %q, want\n %q", tt.name, d.Headline, tt.headline)
		}
		if d.Triage.Family != analysis.FamilyPanic || d.Triage.Process != tt.process {
			t.Errorf("%s: triage %+v, want family %q, process %q", tt.name, d.Triage, analysis.FamilyPanic, tt.process)
		}
	}
}

// Lines that speak of panics without being one stay what they are.
func TestPanicLookalikesAreNoPanic(t *testing.T) {
	m := defaultMatcher(t)
	for _, in := range []string{
		"2025-11-05T01:56:54.243403Z  INFO sglang_router_rs::server: thread 'worker' panicked at startup is handled by the supervisor",
		"[2025-01-16 10:11:13] The router thread 'main' panicked at least once last week; see the dashboard",
		"INFO: retrying after panic in worker thread",
	} {
		an := analysis.New(m)
		for _, e := range entries(in) {
			if d, ok := an.Analyze(&e); ok {
				t.Errorf("%q: alerted (%s), want silent", in, d.Headline)
			}
			if strings.Contains(analysis.TriageOf(&e, nil).Family, "panic") {
				t.Errorf("%q: triaged as a panic", in)
			}
		}
	}
}
