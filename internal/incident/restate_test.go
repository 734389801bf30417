package incident

import (
	"fmt"
	"testing"
	"time"

	"github.com/logmatch/logmatch/sinks"
)

// One failure printed in several lines of one burst is one incident: an
// exception line whose message follows on the lines a record matches, the
// same message logged and then printed again as the process exits, one
// writer's error lines of one burst, a native library's warning after its
// consequence line.
func TestOneFailureSeveralLines(t *testing.T) {
	s := time.Second
	// exc is a traceback no record names, its exception typ: msg.
	exc := func(typ, msg string, at time.Time) Occurrence {
		o := traceback(typ+": "+msg, "f", at)
		o.SourceKey, o.Traced = "f", true
		o.Alert.Fingerprint = Fingerprint(o.Key, "f")
		o.Alert.Match.Exception = &sinks.Exception{Type: typ, Message: msg}
		return o
	}
	// named is a line a record of error class class names.
	named := func(key, class string, at time.Time) Occurrence {
		o := classified(key, "f", at)
		o.Alert.Record.ErrorClass = class
		return o
	}
	// line is a generic line no record names, its text text.
	line := func(text string, at time.Time) Occurrence {
		o := generic(text, "f", at)
		o.Alert.Match.Text = text
		return o
	}
	// written is a line of the writer "[-- ::,] KVPool ERROR: ".
	written := func(o Occurrence) Occurrence {
		o.Writer = "[-- ::,] KVPool ERROR: "
		return o
	}
	nccl := func(o Occurrence) Occurrence {
		o.Native, o.NativeKind = true, "nccl"
		return o
	}
	proxyCons := func(at time.Time) Occurrence {
		o := cons("proxy-connect", "pod:a", "", at)
		o.SourceKey = "f"
		o.Alert.Fingerprint = Fingerprint("proxy-connect", "f")
		return nccl(o)
	}
	proxyWarn := func(at time.Time) Occurrence {
		o := line("proxy.cc:1519 NCCL WARN Failed to execute operation Connect from rank 11", at)
		o.Alert.Record.Severity = "warning"
		return nccl(o)
	}
	const etcd = "Failed to connect to etcd server with config ClientOptions { etcd_url: [\"http://localhost:2379\"] }"
	for _, tc := range []struct {
		name string
		obs  []Occurrence
		want string
	}{
		{"an exception line without its message, then the record of that message: the record leads",
			[]Occurrence{placed(exc("ImportError", "", t0), 0), placed(named("common-ops", "ImportError", t0), 300)},
			"[common-ops ~]"},
		{"a message that a colon says goes on the next lines",
			[]Occurrence{placed(exc("ValueError", "the checks failed:", t0), 0), placed(named("checks", "", t0), 300)},
			"[checks ~]"},
		{"an exception with its own message stays its own",
			[]Occurrence{placed(exc("ImportError", "No module named 'vllm'", t0), 0), placed(named("common-ops", "ImportError", t0), 300)},
			"[ImportError: No module named 'vllm' common-ops]"},
		{"a record of another exception class stays apart",
			[]Occurrence{placed(exc("ImportError", "", t0), 0), placed(named("oom", "OutOfMemoryError", t0), 300)},
			"[ImportError:  oom]"},
		{"a record far after the exception line stays apart",
			[]Occurrence{placed(exc("ImportError", "", t0), 0), placed(named("common-ops", "ImportError", t0), 64<<10)},
			"[ImportError:  common-ops]"},
		{"a record after the settle time stays apart",
			[]Occurrence{placed(exc("ImportError", "", t0), 0), placed(named("common-ops", "ImportError", t0.Add(10*s)), 300)},
			"[ImportError:  common-ops]"},
		{"a message logged, then printed again as the process exits: one incident led by the first",
			[]Occurrence{placed(line("Application shutdown with error: "+etcd, t0), 0), placed(line("Error: "+etcd, t0), 400)},
			"[Application shutdown with error: " + etcd + " +unclassified]"},
		{"and in the other order",
			[]Occurrence{placed(line("Error: "+etcd, t0), 0), placed(line("Application shutdown with error: "+etcd, t0), 400)},
			"[Error: " + etcd + " +unclassified]"},
		{"two generic lines that say different things stay two",
			[]Occurrence{placed(line("Error: "+etcd, t0), 0), placed(line("Error: Failed to connect to nats server at localhost:4222", t0), 400)},
			"[Error: " + etcd + " Error: Failed to connect to nats server at localhost:4222]"},
		{"a short message said of many stays apart",
			[]Occurrence{placed(line("ERROR: request failed", t0), 0), placed(line("Error: request failed", t0), 400)},
			"[ERROR: request failed Error: request failed]"},
		{"the same message a minute later is not of the burst",
			[]Occurrence{placed(line("Error: "+etcd, t0), 0), placed(line("Error: "+etcd+" (retry)", t0.Add(time.Minute)), 400)},
			"[Error: " + etcd + " Error: " + etcd + " (retry)]"},
		{"one message said of two quoted names: one incident",
			[]Occurrence{placed(line("AttributeError: 'Qwen3MoeConfig' object has no attribute 'rope_parameters'", t0), 0),
				placed(line("AttributeError: 'LlamaConfig' object has no attribute 'rope_parameters'", t0), 100)},
			"[AttributeError: 'Qwen3MoeConfig' object has no attribute 'rope_parameters' +unclassified]"},
		{"two names differ: two things said",
			[]Occurrence{placed(line("AttributeError: 'Qwen3MoeConfig' object has no attribute 'rope_parameters'", t0), 0),
				placed(line("AttributeError: 'LlamaConfig' object has no attribute 'rope_scaling'", t0), 100)},
			"[AttributeError: 'Qwen3MoeConfig' object has no attribute 'rope_parameters' AttributeError: 'LlamaConfig' object has no attribute 'rope_scaling']"},
		{"a short shape said of many stays apart",
			[]Occurrence{placed(line("KeyError: 'a'", t0), 0), placed(line("KeyError: 'b'", t0), 100)},
			"[KeyError: 'a' KeyError: 'b']"},
		{"one writer's lines of one burst: one incident led by the first",
			[]Occurrence{placed(written(line("fetch_blocks failed: no attribute 'fetch_blocks'", t0)), 0),
				placed(written(line("Fetched fewer blocks than promised: 0 of 239", t0)), 200)},
			"[fetch_blocks failed: no attribute 'fetch_blocks' +unclassified]"},
		{"one writer's failures to reach two peers stay two",
			[]Occurrence{placed(written(line("Failed to connect to the store at store-0.svc:50051", t0)), 0),
				placed(written(line("Failed to connect to the queue at 10.0.0.9:4222", t0)), 200)},
			"[Failed to connect to the store at store-0.svc:50051 Failed to connect to the queue at 10.0.0.9:4222]"},
		{"one writer's line a few requests later goes on the same failure",
			[]Occurrence{placed(written(line("fetch_blocks failed: no attribute 'fetch_blocks'", t0)), 0),
				placed(written(line("Fetched fewer blocks than promised: 0 of 239", t0.Add(30*s))), 2000)},
			"[fetch_blocks failed: no attribute 'fetch_blocks' +unclassified]"},
		{"one writer's line past the correlation window stays apart",
			[]Occurrence{placed(written(line("fetch_blocks failed: no attribute 'fetch_blocks'", t0)), 0),
				placed(written(line("Fetched fewer blocks than promised: 0 of 239", t0.Add(20*time.Minute))), 2000)},
			"[fetch_blocks failed: no attribute 'fetch_blocks' Fetched fewer blocks than promised: 0 of 239]"},
		{"one writer's line after a stretch of serving stays apart",
			[]Occurrence{placed(written(line("fetch_blocks failed: no attribute 'fetch_blocks'", t0)), 0),
				placed(written(line("Fetched fewer blocks than promised: 0 of 239", t0.Add(30*s))), 64<<10)},
			"[fetch_blocks failed: no attribute 'fetch_blocks' Fetched fewer blocks than promised: 0 of 239]"},
		{"a native consequence line, then its library's warning of the same event: one incident",
			[]Occurrence{placed(proxyCons(t0), 0), placed(proxyWarn(t0), 200)},
			"[proxy-connect +unclassified]"},
		{"another library's warning stays apart",
			[]Occurrence{placed(proxyCons(t0), 0), placed(func() Occurrence { o := proxyWarn(t0); o.NativeKind = "ucx"; return o }(), 200)},
			"[proxy-connect proxy.cc:1519 NCCL WARN Failed to execute operation Connect from rank 11]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fmt.Sprint(scanned(tc.obs...)); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// TestPeerOfLeavesPlacesInCode: a host and its port name a peer; a source
// file and its line ("connector.py:360") name a place in code, not one.
func TestPeerOfLeavesPlacesInCode(t *testing.T) {
	for line, want := range map[string]string{
		"Failed to connect to the store at store-0.svc:50051: Connection refused":              "store-0.svc:50051",
		"Request to http://ctl.local:8080/v1/keys failed":                                      "ctl.local:8080",
		"fetch failed: no attribute 'x' (mooncakestore_connector.py:360:lmcache.v1.connector)": "",
		"Num retrieved tokens: 0 (vllm_v1_adapter.py:755:lmcache.integration)":                 "",
		"socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer gpu-3:4711":   "gpu-3:4711",
		"Sync at 12:00:01 failed": "",
	} {
		if got := peerOf(line); got != want {
			t.Errorf("peerOf(%q) = %q, want %q", line, got, want)
		}
	}
}
