package entry

import (
	"strings"
	"testing"
)

// Syslog prefixes as the writers that put them print them: rsyslog's
// traditional file format, the kernel's lines (no pid), journalctl's
// short-iso output, a relay's RFC 3164 message with its priority, and
// RFC 5424 (rsyslog's protocol-23 format, syslog-ng, Docker's syslog log
// driver) with and without structured data. The prefix comes off and the
// program it names is the entry's process.
func TestSyslogWriter(t *testing.T) {
	for _, tc := range []struct{ prefix, writer string }{
		{"Dec  6 15:51:02 gpu-node-3 python3[2741]: ", "python3[2741]"},
		{"Aug 18 03:19:11 169 kernel: ", "kernel"},
		{"2026-12-06T15:51:02+0000 gpu-node-3 sglang[7]: ", "sglang[7]"},
		{"<13>Dec  6 15:51:02 gpu-node-3 python3[2741]: ", "python3[2741]"},
		{"<11>1 2026-12-06T15:51:02.123456+00:00 gpu-node-3 sglang 2741 ID47 - ", "sglang 2741"},
		{`<11>1 2026-12-06T15:51:02.123Z gpu-node-3 sglang - - [origin ip="10.0.0.3"][meta x="a\]b"] `, "sglang"},
		{"<11>1 - - - - - - ", ""},
	} {
		for _, msg := range []string{"RuntimeError: CUDA error: out of memory", "Loading weights"} {
			got := assemble(t, Options{}, tc.prefix+msg)
			if len(got) != 1 || got[0].Message != msg || got[0].Prefix != tc.prefix || got[0].Process != tc.writer {
				t.Errorf("%q: %+v", tc.prefix+msg, got)
			}
		}
	}
}

// Text that only starts like a syslog message's priority is no prefix.
func TestSyslogPRIRefused(t *testing.T) {
	for _, s := range []string{
		"<1234>1 - - - - - - x",
		"<11>2 2026-12-06T15:51:02Z h a p m - x",
		"<11>1 2026-12-06T15:51:02Z h a p",
		"<11>1 2026-12-06T15:51:02Z h a p m [unclosed x",
		"<stdin>:1: SyntaxWarning: invalid escape sequence",
	} {
		if n := syslogPRILen(s); n != 0 {
			t.Errorf("syslogPRILen(%q) = %d", s, n)
		}
	}
}

// FuzzSyslogPrefix checks the syslog readers on any line: no panic, a
// prefix within the line that ends where a field does, and a writer that
// is a part of it.
func FuzzSyslogPrefix(f *testing.F) {
	for _, s := range []string{
		"<13>Dec  6 15:51:02 gpu-node-3 python3[2741]: x",
		`<11>1 2026-12-06T15:51:02.123Z h sglang - - [a b="\]"] x`,
		"<11>1 - - - - - -",
		"Aug 18 03:19:11 169 kernel: Killed process 7748 (python)",
		"<1>",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := syslogPRILen(s)
		if n < 0 || n > len(s) || n > 0 && n < len(s) && s[n-1] != ' ' {
			t.Fatalf("syslogPRILen(%q) = %d", s, n)
		}
		if w := syslogWriter(s); w != "" && !strings.Contains(s, w) {
			t.Fatalf("syslogWriter(%q) = %q", s, w)
		}
	})
}

// After a time alone (moreutils' ts), a list item's dash is no host and
// an exception's type no program: the line's words stay its message, and
// two such lines are not one ("...undefined symbol: _ZNK3c10...S0_" and
// "- ModuleNotFoundError: No module named 'common_ops'").
func TestSyslogListItemAfterTime(t *testing.T) {
	for _, s := range []string{
		"Nov 06 02:10:00 - ImportError: /usr/x.so: undefined symbol: _ZNK3c106SymInt6sym_neERKS0_",
		"Nov 06 02:10:00 - ModuleNotFoundError: No module named 'common_ops'",
		"Nov 06 02:10:00 gpu-node-3 RuntimeError: CUDA error: out of memory",
		"Dec  6 15:51:02 -- ValueError: x",
	} {
		if n := syslogPrefixLen(s); n != 0 {
			t.Errorf("syslogPrefixLen(%q) = %d (%q)", s, n, s[:n])
		}
	}
	in := "Nov 06 02:10:00 Error details from previous import attempts:\n" +
		"Nov 06 02:10:00 - ImportError: /usr/local/lib/python3.10/dist-packages/sgl_kernel/sm100/common_ops.abi3.so: undefined symbol: _ZNK3c106SymInt6sym_neERKS0_\n" +
		"Nov 06 02:10:00 - ModuleNotFoundError: No module named 'common_ops'"
	for _, e := range assemble(t, Options{}, in) {
		if strings.Contains(e.Text, "S0_No module") {
			t.Errorf("two list items glued: %q", e.Text)
		}
	}
	// A host and a program as syslog writes them still are.
	if n := syslogPrefixLen("Nov 06 02:10:00 gpu-node-3 python3: x"); n == 0 {
		t.Error("host and program refused")
	}
}
