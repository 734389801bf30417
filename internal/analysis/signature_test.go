package analysis

import (
	"testing"

	"github.com/logmatch/logmatch/internal/entry"
)

func TestSignatureIgnoresVolatileParts(t *testing.T) {
	mk := func(msg, file string, line int) *entry.Traceback {
		return &entry.Traceback{Links: []entry.Exception{{
			Type: "ValueError", Message: msg,
			Frames: []entry.Frame{{File: file, Line: line, Func: "run_batch"}},
		}}}
	}
	a := Signature(mk("request 8f1c2a3b-0000-4000-8000-000000000001 failed at 0x7f00aa after 12 tries in /tmp/x/y.bin", "/usr/lib/a/scheduler.py", 10), nil)
	b := Signature(mk("request 11111111-2222-4333-8444-555555555555 failed at 0xdeadbeef after 3 tries in /var/z/w.bin", "/opt/venv/a/scheduler.py", 99), nil)
	if a != b {
		t.Fatalf("signatures differ for the same failure: %s %s", a, b)
	}
	c := Signature(mk("request failed", "/usr/lib/a/scheduler.py", 10), nil)
	if a == c {
		t.Fatal("different messages share a signature")
	}
}

func TestNormalizeMessage(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Tried to allocate 2.00 GiB", "Tried to allocate <n> GiB"},
		{"connect to 10.0.0.12:29500 failed", "connect to <addr> failed"},
		{"No such file: /models/llama/config.json", "No such file: <path>"},
		{"ptr 0x7ffe12 id 0123456789abcdef0", "ptr <hex> id <id>"},
	}
	for _, tt := range tests {
		if got := NormalizeMessage(tt.in); got != tt.want {
			t.Errorf("NormalizeMessage(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
