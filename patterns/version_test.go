package patterns

import (
	"strings"
	"testing"
)

func TestParseVersionOrder(t *testing.T) {
	// Each is older than the next (PEP 440, the way sglang numbers its
	// releases).
	order := []string{
		"0.4.7", "0.5.0.dev3", "0.5.0a1", "0.5.0b2", "0.5.0rc1", "0.5.0-rc2", "v0.5.0",
		"0.5.3.post1", "0.5.6.post2", "0.5.6.post3.dev1278", "0.5.6.post3", "0.5.7.dev0",
		"0.5.7", "0.5.10", "0.5.12.dev20260509", "0.5.12", "0.6", "1.0.0",
	}
	for i := 0; i+1 < len(order); i++ {
		a, err := ParseVersion(order[i])
		if err != nil {
			t.Fatal(err)
		}
		b, err := ParseVersion(order[i+1])
		if err != nil {
			t.Fatal(err)
		}
		if a.Compare(b) >= 0 || b.Compare(a) <= 0 {
			t.Errorf("%s is not before %s", a, b)
		}
	}
	for _, eq := range [][2]string{{"0.5", "0.5.0"}, {"v0.5.7", "0.5.7"}, {"0.5.3RC2", "0.5.3rc2"}, {"0.5.7+cu128", "0.5.7"}, {"1.0.0-rc.1", "1.0.0rc1"}} {
		a, err1 := ParseVersion(eq[0])
		b, err2 := ParseVersion(eq[1])
		if err1 != nil || err2 != nil || a.Compare(b) != 0 {
			t.Errorf("%s != %s (%v, %v)", eq[0], eq[1], err1, err2)
		}
	}
	for _, bad := range []string{"", "v", "latest", "0.5.x", "0..5", "0.5.7.", "0.5.7 beta", "0.5.7rc1rc2", "1.2.3.4.5.6.7.8.9", "0.5.7-nightly", "12345678901"} {
		if v, err := ParseVersion(bad); err == nil {
			t.Errorf("ParseVersion(%q) = %v, want an error", bad, v)
		}
	}
}

func TestAppliesTo(t *testing.T) {
	r := Record{ID: "x", IntroducedIn: "0.5.3rc2", RemovedIn: "0.5.7"}
	for v, want := range map[string]bool{
		"0.5.3rc1": false, "0.5.3rc2": true, "0.5.3": true, "0.5.6.post2": true,
		"0.5.7.dev5": true, // a development build before the release still prints it
		"0.5.7":      false, "0.5.18": false,
		"": true, "unknown": true, // nothing known: the record applies
	} {
		if got := r.AppliesTo(v); got != want {
			t.Errorf("AppliesTo(%q) = %v, want %v", v, got, want)
		}
	}
	if !(Record{ID: "y"}).AppliesTo("0.1.0") {
		t.Error("a record without versions does not apply")
	}
	if (Record{ID: "z", RemovedIn: "0.4.7"}).AppliesTo("0.5.0") || !(Record{ID: "z", RemovedIn: "0.4.7"}).AppliesTo("0.4.6") {
		t.Error("removedIn alone")
	}
	if (Record{ID: "w", IntroducedIn: "0.5.7"}).AppliesTo("0.5.6") || !(Record{ID: "w", IntroducedIn: "0.5.7"}).AppliesTo("0.6.0") {
		t.Error("introducedIn alone")
	}
}

// Versions are validated at load: a bound that does not parse, or bounds
// in the wrong order, are warnings naming file:line and field, and are
// cleared; the record still loads.
func TestVersionsValidatedAtLoad(t *testing.T) {
	in := strings.Join([]string{
		`{"id":"ok","messagePattern":"a","introducedIn":"0.5.3","removedIn":"0.5.7"}`,
		`{"id":"bad","messagePattern":"b","introducedIn":"latest"}`,
		`{"id":"inverted","messagePattern":"c","introducedIn":"0.5.7","removedIn":"0.5.3"}`,
		`{"record":{"id":"wrapped","messagePattern":"d","removedIn":"0.4.7"},"datasetVersion":"2"}`,
		`{"id":"same","messagePattern":"e","introducedIn":"0.5.7","removedIn":"v0.5.7"}`,
	}, "\n")
	recs, probs := Parse(strings.NewReader(in), "c.jsonl")
	if len(recs) != 5 {
		t.Fatalf("%d records loaded, want 5", len(recs))
	}
	var got []string
	for _, p := range probs {
		got = append(got, p.Level.String()+" "+p.Error())
	}
	want := []string{
		`warning c.jsonl:2: introducedIn: "latest" is not a version (want numbers like 0.5.7, optionally with rcN, .postN or .devN); ignored`,
		`warning c.jsonl:3: removedIn: 0.5.3 is not after introducedIn 0.5.7: the record would apply to no version; both ignored`,
		`warning c.jsonl:5: removedIn: v0.5.7 is not after introducedIn 0.5.7: the record would apply to no version; both ignored`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if recs[0].IntroducedIn != "0.5.3" || recs[0].RemovedIn != "0.5.7" || recs[3].RemovedIn != "0.4.7" {
		t.Errorf("good versions not kept: %+v %+v", recs[0], recs[3])
	}
	if recs[1].IntroducedIn != "" || recs[2].IntroducedIn != "" || recs[2].RemovedIn != "" {
		t.Error("bad versions kept")
	}
}

// FuzzParseVersion: no input panics; a parsed version equals itself, and
// parsing its text again gives an equal version.
func FuzzParseVersion(f *testing.F) {
	for _, s := range []string{"0.5.7", "v0.5.3rc2", "0.5.6.post3.dev1278", "1.0.0-rc.1+cu128", "0..1", "9999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseVersion(s)
		if err != nil {
			return
		}
		if v.Compare(v) != 0 {
			t.Fatalf("%q does not equal itself", s)
		}
		w, err := ParseVersion(v.String())
		if err != nil || w.Compare(v) != 0 {
			t.Fatalf("%q parsed again: %v %v", s, w, err)
		}
	})
}
