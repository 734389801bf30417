package entry

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// cutAt splits s at byte n, as a tool that counts bytes cuts it.
func cutAt(s string, n int) string { return s[:n] + "\n" + s[n:] }

func TestIsRuneCut(t *testing.T) {
	const cjk = "报错" // three bytes each
	for _, tt := range []struct {
		prev, next string
		want       bool
	}{
		{"'content': '盗贼天赋盗贼怎\xe4", "\xb9\x88加天赋?'}]", true},
		{"使用docker\xe8\xbf", "\x90行后出现docker: Error response from daemon", true},
		{"started \xf0\x9f", "\x9a\x80 ok", true}, // a four-byte emoji cut after two
		{"\xc3", "\xa9t\xc3\xa9", true},           // a two-byte letter
		{"在运行时遇到如下报错:", "使用docker运行后出现", false},   // whole characters on both sides
		{cjk, cjk, false},
		{"ValueError: x", "\x90\x80 garbage", false}, // no lead byte before
		{"x \xe8\xbf", "ok", false},                  // nothing to complete it
		{"x \xe8", "\xbf\x90\x80", false},            // a continuation byte too many
		{"x \xe8\xbf\x90", "\x80", false},            // prev's character was whole
		{"x \xed\xa0", "\x80 surrogate", false},      // no valid character
		{"x \xe8\xbf", "\x90", true},
	} {
		if got := isRuneCut(tt.prev, tt.next); got != tt.want {
			t.Errorf("isRuneCut(%q, %q) = %v, want %v", tt.prev, tt.next, got, tt.want)
		}
	}
}

// TestAssemblerRejoinsRuneCuts: a line a byte-counting tool cut inside a
// character is one line again, whatever the pieces' lengths and whatever
// the rest opens with; lines whose characters are whole stay apart.
func TestAssemblerRejoinsRuneCuts(t *testing.T) {
	evalscope := "2025-03-06 05:11:35,638 - evalscope - ERROR - Request: {'messages': [{'role': 'user', 'content': '盗贼天赋盗贼怎么加天赋?知道告诉一下下啦~~'}], 'model': 'sg-r1', 'stream': True} failed, state_code: None, data: "
	docker := "使用docker运行后出现docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]]."
	tests := []struct {
		name    string
		in      string
		entries int
		msg     string
	}{
		{"a request line cut at 120 bytes inside a character", cutAt(evalscope, 120), 1, "怎么加天赋?知道告诉一下下啦~~'}], 'model'"},
		{"a request line cut at 100 bytes inside a character", cutAt(evalscope, 100), 1, "'content': '盗贼天赋盗"},
		{"a docker error cut inside its first characters", cutAt(docker, 13), 1, "使用docker运行后出现docker: Error response"},
		// Lines of their own.
		{"a line after a line whose characters are whole", "在运行时遇到如下报错:\n报错ValueError: No available memory for the cache blocks.\n", 2, "报错ValueError"},
		{"a short reply after a question", "怎么加天赋?\n知道告诉一下下啦~~\n", 2, "知道告诉"},
	}
	for _, tt := range tests {
		es := assemble(t, Options{}, tt.in)
		if len(es) != tt.entries {
			t.Errorf("%s: %d entries, want %d: %+v", tt.name, len(es), tt.entries, views(es))
			continue
		}
		if last := es[len(es)-1].Message; !strings.Contains(last, tt.msg) {
			t.Errorf("%s: message %q, want it to hold %q", tt.name, last, tt.msg)
		}
	}
}

// FuzzIsRuneCut checks the rule's promise: next opens with the
// continuation bytes that complete prev's last character, a valid one.
func FuzzIsRuneCut(f *testing.F) {
	f.Add("'content': '盗贼天赋盗贼怎\xe4", "\xb9\x88加天赋?")
	f.Add("started \xf0\x9f", "\x9a\x80 ok")
	f.Fuzz(func(t *testing.T, prev, next string) {
		if !isRuneCut(prev, next) {
			return
		}
		if next == "" || utf8.RuneStart(next[0]) {
			t.Fatalf("isRuneCut(%q, %q): next opens a character", prev, next)
		}
		for k := 1; k <= 3 && k <= len(next); k++ {
			for j := 1; j <= 3 && j <= len(prev); j++ {
				s := prev[len(prev)-j:] + next[:k]
				if r, n := utf8.DecodeRuneInString(s); r != utf8.RuneError && n == len(s) {
					return
				}
			}
		}
		t.Fatalf("isRuneCut(%q, %q): no character made whole", prev, next)
	})
}
