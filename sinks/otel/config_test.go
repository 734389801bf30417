package otel

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseHeaders(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    map[string]string
		wantErr string
	}{
		{"empty", "", map[string]string{}, ""},
		{"two", "a=1, b = two ", map[string]string{"a": "1", "b": "two"}, ""},
		{"percent-encoded", "authorization=Bearer%20x%3Dy", map[string]string{"authorization": "Bearer x=y"}, ""},
		{"value with equals", "k=a=b", map[string]string{"k": "a=b"}, ""},
		{"missing value", "a=1,b", map[string]string{"a": "1"}, "entry 2: want key=value"},
		{"empty key", "=v", map[string]string{}, "entry 1: want key=value"},
		{"bad escape", "k=%zz", map[string]string{}, `header "k": value is not percent-encoded`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseHeaders(tt.in)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("headers (-want +got):\n%s", diff)
			}
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != tt.wantErr {
				t.Errorf("error = %q, want %q", gotErr, tt.wantErr)
			}
		})
	}
}

// FuzzParseHeaders checks that parsing never panics, keeps only non-empty
// keys and never puts a value in an error message.
func FuzzParseHeaders(f *testing.F) {
	for _, s := range []string{"", "a=1", "authorization=Bearer%20tok,x-k=v", "=", "a", "k=%zz", "a=b=c,,", " k = v "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := parseHeaders(s)
		for k := range h {
			if k == "" {
				t.Fatalf("parseHeaders(%q) kept an empty key", s)
			}
		}
		if err == nil {
			return
		}
		for kv := range strings.SplitSeq(s, ",") {
			k, v, ok := strings.Cut(kv, "=")
			v = strings.TrimSpace(v)
			// A value that is also part of the key or of the fixed text
			// can show up without leaking anything.
			if !ok || len(v) < 6 || strings.Contains(k, v) || strings.Contains("want key=value is not percent-encoded header entry", v) {
				continue
			}
			if strings.Contains(err.Error(), v) {
				t.Fatalf("parseHeaders(%q) error %q shows value %q", s, err, v)
			}
		}
	})
}
