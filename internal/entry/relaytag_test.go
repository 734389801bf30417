package entry

import (
	"strings"
	"testing"
)

func TestRelayStreamLen(t *testing.T) {
	for _, c := range []struct {
		s    string
		want string // the prefix, "" for none
	}{
		{"2025-11-06 02:10:00,702 - launcher - INFO - stderr: Traceback (most recent call last):", "2025-11-06 02:10:00,702 - launcher - INFO - stderr: "},
		{"2025-11-06 02:10:00,702 INFO stdout: Loading model", "2025-11-06 02:10:00,702 INFO stdout: "},
		{"2025-11-06 02:10:00,702 [INFO] launcher: stderr: x", "2025-11-06 02:10:00,702 [INFO] launcher: stderr: "},
		{"2025-11-06 02:10:00.702 | ERROR | [stderr] x", "2025-11-06 02:10:00.702 | ERROR | [stderr] "},
		{"2025-11-06T02:10:00Z 2741 runner ERROR stderr: x", "2025-11-06T02:10:00Z 2741 runner ERROR stderr: "},
		// A message that names a stream after words of its own.
		{"2025-11-06 02:10:00,702 ERROR failed to read stderr: broken pipe", ""},
		{"2025-11-06 02:10:00,702 - launcher - ERROR - reading stderr: x", ""},
		// No level, too many fields, no time, no text after the tag.
		{"2025-11-06 02:10:00,702 stderr: x", ""},
		{"2025-11-06 02:10:00,702 a b c INFO stderr: x", ""},
		{"INFO stderr: x", ""},
		{"2025-11-06 02:10:00,702 INFO stderr:", ""},
	} {
		n := relayStreamLen(c.s)
		if got := c.s[:n]; got != c.want {
			t.Errorf("relayStreamLen(%q) = %q, want %q", c.s, got, c.want)
		}
	}
}

func TestToolStreamPrefixes(t *testing.T) {
	for _, c := range []struct {
		s    string
		want string
	}{
		{"2025-11-06T02:10:00.702513Z 01E Traceback (most recent call last):", "2025-11-06T02:10:00.702513Z 01E "},
		{"2025-11-06T02:10:00.702513Z 00O+rest of a line", "2025-11-06T02:10:00.702513Z 00O+"},
		{"2025-11-06T02:10:00.702513Z 0fE x", "2025-11-06T02:10:00.702513Z 0fE "},
		// Not GitLab's: another zone, no stream type, a word.
		{"2025-11-06T02:10:00.702513+00:00 01E x", "2025-11-06T02:10:00.702513+00:00 "},
		{"2025-11-06T02:10:00.702513Z 012 x", "2025-11-06T02:10:00.702513Z "},
		{"2025-11-06T02:10:00.702513Z ONE x", "2025-11-06T02:10:00.702513Z "},
		{"02:10:00 E: Traceback (most recent call last):", "02:10:00 E: "},
		{"02:10:00 O: x", "02:10:00 O: "},
		{"02:10:00 I: Started python3 -m sglang.launch_server", "02:10:00 I: "},
		{"Thu 2025-11-06 02:10:00 UTC gpu-node-3 sglang[2741]: x", "Thu 2025-11-06 02:10:00 UTC gpu-node-3 sglang[2741]: "},
		{"Thu 2025-11-06 07:40:00 +0530 gpu-node-3 python3[2741]: x", "Thu 2025-11-06 07:40:00 +0530 gpu-node-3 python3[2741]: "},
		{"Thu 2025-11-06 05:10:00 +03 gpu-node-3 kernel: x", "Thu 2025-11-06 05:10:00 +03 gpu-node-3 kernel: "},
		{"Thu 2025-11-06 02:10:00 U gpu-node-3 sglang[2741]: x", ""},
		{"Thx 2025-11-06 02:10:00 UTC gpu-node-3 sglang[2741]: x", ""},
		{"2025-11-06T02:10:00.702513+00:00 app[web.1]: Traceback (most recent call last):", "2025-11-06T02:10:00.702513+00:00 app[web.1]: "},
		{"2025-11-06T02:10:00.702513+00:00 heroku[router]: at=error code=H12", "2025-11-06T02:10:00.702513+00:00 heroku[router]: "},
		{"2025-11-06T02:10:00.702513+00:00 app[web.1] x", "2025-11-06T02:10:00.702513+00:00 "},
		{"2025-11-06T02:10:00.702513+00:00 apps[web.1]: x", "2025-11-06T02:10:00.702513+00:00 "},
		{"sglang_sglang.1.qhc6ff4l5yrv@gpu-node-3    | x", "sglang_sglang.1.qhc6ff4l5yrv@gpu-node-3    | "},
		{"web.2.z2tkh7uxdljc9v0hs8n2k1j4q@node1 | x", "web.2.z2tkh7uxdljc9v0hs8n2k1j4q@node1 | "},
		{"web.2.short@node1 | x", ""},
		{"user@gpu-node-3    | x", ""},
		{"web.x.z2tkh7uxdljc@node1 | x", ""},
		{"Nov 06 02:10:00 Traceback (most recent call last):", "Nov 06 02:10:00 "},
		{"Nov  6 02:10:00.702513   File \"/x.py\", line 1, in f", "Nov  6 02:10:00.702513 "},
		{"Nov 06 02:10:00 ", "Nov 06 02:10:00 "},
		{"Nov 06 02:10:00 Assertion failed: x.cu:259, condition: n != 0", "Nov 06 02:10:00 "},
		{"Nov 06 02:10:00 rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat", "Nov 06 02:10:00 "},
		{"Nov 06 02:10:00 gpu-node-3 kernel: Out of memory: Killed process 2741", "Nov 06 02:10:00 gpu-node-3 kernel: "},
		{"Nov 06 02:10:00 gpu-node-3 sglang[2741]: x", "Nov 06 02:10:00 gpu-node-3 sglang[2741]: "},
		{"Nov 06 02:10:00x", ""},
		{"Nox 06 02:10:00 x", ""},
		{"02:10:00 X: x", ""},
		{"02:10:00 E:x", ""},
		{"2:10:00 E: x", ""},
	} {
		n := wrapperPrefixLen(c.s)
		if got := c.s[:n]; got != c.want {
			t.Errorf("wrapperPrefixLen(%q) = %q, want %q", c.s, got, c.want)
		}
	}
}

// FuzzRelayTag checks the tool and relay prefixes end inside the line,
// after the byte that closes them.
func FuzzRelayTag(f *testing.F) {
	for _, s := range []string{
		"2025-11-06 02:10:00,702 - launcher - INFO - stderr: x",
		"2025-11-06 02:10:00,702 [INFO] launcher: stdout: x",
		"2025-11-06 02:10:00,702 ERROR failed to read stderr: x",
		"01E x",
		"00O+",
		"02:10:00 E: x",
		"02:10:00 E:",
		"Thu 2025-11-06 02:10:00 UTC h p[1]: x",
		"app[web.1]: x",
		"a.1.qhc6ff4l5yrv@n | x",
		"Nov 06 02:10:00 ",
		"Nov 06 02:10:00 Assertion failed: x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n := relayStreamLen(s); n < 0 || n > len(s) || n > 0 && s[n-1] != ' ' {
			t.Fatalf("relayStreamLen(%q) = %d", s, n)
		}
		if n := gitlabStreamLen(s); n != 0 && (n != 4 || s[3] != ' ' && s[3] != '+') {
			t.Fatalf("gitlabStreamLen(%q) = %d", s, n)
		}
		if n := annotateOutputLen(s); n != 0 && (n > len(s) || s[n-1] != ' ') {
			t.Fatalf("annotateOutputLen(%q) = %d", s, n)
		}
		if n := fullTimeLen(s); n < 0 || n > len(s) || n > 0 && !isWeekday(s[:3]) {
			t.Fatalf("fullTimeLen(%q) = %d", s, n)
		}
		if n := herokuSourceLen(s); n != 0 && (n > len(s) || s[n-1] != ' ' || s[n-2] != ':' || s[n-3] != ']') {
			t.Fatalf("herokuSourceLen(%q) = %d", s, n)
		}
		if n := tsTimeLen(s); n < 0 || n > len(s) || n > 0 && !isMonth(s[:3]) {
			t.Fatalf("tsTimeLen(%q) = %d", s, n)
		}
		if n := serviceTaskLen(s); n != 0 && (n > len(s) || !strings.Contains(s[:n], "@") || !strings.Contains(s[:n], "|")) {
			t.Fatalf("serviceTaskLen(%q) = %d", s, n)
		}
	})
}

func TestTagTabLen(t *testing.T) {
	for _, c := range []struct {
		s    string
		want string
	}{
		{"gpu-node-3\tTraceback (most recent call last):", "gpu-node-3\t"},
		{"ubuntu@10.0.0.7\tx", "ubuntu@10.0.0.7\t"},
		{"job_12\t  File \"/x.py\", line 1, in f", "job_12\t"},
		// A tab-separated logger's time, a sentence, a blank tag.
		{"2025-07-07T02:34:31.680Z\tINFO\tx", ""},
		{"the model\tx", ""},
		{"\tx", ""},
		{"_x\ty", ""},
	} {
		n := tagTabLen(c.s)
		if got := c.s[:n]; got != c.want {
			t.Errorf("tagTabLen(%q) = %q, want %q", c.s, got, c.want)
		}
	}
}
