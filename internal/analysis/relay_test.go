package analysis_test

import (
	"testing"

	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// TestLastErrorReadsAsTheLowerLayer: a consequence quoted after NCCL's
// "Last error:" (on the line or the next) reads the entry rather than the
// consequence that relays it, whichever the matcher ranks first; a
// "Caused by", a chained traceback, or a cause among them keep the
// matcher's choice.
func TestLastErrorReadsAsTheLowerLayer(t *testing.T) {
	rec := func(slug, pat string, role patterns.Role) patterns.Record {
		return patterns.Record{ID: slug, Slug: slug, MessagePattern: pat, Severity: patterns.SeverityCritical,
			Role: role, Solutions: []string{"fix " + slug}}
	}
	// The relaying records have the longer literals, so the matcher
	// ranks them first.
	m, _ := matcher.Compile([]patterns.Record{
		rec("coll-down", `Some collective operations have failed or timed out, taking the process down`, patterns.RoleConsequence),
		rec("peer-or-net", `remote process exited or there was a network error`, patterns.RoleConsequence),
		rec("link-cqe", `completion with error \d+`, patterns.RoleConsequence),
		rec("sock-closed", `Connection closed by peer`, patterns.RoleConsequence),
		rec("kernel-fault", `illegal memory access`, patterns.RoleCause),
	}, matcher.Options{})
	for _, tt := range []struct {
		name, text, want string
	}{
		{"c10d relays NCCL's last warning",
			"[E ProcessGroup.cpp:455] Some collective operations have failed or timed out, taking the process down. what(): NCCL error: remote process exited or there was a network error. Last error: NET/IB : Got completion with error 12\n",
			"link-cqe"},
		{"another transport's last warning",
			"RuntimeError: remote process exited or there was a network error, NCCL version 2.21.5 ncclRemoteError: Last error: socketProgress: Connection closed by peer 10.0.0.2<4711>\n",
			"sock-closed"},
		{"without the marker the matcher's rank stands",
			"RuntimeError: remote process exited or there was a network error (Caused by completion with error 12)\n",
			"peer-or-net"},
		{"the quoted failure before the relay stands",
			"Last error: completion with error 12; remote process exited or there was a network error\n",
			"peer-or-net"},
		{"a cause quoted after the marker leads as a cause always does",
			"RuntimeError: remote process exited or there was a network error. Last error: Cuda failure 'an illegal memory access was encountered'\n",
			"kernel-fault"},
	} {
		ds, _ := analyzeAll(t, m, tt.text)
		if len(ds) != 1 || ds[0].slug != tt.want {
			t.Errorf("%s: got %+v, want %s", tt.name, ds, tt.want)
		}
	}

	// NCCL's own layout: the marker and the last warning on lines of
	// their own, in the exception's message.
	ds, _ := analyzeAll(t, m, "Traceback (most recent call last):\n  File \"a.py\", line 1, in f\n    dist.all_reduce(t)\n"+
		"RuntimeError: NCCL error: remote process exited or there was a network error, NCCL version 2.21.5\n"+
		"ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.\n"+
		"Last error:\nNET/IB : Got completion with error 12, opcode 0, len 0, vendor err 129\n")
	if len(ds) != 1 || ds[0].slug != "link-cqe" {
		t.Errorf("across lines: got %+v, want link-cqe", ds)
	}
	// Two consequences of a chained traceback, no marker: the matcher's
	// rank stands.
	ds, _ = analyzeAll(t, m, "Traceback (most recent call last):\n  File \"a.py\", line 1, in f\n"+
		"ConnectionError: Connection closed by peer 10.0.0.2<4711>\n\nDuring handling of the above exception, another exception occurred:\n\n"+
		"Traceback (most recent call last):\n  File \"a.py\", line 3, in g\nRuntimeError: remote process exited or there was a network error\n")
	if len(ds) != 1 || ds[0].slug != "peer-or-net" {
		t.Errorf("chained traceback: got %+v, want peer-or-net", ds)
	}
}
