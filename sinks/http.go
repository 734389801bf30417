package sinks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// StatusError is a non-2xx answer of an HTTP destination.
type StatusError struct {
	StatusCode int
	// Body is the start of the answer (at most MaxErrorBody bytes), on one
	// line: Slack and Alertmanager say there what was wrong.
	Body string
}

// MaxErrorBody bounds how much of an error answer StatusError keeps.
const MaxErrorBody = 512

// Error gives the status and the start of the answer.
func (e *StatusError) Error() string {
	if e.Body == "" {
		return fmt.Sprintf("http %d", e.StatusCode)
	}
	return fmt.Sprintf("http %d: %s", e.StatusCode, e.Body)
}

// Classify turns the result of an HTTP request into a sink's answer:
// 2xx is accepted; network errors, 408, 429 and 5xx may succeed later;
// any other status never will. A Retry-After header (seconds or an HTTP
// date) on a retryable answer becomes a *RetryAfterError. Errors are
// *StatusError or come through RedactURL, so they never show the URL.
//
// Classify reads at most MaxErrorBody bytes of a non-2xx body and never
// closes it: the caller owns resp.Body.
func Classify(resp *http.Response, err error) (retry bool, out error) {
	if err != nil {
		return true, RedactURL(err)
	}
	if resp == nil {
		return true, errors.New("http: no response and no error")
	}
	code := resp.StatusCode
	if code >= 200 && code <= 299 {
		return false, nil
	}
	se := &StatusError{StatusCode: code, Body: readErrorBody(resp.Body)}
	if code != http.StatusRequestTimeout && code != http.StatusTooManyRequests && code < 500 {
		return false, se
	}
	if d, ok := ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
		return true, &RetryAfterError{After: d, Err: se}
	}
	return true, se
}

func readErrorBody(r io.Reader) string {
	if r == nil {
		return ""
	}
	b, _ := io.ReadAll(io.LimitReader(r, MaxErrorBody))
	s := strings.Map(func(r rune) rune {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return ' '
		}
		return r
	}, string(b))
	return OneLine(s)
}

// MaxRetryAfter is the longest wait a Retry-After answer is taken at. A
// sink holds every later message for what its destination asked (Slack's
// pause applies to the webhook), and the durable queue defers the alert as
// long: one broken or hostile answer ("Retry-After: 2147483647", a date in
// the year 9999) would otherwise stop a sink's delivery until a restart
// and keep its alert until the queue's max_age dropped it. It is the
// default retry.max_backoff.
const MaxRetryAfter = 5 * time.Minute

// ParseRetryAfter reads a Retry-After header value: delay seconds or an
// HTTP date, relative to now, at most MaxRetryAfter. A date in the past is
// a zero wait. ok is false for an empty or malformed value (a negative
// number, or one too large to parse, is malformed).
func ParseRetryAfter(v string, now time.Time) (d time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		// Capped before the multiplication, which cannot overflow then.
		return time.Duration(min(secs, int64(MaxRetryAfter/time.Second))) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return min(max(t.Sub(now), 0), MaxRetryAfter), true
}

// NewClient returns the http.Client of an HTTP sink: tr, or a clone of
// http.DefaultTransport when nil, the timeout for a whole request, and
// redirects refused (refuseRedirect).
func NewClient(tr http.RoundTripper, timeout time.Duration) *http.Client {
	if tr == nil {
		tr = http.DefaultTransport.(*http.Transport).Clone()
	}
	return &http.Client{Transport: tr, Timeout: timeout, CheckRedirect: refuseRedirect}
}

// refuseRedirect is the CheckRedirect of every sink's http.Client: a
// redirect is not followed but returned as an error, which Classify calls
// retryable. Following it would lose or misdirect the alert: net/http turns
// a POST answered with 301, 302 or 303 into a GET without the body, whose
// 2xx would count the alert delivered, and a 307 or 308 would send the
// alert and its signing or authorising headers to a URL nobody
// configured. The alert stays queued until the configured URL is fixed.
func refuseRedirect(req *http.Request, _ []*http.Request) error {
	return fmt.Errorf("redirect to %s not followed: configure the URL it points to", SafeURL(req.URL.String()))
}

// RedactURL returns err with every URL that net/http or net/url put in it
// replaced by SafeURL, so that webhook paths, tokens and query secrets never
// reach an error message or a log line. An error without a *url.Error is
// returned unchanged. The result unwraps to the cause inside the
// *url.Error (so errors.Is(err, context.Canceled) still works), never to
// the *url.Error itself, which would hand the URL back.
func RedactURL(err error) error {
	var ue *url.Error
	if !errors.As(err, &ue) {
		return err
	}
	msg := err.Error()
	if ue.URL != "" {
		// url.Error prints the URL with %q, which escapes some characters,
		// so both the quoted and the raw form are replaced.
		// One pass, so the safe form is never itself rewritten.
		safe := SafeURL(ue.URL)
		msg = strings.NewReplacer(strconv.Quote(ue.URL), strconv.Quote(safe), ue.URL, safe).Replace(msg)
	}
	return &redactedError{msg: msg, cause: ue.Err}
}

type redactedError struct {
	msg   string
	cause error
}

// Error is the message with URLs redacted.
func (e *redactedError) Error() string { return e.msg }

// Unwrap returns the cause inside the *url.Error.
func (e *redactedError) Unwrap() error { return e.cause }

// Timeout reports whether the cause was a timeout, as *url.Error does.
func (e *redactedError) Timeout() bool {
	var t interface{ Timeout() bool }
	return errors.As(e.cause, &t) && t.Timeout()
}

// SafeURL renders a URL for errors and logs: scheme and host only, with
// "/[REDACTED]" standing for any user info, path, query or fragment.
func SafeURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "[REDACTED URL]"
	}
	s := u.Scheme + "://" + u.Host
	if u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		s += "/[REDACTED]"
	}
	return s
}

// PostJSON posts body to target with Content-Type application/json, the
// extra headers and a logmatch User-Agent, and classifies the answer with
// Classify. The body of the answer is drained (boundedly) and closed so the
// connection can be reused.
func PostJSON(ctx context.Context, c *http.Client, target string, body []byte, header http.Header) (retry bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return false, RedactURL(err)
	}
	for k, vs := range header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	req.Header.Set("Content-Type", "application/json")
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", "logmatch")
	}
	resp, err := c.Do(req)
	if err != nil {
		return Classify(nil, err)
	}
	defer func() {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		_ = resp.Body.Close()
	}()
	retry, err = Classify(resp, nil)
	var se *StatusError
	if errors.As(err, &se) {
		se.Body = scrubBody(se.Body, target, req.Header)
	}
	return retry, err
}

// MaxLoggedBody bounds the part of an error answer that reaches an error
// message once scrubbed: enough for Slack's "invalid_payload" or
// Alertmanager's reason, too little to carry a request echoed whole.
const MaxLoggedBody = 200

// scrubBody removes from an error answer what the request held that is
// secret, as a receiver that echoes its request puts it there: the
// target URL whole and in its parts (path, query, each query value, the
// user info) and every header value that was sent; any other URL is cut
// to SafeURL. The result is bounded by MaxLoggedBody.
func scrubBody(body, target string, header http.Header) string {
	if body == "" {
		return body
	}
	var secrets []string
	add := func(v string) {
		if len(v) >= 4 {
			secrets = append(secrets, v)
		}
	}
	add(target)
	if u, err := url.Parse(target); err == nil {
		if u.Path != "/" {
			add(u.RequestURI())
			add(u.EscapedPath())
			add(u.Path)
		}
		add(u.RawQuery)
		for _, vs := range u.Query() {
			for _, v := range vs {
				add(v)
				add(url.QueryEscape(v))
			}
		}
		if u.User != nil {
			add(u.User.String())
			if p, ok := u.User.Password(); ok {
				add(p)
			}
		}
	}
	for k, vs := range header {
		if k == "Content-Type" || k == "User-Agent" {
			continue
		}
		for _, v := range vs {
			add(v)
			if _, tok, ok := strings.Cut(v, " "); ok {
				add(tok) // "Bearer <token>" echoed as the token alone
			}
		}
	}
	// Longest first, so a part never leaves the rest of a longer secret.
	slices.SortFunc(secrets, func(a, b string) int { return len(b) - len(a) })
	for _, s := range secrets {
		body = strings.ReplaceAll(body, s, "[REDACTED]")
	}
	body = anyURL.ReplaceAllStringFunc(body, SafeURL)
	return TruncateEnd(body, MaxLoggedBody)
}

// anyURL finds http(s) URLs in an error answer.
var anyURL = regexp.MustCompile(`(?i)\bhttps?://[^\s"'<>]+`)
