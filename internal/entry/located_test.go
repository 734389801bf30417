package entry

import (
	"strings"
	"testing"
)

// TestLocatedLine reads a native library's error lines that open with
// their place in the source, and leaves quiet what states no failure or
// has a shape of its own.
func TestLocatedLine(t *testing.T) {
	for _, tt := range []struct {
		name, in, level, msg string // level "" when no located line
	}{
		{"file, function, line", "/src/bootstrap/uid/bootstrap_uid.cpp:bootstrap_net_recv:99: Message truncated : received 36 bytes instead of 1",
			LevelError, "Message truncated : received 36 bytes instead of 1"},
		{"file, line, two messages run together", "/src/bootstrap_uid.cpp:499: non-zero status: -3 /src/topo.cpp:526: non-zero status: -3 allgather of ipc handles failed",
			LevelError, "non-zero status: -3 /src/topo.cpp:526: non-zero status: -3 allgather of ipc handles failed"},
		{"no space after the place", "src/transport.cc:231:connect() failed: Connection refused", LevelError, "connect() failed: Connection refused"},
		{"a CUDA source", "csrc/kernels/runtime.cu:88: cudaMalloc failed: out of memory", LevelError, "cudaMalloc failed: out of memory"},
		{"a warning that states a failure", "/src/init.cpp:12: WARN: ibv_open_device failed, falling back", LevelWarning, "WARN: ibv_open_device failed, falling back"},
		// Near misses.
		{"progress with its place", "/src/init.cpp:12: NVSHMEM initialized with 8 PEs", "", ""},
		{"an info line", "/src/init.cpp:12: INFO failed attempts 0", "", ""},
		{"a Python warning", "/x/y.py:54: FutureWarning: failed to be deprecated", "", ""},
		{"no line number", "/src/x.cpp:fn: failed", "", ""},
		{"a space in the path", "my file.cpp:12: failed", "", ""},
		{"prose", "The error is in x.cpp: it failed", "", ""},
	} {
		lvl, at, ok := parseLocatedLine(tt.in)
		if ok != (tt.level != "") || lvl != tt.level && ok {
			t.Errorf("%s: level %q ok %v, want %q", tt.name, lvl, ok, tt.level)
			continue
		}
		if ok && tt.in[at:] != tt.msg {
			t.Errorf("%s: message %q, want %q", tt.name, tt.in[at:], tt.msg)
		}
	}
	// The shapes read before it keep their kind.
	for in, kind := range map[string]string{
		"x.cpp:3:10: fatal error: cuda.h: No such file or directory":                                                     NativeCompiler,
		"python3: ../nptl/pthread_mutex_lock.c:81: __pthread_mutex_lock: Assertion `mutex->__data.__owner == 0' failed.": NativeAssert,
		"/src/topo.cpp:526: non-zero status: -3 allgather of ipc handles failed":                                         NativeLocated,
	} {
		es := assemble(t, Options{}, in)
		if len(es) != 1 || es[0].Native != kind {
			t.Errorf("%q: %d entries, native %q, want %q", in, len(es), es[0].Native, kind)
		}
	}
}

// A burst of located lines, blank lines between, is one native entry a
// line, each an ERROR.
func TestLocatedBurst(t *testing.T) {
	in := "Allocating buffer size: 2115.11 MB ...\n" +
		"/src/bootstrap_uid.cpp:bootstrap_net_recv:99: Message truncated : received 36 bytes instead of 1\n\n" +
		"/src/bootstrap_uid.cpp:499: non-zero status: -3 /src/topo.cpp:526: non-zero status: -3 allgather of ipc handles failed \n"
	var got []string
	for _, e := range assemble(t, Options{}, in) {
		if e.Native == NativeLocated {
			got = append(got, e.Level+" "+strings.TrimRight(e.Message, " "))
		}
	}
	want := []string{"ERROR Message truncated : received 36 bytes instead of 1", "ERROR non-zero status: -3 /src/topo.cpp:526: non-zero status: -3 allgather of ipc handles failed"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

// FuzzParseLocatedLine checks that a located line's message is its tail,
// never empty, and that its level is ERROR or WARNING.
func FuzzParseLocatedLine(f *testing.F) {
	for _, s := range []string{
		"/src/bootstrap_uid.cpp:bootstrap_net_recv:99: Message truncated",
		"a.cc:1:connect() failed", "a.cu:2:fn: error", "x.h::", "a.cpp:12", ".c:1: fail",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lvl, at, ok := parseLocatedLine(s)
		if !ok {
			return
		}
		if at <= 0 || at >= len(s) || lvl != LevelError && lvl != LevelWarning {
			t.Fatalf("parseLocatedLine(%q) = %q, %d", s, lvl, at)
		}
	})
}
