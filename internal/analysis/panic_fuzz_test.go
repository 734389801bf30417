package analysis

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzPanicHeadline: any text gives a one-line headline that, when there
// is one, names a thread's panic and is bounded.
func FuzzPanicHeadline(f *testing.F) {
	for _, s := range []string{
		"thread '<unnamed>' panicked at /r/.cargo/registry/src/index.crates.io-1/tokio-1.45.1/src/x.rs:51:21:\nCannot drop a runtime\n",
		"thread 'main' (12) panicked at src/main.rs:1:2:\nmsg\nnote: run with `RUST_BACKTRACE=1`\n",
		"thread 'main' panicked at 'boom\nmore', src/main.rs:1:2\n",
		"x thread 'a' panicked at 'unterminated",
		"thread '",
		"/.cargo/registry/src/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		h := panicHeadline(text)
		if h == "" {
			return
		}
		if strings.Contains(h, "\n") {
			t.Fatalf("headline %q spans lines", h)
		}
		if !strings.HasPrefix(h, "thread '") {
			t.Fatalf("headline %q does not name the thread", h)
		}
		if utf8.RuneCountInString(h) > len(text)+8 {
			t.Fatalf("headline %q longer than its text %q allows", h, text)
		}
		_ = registryRelative(text)
		_ = panicProcess(text)
	})
}
