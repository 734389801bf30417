package redact

import "fmt"

// hintIndex finds the hints of all rules in one pass over a text. Most log
// text holds none: searching it once for every hint of every rule, as each
// rule used to do on its own, costs tens of passes, and the common first
// letters of the hints (a, p, s, t) make each of those slow.
type hintIndex struct {
	hints []string // distinct, lower-case, two bytes or more
	// pair has bit a<<8|b set when a hint starts with the bytes a, b: a
	// text position whose two bytes, lower-cased, are not such a pair
	// starts no hint.
	pair [1 << 16 / 64]uint64
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
				p := uint(h[0])<<8 | uint(h[1])
				x.pair[p/64] |= 1 << (p % 64)
				x.byFirst[h[0]] = append(x.byFirst[h[0]], k)
			}
			ru.hintSet |= 1 << k
		}
	}
	return x
}

// find appends to occ every occurrence in s of every hint, folding ASCII
// case as asciiLower does, in order of position (overlapping occurrences
// included, as strings.Index finds them from each position), and returns
// it with the set of hints seen.
func (x *hintIndex) find(s string, occ []occurrence) ([]occurrence, uint64) {
	var seen uint64
	if len(x.hints) == 0 || len(s) < 2 {
		return occ, 0
	}
	next := uint(lowerASCII[s[0]])
	for i := 1; i < len(s); i++ {
		first := next
		next = uint(lowerASCII[s[i]])
		p := first<<8 | next
		if x.pair[p/64]&(1<<(p%64)) == 0 {
			continue
		}
		for _, k := range x.byFirst[first] {
			if hasFoldedPrefix(s[i-1:], x.hints[k]) {
				occ = append(occ, occurrence{at: i - 1, hint: k})
				seen |= 1 << k
			}
		}
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
