package entry

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// assembleReused pushes lines through an Assembler with Options.Reuse the
// way a reader with one buffer does: each line's text is in the same bytes,
// scribbled over once Push returns. Every entry returned is Owned at once.
func assembleReused(o Options, lines []string) []Entry {
	o.Reuse = true
	a := NewAssembler(o)
	var buf []byte
	var got []Entry
	keep := func(es []Entry) {
		for _, e := range es {
			e.Own()
			got = append(got, e)
		}
	}
	for i, l := range lines {
		buf = append(buf[:0], l...)
		text := ""
		if len(buf) > 0 {
			text = unsafeString(buf)
		}
		keep(a.Push(Line{Text: text, Offset: int64(i + 1), Source: "s", Stream: "stdout"}))
		for j := range buf {
			buf[j] = '#'
		}
	}
	keep(a.Flush())
	return got
}

// assembleOwned is the same with every line a string of its own and no
// Reuse.
func assembleOwned(o Options, lines []string) []Entry {
	a := NewAssembler(o)
	var got []Entry
	for i, l := range lines {
		got = append(got, a.Push(Line{Text: strings.Clone(l), Offset: int64(i + 1), Source: "s", Stream: "stdout"})...)
	}
	return append(got, a.Flush()...)
}

// reuseInputs are the fuzz seeds, the golden inputs and the conformance
// tracebacks, split into lines.
func reuseInputs(t *testing.T) map[string][]string {
	in := map[string][]string{}
	for i, s := range fuzzSeeds {
		in["seed"+string(rune('a'+i))] = strings.Split(s, "\n")
	}
	for _, pattern := range []string{
		filepath.Join("testdata", "golden", "*.log"),
		filepath.Join("testdata", "realpython", "*"),
		filepath.Join(conformanceDir, "tracebacks", "*.log"),
	} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			in[p] = strings.Split(string(b), "\n")
		}
	}
	return in
}

// TestReuseAssemblesTheSameEntries runs every input through both ways, with
// the default bounds and with small ones (so that cut entries and arenas
// at their limit are covered too), and wants the same entries. An entry
// that kept a string of the caller's buffer, or one of an arena emptied
// since, has '#' or another entry's text where the line was.
func TestReuseAssemblesTheSameEntries(t *testing.T) {
	ref := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	inputs := reuseInputs(t)
	if len(inputs) < 40 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	for _, o := range []Options{
		{Reference: ref},
		{MaxLines: 20, MaxBytes: 2048, MaxLineBytes: 256, Reference: ref},
	} {
		for name, lines := range inputs {
			want := assembleOwned(o, lines)
			got := assembleReused(o, lines)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s, MaxBytes %d: entries differ with Reuse (-without +with):\n%s", name, o.MaxBytes, diff)
			}
		}
	}
}

// TestReuseAllocatesNothingPerLine checks the point of Reuse: single-line
// entries, sglang's usual records, allocate nothing.
func TestReuseAllocatesNothingPerLine(t *testing.T) {
	a := NewAssembler(Options{Reuse: true})
	buf := []byte("[2026-07-01 09:31:38 DP0 TP0] Decode batch, #running-req: 31, #token: 4096, token usage: 0.05")
	l := Line{Text: unsafeString(buf), Offset: 1}
	for range 10 {
		a.Push(l) // warm: the arenas get their buffers
	}
	allocs := testing.AllocsPerRun(1000, func() {
		if es := a.Push(l); len(es) != 1 || es[0].Lines != 1 {
			t.Fatalf("got %d entries", len(es))
		}
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations a line, want 0", allocs)
	}
}

// TestReuseJoinsInTheArena: an entry of several lines (a record whose
// message goes on on the next line) has its Raw joined in the arenas, not
// in a string of its own: it allocates nothing either.
func TestReuseJoinsInTheArena(t *testing.T) {
	a := NewAssembler(Options{Reuse: true})
	head := []byte("[2026-07-01 09:31:38 DP0 TP0] Scheduler hit an exception: the batch could not be scheduled")
	more := []byte("    decode queue: 31 requests, 4096 tokens")
	h, m := Line{Text: unsafeString(head), Offset: 1}, Line{Text: unsafeString(more), Offset: 2}
	for range 10 {
		a.Push(h) // warm: the arenas get their buffers
		a.Push(m)
	}
	want := string(head) + "\n" + string(more)
	allocs := testing.AllocsPerRun(1000, func() {
		es := a.Push(h)
		if len(es) != 1 || es[0].Lines != 2 || es[0].Raw != want {
			t.Fatalf("got %d entries, want one of two lines: %+v", len(es), es)
		}
		a.Push(m)
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations an entry of two lines, want 0", allocs)
	}
}

// TestOwnCoversEveryString lists the string-bearing fields of Entry, so
// that a field added to Entry is added to Own too (and here).
func TestOwnCoversEveryString(t *testing.T) {
	var paths []string
	var walk func(typ reflect.Type, path string)
	walk = func(typ reflect.Type, path string) {
		switch typ.Kind() {
		case reflect.String:
			paths = append(paths, path)
		case reflect.Pointer, reflect.Slice:
			walk(typ.Elem(), path+"[]")
		case reflect.Struct:
			if typ == reflect.TypeFor[time.Time]() {
				return
			}
			for i := range typ.NumField() {
				walk(typ.Field(i).Type, path+"."+typ.Field(i).Name)
			}
		}
	}
	walk(reflect.TypeFor[Entry](), "Entry")
	want := []string{
		// Format holds its constants only, so Own leaves it.
		"Entry.Source", "Entry.Stream", "Entry.Format", "Entry.Level", "Entry.Message", "Entry.Prefix", "Entry.Process", "Entry.Native",
		"Entry.Text", "Entry.Raw",
		"Entry.Traceback[].Links[].Type", "Entry.Traceback[].Links[].Message",
		"Entry.Traceback[].Links[].MemberType", "Entry.Traceback[].Links[].MemberMessage",
		"Entry.Traceback[].Links[].MemberFrames[].File", "Entry.Traceback[].Links[].MemberFrames[].Func",
		"Entry.Traceback[].Links[].Frames[].File", "Entry.Traceback[].Links[].Frames[].Func",
		"Entry.Traceback[].Links[].Separator",
	}
	slices.Sort(paths)
	slices.Sort(want)
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("Entry's strings changed; make Own copy the new ones, then list them here (-listed +found):\n%s", diff)
	}
}

// FuzzReuse checks that Reuse changes no entry of any input.
func FuzzReuse(f *testing.F) {
	addCorpusSeeds(f)
	o := Options{MaxLines: 20, MaxBytes: 2048, MaxLineBytes: 256, Reference: time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)}
	f.Fuzz(func(t *testing.T, data string) {
		lines := strings.Split(data, "\n")
		if diff := cmp.Diff(assembleOwned(o, lines), assembleReused(o, lines)); diff != "" {
			t.Fatalf("entries differ with Reuse (-without +with):\n%s", diff)
		}
	})
}

// unsafeString is b as a string that shares b's bytes, as a reader's
// borrowed line does.
func unsafeString(b []byte) string { return unsafe.String(&b[0], len(b)) }

// An arena grown by a long entry lets its buffer go when it is emptied, so
// that a stream keeps little between long tracebacks.
func TestArenaLetsLargeBuffersGo(t *testing.T) {
	a := NewAssembler(Options{Reuse: true})
	long := strings.Repeat("x", 1000)
	a.Push(Line{Text: "[2026-07-01 09:31:38 TP0] Scheduler hit an exception:", Offset: 1})
	for i := range 60 { // 60 kB of continuation lines
		a.Push(Line{Text: long, Offset: int64(i + 2)})
	}
	for i := range 3 { // three short entries: every arena emptied once
		a.Push(Line{Text: "[2026-07-01 09:31:39 TP0] Decode batch", Offset: int64(100 + i)})
	}
	for i, b := range a.arena.buf {
		if b.Cap() > arenaKeep {
			t.Errorf("arena %d keeps %d bytes after short entries", i, b.Cap())
		}
	}
}
