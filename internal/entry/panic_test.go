package entry

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParsePanic(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want *Panic // nil: no panic
	}{
		{"current form", "thread 'tokio-runtime-worker' panicked at src/routers/http/router.rs:123:45:\ncalled `Option::unwrap()` on a `None` value\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
			&Panic{"tokio-runtime-worker", "src/routers/http/router.rs:123:45", "called `Option::unwrap()` on a `None` value"}},
		{"thread id, absolute path", "thread 'main' (2741) panicked at /root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/tokio-1.38.0/src/runtime/blocking/shutdown.rs:51:21:\nCannot drop a runtime in a context where blocking is not allowed.",
			&Panic{"main", "/root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/tokio-1.38.0/src/runtime/blocking/shutdown.rs:51:21", "Cannot drop a runtime in a context where blocking is not allowed."}},
		{"assertion over lines, then a backtrace", "thread '<unnamed>' panicked at src/tree.rs:88:9:\nassertion `left == right` failed\n  left: 3\n right: 4\nstack backtrace:\n   0: rust_begin_unwind",
			&Panic{"<unnamed>", "src/tree.rs:88:9", "assertion `left == right` failed\n  left: 3\n right: 4"}},
		{"older form", "thread 'main' panicked at 'index out of bounds: the len is 3 but the index is 7', src/main.rs:10:5",
			&Panic{"main", "src/main.rs:10:5", "index out of bounds: the len is 3 but the index is 7"}},
		{"older form over two lines", "thread 'main' panicked at 'failed to bind:\naddress in use', src/server.rs:40:14\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
			&Panic{"main", "src/server.rs:40:14", "failed to bind:\naddress in use"}},
		{"older form cut", "thread 'main' panicked at 'failed to",
			&Panic{"main", "", "failed to"}},
		{"double-spaced paste: the blank lines the entry kept are no part of the message", "thread 'main' panicked at src/main.rs:1:1:\n\nassertion failed\n\n  left: 1\n\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
			&Panic{"main", "src/main.rs:1:1", "assertion failed\n  left: 1"}},
		{"current form cut before its message", "thread 'main' panicked at src/main.rs:1:1:", &Panic{"main", "src/main.rs:1:1", ""}},
		{"cut before its location", "thread 'main' panicked at ", nil},

		{"prose", "the thread 'main' panicked at src/main.rs:1:1:", nil},
		{"no location", "thread 'main' panicked at something:", nil},
		{"bad thread id", "thread 'main' (x) panicked at src/main.rs:1:1:", nil},
		{"unclosed name", "thread 'main panicked at src/main.rs:1:1:", nil},
	}
	for _, tt := range tests {
		got, ok := ParsePanic(tt.in)
		if tt.want == nil {
			if ok {
				t.Errorf("%s: ParsePanic = %+v, want none", tt.name, got)
			}
			continue
		}
		if !ok || got != *tt.want {
			t.Errorf("%s: ParsePanic = %+v, %v; want %+v", tt.name, got, ok, *tt.want)
		}
	}
}

func TestAssemblerRustPanic(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []view
	}{
		{"current form and note, then a router record",
			"thread 'tokio-runtime-worker' panicked at src/routers/http/router.rs:123:45:\ncalled `Option::unwrap()` on a `None` value\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n2025-11-05T01:56:54.243403Z  INFO sglang_router_rs::server: shutting down",
			[]view{
				{Lines: "1-3", Format: FormatNative, Native: NativeRustPanic, Msg: "thread 'tokio-runtime-worker' panicked at src/routers/http/router.rs:123:45:"},
				{Lines: "4-4", Format: FormatDynamo, Msg: "shutting down"},
			}},
		{"older one-line form, then the note",
			"thread 'main' panicked at 'index out of bounds', src/main.rs:10:5\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\nKilled",
			[]view{
				{Lines: "1-2", Format: FormatNative, Native: NativeRustPanic, Msg: "thread 'main' panicked at 'index out of bounds', src/main.rs:10:5"},
				{Lines: "3-3", Format: FormatNative, Native: NativeShell, Msg: "Killed"},
			}},
		{"backtrace frames",
			"thread 'main' panicked at src/main.rs:2:5:\nboom\nstack backtrace:\n   0: rust_begin_unwind\n             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs:645:5\n   1: main\nnote: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.\nnext line",
			[]view{
				{Lines: "1-7", Format: FormatNative, Native: NativeRustPanic, Msg: "thread 'main' panicked at src/main.rs:2:5:"},
				{Lines: "8-8", Msg: "next line"},
			}},
		{"a second unindented line after the message is another writer's",
			"thread 'main' panicked at src/main.rs:2:5:\nboom\nLoading safetensors checkpoint shards: 100%",
			[]view{
				{Lines: "1-2", Format: FormatNative, Native: NativeRustPanic, Msg: "thread 'main' panicked at src/main.rs:2:5:"},
				{Lines: "3-3", Msg: "Loading safetensors checkpoint shards: 100%"},
			}},
		{"blank line ends it", "thread 'main' panicked at src/main.rs:2:5:\n\nboom",
			[]view{
				{Lines: "1-2", Format: FormatNative, Native: NativeRustPanic, Msg: "thread 'main' panicked at src/main.rs:2:5:"},
				{Lines: "3-3", Msg: "boom"},
			}},
		{"a Python traceback after it is its own", "thread '<unnamed>' panicked at src/lib.rs:5:9:\nTraceback (most recent call last):\n  File \"a.py\", line 1, in <module>\npyo3_runtime.PanicException: boom",
			[]view{
				{Lines: "1-1", Format: FormatNative, Native: NativeRustPanic, Msg: "thread '<unnamed>' panicked at src/lib.rs:5:9:"},
				{Lines: "2-4", Msg: "Traceback (most recent call last):", Exc: "pyo3_runtime.PanicException: boom"},
			}},
		{"a backtrace without its panic line: the frames with their locations are one entry",
			"  25:     0x7f00aa01 - gateway_rs::server::AppState::new::h0123456789abcdef\n                               at /src/gateway/src/server.rs:37:31\n  26:     0x7f00aa02 - <core::pin::Pin<P> as core::future::future::Future>::poll::hfedcba9876543210\n                               at /rustc/library/core/src/future/future.rs:123:9\n[2026-01-02 03:04:05] next record",
			[]view{
				{Lines: "1-4", Format: FormatNative, Native: NativeRustPanic, Msg: "  25:     0x7f00aa01 - gateway_rs::server::AppState::new::h0123456789abcdef"},
				{Lines: "5-5", Format: FormatSRT, Msg: "next record"},
			}},
		{"a backtrace without addresses, from the panic machinery",
			"   0: rust_begin_unwind\n             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs:645:5\n   1: core::panicking::panic_fmt\n             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/panicking.rs:72:14\n   2: tokio::runtime::blocking::shutdown::Receiver::wait::h1a2b3c4d5e6f7a8b",
			[]view{
				{Lines: "1-5", Format: FormatNative, Native: NativeRustPanic, Msg: "   0: rust_begin_unwind"},
			}},
		{"fold -s cut the first line after \"panicked at \": its location rejoined",
			"thread '<unnamed>' panicked at \n/home/router/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/tokio-1.45.1/src/runtime/blocking/shutdown.rs:51:21:\nCannot drop a runtime in a context where blocking is not allowed.\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
			[]view{
				{Lines: "1-4", Format: FormatNative, Native: NativeRustPanic, Msg: "thread '<unnamed>' panicked at /home/router/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/tokio-1.45.1/src/runtime/blocking/shutdown.rs:51:21:"},
			}},
		{"cut after \"panicked at \", the older form's quote on the next line",
			"thread 'main' panicked at \n'index out of bounds', src/main.rs:10:5",
			[]view{
				{Lines: "1-2", Format: FormatNative, Native: NativeRustPanic, Msg: "thread 'main' panicked at 'index out of bounds', src/main.rs:10:5"},
			}},
		{"a backtrace frame fold -s cut after its address: its symbol rejoined",
			"  25:     0x7fb7396a2659 - \nsglang_router_rs::router::Router::wait_for_healthy_workers::hee2d9a52d3a5ed31\n                               at /root/sglang/sgl-router/src/router.rs:319:27\n  26:     0x7fb7394af227 - sglang_router_rs::pd_router::PDRouter::new::hf603ebd66d3a8a81",
			[]view{
				{Lines: "1-4", Format: FormatNative, Native: NativeRustPanic, Msg: "  25:     0x7fb7396a2659 - sglang_router_rs::router::Router::wait_for_healthy_workers::hee2d9a52d3a5ed31"},
			}},
		{"numbered lists and counters are no frames",
			"  0: 10\n  1: route /generate\n  2: 0x1f - retries left",
			[]view{
				{Lines: "1-1", Msg: "10"},
				{Lines: "2-2", Msg: "route /generate"},
				{Lines: "3-3", Msg: "0x1f - retries left"},
			}},
	}
	for _, tt := range tests {
		es := assemble(t, Options{}, tt.in)
		got := views(es)
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%s: (-want +got)\n%s", tt.name, d)
		}
		if es[0].Native == NativeRustPanic && es[0].Level != LevelFatal {
			t.Errorf("%s: level %q, want FATAL", tt.name, es[0].Level)
		}
	}
	// The message is read back from the entry.
	es := assemble(t, Options{}, tests[0].in)
	if p, ok := ParsePanic(es[0].Text); !ok || p.Message != "called `Option::unwrap()` on a `None` value" {
		t.Errorf("ParsePanic(entry text) = %+v, %v", p, ok)
	}
}

// TestAssemblerRustPanicBehindTag: a launcher or a wrapping logger that
// relays a Rust program's stderr behind a tag without a number ("[SGLang
// LOG] ", "[router] ", "gateway: ") leaves the panic's first line behind
// it; the panic is read with its message, in either form, and the tag is
// learnt for the lines after it. A line of prose that quotes a panic is
// not one.
func TestAssemblerRustPanicBehindTag(t *testing.T) {
	const unwrap = "called `Result::unwrap()` on an `Err` value: Os { code: 24, kind: Uncategorized, message: \"Too many open files\" }"
	const note = "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace"
	tests := []struct {
		name, tag string
		lines     []string
		want      []view
		msg       string // the panic's message ParsePanic reads from the first entry
	}{
		{"current form behind a launcher's tag", "[SGLang LOG] ",
			[]string{"thread 'actix-rt|system:0|arbiter:242' panicked at /root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/actix-server-2.5.0/src/worker.rs:429:30:", unwrap, note},
			[]view{{Lines: "1-3", Format: FormatNative, Native: NativeRustPanic, Msg: "thread 'actix-rt|system:0|arbiter:242' panicked at /root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/actix-server-2.5.0/src/worker.rs:429:30:"}},
			unwrap},
		{"current form with the thread id behind a bare tag", "[router] ",
			[]string{"thread 'main' (2741) panicked at src/main.rs:10:5:", "failed to bind: Address already in use (os error 98)"},
			[]view{{Lines: "1-2", Format: FormatNative, Native: NativeRustPanic, Msg: "thread 'main' (2741) panicked at src/main.rs:10:5:"}},
			"failed to bind: Address already in use (os error 98)"},
		{"older one-line form behind a name and colon", "gateway: ",
			[]string{"thread 'main' panicked at '" + unwrap + "', src/main.rs:10:5", note},
			[]view{{Lines: "1-2", Format: FormatNative, Native: NativeRustPanic, Msg: "thread 'main' panicked at '" + unwrap + "', src/main.rs:10:5"}},
			unwrap},
		{"prose that quotes a panic", "[router] ",
			[]string{"the thread 'main' panicked at src/main.rs:10:5: and restarted"},
			[]view{{Lines: "1-1", Msg: "[router] the thread 'main' panicked at src/main.rs:10:5: and restarted"}},
			""},
	}
	for _, tt := range tests {
		lines := make([]string, len(tt.lines))
		for i, l := range tt.lines {
			lines[i] = tt.tag + l
		}
		es := assemble(t, Options{}, strings.Join(lines, "\n"))
		if d := cmp.Diff(tt.want, views(es)); d != "" {
			t.Errorf("%s: (-want +got)\n%s", tt.name, d)
			continue
		}
		if tt.msg == "" {
			continue
		}
		if p, ok := ParsePanic(es[0].Text); !ok || p.Message != tt.msg {
			t.Errorf("%s: ParsePanic(entry text) = %+v, %v; want message %q", tt.name, p, ok, tt.msg)
		}
		if es[0].Level != LevelFatal || es[0].Prefix != tt.tag {
			t.Errorf("%s: level %q prefix %q, want FATAL behind %q", tt.name, es[0].Level, es[0].Prefix, tt.tag)
		}
	}
}

// TestAssemblerRustPanicRelayedByALogger: a launcher that relays a Rust
// program's stderr through its own logger puts its record header on every
// line of the panic. The panic's lines are one entry, a Rust panic whose
// message ParsePanic reads, the header left out of its later lines; the
// next record of the logger is its own, and so is a record of another
// level.
func TestAssemblerRustPanicRelayedByALogger(t *testing.T) {
	const (
		head = "thread 'tokio-runtime-worker' panicked at src/routers/http/router.rs:123:45:"
		msg  = "called `Option::unwrap()` on a `None` value"
		note = "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace"
	)
	for _, tt := range []struct {
		name, header string
		format       Format
	}{
		{"date, time and level", "2025-05-05 12:43:53 ERROR ", FormatPython},
		{"python logging's default", "2025-05-05 12:43:53,123 - launcher - ERROR - ", FormatPython},
		{"bracketed time", "[2025-05-05 12:43:53] ", FormatSRT},
		{"Rust tracing, which reads \"note:\" as its target", "2025-05-05T12:43:53.123456Z ERROR ", ""},
	} {
		in := strings.Join([]string{tt.header + head, tt.header + msg, tt.header + note, tt.header + "next record"}, "\n")
		es := assemble(t, Options{}, in)
		if len(es) != 2 || es[0].Lines != 3 || es[0].Native != NativeRustPanic {
			t.Errorf("%s: entries %+v, want the panic's three lines, then the next record", tt.name, views(es))
			continue
		}
		if tt.format != "" && es[0].Format != tt.format {
			t.Errorf("%s: format %q, want %q", tt.name, es[0].Format, tt.format)
		}
		if p, ok := ParsePanic(es[0].Text); !ok || p.Message != msg {
			t.Errorf("%s: ParsePanic = %+v, %v; want message %q (text %q)", tt.name, p, ok, msg, es[0].Text)
		}
		if strings.Contains(es[0].Text, "12:43:53") {
			t.Errorf("%s: text %q, want the headers left out", tt.name, es[0].Text)
		}
	}
	// Near misses: a record of another level after the panic's first line
	// is the logger's own; a message that only mentions a panic is none.
	es := assemble(t, Options{}, "2025-05-05 12:43:53 ERROR "+head+"\n2025-05-05 12:43:53 INFO "+msg)
	if len(es) != 2 || es[0].Native != NativeRustPanic || es[1].Native != "" {
		t.Errorf("another level: entries %+v, want two", views(es))
	}
	es = assemble(t, Options{}, "2025-05-05 12:43:53 ERROR the router's thread 'main' panicked at src/main.rs:1:1:")
	if len(es) != 1 || es[0].Native != "" {
		t.Errorf("prose: entries %+v, want a record that is no panic", views(es))
	}
}

// FuzzParsePanic checks that a panic is read from its text: thread,
// location and message are parts of it, and the first line is one the
// assembler opens a panic entry with.
func FuzzParsePanic(f *testing.F) {
	for _, s := range []string{
		"thread 'main' panicked at src/main.rs:1:1:\nboom\nnote: x",
		"thread 'main' (12) panicked at 'a\nb', src/m.rs:1:2",
		"thread 'x' panicked at 'y",
		"thread 'actix-rt|system:0|arbiter:242' panicked at /root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/actix-server-2.5.0/src/worker.rs:429:30:\ncalled `Result::unwrap()` on an `Err` value: Os { code: 24, kind: Uncategorized, message: \"Too many open files\" }",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := ParsePanic(s)
		first, _, _ := strings.Cut(s, "\n")
		_, head := panicState(first)
		if ok && !head {
			t.Fatalf("ParsePanic(%q) = %+v, but the assembler opens no panic with its first line", s, p)
		}
		if !ok {
			return
		}
		if !strings.Contains(s, p.Thread) || !strings.Contains(s, p.Location) {
			t.Fatalf("ParsePanic(%q) = %+v: not parts of the text", s, p)
		}
		// The message's lines are the text's; the blank lines between
		// them (a double-spaced paste's) are left out.
		for l := range strings.SplitSeq(p.Message, "\n") {
			if !strings.Contains(s, l) {
				t.Fatalf("ParsePanic(%q) = %+v: message line %q not in the text", s, p, l)
			}
		}
		if p.Location != "" && !isRustLocation(p.Location) {
			t.Fatalf("ParsePanic(%q) location %q", s, p.Location)
		}
	})
}

// A Rust backtrace whose frames carry neither an address nor a symbol
// hash ("   2: tokio::runtime::...", RUST_BACKTRACE=1's short form) stays
// one panic entry: its right-aligned frame numbers are no launcher's task
// labels, with or without the panic line, while a task label in front of
// a log line is still learned.
func TestRustFramesWithoutAddressAreNoTaskLabels(t *testing.T) {
	frames := "   0: rust_begin_unwind\n   1: core::panicking::panic_fmt\n   2: core::option::unwrap_failed\n" +
		"   3: sglang_router_rs::routers::http::router::Router::route_typed_request::{{closure}}\n" +
		"   4: <F as core::future::future::Future>::poll\n   5: tokio::runtime::task::core::Core<T,S>::poll\n" +
		"note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace."
	for name, in := range map[string]string{
		"with its panic line": "thread 'tokio-runtime-worker' panicked at src/routers/http/router.rs:512:18:\ncalled `Option::unwrap()` on a `None` value\nstack backtrace:\n" + frames,
		"cut before it":       frames,
	} {
		es := assemble(t, Options{}, in)
		var panics []Entry
		for _, e := range es {
			if e.Native == NativeRustPanic {
				panics = append(panics, e)
			}
		}
		if len(panics) != 1 || !strings.Contains(panics[0].Text, "5: tokio::runtime") || !strings.HasSuffix(panics[0].Text, "verbose backtrace.") {
			t.Errorf("%s: %d panic entries %v, want one with every frame", name, len(panics), views(es))
		}
	}
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"tokio::runtime::task::core::Core<T,S>::poll", true},
		{"<F as core::future::future::Future>::poll", true},
		{"a::b::{{closure}}", true},
		{"std::vector", true},
		{"ready to serve", false},
		{"core::panicking", true},
		{"x: y::z", false},
		{"<unbalanced::x", false},
		{"nocolons", false},
	} {
		if got := isRustSymbol(tt.s); got != tt.want {
			t.Errorf("isRustSymbol(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
	// "3: " at the start of lines is still a task label.
	if n := rankLabelLen("3: INFO starting"); n != 3 {
		t.Errorf("rankLabelLen of a task label: %d", n)
	}
}

// FuzzIsRustSymbol: a symbol is bounded, holds "::" and no newline.
func FuzzIsRustSymbol(f *testing.F) {
	for _, s := range []string{"tokio::runtime::task::core::Core<T,S>::poll", "<F as a::B>::poll", "a::b::{{closure}}", "<<::>>", "a b::c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if isRustSymbol(s) && (len(s) > maxRustSymbol || !strings.Contains(s, "::") || strings.ContainsAny(s, "\n\t")) {
			t.Fatalf("isRustSymbol(%q) = true", s)
		}
	})
}

func TestIsRustFrameRest(t *testing.T) {
	for _, tt := range []struct {
		prev, next string
		want       bool
	}{
		{"  25:     0x7fb7396a2659 - ", "sglang_router_rs::router::Router::wait_for_healthy_workers::hee2d9a52d3a5ed31", true},
		{"  3:     0x55d0c1f0 -", "<F as core::future::future::Future>::poll::h0123456789abcdef", true},
		// Near misses: the frame whole already, a rest indented (its
		// location), a rest that is a frame of its own, no address.
		{"  25:     0x7fb7396a2659 - a::b::hee2d9a52d3a5ed31", "c::d", false},
		{"  25:     0x7fb7396a2659 - ", "      at /root/src/router.rs:319:27", false},
		{"  25:     0x7fb7396a2659 - ", "  26:     0x7fb7394af227 - a::b::hf603ebd66d3a8a81", false},
		{"  25: - ", "a::b::hee2d9a52d3a5ed31", false},
		{"  25:     0x7fb7396a2659 - ", "retrying in 3 seconds", false},
	} {
		if got := isRustFrameRest(tt.prev, tt.next); got != tt.want {
			t.Errorf("isRustFrameRest(%q, %q) = %v, want %v", tt.prev, tt.next, got, tt.want)
		}
	}
}

// FuzzIsRustFrameRest: a frame and the rest it reads as its symbol make
// one frame line, neither of them a frame with a symbol of its own.
func FuzzIsRustFrameRest(f *testing.F) {
	f.Add("  25:     0x7fb7396a2659 - ", "sglang_router_rs::router::Router::new::h9d5b1ebdc8a85ca6")
	f.Add("  3: 0x1 -", "<a as b>::c")
	f.Fuzz(func(t *testing.T, prev, next string) {
		if !isRustFrameRest(prev, next) {
			return
		}
		if !isRustBacktraceFrame(strings.TrimRight(prev, " ")+" "+next) || isRustBacktraceFrame(next) || isIndented(next) {
			t.Fatalf("isRustFrameRest(%q, %q): no frame whole, or a frame of its own", prev, next)
		}
	})
}
