package matcher

import (
	"strings"
	"sync"
)

// Confirmed halves. At 20,000 records and more, the 4-byte keys (the low
// keys, probed at both halves of a block, and the short ones, at the upper
// half) are cut from literals made of the words of ordinary lines
// (" encoder ", "token graph: ", " not falling"): every run of their
// windows holds a window ordinary lines have ("code", "ken "), so a
// routine line passes a half's bloom test once or twice at 50,000 records.
// Each pass left the scan loop for a table probe and a check, about 30 ns,
// to find a literal that was not there.
//
// The loop of the large catalogs (scanLowSplitBlocked) confirms a half's
// pass before it leaves: six bytes of the text around the window, in a
// bloom of six-byte windows of the keyed literals (extBloom). Each ref of a
// 4-byte key at offset o of its literal puts in the six bytes from its
// window's start (o+6 <= len) or else the six ending at its window's end
// (o >= 2; a keyed literal has at least 7 bytes, so one of the two
// exists), tagged with its half and direction. The loop tests both of the
// text's: where the literal is, one of them is the ref's. The confirmation
// only ever turns a pass into a miss where no ref's six bytes are there,
// so the candidates are the same; it costs a few nanoseconds only where
// the half's bloom passed.

// extBloomLog is the size of the bloom of six-byte windows: 64 KB, read
// only where a half's test passed.
const extBloomLog = 19

type extBloom [1 << (extBloomLog - 6)]uint64

const (
	mask48 = 1<<48 - 1
	// The tags of the four kinds of six-byte windows: a half's (low,
	// high) from its window's start (fwd) or ending at its end (bwd).
	extLowFwd  = 1 << 48
	extLowBwd  = 2 << 48
	extHighFwd = 3 << 48
	extHighBwd = 4 << 48
)

// extHash is the hash of a six-byte window with its tag: its top bits
// choose a word of the bloom, and two runs of six bits below them the
// window's two bits in it (bits that every byte of the window and the
// tag reach).
func extHash(x uint64) uint64 { return x * hashMul }

func extBits(h uint64) uint64 { return 1<<(h>>39&63) | 1<<(h>>45&63) }

func (b *extBloom) add(x uint64) {
	h := extHash(x)
	b[h>>(64-extBloomLog+6)] |= extBits(h)
}

// has reports whether x may be in b. Two bits of one word: routine lines
// repeat their windows, so a window that passes by chance passes on
// line after line; with one bit a few such windows of the generated
// routine lines made 0.12 returns a line at 50,000 records.
func (b *extBloom) has(x uint64) bool {
	h := extHash(x)
	w := b[h>>(64-extBloomLog+6)]
	return w&(1<<(h>>39&63)) != 0 && w&(1<<(h>>45&63)) != 0
}

// Confirmed long passes. A block whose 8-byte window passes the long
// keys' blocked bloom left the loop too, for a probe of a table of
// megabytes (a cache miss) and of its refs: 0.2 times a routine line at
// 50,000 records, three fifths of them windows no key has and the rest
// keys cut from the words of ordinary lines (" accept ", " input t")
// whose literals are not there. The loop first tests the window with
// four bytes of the text beside it in a second blocked bloom (longCtx):
// each ref of a long key puts in its window with the four bytes before it
// in its literal, or else the four after it. A long key's window is one
// of eight consecutive windows of a literal of at least 15 bytes, so the
// literal holds four bytes on one side of it: where the literal is, the
// text holds its ref's twelve bytes, and the loop still leaves.

// Tags of a long window's four bytes of context: before it, after it.
const (
	longCtxBwd = 1 << 32
	longCtxFwd = 2 << 32
)

// ctxMul is the multiplier of longCtxHash's four bytes: another odd
// constant than hashMul, so that the window's and the context's products
// do not cancel.
const ctxMul = 0xC2B2AE3D27D4EB4F

// longCtxHash is the hash of the long window w (blockKey) with four bytes
// of context ctx (folded as windowKey folds them) and its tag.
func longCtxHash(w, ctx uint64) uint64 { return w*hashMul ^ ctx*ctxMul }

// setLongCtx builds the bloom of the long refs' windows with their
// context.
func (p *prefilter) setLongCtx() {
	b := new(blockedBloom)
	// By slot: the slot's key is each of its refs' window, so only the
	// four bytes of context are read from the literal (a cached load
	// builds this bloom from the image, 390,000 refs at 50,000 records).
	for _, sl := range p.long.slots {
		if sl.end == 0 {
			continue
		}
		for _, ref := range p.long.refs[sl.start:sl.end] {
			text := p.lits[ref.lit].Text
			switch o := int(ref.off); {
			case o < 0 || o+longWindow > len(text):
			case o >= 4:
				b.add(longCtxHash(sl.key, key4(text[o-4:o])|longCtxBwd))
				continue
			case o+longWindow+4 <= len(text):
				b.add(longCtxHash(sl.key, key4(text[o+longWindow:o+longWindow+4])|longCtxFwd))
				continue
			}
			// Not from a plan that passed check (a damaged image's offset,
			// or a literal too short): every pass leaves the loop.
			for i := range b {
				b[i] = ^uint64(0)
			}
			p.longCtx = b
			return
		}
	}
	p.longCtx = b
}

// key4 is windowKey of the four bytes t, loaded at once.
func key4(t string) uint64 {
	t = t[:4]
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 | keyFold&0xffffffff
}

// setExt builds the bloom of six-byte windows of the low and short
// tables' refs, and the long refs' (setLongCtx); if a ref has neither
// window, a bloom of every bit (every pass leaves the loop).
func (p *prefilter) setExt() {
	p.setLongCtx()
	b := new(extBloom)
	corpus := corpusWindows6()
	for _, t := range []struct {
		table    *windowTable
		fwd, bwd uint64
	}{{&p.low, extLowFwd, extLowBwd}, {&p.short, extHighFwd, extHighBwd}} {
		for _, ref := range t.table.refs {
			text := p.lits[ref.lit].Text
			o := int(ref.off)
			fwd, bwd := o >= 0 && o+6 <= len(text), o >= 2 && o+4 <= len(text)
			if fwd && bwd && corpus[windowKey(text[o:o+6])] && !corpus[windowKey(text[o-2:o+4])] {
				fwd = false // " graph" of "token graph: " is on ordinary lines, "en gra" is not
			}
			switch {
			case fwd:
				b.add(windowKey(text[o:o+6]) | t.fwd)
			case bwd:
				b.add(windowKey(text[o-2:o+4]) | t.bwd)
			default:
				for i := range b {
					b[i] = ^uint64(0)
				}
				p.ext = b
				return
			}
		}
	}
	p.ext = b
}

// corpusWindows6 is the set of six-byte windows of the built-in corpus
// (windowKey): where a ref has both windows, it takes one the corpus does
// not hold.
var corpusWindows6 = sync.OnceValue(func() map[uint64]bool {
	m := make(map[uint64]bool)
	for line := range strings.SplitSeq(defaultCorpus, "\n") {
		for i := 0; i+6 <= len(line); i++ {
			m[windowKey(line[i:i+6])] = true
		}
	}
	return m
})

// lowBwd is the six bytes that end where the lower half at i ends: the
// loop's block at i is in s, so eight bytes at i-2 are, but for i = 0,
// where no window of a literal begins two bytes or more into it.
// lowBwd and highFwd are written out in the loop, which then calls
// nothing and keeps its registers.
//
//	lowBwd  = blockKey(s, i-2) & mask48                 (i >= 2)
//	highFwd = blockKey(s, k) >> (8*(at-k)) & mask48      (at = i+4; k = min(at, len(s)-8))
//
// highFwd is the six bytes from the upper half's start, when s has them.
