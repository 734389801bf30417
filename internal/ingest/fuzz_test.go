package ingest

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// FuzzDecodeDiagnose feeds the diagnose decoding (Content-Encoding, then
// Content-Type: plain text or multipart uploads, gzip or zstd files)
// arbitrary headers and bytes: it never panics, every refusal is an *Error
// with a 4xx status, and what it accepts stays within the bound.
func FuzzDecodeDiagnose(f *testing.F) {
	f.Add("text/plain", "", []byte("[2026-01-01 00:00:00] RuntimeError: boom\n"))
	f.Add("", "gzip", gz(f, []byte("line\n")))
	ct, body := multipartBody(f, [2]string{"a.log", "Traceback (most recent call last):\nValueError: x\n"})
	f.Add(ct, "", body)
	f.Add("multipart/form-data; boundary=b", "", []byte("--b\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nline\r\n--b--\r\n"))
	f.Add("application/octet-stream", "", []byte("\x28\xb5\x2f\xfd\x00\x00"))
	const max = 4 << 10
	f.Fuzz(func(t *testing.T, ct, enc string, body []byte) {
		h := http.Header{}
		h.Set("Content-Type", ct)
		h.Set("Content-Encoding", enc)
		text, err := ReadBody(h, strings.NewReader(string(body)), max)
		if err == nil {
			var ups []Upload
			ups, err = DecodeDiagnose(h, url.Values{"name": {"../x\x1b[31m"}}, text, max)
			total := 0
			for _, u := range ups {
				total += len(u.Text)
				if strings.ContainsAny(u.Name, "/\x1b") {
					t.Fatalf("upload name %q", u.Name)
				}
			}
			if total > max {
				t.Fatalf("%d bytes of text accepted, bound %d", total, max)
			}
		}
		if err == nil {
			return
		}
		var e *Error
		if !errors.As(err, &e) || e.Status < 400 || e.Status > 499 || e.Reason == "" {
			t.Fatalf("refusal %v is not a 4xx *Error", err)
		}
	})
}
