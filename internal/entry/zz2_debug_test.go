package entry

import "testing"

func TestZZ2(t *testing.T) {
	for _, s := range []string{"[1,3]<stderr>:[05:39:59] ERROR    [05:39:59] Error in realtime:           gui.py:838", "[1,3]<stderr>:           ERROR    [05:39:59] We couldn't connect", "[1,3]<stderr>:                    find it in the cached"} {
		plen, st := findPrefix(s)
		t.Logf("%q plen=%d st=%d unk=%d fam=%d", s, plen, st, unknownPrefixLen(s, plen), familyPrefixLen(s))
	}
}
