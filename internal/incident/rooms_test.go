package incident

import "testing"

// TestRankRoomsKeepApart checks that the rooms a block hands out never
// overlap: an alert's Ranks grown past its room moves off the block, and
// its neighbour's ranks stay as they were.
func TestRankRoomsKeepApart(t *testing.T) {
	var r rankRooms
	var all [][]string
	for i := range 3 * roomsPerBlock {
		s := r.take()
		if len(s) != 0 || cap(s) != len(alertParts{}.ranks) {
			t.Fatalf("room %d: len %d cap %d", i, len(s), cap(s))
		}
		all = append(all, append(s, "a"))
	}
	// Fill each room past its capacity, then check every one.
	for i := range all {
		for j := range cap(all[i]) + 1 {
			all[i] = append(all[i], string(rune('b'+j)))
		}
	}
	for i, s := range all {
		if len(s) != 2+len(alertParts{}.ranks) || s[0] != "a" || s[1] != "b" {
			t.Fatalf("room %d = %q", i, s)
		}
	}
	if s := (*rankRooms)(nil).take(); len(s) != 0 || cap(s) != len(alertParts{}.ranks) {
		t.Fatalf("nil rooms: len %d cap %d", len(s), cap(s))
	}
	// Parts from one block are apart, and zero when handed out.
	var ps []*alertParts
	for range 2*roomsPerBlock + 1 {
		p := r.part()
		if p.exception.Type != "" || p.ranks[0] != "" {
			t.Fatalf("part handed out not zero: %+v", *p)
		}
		p.exception.Type, p.ranks[0] = "T", "r"
		ps = append(ps, p)
	}
	for i := range ps {
		for j := range i {
			if ps[i] == ps[j] {
				t.Fatalf("parts %d and %d are one", j, i)
			}
		}
	}
	if p := (*rankRooms)(nil).part(); p == nil || p.exception.Type != "" {
		t.Fatal("nil rooms: no zero part")
	}
}
