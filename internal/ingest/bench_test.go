package ingest

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/logmatch/logmatch/matcher"
)

// benchLog is the crash example repeated to about n bytes.
func benchLog(b *testing.B, n int) []byte {
	b.Helper()
	one, err := os.ReadFile("../../examples/sglang-crash.log")
	if err != nil {
		b.Fatal(err)
	}
	return bytes.Repeat(one, n/len(one))
}

// BenchmarkDiagnose8MiB is the diagnose API's worst accepted request: a
// body at the default bound, all of it failures to diagnose.
func BenchmarkDiagnose8MiB(b *testing.B) {
	text := benchLog(b, DefaultMaxBytes-64<<10)
	d, err := NewDiagnoser(DiagnoseOptions{Matcher: func() *matcher.Matcher { return defaultMatcher(b) }, Timeout: 10 * DefaultDiagnoseTime})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		w := httptest.NewRecorder()
		d.ServeHTTP(w, httptest.NewRequest("POST", "/v1/diagnose", bytes.NewReader(text)))
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %.200s", w.Code, w.Body)
		}
	}
}
