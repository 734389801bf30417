package redact

import "fmt"

// hintIndex finds the hints of all rules in one pass over a text. Most log
// text holds none: searching it once for every hint of every rule, as each
// rule used to do on its own, costs tens of passes, and the common first
// letters of the hints (a, p, s, t) make each of those slow.
type hintIndex struct {
	hints []string // distinct, lower-case, two bytes or more
	// stride is one less than the shortest hint's length: of any stride
	// adjacent places of a text, one is where an occurrence's pair at
	// one of its first stride offsets stands, so find reads the pairs at
	// every stride-th place only.
	stride int
	// pair has bit a<<8|b set when a hint holds the bytes a, b at an
	// offset below stride: a text place whose two bytes, lower-cased,
	// are not such a pair is no such offset of an occurrence.
	pair [1 << 16 / 64]uint64
	// start has bit a<<8|b set when a hint starts with the bytes a, b: a
	// place whose two bytes, lower-cased, are not such a pair starts no
	// hint.
	start [1 << 16 / 64]uint64
	// byFirst lists, for each first byte, the indexes in hints of the
	// hints that start with it.
	byFirst [256][]uint8
}

// occurrence is where one hint occurs in a text.
type occurrence struct {
	at   int
	hint uint8 // index in hintIndex.hints
}

// maxHints is the number of distinct hints a hintIndex holds: a rule's
// hintSet is a 64-bit set.
const maxHints = 64

// lowerASCII maps each byte to its ASCII lower case, as asciiLower does.
var lowerASCII = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()

// newHintIndex indexes the hints of rules and sets each rule's hintSet.
// The hints are the built-in rules' own literals (extra patterns have
// none), so a hint that breaks the index's assumptions is a bug in this
// package and panics, as regexp.MustCompile does.
func newHintIndex(rules []rule) *hintIndex {
	x := &hintIndex{}
	at := map[string]uint8{}
	for i := range rules {
		ru := &rules[i]
		for _, h := range ru.hints {
			if len(h) < 2 || asciiLower(h) != h {
				panic(fmt.Sprintf("redact: rule %s: hint %q is not lower case of two bytes or more", ru.name, h))
			}
			k, ok := at[h]
			if !ok {
				if len(x.hints) == maxHints {
					panic(fmt.Sprintf("redact: more than %d distinct hints", maxHints))
				}
				k = uint8(len(x.hints))
				at[h] = k
				x.hints = append(x.hints, h)
				x.byFirst[h[0]] = append(x.byFirst[h[0]], k)
			}
			ru.hintSet |= 1 << k
		}
	}
	x.stride = 1 << 30
	for _, h := range x.hints {
		x.stride = min(x.stride, len(h)-1)
	}
	for _, h := range x.hints {
		for o := range x.stride {
			p := uint(h[o])<<8 | uint(h[o+1])
			x.pair[p/64] |= 1 << (p % 64)
		}
		p := uint(h[0])<<8 | uint(h[1])
		x.start[p/64] |= 1 << (p % 64)
	}
	return x
}

// find appends to occ every occurrence in s of every hint, folding ASCII
// case as asciiLower does, in order of position (overlapping occurrences
// included, as strings.Index finds them from each position), and returns
// it with the set of hints seen. It reads the pair at every stride-th
// place j (an occurrence at i has one of its first stride offsets there,
// for the j of i to i+stride-1, and its pair at j+1 inside s), and where
// that pair is an indexed one, tries the places from j-stride+1 to j not
// tried yet as starts, by their own pair first: each place once, in order.
func (x *hintIndex) find(s string, occ []occurrence) ([]occurrence, uint64) {
	var seen uint64
	if len(x.hints) == 0 || len(s) < 2 {
		return occ, 0
	}
	tried := 0 // the first place not tried as a start
	for j := 0; j+1 < len(s); j += x.stride {
		p := uint(lowerASCII[s[j]])<<8 | uint(lowerASCII[s[j+1]])
		if x.pair[p/64]&(1<<(p%64)) == 0 {
			continue
		}
		for i := max(tried, j-x.stride+1); i <= j; i++ {
			q := uint(lowerASCII[s[i]])<<8 | uint(lowerASCII[s[i+1]])
			if x.start[q/64]&(1<<(q%64)) == 0 {
				continue
			}
			for _, k := range x.byFirst[lowerASCII[s[i]]] {
				if hasFoldedPrefix(s[i:], x.hints[k]) {
					occ = append(occ, occurrence{at: i, hint: k})
					seen |= 1 << k
				}
			}
		}
		tried = j + 1
	}
	return occ, seen
}

// hasFoldedPrefix reports whether s, lower-cased as asciiLower does,
// starts with the lower-case h.
func hasFoldedPrefix(s, h string) bool {
	if len(s) < len(h) {
		return false
	}
	for j := 0; j < len(h); j++ {
		if lowerASCII[s[j]] != h[j] {
			return false
		}
	}
	return true
}

// keyed returns the hints of occ (find's occurrences in s) of which an
// occurrence is followed by a key's separator within its line, as keyIn
// tests it, and of those the ones of which such an occurrence also starts
// a word (startsWord): a keyed rule none of whose hints is in the first
// set, or a wordKey rule none of whose hints is in the second, matches no
// line of s. The tests read s where keyIn reads its line lower-cased:
// the separator's bytes have no case, a word's bytes are lower-cased
// here, and the line's end stops both as the line's bounds do (a new line
// is neither a separator's space nor a key's byte).
func (x *hintIndex) keyed(s string, occ []occurrence) (keyed, word uint64) {
	for _, o := range occ {
		bit := uint64(1) << o.hint
		if keyed&word&bit != 0 || !separatedInLine(s[o.at+len(x.hints[o.hint]):]) {
			continue
		}
		keyed |= bit
		if startsWordFolded(s, o.at) {
			word |= bit
		}
	}
	return keyed, word
}

// separatedInLine is separated(rest, reSpace) for rest cut at its first
// new line.
func separatedInLine(rest string) bool {
	if rest != "" && (rest[0] == '"' || rest[0] == '\'') {
		rest = rest[1:]
	}
	i := 0
	for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t' || rest[i] == '\f' || rest[i] == '\r') {
		i++
	}
	return i < len(rest) && (rest[i] == ':' || rest[i] == '=')
}

// startsWordFolded is startsWord on s lower-cased, for the hint at s[at:]:
// the walk back over a key's bytes stops at a new line, which starts the
// hint's line.
func startsWordFolded(s string, at int) bool {
	k := at
	for k > 0 && isKeyByte(lowerASCII[s[k-1]]) {
		k--
	}
	return k == 0 || s[k-1] != '.' && s[k-1] != '#'
}
