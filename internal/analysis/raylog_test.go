package analysis

import (
	"testing"

	"github.com/logmatch/logmatch/patterns"
)

// TestRayRelayedCoreSeverity reads Ray's C++ lines that the driver relays
// behind a process's prefix, from the raylet, the GCS server and a core
// worker, at their error and fatal levels, and leaves their routine
// levels, Ray's Python lines and prose silent.
func TestRayRelayedCoreSeverity(t *testing.T) {
	for l, want := range map[string]patterns.Severity{
		"(raylet, ip=172.31.6.60) [2021-11-18 20:33:44,699 E 69952 69952] core_worker.cc:451: Failed to register worker 788ea551e081f997e8c2392d8ae6300c11fa89cf841c67968d9ecb5a to Raylet. Invalid: Invalid: Unknown worker":                                                patterns.SeverityError,
		"(pid=gcs_server) [2021-11-08 14:04:01,117 E 145 145] gcs_actor_scheduler.cc:498: Cannot create an actor RayServeWrappedReplica.__init__ of an id 7edea2041a58a979072dd27301000000 because the runtime environment setup failed on a node of address 172.31.97.186.": patterns.SeverityError,
		"(raylet) [2024-03-01 10:00:00,001 C 12 12] node_manager.cc:100: Check failed: status.ok()": patterns.SeverityCritical,

		"(raylet) [2024-03-01 10:00:00,001 W 12 12] memory_monitor.cc:197: Got negative used memory for cgroup -1, setting it to zero":       "",
		"(raylet) [2024-03-01 10:00:00,001 I 12 12] node_manager.cc:100: Failed to get worker, will retry":                                   "",
		"(ServeController pid=653) 2021-11-08 14:04:01,023       INFO deployment_state.py:949 -- Adding 1 replicas to deployment 'Echo_29'.": "",
		"[2025-01-25 08:22:57,421 E 759 759] core_worker.cc:496: Failed to register worker to Raylet":                                        "",
		"(see the log) [2021-11-18 20:33:44,699 E 69952] core_worker.cc:451: Failed":                                                         "",
		"(x) [2021-11-18 20:33:44 E 1 1] a": "",
		"(x) [":                             "",
		"":                                  "",
	} {
		if got := rayRelayedCoreSeverity(l); got != want {
			t.Errorf("rayRelayedCoreSeverity(%q) = %q, want %q", l, got, want)
		}
	}
}

// FuzzRayRelayedCore checks that rayRelayedCoreSeverity never panics and
// reads a level only behind a prefix's parenthesis.
func FuzzRayRelayedCore(f *testing.F) {
	f.Fuzz(func(t *testing.T, l string) {
		if rayRelayedCoreSeverity(l) != "" && l[0] != '(' {
			t.Fatalf("rayRelayedCoreSeverity(%q) without a prefix", l)
		}
	})
}
