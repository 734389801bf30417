package patterns

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Version is a server release as records name it in introducedIn and
// removedIn: numbers separated by dots, then optionally a pre-release
// (a, b or rc with a number), a post-release (.postN) and a development
// release (.devN), ordered as Python packages are (PEP 440), which is how
// sglang numbers its releases: 0.5.3rc2 < 0.5.3 < 0.5.6.post2 <
// 0.5.7.dev1 < 0.5.7. A leading "v", "-" or "_" separators ("1.0.0-rc1")
// and a "+local" suffix are accepted; case does not matter.
type Version struct {
	release []int
	pre     int // -3 a, -2 b, -1 rc, 0 none
	preN    int
	post    int // -1 none
	dev     int // -1 none
	text    string
}

// String returns the version as it was written.
func (v Version) String() string { return v.text }

// IsZero reports a Version that was never parsed.
func (v Version) IsZero() bool { return len(v.release) == 0 }

// preTags are the pre-release spellings, longest first so "rc" is not
// read as "c".
var preTags = []struct {
	tag   string
	phase int
}{{"alpha", -3}, {"beta", -2}, {"preview", -1}, {"pre", -1}, {"rc", -1}, {"a", -3}, {"b", -2}, {"c", -1}}

// ParseVersion parses a release version; see Version for the forms.
func ParseVersion(s string) (Version, error) {
	v := Version{post: -1, dev: -1, text: s}
	t := strings.ToLower(strings.TrimSpace(s))
	t, _, _ = strings.Cut(t, "+")
	t = strings.TrimPrefix(t, "v")
	bad := func() (Version, error) {
		return Version{}, fmt.Errorf("%q is not a version (want numbers like 0.5.7, optionally with rcN, .postN or .devN)", s)
	}
	// The release: digits and dots.
	i := 0
	for {
		j := i
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		if j == i || j-i > 9 {
			return bad()
		}
		n, _ := strconv.Atoi(t[i:j])
		v.release = append(v.release, n)
		i = j
		if i+1 < len(t) && t[i] == '.' && t[i+1] >= '0' && t[i+1] <= '9' {
			i++
			continue
		}
		break
	}
	if len(v.release) > 8 {
		return bad()
	}
	rest := t[i:]
	// number reads an optional separator, a tag and its number.
	number := func(tag string) (int, bool) {
		r := strings.TrimLeft(rest, ".-_")
		if !strings.HasPrefix(r, tag) {
			return 0, false
		}
		r = strings.TrimLeft(r[len(tag):], ".-_")
		j := 0
		for j < len(r) && r[j] >= '0' && r[j] <= '9' {
			j++
		}
		if j > 9 {
			return 0, false
		}
		n := 0
		if j > 0 {
			n, _ = strconv.Atoi(r[:j])
		}
		rest = r[j:]
		return n, true
	}
	for _, p := range preTags {
		// "dev" and "post" start with letters a pre-release tag could
		// take for its own; they are read below.
		r := strings.TrimLeft(rest, ".-_")
		if strings.HasPrefix(r, "dev") || strings.HasPrefix(r, "post") {
			break
		}
		if n, ok := number(p.tag); ok {
			v.pre, v.preN = p.phase, n
			break
		}
	}
	if n, ok := number("post"); ok {
		v.post = n
	}
	if n, ok := number("dev"); ok {
		v.dev = n
	}
	if rest != "" {
		return bad()
	}
	return v, nil
}

// Compare orders two versions: -1, 0 or +1. Missing release numbers are
// zeros (0.5 == 0.5.0).
func (v Version) Compare(o Version) int {
	n := max(len(v.release), len(o.release))
	for i := range n {
		if c := cmp.Compare(at(v.release, i), at(o.release, i)); c != 0 {
			return c
		}
	}
	return cmp.Or(
		slices.Compare(v.phaseKey(), o.phaseKey()),
		cmp.Compare(v.post, o.post),
		cmp.Compare(v.devKey(), o.devKey()),
	)
}

func at(s []int, i int) int {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// phaseKey places a release's pre-releases and the release itself; a
// development release of the release itself (0.5.7.dev3) comes before its
// pre-releases.
func (v Version) phaseKey() []int {
	switch {
	case v.pre != 0:
		return []int{v.pre, v.preN}
	case v.post < 0 && v.dev >= 0:
		return []int{-4, 0}
	}
	return []int{0, 0}
}

// devKey places a development release before the release it leads to.
func (v Version) devKey() int {
	if v.dev < 0 {
		return int(^uint(0) >> 1)
	}
	return v.dev
}

// AppliesTo reports whether the record describes a message that a server
// of version prints, by its introducedIn and removedIn: false only when
// version is known and comes before introducedIn or at or after
// removedIn. An empty or unparsable version, or bounds that do not
// parse, say nothing, and the record applies.
func (r Record) AppliesTo(version string) bool {
	if r.IntroducedIn == "" && r.RemovedIn == "" {
		return true
	}
	v, err := ParseVersion(version)
	if err != nil {
		return true
	}
	if in, err := ParseVersion(r.IntroducedIn); err == nil && v.Compare(in) < 0 {
		return false
	}
	if out, err := ParseVersion(r.RemovedIn); err == nil && v.Compare(out) >= 0 {
		return false
	}
	return true
}

// validateVersions checks introducedIn and removedIn: each must parse,
// and introducedIn must come before removedIn. A bad bound is a warning
// and is cleared, so the record loads and applies to every version on
// that side; dropping the record would hide the failure it recognises.
func validateVersions(rec *Record) []Problem {
	var probs []Problem
	var in, out Version
	for _, f := range []struct {
		name string
		val  *string
		v    *Version
	}{{"introducedIn", &rec.IntroducedIn, &in}, {"removedIn", &rec.RemovedIn, &out}} {
		if *f.val == "" {
			continue
		}
		v, err := ParseVersion(*f.val)
		if err != nil {
			probs = append(probs, Problem{Field: f.name, Level: LevelWarning, Message: err.Error() + "; ignored", Err: err})
			*f.val = ""
			continue
		}
		*f.v = v
	}
	if !in.IsZero() && !out.IsZero() && in.Compare(out) >= 0 {
		probs = append(probs, Problem{Field: "removedIn", Level: LevelWarning,
			Message: fmt.Sprintf("%s is not after introducedIn %s: the record would apply to no version; both ignored", out, in)})
		rec.IntroducedIn, rec.RemovedIn = "", ""
	}
	return probs
}
