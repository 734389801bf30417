package sinks

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

// referenceAlertJSON is the alert's JSON as encoding/json writes it, with
// what Encode adds (the schema, [] and {} for nil lists and groups): the
// renderer appendAlert replaced, kept as its reference.
func referenceAlertJSON(a *Alert) ([]byte, error) {
	c := *a
	if c.Schema == "" {
		c.Schema = Schema
	}
	for _, l := range []*[]string{&c.Record.Solutions, &c.Record.PreventionTips, &c.Record.Tags} {
		if *l == nil {
			*l = []string{}
		}
	}
	if c.Match.Groups == nil {
		c.Match.Groups = map[string]string{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&c); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// checkAlertJSON fails t when AlertJSON and the reference disagree on a:
// in their bytes, or in whether they fail.
func checkAlertJSON(t *testing.T, name string, a *Alert) {
	t.Helper()
	want, werr := referenceAlertJSON(a)
	got, gerr := AlertJSON(a)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("%s: error %v, encoding/json's %v", name, gerr, werr)
	}
	if werr == nil && !bytes.Equal(got, want) {
		t.Fatalf("%s: wrote\n%s\nencoding/json wrote\n%s", name, got, want)
	}
}

// awkward are strings encoding/json escapes in every way it has: quotes
// and backslashes, named and numbered control bytes, HTML characters (left
// as they are), invalid UTF-8, U+2028 and U+2029, DEL, other runes.
var awkward = []string{
	"", "plain", `quote " and \ backslash`, "tab\tnew\nline\rcr\bbs\fff", "\x00\x01\x1f\x7f",
	"<html> & </html>", "bad \xff\xfe utf8 \xe2\x80", "sep \u2028 para \u2029", "é 日本 🙂",
	"RuntimeError: CUDA error: out of memory\n  File \"x.py\", line 3", strings.Repeat("a\x02", 40),
}

// TestAlertJSONEqualsEncodingJSON holds appendAlert to encoding/json on
// representative alerts: empty, a classified one with everything, one
// of every awkward string in every string field.
func TestAlertJSONEqualsEncodingJSON(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.UTC)
	full := Alert{
		Fingerprint: "fp1", Time: at, LastTime: at.Add(time.Minute).In(time.FixedZone("x", 5*3600+1800)), Count: 3, Kind: "new",
		Ranks: []string{"TP0", "DP1 TP3"}, FirstRank: "TP0", Headline: "RuntimeError: x",
		Record: Record{ID: "r1", Slug: "s1", Repo: "sglang", Severity: "error", ErrorClass: "RuntimeError", ErrorMessage: "x",
			Solutions: []string{"do y", "do z"}, PreventionTips: []string{}, Documentation: "d", HandlingStrategy: "h",
			GithubURL: "https://example.invalid/a?b=1&c=2", FilePath: "a.py", LineNumber: 42, Tags: []string{"cuda"}, Role: "cause", Fatal: true},
		Context:      []ContextHit{{ID: "w", Slug: "ws", Text: "Scheduler hit an exception", Fingerprint: "f"}, {ID: "w2"}},
		Consequences: []Consequence{{ID: "c", Slug: "cs", Severity: "error", Headline: "h", Count: 2, Ranks: []string{"TP1"}, Time: at, LastTime: at, Fingerprint: "cf"}, {}},
		Match:        Match{Text: "x", Groups: map[string]string{"2": "b", "1": "a", "name": "n", "10": "<&>"}, Exception: &Exception{Type: "RuntimeError", Message: "x", Stacktrace: "s", RootCause: "r"}},
		Source:       Source{Path: "/var/log/x.log", File: "f", Offset: -1, Stream: "stderr", Pod: "p", Namespace: "n", Container: "c", Node: "node1"},
		Engine:       "sglang", Entry: "RuntimeError: x", HungThread: []string{"f (a.py:1)"},
		Secondary: []SecondaryHit{{ID: "s2", Slug: "ss2"}, {}},
		Liveness:  &Liveness{Reason: LivenessRestart, State: "fail", Action: "restart", GatedRestarts: 1, MaxRestarts: 3, Window: "1h0m0s"},
	}
	checkAlertJSON(t, "empty", &Alert{})
	checkAlertJSON(t, "full", &full)
	noException := full
	noException.Match.Exception = &Exception{}
	checkAlertJSON(t, "empty exception", &noException)
	for i, s := range awkward {
		a := full
		a.Match.Groups = map[string]string{s: s, "k": s}
		setStrings(reflect.ValueOf(&a).Elem(), s)
		checkAlertJSON(t, "awkward "+string(rune('a'+i)), &a)
	}
	// Years encoding/json cannot write: both fail.
	bad := full
	bad.Time = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	checkAlertJSON(t, "year 10000", &bad)
	bad = full
	bad.Consequences = []Consequence{{LastTime: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)}}
	checkAlertJSON(t, "year -1", &bad)
}

// setStrings sets every string reachable in v (fields, list items, what
// pointers point to) to s.
func setStrings(v reflect.Value, s string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				setStrings(v.Field(i), s)
			}
		}
	case reflect.Slice:
		// A copy: the lists may be shared with the alert copied from.
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(c, v)
		for i := range c.Len() {
			setStrings(c.Index(i), s)
		}
		v.Set(c)
	case reflect.Pointer:
		if !v.IsNil() {
			c := reflect.New(v.Type().Elem())
			c.Elem().Set(v.Elem())
			setStrings(c.Elem(), s)
			v.Set(c)
		}
	}
}

// fill sets every exported field reachable in v to a value drawn from r:
// strings from awkward and random bytes, numbers of every sign, times of
// every zone, lists and maps of 0 to 2 items, nil or set pointers. A field
// added to Alert, or to a type it holds, is filled too: the tests below
// then fail until appendAlert writes it.
func fill(v reflect.Value, r *rand.Rand) {
	switch v.Kind() {
	case reflect.String:
		if r.IntN(3) == 0 {
			b := make([]byte, r.IntN(12))
			for i := range b {
				b[i] = byte(r.IntN(256))
			}
			v.SetString(string(b))
		} else {
			v.SetString(awkward[r.IntN(len(awkward))])
		}
	case reflect.Int, reflect.Int64:
		v.SetInt([]int64{0, 1, -1, 42, 1 << 40, -(1 << 62)}[r.IntN(6)])
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			var t time.Time
			if r.IntN(4) > 0 {
				zone := time.FixedZone("z", (r.IntN(49)-24)*1800)
				t = time.Unix(r.Int64N(1<<35)-1<<34, r.Int64N(1e9)).In(zone)
			}
			v.Set(reflect.ValueOf(t))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), r)
			}
		}
	case reflect.Slice:
		switch n := r.IntN(4); n {
		case 3:
			v.Set(reflect.Zero(v.Type())) // nil
		default:
			s := reflect.MakeSlice(v.Type(), n, n)
			for i := range n {
				fill(s.Index(i), r)
			}
			v.Set(s)
		}
	case reflect.Map:
		if r.IntN(4) == 0 {
			v.Set(reflect.Zero(v.Type()))
			return
		}
		m := reflect.MakeMap(v.Type())
		for range r.IntN(4) {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k, r)
			fill(e, r)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Pointer:
		if r.IntN(3) == 0 {
			v.Set(reflect.Zero(v.Type()))
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), r)
		v.Set(p)
	default:
		panic("fill: a field of kind " + v.Kind().String() + ": teach fill and appendAlert")
	}
}

// TestAlertJSONCoversEveryField holds appendAlert to encoding/json on
// random alerts whose every field is set or left empty at random.
func TestAlertJSONCoversEveryField(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		var a Alert
		fill(reflect.ValueOf(&a).Elem(), r)
		checkAlertJSON(t, "random alert "+string(rune('0'+i%10)), &a)
	}
}

// FuzzAlertJSON holds appendAlert to encoding/json on alerts filled from
// fuzzed bytes: every field from the seed they make, and the strings of
// the lists and groups from the text itself.
func FuzzAlertJSON(f *testing.F) {
	for i, s := range awkward {
		f.Add(uint64(i), s)
	}
	f.Fuzz(func(t *testing.T, seed uint64, text string) {
		var a Alert
		fill(reflect.ValueOf(&a).Elem(), rand.New(rand.NewPCG(seed, seed>>1)))
		checkAlertJSON(t, "filled", &a)
		a.Headline, a.Entry, a.Match.Text = text, text, text
		a.Match.Groups = map[string]string{text: text}
		a.Ranks = []string{text, text + "1"}
		a.Record.Solutions = []string{text}
		checkAlertJSON(t, "text", &a)
	})
}

// BenchmarkAlertJSON renders a classified alert with its exception and
// stack trace, as a scan's JSON output does for each incident.
func BenchmarkAlertJSON(b *testing.B) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.UTC)
	stack := strings.Repeat("  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 1234, in event_loop\n    self.run_batch(batch)\n", 12)
	a := Alert{
		Fingerprint: "0123456789abcdef0123456789abcdef", Time: at, LastTime: at, Count: 7, Kind: "summary",
		Ranks: []string{"TP0", "TP1"}, FirstRank: "TP0", Headline: "RuntimeError: CUDA error: out of memory",
		Record: Record{ID: "sglang-cuda-oom", Slug: "cuda-oom", Repo: "sglang", Severity: "error", ErrorClass: "RuntimeError",
			ErrorMessage: "CUDA error: out of memory", Solutions: []string{"Lower --mem-fraction-static.", "Reduce --max-running-requests."},
			Documentation: "https://docs.sglang.ai/", GithubURL: "https://github.com/sgl-project/sglang", FilePath: "python/sglang/srt/mem.py", LineNumber: 88, Tags: []string{"cuda", "memory"}},
		Match:  Match{Text: "RuntimeError: CUDA error: out of memory", Groups: map[string]string{"1": "out of memory"}, Exception: &Exception{Type: "RuntimeError", Message: "CUDA error: out of memory", Stacktrace: stack}},
		Source: Source{Path: "/var/log/sglang/server.log", Offset: 123456, Stream: "stderr"}, Engine: "sglang",
		Entry: "[2026-03-01 12:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):\n" + stack + "RuntimeError: CUDA error: out of memory",
	}
	b.Run("encoder", func(b *testing.B) {
		var enc AlertEncoder
		b.ReportAllocs()
		for b.Loop() {
			if _, err := enc.Encode(&a); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := referenceAlertJSON(&a); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// referenceJSONString is s as encoding/json quotes a string with HTML
// escaping off.
func referenceJSONString(t *testing.T, s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// TestJSONStringEveryPlace puts each byte that is not written as it is
// (every one below the space, the quote, the backslash, DEL, each byte
// from 0x80 on, U+2028) at every place of plain text of 1 to 24 bytes,
// so that each of safeRun's words meets it in each of its bytes, after
// and before others.
func TestJSONStringEveryPlace(t *testing.T) {
	var odd []string
	for b := range 256 {
		if b < ' ' || b == '"' || b == '\\' || b >= 0x7f {
			odd = append(odd, string([]byte{byte(b)}))
		}
	}
	odd = append(odd, "\u2028", "é", "\xe2\x80", "\xf0\x9f\x99\x82")
	for n := 1; n <= 24; n++ {
		plain := strings.Repeat("abcdefgh ", 3)[:n]
		for _, o := range odd {
			for at := 0; at <= n; at++ {
				for _, s := range []string{plain[:at] + o + plain[at:], plain[:at] + o + plain[at:] + o} {
					if got, want := string(appendJSONString(nil, s)), referenceJSONString(t, s); got != want {
						t.Fatalf("appendJSONString(%q) = %s, want %s", s, got, want)
					}
				}
			}
		}
	}
}

// FuzzJSONString holds appendJSONString to encoding/json on any text.
func FuzzJSONString(f *testing.F) {
	for _, s := range awkward {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(appendJSONString([]byte("x"), s)), "x"+referenceJSONString(t, s); got != want {
			t.Fatalf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	})
}
