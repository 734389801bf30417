package ingest_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/klauspost/compress/snappy"

	"github.com/logmatch/logmatch/internal/ingest"
	"github.com/logmatch/logmatch/internal/ingest/pushtest"
)

// FuzzDecodeLoki feeds the push decoders arbitrary bodies, as protobuf
// (the fuzzed bytes snappy-compressed, and as sent) and as JSON: they never
// panic, refuse with a 4xx *Error, and what they accept has valid labels.
func FuzzDecodeLoki(f *testing.F) {
	f.Add(pushtest.Message(sample()))
	f.Add(pushtest.JSON(sample()))
	f.Add([]byte(`{"streams":[{"stream":{"pod":"p"},"values":[["1","a\nb"],["2","c",{"k":"v"}]]}]}`))
	f.Add([]byte{0x0a, 0x05, 0x0a, 0x03, '{', 'a', '}'})
	const max = 64 << 10
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, c := range []struct {
			ct   string
			body []byte
		}{
			{"application/x-protobuf", snappy.Encode(nil, b)},
			{"application/x-protobuf", b},
			{"application/json", b},
		} {
			h := http.Header{}
			h.Set("Content-Type", c.ct)
			ss, err := ingest.DecodeLoki(h, c.body, max)
			if err != nil {
				var e *ingest.Error
				if !errors.As(err, &e) || e.Status < 400 || e.Status > 499 {
					t.Fatalf("%s: refusal %v is not a 4xx *Error", c.ct, err)
				}
				continue
			}
			for _, s := range ss {
				if len(s.Labels) == 0 {
					t.Fatalf("%s: a stream without labels accepted", c.ct)
				}
				// The stream's name parses back to its labels.
				back, err := ingest.ParseLabels(ingest.LabelString(s.Labels))
				if err != nil || len(back) != len(s.Labels) {
					t.Fatalf("%s: labels %v do not round-trip: %v", c.ct, s.Labels, err)
				}
			}
		}
	})
}

// FuzzParseLabels: any text parses or is refused, never panics, and what
// parses renders and parses back the same.
func FuzzParseLabels(f *testing.F) {
	for _, s := range []string{`{a="1"}`, `{pod="p", namespace="n", container="c"}`, `{a="x\"y\\z\u00e9"}`, `{a="1",}`, `{}`, `{a=}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ls, err := ingest.ParseLabels(s)
		if err != nil {
			return
		}
		again, err := ingest.ParseLabels(ingest.LabelString(ls))
		if err != nil || ingest.LabelString(again) != ingest.LabelString(ls) {
			t.Fatalf("%q: parsed %v, rendered %q, reparsed %v, %v", s, ls, ingest.LabelString(ls), again, err)
		}
	})
}
