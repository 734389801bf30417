package entry

import (
	"strings"
	"testing"
)

func TestUnlinkAutolinks(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		// NCCL's source files and a peer's address, linked by a page.
		{"node201:127799:127863 [0] transport/[net_ib.cc:101](http://net_ib.cc:101/) NCCL WARN NET/IB : Got completion from peer [10.1.3.201](http://10.1.3.201/)<33057> with status=9",
			"node201:127799:127863 [0] transport/net_ib.cc:101 NCCL WARN NET/IB : Got completion from peer 10.1.3.201<33057> with status=9"},
		// A Python file (Paraguay's domain) in a frame and in a logger's
		// location, over https.
		{`  File "/sgl/python/sglang/srt/[scheduler.py](https://scheduler.py)", line 2345, in run_scheduler_process`,
			`  File "/sgl/python/sglang/srt/scheduler.py", line 2345, in run_scheduler_process`},
		{"ERROR 11-07 11:03:35 [[core.py:718](http://core.py:718/)] EngineCore failed to start.",
			"ERROR 11-07 11:03:35 [core.py:718] EngineCore failed to start."},
		// A mail address.
		{"contact [ops@example.com](mailto:ops@example.com) if it recurs", "contact ops@example.com if it recurs"},
		// A link of the page's own, whose target is not its text, stays.
		{"see [the docs](https://docs.sglang.ai/) and [x](http://y/)", "see [the docs](https://docs.sglang.ai/) and [x](http://y/)"},
		{"[rank0]: ValueError: bad (see http://a)", "[rank0]: ValueError: bad (see http://a)"},
		{"no link here", "no link here"},
	} {
		if got := unlinkAutolinks(tt.in); got != tt.want {
			t.Errorf("unlinkAutolinks(%q)\n = %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// FuzzUnlinkAutolinks: reading links never lengthens a line, and keeps a
// line without "](" as it is.
func FuzzUnlinkAutolinks(f *testing.F) {
	for _, s := range []string{"[a.cc:1](http://a.cc:1/) x", "[](http://)", "[a](http://a", "[[a](https://a)](http://b)", "[a@b](mailto:a@b)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := unlinkAutolinks(s)
		if len(got) > len(s) {
			t.Fatalf("unlinkAutolinks(%q) = %q: longer", s, got)
		}
		if !strings.Contains(s, "](") && got != s {
			t.Fatalf("unlinkAutolinks(%q) = %q: changed without a link", s, got)
		}
	})
}
