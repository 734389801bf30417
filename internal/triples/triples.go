// Package triples searches a line for several three-byte sequences in one
// pass: the search the matcher's unkeyed records and the analysis's
// per-line readers share. Three adjacent bytes of a phrase, chosen rare in
// log text, are seldom on an ordinary line, where each of their bytes
// alone is on most; a search of several at once reads the line once, where
// a byte search per phrase stops, and pays a call, at every occurrence of
// its byte.
package triples

import "fmt"

// Max is how many triples one Index pass searches for.
const Max = 5

// MinLen is the shortest text Index searches; a shorter one must be padded
// to it (with bytes no triple holds) or searched with IndexGo.
const MinLen = 34

// Tab is up to Max triples as the vector comparisons read them: byte b of
// triple k broadcast to 32 bytes at [3k+b]. Unused triples repeat a used
// one.
type Tab [3 * Max][32]byte

// Byte is byte b of triple k of t.
func (t *Tab) Byte(k, b int) byte { return t[3*k+b][0] }

// Set makes tri's first three bytes triple k of t.
func (t *Tab) Set(k int, tri string) {
	for b := range 3 {
		for i := range t[3*k+b] {
			t[3*k+b][i] = tri[b]
		}
	}
}

// Of returns a Tab of tris (one to Max of them, each of three bytes or
// more), the unused triples repeating the first.
func Of(tris ...string) *Tab {
	var t Tab
	for k := range Max {
		tri := tris[0]
		if k < len(tris) {
			tri = tris[k]
		}
		t.Set(k, tri)
	}
	return &t
}

// String lists t's triples, quoted.
func (t *Tab) String() string {
	var b []byte
	for k := range Max {
		b = append(b, t.Byte(k, 0), t.Byte(k, 1), t.Byte(k, 2), ' ')
	}
	return fmt.Sprintf("%q", b)
}

// Max6 is how many triples one Index6 pass searches for: two readers'
// sets of three, where two Index3 passes would read the line twice.
const Max6 = 6

// Tab6 is Tab for up to Max6 triples, for Index6.
type Tab6 [3 * Max6][32]byte

// Byte is byte b of triple k of t.
func (t *Tab6) Byte(k, b int) byte { return t[3*k+b][0] }

// Of6 returns a Tab6 of tris (one to Max6 of them, each of three bytes or
// more), the unused triples repeating the first.
func Of6(tris ...string) *Tab6 {
	var t Tab6
	for k := range Max6 {
		tri := tris[0]
		if k < len(tris) {
			tri = tris[k]
		}
		for b := range 3 {
			for i := range t[3*k+b] {
				t[3*k+b][i] = tri[b]
			}
		}
	}
	return &t
}

// IndexGo is Index without vector instructions, for any length of s.
func IndexGo(s string, from int, t *Tab) int { return indexGo(s, from, t, Max) }

// IndexGo6 is Index6 without vector instructions, for any length of s.
func IndexGo6(s string, from int, t *Tab6) int {
	for i := max(from, 0); i+2 < len(s); i++ {
		for k := range Max6 {
			if s[i] == t.Byte(k, 0) && s[i+1] == t.Byte(k, 1) && s[i+2] == t.Byte(k, 2) {
				return i
			}
		}
	}
	return -1
}

// indexGo is IndexGo for the first n triples of t.
func indexGo(s string, from int, t *Tab, n int) int {
	for i := max(from, 0); i+2 < len(s); i++ {
		for k := range n {
			if s[i] == t.Byte(k, 0) && s[i+1] == t.Byte(k, 1) && s[i+2] == t.Byte(k, 2) {
				return i
			}
		}
	}
	return -1
}
