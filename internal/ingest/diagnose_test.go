package ingest

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/matcher"
)

// crashLogs are the crash examples of the repository, each a log that
// scan finds incidents in.
func crashLogs(t *testing.T) []string {
	t.Helper()
	paths := []string{"../../examples/sglang-crash.log"}
	more, err := filepath.Glob("../../testdata/logs/*.log")
	if err != nil {
		t.Fatal(err)
	}
	paths = append(paths, more...)
	if len(paths) < 5 {
		t.Fatalf("crash examples: found %d logs", len(paths))
	}
	return paths
}

// scanJSON is what scan --format json prints for text named name.
func scanJSON(t *testing.T, name string, text []byte) string {
	t.Helper()
	red, err := redact.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := scan.New(defaultMatcher(t), scanOptions(red)).Scan(context.Background(), []scan.Input{{Name: name, R: bytes.NewReader(text)}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := scan.WriteJSON(&b, res.Alerts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func scanOptions(red *redact.Redactor) scan.Options {
	o := scan.Options{Redact: red.RedactAlert, Now: now}
	o.Entry.Redact = red.Redact
	return o
}

func newTestDiagnoser(t *testing.T, o DiagnoseOptions) (*Diagnoser, *recorder) {
	t.Helper()
	rec := newRecorder()
	if o.Matcher == nil {
		m := defaultMatcher(t)
		o.Matcher = func() *matcher.Matcher { return m }
	}
	o.Observer = rec
	o.Now = now
	d, err := NewDiagnoser(o)
	if err != nil {
		t.Fatal(err)
	}
	return d, rec
}

func serve(h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

func gz(t testing.TB, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// multipartBody builds a multipart/form-data body with one file part per
// name and text.
func multipartBody(t testing.TB, files ...[2]string) (string, []byte) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, f := range files {
		fw, err := mw.CreateFormFile("file", f[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(fw, f[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return mw.FormDataContentType(), b.Bytes()
}

// TestDiagnoseAnswersAsScan posts each crash example as a plain body, as
// a gzip body and as a file upload, and gets exactly the JSON lines scan
// prints for it.
func TestDiagnoseAnswersAsScan(t *testing.T) {
	d, rec := newTestDiagnoser(t, DiagnoseOptions{})
	incidents := 0
	for _, p := range crashLogs(t) {
		text, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(p)
		want := scanJSON(t, name, text)
		incidents += strings.Count(want, "\n")
		ct, mp := multipartBody(t, [2]string{"dir/" + name, string(text)})
		cases := []struct {
			name string
			req  func() *http.Request
		}{
			{"plain", func() *http.Request {
				r := httptest.NewRequest("POST", "/v1/diagnose?name="+name, bytes.NewReader(text))
				r.Header.Set("Content-Type", "text/plain; charset=utf-8")
				return r
			}},
			{"gzip", func() *http.Request {
				r := httptest.NewRequest("POST", "/v1/diagnose?name="+name, bytes.NewReader(gz(t, text)))
				r.Header.Set("Content-Encoding", "gzip")
				return r
			}},
			{"gzip file", func() *http.Request {
				r := httptest.NewRequest("POST", "/v1/diagnose?name="+name, bytes.NewReader(gz(t, text)))
				r.Header.Set("Content-Type", "application/octet-stream")
				return r
			}},
			{"multipart", func() *http.Request {
				r := httptest.NewRequest("POST", "/v1/diagnose", bytes.NewReader(mp))
				r.Header.Set("Content-Type", ct)
				return r
			}},
		}
		for _, c := range cases {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				w := serve(d, c.req())
				if w.Code != http.StatusOK {
					t.Fatalf("status %d: %s", w.Code, w.Body)
				}
				if got := w.Body.String(); got != want {
					t.Errorf("answer differs from scan --format json\n got: %.2000s\nwant: %.2000s", got, want)
				}
				if ct := w.Header().Get("Content-Type"); ct != "application/x-ndjson" {
					t.Errorf("Content-Type %q", ct)
				}
			})
		}
	}
	if incidents < 5 {
		t.Fatalf("the crash examples gave %d incidents: the comparison proves little", incidents)
	}
	if rec.lines[InputDiagnose] == 0 {
		t.Error("no lines counted")
	}
}

// TestDiagnoseRedacts checks that a secret in a failing entry does not
// come back in the answer.
func TestDiagnoseRedacts(t *testing.T) {
	d, _ := newTestDiagnoser(t, DiagnoseOptions{})
	secret := "hf_" + strings.Repeat("aB3dE", 8)
	text := "Traceback (most recent call last):\n  File \"/app/x.py\", line 3, in <module>\n    load(token)\nRuntimeError: could not load with HF_TOKEN=" + secret + "\n"
	w := serve(d, httptest.NewRequest("POST", "/v1/diagnose", strings.NewReader(text)))
	if w.Code != http.StatusOK {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if !strings.Contains(w.Body.String(), "RuntimeError") {
		t.Fatalf("no incident: %s", w.Body)
	}
	if strings.Contains(w.Body.String(), secret) {
		t.Fatalf("the secret is in the answer: %s", w.Body)
	}
}

// TestDiagnoseRefuses sends malformed, oversized and hostile requests:
// each gets its 4xx (or 503) status, a message that says why, and is
// counted under its reason.
func TestDiagnoseRefuses(t *testing.T) {
	const max = 64 << 10
	big := strings.Repeat("x", max+1)
	bomb := gz(t, bytes.Repeat([]byte("A\n"), 4*max)) // a few KiB that inflate far past max
	if len(bomb) >= max {
		t.Fatalf("bomb of %d bytes is not small", len(bomb))
	}
	_, manyFiles := multipartBody(t, func() [][2]string {
		var fs [][2]string
		for i := range maxUploads + 1 {
			fs = append(fs, [2]string{fmt.Sprintf("f%d.log", i), "line\n"})
		}
		return fs
	}()...)
	cases := []struct {
		name    string
		method  string
		body    []byte
		headers map[string]string
		query   string
		status  int
		reason  string
		says    string
	}{
		{name: "body over the bound", body: []byte(big), status: 413, reason: ReasonTooLarge, says: "over 65536"},
		{name: "gzip bomb", body: bomb, headers: map[string]string{"Content-Encoding": "gzip"}, status: 413, reason: ReasonTooLarge, says: "decompressed body over"},
		{name: "gzip file bomb", body: bomb, status: 413, reason: ReasonTooLarge, says: "text over"},
		{name: "corrupt gzip", body: []byte("\x1f\x8b\x08\x00garbage"), headers: map[string]string{"Content-Encoding": "gzip"}, status: 400, reason: ReasonEncoding, says: "gzip"},
		{name: "unknown encoding", body: []byte("x"), headers: map[string]string{"Content-Encoding": "br"}, status: 415, reason: ReasonEncoding, says: `Content-Encoding "br"`},
		{name: "unknown content type", body: []byte("{}"), headers: map[string]string{"Content-Type": "application/json"}, status: 415, reason: ReasonContentType, says: "want text/plain"},
		{name: "bad content type", body: []byte("x"), headers: map[string]string{"Content-Type": "text/plain; ;;=="}, status: 400, reason: ReasonContentType, says: "Content-Type"},
		{name: "multipart without boundary", body: []byte("x"), headers: map[string]string{"Content-Type": "multipart/form-data"}, status: 400, reason: ReasonMalformed, says: "without a boundary"},
		{name: "multipart cut short", body: []byte("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.log\"\r\n\r\nline\n"), headers: map[string]string{"Content-Type": "multipart/form-data; boundary=b"}, status: 400, reason: ReasonMalformed, says: "multipart"},
		{name: "multipart without a file", body: []byte("--b--\r\n"), headers: map[string]string{"Content-Type": "multipart/form-data; boundary=b"}, status: 400, reason: ReasonMalformed, says: "without a file"},
		{name: "multipart other field", body: []byte("--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nv\r\n--b--\r\n"), headers: map[string]string{"Content-Type": "multipart/form-data; boundary=b"}, status: 400, reason: ReasonMalformed, says: `field "x"`},
		{name: "too many files", body: manyFiles, headers: map[string]string{"Content-Type": "multipart/form-data; boundary=" + boundaryOf(manyFiles)}, status: 413, reason: ReasonTooLarge, says: "more than 16 files"},
		{name: "binary upload", body: []byte("\x7fELF\x02\x01\x01\x00"), status: 415, reason: ReasonNotText, says: "an ELF binary"},
		{name: "NUL bytes", body: []byte("line one\n\x00\x01\x02"), status: 415, reason: ReasonNotText, says: "NUL byte"},
		{name: "bad format", body: []byte("x"), query: "?format=xml", status: 400, reason: ReasonMalformed, says: "format"},
		{name: "GET", method: "GET", status: 405, reason: ReasonMalformed, says: "want POST"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, rec := newTestDiagnoser(t, DiagnoseOptions{MaxBytes: max})
			method := c.method
			if method == "" {
				method = "POST"
			}
			r := httptest.NewRequest(method, "/v1/diagnose"+c.query, bytes.NewReader(c.body))
			for k, v := range c.headers {
				r.Header.Set(k, v)
			}
			w := serve(d, r)
			if w.Code != c.status {
				t.Fatalf("status %d, want %d: %s", w.Code, c.status, w.Body)
			}
			if !strings.Contains(w.Body.String(), c.says) || !strings.HasPrefix(w.Body.String(), "diagnose: ") {
				t.Errorf("message %q does not say %q", w.Body, c.says)
			}
			if n := rec.rejected(InputDiagnose, c.reason); n != 1 {
				t.Errorf("rejects counted under %s: %d, want 1 (%v)", c.reason, n, rec.rejects)
			}
		})
	}
}

func boundaryOf(body []byte) string {
	line, _, _ := bytes.Cut(body, []byte("\r\n"))
	return string(bytes.TrimPrefix(line, []byte("--")))
}

// TestDiagnoseBusy fills the bound of requests at once: the next is
// answered 429 with Retry-After, before its body is read.
func TestDiagnoseBusy(t *testing.T) {
	d, rec := newTestDiagnoser(t, DiagnoseOptions{MaxConcurrent: 1})
	d.sem <- struct{}{} // a request in flight
	body := &countingReader{r: strings.NewReader("line\n")}
	w := serve(d, httptest.NewRequest("POST", "/v1/diagnose", body))
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "1" {
		t.Fatalf("status %d, Retry-After %q: %s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	if body.n != 0 {
		t.Errorf("%d body bytes read by a refused request", body.n)
	}
	if rec.rejected(InputDiagnose, ReasonBusy) != 1 {
		t.Errorf("busy not counted: %v", rec.rejects)
	}
	<-d.sem
	if w := serve(d, httptest.NewRequest("POST", "/v1/diagnose", strings.NewReader("line\n"))); w.Code != http.StatusOK {
		t.Fatalf("after the bound freed: status %d: %s", w.Code, w.Body)
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// TestDiagnoseDeadline: a diagnosis whose context ends (its deadline, or
// the client gone) is answered 503 and counted as a timeout.
func TestDiagnoseDeadline(t *testing.T) {
	d, rec := newTestDiagnoser(t, DiagnoseOptions{})
	text, err := os.ReadFile("../../examples/sglang-crash.log")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := httptest.NewRequestWithContext(ctx, "POST", "/v1/diagnose", bytes.NewReader(text))
	w := serve(d, r)
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "did not finish within") {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if rec.rejected(InputDiagnose, ReasonTimeout) != 1 {
		t.Errorf("timeout not counted: %v", rec.rejects)
	}
}

// TestDiagnoseNoCatalog answers 503 while no catalog is loaded.
func TestDiagnoseNoCatalog(t *testing.T) {
	d, _ := newTestDiagnoser(t, DiagnoseOptions{Matcher: func() *matcher.Matcher { return nil }})
	w := serve(d, httptest.NewRequest("POST", "/v1/diagnose", strings.NewReader("x\n")))
	if w.Code != http.StatusServiceUnavailable {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
}

// TestAuthenticate lets in only the configured bearer token.
func TestAuthenticate(t *testing.T) {
	d, rec := newTestDiagnoser(t, DiagnoseOptions{})
	h := Authenticate(Auth{Token: "s3cret"}, InputDiagnose, rec, d)
	for _, c := range []struct {
		auth   string
		status int
	}{
		{"", 401},
		{"Bearer wrong", 401},
		{"Basic czNjcmV0", 401},
		{"Bearer s3cret", 200},
	} {
		r := httptest.NewRequest("POST", "/v1/diagnose", strings.NewReader("line\n"))
		if c.auth != "" {
			r.Header.Set("Authorization", c.auth)
		}
		w := serve(h, r)
		if w.Code != c.status {
			t.Errorf("Authorization %q: status %d, want %d", c.auth, w.Code, c.status)
		}
		if c.status == 401 && (w.Header().Get("WWW-Authenticate") == "" || strings.Contains(w.Body.String(), "s3cret")) {
			t.Errorf("Authorization %q: answer %q, WWW-Authenticate %q", c.auth, w.Body, w.Header().Get("WWW-Authenticate"))
		}
	}
	if n := rec.rejected(InputDiagnose, ReasonUnauthorized); n != 3 {
		t.Errorf("unauthorized counted %d times, want 3", n)
	}
}

// TestDiagnoseOverLoopback runs the handler behind a real listener on
// loopback, with the server's own size bound reaching the client.
func TestDiagnoseOverLoopback(t *testing.T) {
	d, _ := newTestDiagnoser(t, DiagnoseOptions{MaxBytes: 1 << 10})
	mux := http.NewServeMux()
	mux.Handle("/v1/diagnose", d)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	text, err := os.ReadFile("../../testdata/logs/crash-tp3.log")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(srv.URL+"/v1/diagnose", "text/plain", bytes.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if len(text) > 1<<10 && resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d for %d bytes over a bound of 1 KiB: %s", resp.StatusCode, len(text), b)
	}
}
