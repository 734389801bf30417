package entry

import "math/bits"

// rankCacheSize is the number of rank fields a rankCache holds: a
// deployment prints a few dozen rank sets (one per scheduler), and lines of
// different ranks interleave, so remembering only the last few would miss
// most lines (on a log of 25 rank sets, the last 4 hold a line's field for
// 22% of lines, the last 16 for 69%).
const rankCacheSize = 1 << rankCacheBits

const (
	rankCacheBits = 7
	// rankProbes bounds the slots looked at for one field.
	rankProbes = 4
)

// rankCache remembers parsed rank fields of srt headers by their text, the
// bytes from after the time up to and including the "]" that closes the
// header: " DP3 TP3 EP3]". parseRanks stops at that "]" at the latest and
// reads nothing after it, so its result is a function of the text alone,
// and a line whose field has text seen before gets that result back after
// one comparison. Texts of up to 16 bytes with the "]" are kept (the
// common " DP7 TP7 EP7]" has 13). A text is looked for in the rankProbes
// slots from the one its hash picks, and goes to the first empty one of
// them, or over the text in the picked slot when none is empty (a
// direct-mapped table thrashes on the few texts that share a slot).
type rankCache struct {
	slots [rankCacheSize]rankSlot
}

// rankSlot is one remembered field. The key words hold the text's bytes in
// little-endian order, zero after the "]"; a slot never filled has a zero
// key, which no text has (it holds the "]").
type rankSlot struct {
	k0, k1 uint64
	ranks  Ranks
	n      int // bytes of the text parseRanks consumed
}

// Bytes as words, for indexByte8.
const (
	onesBytes = 0x0101010101010101
	highBits  = 0x8080808080808080
)

// indexByte8 returns the index of the lowest byte of w (a little-endian
// word of eight bytes, le64) that equals c, or 8 when none does: the
// classic zero-byte test on w^"cccccccc", whose lowest flagged byte is
// exact (borrows only flag bytes above a zero one).
func indexByte8(w uint64, c byte) int {
	x := w ^ uint64(c)*onesBytes
	return bits.TrailingZeros64((x-onesBytes)&^x&highBits) / 8
}

// ranks is parseRanks(s, false) through the cache.
func (rc *rankCache) ranks(s string) (Ranks, int) {
	if s == "" || s[0] != ' ' {
		return NoRanks, 0 // no field: nothing to look up
	}
	if sl := rc.lookup(s); sl != nil {
		return sl.ranks, sl.n
	}
	return parseRanks(s, false)
}

// lookup returns the slot that holds parseRanks(s, false), filling it on
// a miss, or nil when s has no "]" in its first 16 bytes. s starts with a
// space, so a key is never zero. The slot stays valid until the next
// lookup.
func (rc *rankCache) lookup(s string) *rankSlot {
	if len(s) < 16 {
		return nil
	}
	w0 := le64(s[0:8])
	w1 := le64(s[8:16])
	// The key: the bytes up to the first "]".
	var k0, k1 uint64
	if end := indexByte8(w0, ']') + 1; end <= 8 {
		k0 = w0 & (1<<(8*uint(end)) - 1) // end 8: the shift gives 0, the mask all ones
	} else if end := indexByte8(w1, ']') + 1; end <= 8 {
		k0, k1 = w0, w1&(1<<(8*uint(end))-1)
	} else {
		return nil // a longer field
	}
	h := uint((k0*0x9e3779b97f4a7c15 ^ k1*0xc2b2ae3d27d4eb4f) >> (64 - rankCacheBits))
	free := h
	for p := uint(0); p < rankProbes; p++ {
		sl := &rc.slots[(h+p)%rankCacheSize]
		if sl.k0 == k0 && sl.k1 == k1 {
			return sl
		}
		if sl.k0 == 0 {
			free = (h + p) % rankCacheSize
			break
		}
	}
	sl := &rc.slots[free]
	sl.ranks, sl.n = parseRanks(s, false)
	sl.k0, sl.k1 = k0, k1
	return sl
}

// le64 reads 8 bytes of s (it has 8) as a little-endian word: one load.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
