package textbuf

import (
	"strconv"
	"strings"
	"testing"
)

// Copies stay intact while the buffer grows into new arrays, and until it
// is reset; after Reset the same bytes are reused.
func TestKeepSurvivesGrowthUntilReset(t *testing.T) {
	var b Buffer
	var want, got []string
	src := make([]byte, 0, 1024)
	for i := range 200 {
		s := strings.Repeat(strconv.Itoa(i), 1+i%40)
		src = append(src[:0], s...)
		c, ok := b.Keep(string(src), 64, 0)
		if !ok {
			t.Fatalf("copy %d refused with no limit", i)
		}
		for j := range src {
			src[j] = '#'
		}
		want, got = append(want, s), append(got, c)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("copy %d = %.20q after growth, want %.20q", i, got[i], want[i])
		}
	}
	b.Reset(1 << 20)
	if b.Len() != 0 || b.Cap() == 0 {
		t.Fatalf("after Reset: len %d cap %d, want an empty kept array", b.Len(), b.Cap())
	}
	cp := b.Cap()
	if c, _ := b.Keep("zz", 64, 0); c != "zz" || b.Len() != 2 || b.Cap() != cp {
		t.Errorf("after Reset the array is not reused from its start: len %d cap %d (was %d)", b.Len(), b.Cap(), cp)
	}
}

// A limit refuses a copy that would take an array past it, and bounds the
// arrays made.
func TestKeepLimit(t *testing.T) {
	var b Buffer
	for i := range 20 {
		_, ok := b.Keep(strings.Repeat("x", 100), 64, 450)
		if b.Cap() > 450 {
			t.Fatalf("array of %d bytes, past the limit", b.Cap())
		}
		if !ok {
			if b.Len()+100 <= 450 {
				t.Fatalf("copy %d refused with room in the array (%d of 450 used)", i, b.Len())
			}
			return
		}
	}
	t.Fatal("no copy refused past the limit")
}

// Reset lets go of an array larger than what it is told to keep.
func TestResetLetsLargeArraysGo(t *testing.T) {
	var b Buffer
	b.Keep(strings.Repeat("x", 5000), 64, 0)
	b.Reset(4096)
	if b.Cap() != 0 {
		t.Errorf("kept an array of %d bytes", b.Cap())
	}
	b.Keep("x", 64, 0)
	b.Reset(4096)
	if b.Cap() == 0 || b.Len() != 0 {
		t.Errorf("a small array was not kept empty: len %d cap %d", b.Len(), b.Cap())
	}
}

// OffsetIn finds a piece of a string's own memory, never equal bytes
// elsewhere.
func TestOffsetIn(t *testing.T) {
	in := strings.Repeat("ab", 8)
	if off, ok := OffsetIn(in[3:7], in); !ok || off != 3 {
		t.Errorf("OffsetIn(in[3:7], in) = %d, %v; want 3, true", off, ok)
	}
	if off, ok := OffsetIn(in, in); !ok || off != 0 {
		t.Errorf("OffsetIn(in, in) = %d, %v; want 0, true", off, ok)
	}
	if _, ok := OffsetIn(strings.Clone(in[3:7]), in); ok {
		t.Error("a copy of a piece of in lies in in")
	}
	if _, ok := OffsetIn(in[10:], in[:12]); ok {
		t.Error("a piece that runs past the end of in lies in in")
	}
	if off, ok := OffsetIn("", "x"); !ok || off != 0 {
		t.Errorf(`OffsetIn("", "x") = %d, %v; want 0, true`, off, ok)
	}
	if _, ok := OffsetIn("x", ""); ok {
		t.Error(`"x" lies in ""`)
	}
}

// KeepJoined keeps what Keep of the joined string keeps: the same text,
// intact while the buffer grows, refused past the limit as Keep refuses it.
func TestKeepJoined(t *testing.T) {
	var b Buffer
	var want, got []string
	for i := range 200 {
		parts := make([]string, i%5)
		for j := range parts {
			parts[j] = strings.Repeat(strconv.Itoa(i+j), (i*j)%23)
		}
		c, ok := b.KeepJoined(parts, '\n', 64, 0)
		if !ok {
			t.Fatalf("join %d refused with no limit", i)
		}
		want, got = append(want, strings.Join(parts, "\n")), append(got, c)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("join %d = %.20q after growth, want %.20q", i, got[i], want[i])
		}
	}
	var k, j Buffer
	for i := range 20 {
		parts := []string{strings.Repeat("x", 10*i), strings.Repeat("y", i)}
		s1, ok1 := k.Keep(strings.Join(parts, "\n"), 64, 450)
		s2, ok2 := j.KeepJoined(parts, '\n', 64, 450)
		if ok1 != ok2 || s1 != s2 || k.Len() != j.Len() || k.Cap() != j.Cap() {
			t.Fatalf("join %d: KeepJoined %q, %v (len %d, cap %d); Keep %q, %v (len %d, cap %d)", i, s2, ok2, j.Len(), j.Cap(), s1, ok1, k.Len(), k.Cap())
		}
	}
}
