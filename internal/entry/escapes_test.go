package entry

import (
	"strings"
	"testing"
)

// escapeSpellings are ESC as the writers of escapes.go spell it, each
// with the reset it closes a colour with.
var escapeSpellings = []struct{ name, esc string }{
	{"rsyslog", "#033"},
	{"journald-hex", `\x1b`},
	{"journald-hex-upper", `\x1B`},
	{"octal", `\033`},
	{"shell-e", `\e`},
	{"json", `\u001b`},
	{"json-upper", `\u001B`},
	{"json-quoted-again", `\\u001b`},
	{"caret", "^["},
	{"windows-arrow", "←"},
	{"control-picture", "␛"},
}

// colour puts a line's prefix in colour the way Ray's driver, uvicorn
// and a coloured logger do, with ESC spelled as esc.
func colour(esc, prefix, rest string) string {
	return esc + "[2m" + esc + "[33m" + prefix + esc + "[0m " + rest
}

func TestStripSpelledCSI(t *testing.T) {
	for _, sp := range escapeSpellings {
		for _, tc := range []struct{ in, want string }{
			{colour(sp.esc, "(raylet)", "node_manager.cc:3007: 2 Workers"), "(raylet) node_manager.cc:3007: 2 Workers"},
			{sp.esc + "[32mINFO" + sp.esc + "[0m:     Uvicorn running", "INFO:     Uvicorn running"},
			{sp.esc + "[1;31mERROR" + sp.esc + "[0m " + sp.esc + "[K", "ERROR "},
			{"a" + sp.esc + "[38;2;255;0;0mb" + sp.esc + "[m", "ab"},
		} {
			if got := stripSpelledCSI(tc.in); got != tc.want {
				t.Errorf("%s: stripSpelledCSI(%q) = %q, want %q", sp.name, tc.in, got, tc.want)
			}
		}
	}
	// A replacement character stands for ESC only before a colour with
	// a parameter.
	for _, tc := range []struct{ in, want string }{
		{"?[32mINFO?[0m:     Started server process [?[36m428?[0m]", "INFO:     Started server process [428]"},
		{"\uFFFD[31mERROR\uFFFD[0m x", "ERROR x"},
	} {
		if got := stripSpelledCSI(tc.in); got != tc.want {
			t.Errorf("stripSpelledCSI(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSpelledCSINearMisses: text that holds a spelling's bytes and a
// bracket, but no colour code, stays as written.
func TestSpelledCSINearMisses(t *testing.T) {
	for _, s := range []string{
		`[2026-12-06 18:42:43 TP0] Decode batch. #running-req: 1, #token: 20`,
		`pattern ^[[a-z]+$ does not match`,    // a regular expression
		`is it?[1] see the footnote`,          // a footnote after a question
		`what?[m] no parameter`,               // a replacement needs one
		`value \e[x] in a template`,           // no final letter after params
		`use #033[ to start a sequence`,       // nothing follows
		`ids=[0, 1, 2] sizes=[3;4]`,           // a list
		`escape: "\x1b[" then ";1H" appended`, // a spelling with no final
		`arrows ←[2] and ←[x]`,                // an arrow, no colour
	} {
		if got := stripSpelledCSI(s); got != s {
			t.Errorf("stripSpelledCSI(%q) = %q, want it unchanged", s, got)
		}
	}
}

// TestAssemblerReadsSpelledEscapes: a failure line behind colour codes
// whose ESC a shipper spelled out is read as it is read behind real ones,
// for three writers' lines and every spelling; the benign line stays
// benign.
func TestAssemblerReadsSpelledEscapes(t *testing.T) {
	writers := []struct {
		name    string
		line    func(esc string) string
		format  Format
		msg     string
		process string
	}{
		{"sglang behind a Ray actor", func(esc string) string {
			return colour(esc, "(SGLangEngine pid=4242)", "[2026-12-06 18:42:43 TP0] Scheduler hit an exception: Traceback (most recent call last):")
		}, FormatSRT, "Scheduler hit an exception: Traceback (most recent call last):", ""},
		{"uvicorn's level in colour", func(esc string) string {
			return esc + "[31mERROR" + esc + "[0m:    Exception in ASGI application"
		}, FormatUvicorn, "Exception in ASGI application", ""},
		{"glog behind journald", func(esc string) string {
			return esc + "[1m" + "E1206 18:42:43.123456 12345 transfer_engine.cpp:417] Failed to install transport" + esc + "[0m"
		}, FormatNative, "", ""},
	}
	for _, w := range writers {
		real := assemble(t, Options{}, w.line("\x1b"))
		if len(real) != 1 {
			t.Fatalf("%s: real ESC: %d entries", w.name, len(real))
		}
		for _, sp := range escapeSpellings {
			got := assemble(t, Options{}, w.line(sp.esc))
			if len(got) != 1 {
				t.Errorf("%s, %s: %d entries, want 1", w.name, sp.name, len(got))
				continue
			}
			if got[0].Format != real[0].Format || got[0].Message != real[0].Message || got[0].Text != real[0].Text {
				t.Errorf("%s, %s: read as %s %q, want %s %q as with a real ESC", w.name, sp.name, got[0].Format, got[0].Text, real[0].Format, real[0].Text)
			}
			if got[0].Format != w.format {
				t.Errorf("%s, %s: format %s, want %s", w.name, sp.name, got[0].Format, w.format)
			}
			if w.msg != "" && got[0].Message != w.msg {
				t.Errorf("%s, %s: message %q, want %q", w.name, sp.name, got[0].Message, w.msg)
			}
		}
	}
}

// TestAssemblerSpelledEscapesWrapped: rsyslog's escaped colour codes
// before each line of a record a viewer hard-wrapped: the escapes off,
// the pieces rejoined, the record's text whole.
func TestAssemblerSpelledEscapesWrapped(t *testing.T) {
	p := colour("#033", "(raylet)", "")
	in := p + "[2026-12-06 18:42:43,046 E 90952 90952] (raylet) node_manager.cc:3007: 2 Workers (tasks /\n" +
		" actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: abd406d415bd2b74a5\n" +
		"e281968fd76aa200d56e4529fd1c1cd4373840, IP: 10.0.167.26) over the last time period. To see more information about th\n" +
		"e Workers killed on this node, use `ray logs raylet.out -ip 10.0.167.26`\n" +
		strings.TrimSuffix(p, " ")
	es := assemble(t, Options{}, in)
	if len(es) < 1 || !strings.Contains(es[0].Text, "2 Workers (tasks / actors) killed due to memory pressure (OOM)") ||
		!strings.Contains(es[0].Text, "(ID: abd406d415bd2b74a5e281968fd76aa200d56e4529fd1c1cd4373840, IP:") {
		t.Fatalf("first entry %q, want the record whole", es[0].Text)
	}
	if strings.Contains(es[0].Text, "#033") || strings.Contains(es[0].Raw, "#033") {
		t.Errorf("escapes left in %q", es[0].Raw)
	}
}

// FuzzSpelledCSI checks the reader's promises on any line: no panic, a
// line without a spelled sequence comes back as it was, the result is
// never longer, and what is removed is whole sequences (stripping twice
// removes nothing a first pass left that a second would not see anew).
func FuzzSpelledCSI(f *testing.F) {
	for _, s := range []string{
		"#033[2m#033[33m(raylet)#033[0m [DATE] (raylet) node_manager.cc:3007: 2 Workers (tasks /",
		`\x1b[31mERROR\x1b[0m x`,
		`\\u001b[1;32mINFO\\u001b[0m`,
		"^[[36m(WorkerDict pid=39179)^[[0m self.sampling_params={}",
		"?[32mINFO?[0m:     Started server process [?[36m428?[0m]",
		"←[33mWARNING←[0m",
		"pattern ^[[a-z]+$",
		"[2026-12-06 18:42:43 TP0] Decode batch.",
		"#033[",
		`\e[38;2;1;2;3m`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := stripSpelledCSI(s)
		if !hasSpelledCSI(s) && got != s {
			t.Fatalf("stripSpelledCSI(%q) = %q without a sequence", s, got)
		}
		if len(got) > len(s) {
			t.Fatalf("stripSpelledCSI(%q) = %q, longer", s, got)
		}
		if start, end := nextSpelledCSI(s, 0); start >= 0 && (start > end || end > len(s) || s[end-1] < 0x40) {
			t.Fatalf("nextSpelledCSI(%q) = %d, %d", s, start, end)
		}
	})
}
