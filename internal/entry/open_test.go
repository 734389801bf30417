package entry

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzInert checks open's shortcut: when inert(s) holds, advance and
// noteBare leave an entry just opened with message s exactly as it was;
// and firstSpace, which reads eight bytes at once, against IndexByte.
func FuzzInert(f *testing.F) {
	for _, s := range []string{
		"", "x", "Decode batch, #running-req: 91, #token: 262607",
		"Prefill batch, #new-seq: 4", "Failed to load the model", "File \"a.py\", line 3, in f",
		"Filed away", "> File \"a.py\", line 3, in f", "  File \"a.py\", line 3, in f",
		"ValueError: bad", "ValueError", "KeyboardInterrupt", "torch.OutOfMemoryError: CUDA out of memory",
		"Traceback (most recent call last):", "Scheduler hit an exception: Traceback (most recent call last):",
		"+ Exception Group Traceback (most recent call last):", sepCause, sepContext, "  " + sepCause,
		"Exception ignored in: <function f>", "msg ending in space ", "tab\t", "ünïcode", "x\u00a0",
		"_private: thing", "a.b.c: d", "[42] Embedding recv timeout after 42s", "10.2.3.4:5 - \"POST /x\" 200 OK",
		strings.Repeat("W", 70) + " x", "Error:x y", "Abcdefgh: x", "Abcdefg: x", "Abcdefghi x", "A\x80 \xa0 b y",
		"raise RuntimeError( RuntimeError: x", "return f(x) torch.OutOfMemoryError: y", "_f(x) KeyError: 'k'",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := -1
		if len(s) > 1 {
			if j := strings.IndexByte(s[1:min(len(s), maxInertWord)], ' '); j >= 0 {
				want = j + 1
			}
		}
		if got := firstSpace(s); got != want {
			t.Fatalf("firstSpace(%q) = %d, want %d", s, got, want)
		}
		if !inert(s) {
			return
		}
		// A record's message and a header-less line: noteBare reads more
		// of the latter (parseGluedException).
		for _, k := range []entryKind{kindHeader, kindRaw} {
			a := NewAssembler(Options{})
			a.begin(&Line{Offset: 1}, s, "", k)
			p := &a.cur
			p.msg, p.st = s, stRaw
			if k == kindHeader {
				p.st = stSGLang
			}
			before := *p
			a.advance(s)
			a.noteBare(s)
			if *p != before {
				t.Fatalf("inert(%q) but advance or noteBare changed the entry of kind %d: %+v, want %+v", s, k, *p, before)
			}
		}
	})
}

// TestEmitReusedSlot checks that an entry emitted into the slot of the
// entry before it holds nothing of that one: it equals the entry a fresh
// assembler emits for the same lines.
func TestEmitReusedSlot(t *testing.T) {
	rich := []string{
		"[2026-07-01 09:31:38 DP1 TP2] Scheduler hit an exception: Traceback (most recent call last):",
		`  File "/sgl/scheduler.py", line 4128, in run_scheduler_process`,
		"    scheduler.event_loop_overlap()",
		"RuntimeError: NCCL error: unhandled system error",
	}
	for _, tc := range []struct {
		name  string
		lines []string // emitted by the line after them, or by Flush when flush is set
		flush bool
	}{
		{"header", []string{"[2026-07-01 09:31:39] INFO:     127.0.0.1:5 - \"GET /health HTTP/1.1\" 200 OK"}, false},
		{"raw", []string{"plain text from another writer"}, false},
		{"native", []string{"terminate called after throwing an instance of 'c10::Error'"}, false},
		{"blank", []string{""}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			emitted := func(before []string) Entry {
				a := NewAssembler(Options{Reuse: true})
				off := int64(0)
				push := func(s string) []Entry {
					off++
					return a.Push(Line{Text: s, Source: "s", Stream: "stderr", Offset: off})
				}
				for _, s := range before {
					push(s)
				}
				a.Flush()
				off = 100
				var got []Entry
				for _, s := range tc.lines {
					got = push(s)
				}
				if tc.flush {
					got = a.Flush()
				} else {
					got = push("[2026-07-01 09:31:40 TP0] Decode batch, #running-req: 1")
				}
				if len(got) != 1 {
					t.Fatalf("got %d entries, want 1", len(got))
				}
				e := got[0]
				e.Own()
				return e
			}
			// The same last known time for both (rich's), which an
			// entry without a time of its own inherits.
			fresh, reused := emitted(rich[:1]), emitted(rich)
			if !reflect.DeepEqual(reused, fresh) {
				t.Errorf("entry in a reused slot:\n%+v\nwant, as a fresh assembler emits it:\n%+v", reused, fresh)
			}
		})
	}
}
