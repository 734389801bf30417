package entry

import (
	"math/rand"
	"strings"
	"testing"
	"time"
)

// randomRankField builds the text after an srt time: rank tokens (known,
// misspelled, with up to eight digits), other words, stray spaces, an
// optional " encode_..." part, a close that may be missing, and a tail.
func randomRankField(rng *rand.Rand) string {
	var b strings.Builder
	names := []string{"DP", "PP", "TP", "EP", "ATTN_CP", "MOE_DP", "DX", "TQ", "ATTN_C", "MOE_D", "P", "x", "]", "EPP"}
	for n := rng.Intn(6); n > 0; n-- {
		if rng.Intn(12) == 0 {
			b.WriteString("  ")
		} else {
			b.WriteByte(' ')
		}
		b.WriteString(names[rng.Intn(len(names))])
		for d := rng.Intn(9); d > 0; d-- {
			b.WriteByte(byte('0' + rng.Intn(10)))
		}
	}
	switch rng.Intn(10) {
	case 0:
		b.WriteString(" encode_server")
	case 1:
		b.WriteString(" encode_dp_worker[3]")
	}
	closes := []string{"] ", "]", "", " ]", "]]", "x] "}
	b.WriteString(closes[rng.Intn(len(closes))])
	tails := []string{"Decode batch, #running-req: 91", "", "P", " DP1]", "TP3] x", "ATTN_CP2", "0123456789abcdef"}
	b.WriteString(tails[rng.Intn(len(tails))])
	return b.String()
}

// TestRankCacheAgrees checks that rank fields read through one cache, over
// a long stream of varied fields that evicts and hits its slots, are
// exactly what parseRanks reads, and that a field seen before is read
// right behind another tail.
func TestRankCacheAgrees(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var rc rankCache
	var seen []string
	hits := 0
	for i := 0; i < 200000; i++ {
		var s string
		if len(seen) > 0 && rng.Intn(3) > 0 {
			s = seen[rng.Intn(len(seen))]
			if k := strings.IndexByte(s, ']'); k >= 0 && rng.Intn(2) == 0 {
				s = s[:k+1] + randomRankField(rng) // the same field, another tail
			}
		} else {
			s = randomRankField(rng)
			if len(seen) < 200 {
				seen = append(seen, s)
			}
		}
		want, wn := parseRanks(s, false)
		got, gn := rc.ranks(s)
		if got != want || gn != wn {
			t.Fatalf("cached ranks(%q) = %+v, %d; parseRanks %+v, %d", s, got, gn, want, wn)
		}
		if s != "" && s[0] == ' ' && len(s) >= 16 {
			hits++
		}
	}
	if hits == 0 {
		t.Fatal("no field went through the table")
	}
}

// TestRankCacheHitsCommonFields checks that the fields of a deployment's
// schedulers, interleaved, are read from the table after their first line
// (a cache that missed them would still agree, but cost a parse a line).
func TestRankCacheHitsCommonFields(t *testing.T) {
	var fields []string
	for r := 0; r < 8; r++ {
		d := string(rune('0' + r))
		fields = append(fields, " TP"+d+"] x y z w v u", " DP"+d+" TP"+d+"] x y z w", " DP"+d+" TP"+d+" EP"+d+"] x y z")
	}
	var rc rankCache
	for _, s := range fields {
		rc.ranks(s)
	}
	for _, s := range fields {
		k := strings.IndexByte(s, ']')
		k0, k1 := le64(s[0:8]), le64(s[8:16])
		if k < 8 {
			k0 &= 1<<(8*uint(k+1)) - 1
			k1 = 0
		} else {
			k1 &= 1<<(8*uint(k-7)) - 1
		}
		found := false
		for _, sl := range rc.slots {
			if sl.k0 == k0 && sl.k1 == k1 {
				found = true
			}
		}
		if !found {
			t.Errorf("field %q is not in the table after one pass", s[:k+1])
		}
	}
}

// TestParseHeaderCachedStream reads a stream of varied srt, uvicorn and
// other headers through one secondCache, in several zones, and checks each
// against the uncached parse: the second and rank caches must never change
// a header.
func TestParseHeaderCachedStream(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	ref := time.Date(2026, 3, 8, 12, 0, 0, 0, time.UTC)
	seconds := []string{"2026-03-08 01:59:59", "2026-03-08 02:00:00", "2026-03-08 03:00:00", "2026-11-01 01:30:00", "2026-05-28 00:00:00", "2026-05-28 00:00:01"}
	fractions := []string{"", ".022", ".5", ".999999999", ".1234567891", ".", ".02x", ".000", ",306", ".134"}
	afters := []string{"] INFO:     10.2.228.99:41713 - \"POST /generate HTTP/1.1\" 200 OK", "] WARNING:  x", "] NOTICE:  x", "] Finish: obj", "]", "] ", "x] y"}
	for _, loc := range []*time.Location{time.UTC, ny, time.FixedZone("UTC+5:30", 5*3600+1800)} {
		var sc secondCache
		for i := 0; i < 50000; i++ {
			var l string
			switch rng.Intn(8) {
			case 0:
				l = "[" + seconds[rng.Intn(len(seconds))] + fractions[rng.Intn(len(fractions))] + afters[rng.Intn(len(afters))]
			case 1:
				l = "2026-05-28 00:00:00,100 - root - ERROR - python logging"
			default:
				l = "[" + seconds[rng.Intn(len(seconds))] + fractions[rng.Intn(len(fractions))] + randomRankField(rng)
			}
			want, wantOK := parseHeader(l, ref, loc)
			got, gotOK := parseHeaderCached(l, ref, loc, &sc)
			if gotOK != wantOK || got != want {
				t.Fatalf("%s: %q: cached %+v %v, want %+v %v", loc, l, got, gotOK, want, wantOK)
			}
		}
	}
}
