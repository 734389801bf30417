package ingest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"
	"unicode"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/logfile"
	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/internal/scan"
	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/sinks"
)

// Defaults of DiagnoseOptions.
const (
	DefaultMaxBytes       = 8 << 20
	DefaultDiagnoseTime   = 10 * time.Second
	DefaultDiagnoseAtOnce = 2
	// maxUploads bounds the files of one multipart request.
	maxUploads = 16
	// maxNameBytes bounds an upload's name as alerts carry it.
	maxNameBytes = 200
)

// Upload is one log text of a diagnose request.
type Upload struct {
	Name string // the file name sent, or "request" for a plain body
	Text []byte // the text, decompressed when the upload was gzip or zstd
}

// DecodeDiagnose reads the uploads of a diagnose request whose body (after
// its Content-Encoding) is body: the body itself when Content-Type is
// text/plain, application/octet-stream or absent (named by the name query
// parameter), or the files of a multipart/form-data body (each named by
// its file name; a field named text counts as a file). An upload
// compressed with gzip or zstd is decompressed; its text, all uploads
// together, is bounded by max. Errors are *Error, 4xx, and say what was
// wrong.
func DecodeDiagnose(h http.Header, q url.Values, body []byte, max int64) ([]Upload, error) {
	ct := h.Get("Content-Type")
	mt, params := "", map[string]string(nil)
	if ct != "" {
		var err error
		mt, params, err = mime.ParseMediaType(ct)
		if err != nil {
			return nil, errorf(http.StatusBadRequest, ReasonContentType, "Content-Type %q: %v", truncate(ct, 64), err)
		}
	}
	budget := max
	switch mt {
	case "", "text/plain", "application/octet-stream":
		name := q.Get("name")
		if name == "" {
			name = "request"
		}
		u, err := upload(cleanName(name), body, &budget)
		if err != nil {
			return nil, err
		}
		return []Upload{u}, nil
	case "multipart/form-data":
		boundary := params["boundary"]
		if boundary == "" {
			return nil, errorf(http.StatusBadRequest, ReasonMalformed, "multipart/form-data without a boundary")
		}
		return decodeMultipart(multipart.NewReader(bytes.NewReader(body), boundary), &budget)
	}
	return nil, errorf(http.StatusUnsupportedMediaType, ReasonContentType, "Content-Type %q: want text/plain, application/octet-stream or multipart/form-data", truncate(mt, 64))
}

func decodeMultipart(mr *multipart.Reader, budget *int64) ([]Upload, error) {
	var ups []Upload
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, errorf(http.StatusBadRequest, ReasonMalformed, "multipart body, part %d: %v", len(ups)+1, err)
		}
		name := p.FileName()
		if name == "" {
			if p.FormName() != "text" {
				return nil, errorf(http.StatusBadRequest, ReasonMalformed, "multipart field %q: want a file, or a field named text", truncate(p.FormName(), 64))
			}
			name = "text"
		}
		if len(ups) == maxUploads {
			return nil, errorf(http.StatusRequestEntityTooLarge, ReasonTooLarge, "more than %d files in one request", maxUploads)
		}
		// The whole body is in memory and bounded already: the part
		// cannot be longer than it.
		b, err := io.ReadAll(p)
		if err != nil {
			return nil, errorf(http.StatusBadRequest, ReasonMalformed, "multipart file %q: %v", truncate(name, 64), err)
		}
		u, err := upload(cleanName(name), b, budget)
		if err != nil {
			return nil, err
		}
		ups = append(ups, u)
	}
	if len(ups) == 0 {
		return nil, errorf(http.StatusBadRequest, ReasonMalformed, "multipart body without a file (send the log as a file part, or a field named text)")
	}
	return ups, nil
}

// upload turns raw bytes into an upload's text: decompressed when gzip or
// zstd, refused when not text, charged to budget.
func upload(name string, raw []byte, budget *int64) (Upload, error) {
	r, err := logfile.Open(bytes.NewReader(raw))
	if err != nil {
		if errors.Is(err, logfile.ErrNotText) {
			return Upload{}, errorf(http.StatusUnsupportedMediaType, ReasonNotText, "%s: %v", name, err)
		}
		return Upload{}, errorf(http.StatusBadRequest, ReasonEncoding, "%s: %v", name, err)
	}
	defer r.Close()
	text, err := readAtMost(r, *budget, name+": text")
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return Upload{}, e
		}
		return Upload{}, errorf(http.StatusBadRequest, ReasonEncoding, "%s: %v", name, err)
	}
	*budget -= int64(len(text))
	return Upload{Name: name, Text: text}, nil
}

// cleanName keeps the base name of a client's file name, printable and
// bounded: it becomes the alerts' source path.
func cleanName(s string) string {
	s = path.Base(strings.ReplaceAll(s, `\`, "/"))
	s = strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) || r == unicode.ReplacementChar {
			return '_'
		}
		return r
	}, s)
	if len(s) > maxNameBytes {
		s = strings.ToValidUTF8(s[:maxNameBytes], "")
	}
	if s == "" || s == "." || s == "/" {
		s = "upload"
	}
	return s
}

// DiagnoseOptions configure the diagnose API. Zero values take defaults.
type DiagnoseOptions struct {
	// Matcher returns the catalog in use (run's, which a reload
	// replaces); nil answers 503.
	Matcher func() *matcher.Matcher
	// Redactor removes secrets from the alerts, as scan does; nil uses
	// the built-in rules.
	Redactor *redact.Redactor
	// Entry bounds the assembly of entries.
	Entry entry.Options
	// MaxBytes bounds a request's body and the text it decompresses to
	// (default DefaultMaxBytes).
	MaxBytes int64
	// Timeout bounds the diagnosis of one request (default
	// DefaultDiagnoseTime).
	Timeout time.Duration
	// MaxConcurrent bounds the requests diagnosed at once; more are
	// answered 429 (default DefaultDiagnoseAtOnce).
	MaxConcurrent int
	// Observer counts requests, lines and refusals.
	Observer Observer
	// Now stands in for the clock (tests).
	Now func() time.Time
}

// Diagnoser serves POST /v1/diagnose.
type Diagnoser struct {
	o   DiagnoseOptions
	sem chan struct{}
}

// NewDiagnoser returns the handler of the diagnose API.
func NewDiagnoser(o DiagnoseOptions) (*Diagnoser, error) {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultDiagnoseTime
	}
	if o.MaxConcurrent <= 0 {
		o.MaxConcurrent = DefaultDiagnoseAtOnce
	}
	if o.Observer == nil {
		o.Observer = nopObserver{}
	}
	if o.Redactor == nil {
		r, err := redact.New(nil)
		if err != nil {
			return nil, err
		}
		o.Redactor = r
	}
	return &Diagnoser{o: o, sem: make(chan struct{}, o.MaxConcurrent)}, nil
}

// ServeHTTP diagnoses the uploaded log text and answers with one
// logmatch.alert/v1 JSON object per line, as scan --format json prints
// them; no incident is an empty 200.
func (d *Diagnoser) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	obs := d.o.Observer
	obs.Request(InputDiagnose)
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		refuse(w, InputDiagnose, obs, errorf(http.StatusMethodNotAllowed, ReasonMalformed, "method %s: want POST", r.Method))
		return
	}
	// Refused before the body is read: a busy server reads no 8 MiB.
	select {
	case d.sem <- struct{}{}:
		defer func() { <-d.sem }()
	default:
		refuse(w, InputDiagnose, obs, &Error{Status: http.StatusTooManyRequests, Reason: ReasonBusy, RetryAfter: 1,
			Msg: "busy: the requests diagnosed at once are at their bound; retry later"})
		return
	}
	if r.ContentLength > d.o.MaxBytes {
		refuse(w, InputDiagnose, obs, errorf(http.StatusRequestEntityTooLarge, ReasonTooLarge, "body of %d bytes over %d", r.ContentLength, d.o.MaxBytes))
		return
	}
	format, err := source.ParseFormat(r.URL.Query().Get("format"))
	if err != nil {
		refuse(w, InputDiagnose, obs, errorf(http.StatusBadRequest, ReasonMalformed, "format: %v", err))
		return
	}
	body, err := ReadBody(r.Header, http.MaxBytesReader(w, r.Body, d.o.MaxBytes), d.o.MaxBytes)
	if err != nil {
		refuse(w, InputDiagnose, obs, err)
		return
	}
	ups, err := DecodeDiagnose(r.Header, r.URL.Query(), body, d.o.MaxBytes)
	if err != nil {
		refuse(w, InputDiagnose, obs, err)
		return
	}
	alerts, err := d.Diagnose(r.Context(), InputDiagnose, format, ups)
	if err != nil {
		refuse(w, InputDiagnose, obs, err)
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_ = scan.WriteJSON(w, alerts)
}

// Diagnose returns the incidents of the uploads (framed as format, ""
// detects it), redacted, as the API answers them, within the time bound;
// the lines read are counted for input. Its errors are *Error: 503
// without a catalog or past the deadline.
func (d *Diagnoser) Diagnose(ctx context.Context, input string, format source.Format, ups []Upload) ([]sinks.Alert, error) {
	var m *matcher.Matcher
	if d.o.Matcher != nil {
		m = d.o.Matcher()
	}
	if m == nil {
		return nil, errorf(http.StatusServiceUnavailable, ReasonUnavailable, "no catalog loaded")
	}
	ctx, cancel := context.WithTimeout(ctx, d.o.Timeout)
	defer cancel()
	eo := d.o.Entry
	eo.Redact = d.o.Redactor.Redact
	s := scan.New(m, scan.Options{Entry: eo, Format: format, Redact: d.o.Redactor.RedactAlert, Now: d.o.Now})
	inputs := make([]scan.Input, len(ups))
	for i, u := range ups {
		inputs[i] = scan.Input{Name: u.Name, R: ctxReader{ctx: ctx, r: bytes.NewReader(u.Text)}}
	}
	res, err := s.Scan(ctx, inputs)
	d.o.Observer.Lines(input, int(res.Stats.Lines))
	// A scan whose context ended stops early without an error: what it
	// found is not the whole answer.
	if ctx.Err() != nil {
		// 503 and no Retry-After: the same text would take as long
		// again; a smaller piece of it may not.
		return nil, errorf(http.StatusServiceUnavailable, ReasonTimeout, "the diagnosis did not finish within %s; send less text", d.o.Timeout)
	}
	if err != nil {
		return nil, errorf(http.StatusBadRequest, ReasonMalformed, "%v", err)
	}
	return res.Alerts, nil
}

// ctxReader ends its reads once ctx has: the scan of text in memory never
// waits on a read, so the deadline must stop it between reads.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
