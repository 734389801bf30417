package ingest_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/snappy"

	"github.com/logmatch/logmatch/internal/ingest"
	"github.com/logmatch/logmatch/internal/ingest/pushtest"
)

var t0 = time.Date(2026, 5, 28, 0, 11, 9, 123456789, time.UTC)

func sample() []ingest.PushStream { return sampleN(0) }

// sampleN is sample with its times n nanoseconds later: another push of
// the same lines, not a retry of the first.
func sampleN(n int) []ingest.PushStream {
	t0 := t0.Add(time.Duration(n))
	return []ingest.PushStream{
		{Labels: []ingest.Label{{"container", "server"}, {"namespace", "ml"}, {"pod", "sglang-0"}},
			Entries: pushtest.Entries(t0, []string{"[2026-05-28 00:11:09 TP0] alpha", "Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nValueError: \"quoted\" \u00e9"})},
		{Labels: []ingest.Label{{"job", `we"ird\name`}}, Entries: pushtest.Entries(t0, []string{"one"})},
	}
}

// Both wire formats decode to the same streams: labels sorted, entries in
// order with their nanosecond times.
func TestDecodeLokiFormats(t *testing.T) {
	want := sample()
	for name, c := range map[string]struct {
		ct   string
		body []byte
	}{
		"protobuf":         {"application/x-protobuf", pushtest.Protobuf(want)},
		"protobuf default": {"", pushtest.Protobuf(want)},
		"json":             {"application/json; charset=utf-8", pushtest.JSON(want)},
	} {
		t.Run(name, func(t *testing.T) {
			h := http.Header{}
			h.Set("Content-Type", c.ct)
			got, err := ingest.DecodeLoki(h, c.body, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestParseLabels(t *testing.T) {
	good := map[string][]ingest.Label{
		`{a="1"}`:                     {{"a", "1"}},
		` { b = "2" , a="x\"y\\z" } `: {{"a", `x"y\z`}, {"b", "2"}},
		`{pod="p", namespace="n",}`:   {{"namespace", "n"}, {"pod", "p"}},
	}
	for in, want := range good {
		got, err := ingest.ParseLabels(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseLabels(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	bad := map[string]string{
		``:                  "want {",
		`{}`:                "no labels",
		`{a=1}`:             "double-quoted",
		`{a="1" b="2"}`:     "want , or }",
		`{1a="x"}`:          "bad label name",
		`{a="1", a="2"}`:    "given twice",
		`{a="unterminated}`: "double-quoted",
		`{a}`:               "without =",
	}
	for in, says := range bad {
		if _, err := ingest.ParseLabels(in); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("ParseLabels(%q) = %v, want an error saying %q", in, err, says)
		}
	}
}

// Malformed, oversized and hostile push bodies: each a 4xx that says why.
func TestDecodeLokiRefuses(t *testing.T) {
	const max = 4 << 10
	msg := pushtest.Message(sample())
	bomb := snappy.Encode(nil, bytes.Repeat([]byte{0}, 64*max))
	cases := []struct {
		name, ct string
		body     []byte
		status   int
		says     string
	}{
		{"not snappy", "application/x-protobuf", []byte("\xff\xff\xff\xff\xff\xff"), 400, "not snappy"},
		{"uncompressed protobuf", "application/x-protobuf", msg, 400, "snappy"},
		{"snappy bomb", "application/x-protobuf", bomb, 413, "decompressed body of 262144 bytes over 4096"},
		{"truncated protobuf", "application/x-protobuf", snappy.Encode(nil, msg[:len(msg)-3]), 400, "protobuf body"},
		{"wrong wire type", "application/x-protobuf", snappy.Encode(nil, []byte{0x08, 0x01}), 400, "wire type"},
		{"bad labels", "application/x-protobuf", snappy.Encode(nil, pushtest.Message([]ingest.PushStream{{Labels: []ingest.Label{{"a b", "x"}}}})), 400, "bad label name"},
		{"bad json", "application/json", []byte(`{"streams":[`), 400, "JSON body"},
		{"json no labels", "application/json", []byte(`{"streams":[{"stream":{},"values":[["1","x"]]}]}`), 400, "no labels"},
		{"json bad time", "application/json", []byte(`{"streams":[{"stream":{"a":"b"},"values":[["yesterday","x"]]}]}`), 400, "Unix nanoseconds"},
		{"json number time", "application/json", []byte(`{"streams":[{"stream":{"a":"b"},"values":[[1,"x"]]}]}`), 400, "as a string"},
		{"json short value", "application/json", []byte(`{"streams":[{"stream":{"a":"b"},"values":[["1"]]}]}`), 400, "got 1 items"},
		{"json bad label", "application/json", []byte(`{"streams":[{"stream":{"-":"b"},"values":[]}]}`), 400, "bad label name"},
		{"other type", "text/plain", []byte("x"), 415, "want application/x-protobuf"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{}
			h.Set("Content-Type", c.ct)
			_, err := ingest.DecodeLoki(h, c.body, max)
			e, ok := err.(*ingest.Error)
			if !ok || e.Status != c.status || !strings.Contains(e.Msg, c.says) {
				t.Fatalf("error %#v, want status %d saying %q", err, c.status, c.says)
			}
		})
	}
}

func push(h http.Handler, ct string, body []byte, hdr ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", "/loki/api/v1/push", bytes.NewReader(body))
	r.Header.Set("Content-Type", ct)
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// A push is answered only once run says its lines are committed: 204
// then, 503 (the shipper retries) when run reports a failure.
func TestReceiverAnswersAfterCommit(t *testing.T) {
	r := ingest.NewReceiver(ingest.PushOptions{MaxLineBytes: 1024})
	got := make(chan *ingest.Push, 1)
	go func() {
		p := <-r.Pushes()
		got <- p
		p.Done(nil)
	}()
	w := push(r, "application/x-protobuf", pushtest.Protobuf(sample()))
	if w.Code != http.StatusNoContent {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	p := <-got
	var texts []string
	for _, l := range p.Lines {
		texts = append(texts, l.Text)
	}
	want := []string{"[2026-05-28 00:11:09 TP0] alpha", "Traceback (most recent call last):", `  File "x.py", line 1, in <module>`, "ValueError: \"quoted\" \u00e9", "one"}
	if !reflect.DeepEqual(texts, want) {
		t.Fatalf("lines %q, want %q", texts, want)
	}
	first := p.Lines[0]
	if first.Source != `{container="server", namespace="ml", pod="sglang-0"}` || first.Pod.Name != "sglang-0" || first.Pod.Namespace != "ml" || first.Pod.Container != "server" {
		t.Errorf("identity: source %q pod %+v", first.Source, first.Pod)
	}
	if !first.Time.Equal(t0) {
		t.Errorf("time %v, want %v", first.Time, t0)
	}
	for i := 1; i < len(p.Lines); i++ {
		if p.Lines[i].Offset <= p.Lines[i-1].Offset {
			t.Fatalf("offsets not increasing: %d after %d", p.Lines[i].Offset, p.Lines[i-1].Offset)
		}
	}

	go func() { (<-r.Pushes()).Done(ingest.ErrClosed) }()
	if w := push(r, "application/json", pushtest.JSON(sampleN(1))); w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "not acknowledged") {
		t.Fatalf("a push run did not commit: status %d: %s", w.Code, w.Body)
	}
}

// A full queue answers 429 with Retry-After, counted, and /readyz's check
// says so; a closed receiver answers 503.
func TestReceiverBackpressure(t *testing.T) {
	rec := &counts{m: map[string]int{}}
	r := ingest.NewReceiver(ingest.PushOptions{Queue: 1, Observer: rec})
	done := make(chan int, 1)
	go func() { done <- push(r, "application/json", pushtest.JSON(sampleN(1))).Code }()
	p := <-r.Pushes() // the first push is with run
	// The second fills the queue; it is answered when closed below.
	second := make(chan int, 1)
	go func() { second <- push(r, "application/json", pushtest.JSON(sampleN(2))).Code }()
	for r.Ready() == "" {
		time.Sleep(time.Millisecond) // until the second push is queued
	}
	if why := r.Ready(); why != "queue full" {
		t.Fatalf("Ready = %q", why)
	}
	w := push(r, "application/json", pushtest.JSON(sampleN(3)))
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" {
		t.Fatalf("third push: status %d Retry-After %q: %s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	if rec.get("loki/busy") != 1 {
		t.Errorf("busy not counted: %v", rec.m)
	}
	p.Done(nil)
	if code := <-done; code != http.StatusNoContent {
		t.Errorf("first push: %d", code)
	}
	r.Close()
	if code := <-second; code != http.StatusServiceUnavailable {
		t.Errorf("queued push at close: %d, want 503", code)
	}
	if w := push(r, "application/json", pushtest.JSON(sampleN(4))); w.Code != http.StatusServiceUnavailable {
		t.Errorf("push after close: %d", w.Code)
	}
	if r.Ready() != "stopping" {
		t.Errorf("Ready after close = %q", r.Ready())
	}
}

// A stream over its rate bound is refused whole with 429; its burst
// refills with time (an injected clock), other streams are unaffected.
func TestReceiverRateBound(t *testing.T) {
	now := t0
	rec := &counts{m: map[string]int{}}
	r := ingest.NewReceiver(ingest.PushOptions{Rate: 1, Burst: 3, Observer: rec, Now: func() time.Time { return now }})
	go func() {
		for p := range r.Pushes() {
			p.Done(nil)
		}
	}()
	defer r.Close()
	s := func(job string, n int) []byte {
		return pushtest.JSON([]ingest.PushStream{{Labels: []ingest.Label{{"job", job}}, Entries: pushtest.Entries(t0, strings.Split(strings.Repeat("x,", n-1)+"x", ","))}})
	}
	if w := push(r, "application/json", s("a", 3)); w.Code != http.StatusNoContent {
		t.Fatalf("within the burst: %d %s", w.Code, w.Body)
	}
	if w := push(r, "application/json", s("a", 1)); w.Code != http.StatusTooManyRequests || !strings.Contains(w.Body.String(), `{job="a"}`) {
		t.Fatalf("over the bound: %d %s", w.Code, w.Body)
	}
	if w := push(r, "application/json", s("b", 2)); w.Code != http.StatusNoContent {
		t.Fatalf("another stream: %d %s", w.Code, w.Body)
	}
	now = now.Add(2 * time.Second)
	if w := push(r, "application/json", s("a", 2)); w.Code != http.StatusNoContent {
		t.Fatalf("after refill: %d %s", w.Code, w.Body)
	}
	if rec.get("loki/rate") != 1 {
		t.Errorf("rate refusals counted %d", rec.get("loki/rate"))
	}
}

// Requests refused before any decoding: too large, unknown encoding.
func TestReceiverRefusesEarly(t *testing.T) {
	r := ingest.NewReceiver(ingest.PushOptions{MaxBytes: 1024})
	if w := push(r, "application/json", bytes.Repeat([]byte("x"), 2048)); w.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized: %d", w.Code)
	}
	if w := push(r, "application/json", []byte("{}"), "Content-Encoding", "zstd"); w.Code != http.StatusUnsupportedMediaType {
		t.Errorf("zstd encoding: %d", w.Code)
	}
	// Nothing to commit: answered at once.
	if w := push(r, "application/json", []byte(`{"streams":[]}`)); w.Code != http.StatusNoContent {
		t.Errorf("empty push: %d", w.Code)
	}
}

type counts struct {
	mu sync.Mutex
	m  map[string]int
}

func (c *counts) Request(string)    {}
func (c *counts) Lines(string, int) {}
func (c *counts) Rejected(in, reason string) {
	c.mu.Lock()
	c.m[in+"/"+reason]++
	c.mu.Unlock()
}
func (c *counts) get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[k]
}

// A push of more lines than MaxPushLines is refused with 413, however
// they come: many entries, or one entry of many lines.
func TestReceiverLineBound(t *testing.T) {
	r := ingest.NewReceiver(ingest.PushOptions{})
	labels := []ingest.Label{{Name: "job", Value: "x"}}
	many := make([]string, ingest.MaxPushLines+1)
	for name, body := range map[string][]byte{
		"entries":   pushtest.JSON([]ingest.PushStream{{Labels: labels, Entries: pushtest.Entries(t0, many)}}),
		"one entry": pushtest.JSON([]ingest.PushStream{{Labels: labels, Entries: pushtest.Entries(t0, []string{strings.Repeat("\n", ingest.MaxPushLines+1)})}}),
		"protobuf":  pushtest.Protobuf([]ingest.PushStream{{Labels: labels, Entries: pushtest.Entries(t0, many)}}),
		"otlp":      pushtest.OTLP([]ingest.PushStream{{Labels: labels, Entries: pushtest.Entries(t0, many)}}, false),
	} {
		h := http.Handler(r)
		ct := "application/json"
		switch name {
		case "protobuf":
			ct = "application/x-protobuf"
		case "otlp":
			h, ct = r.OTLP(), "application/x-protobuf"
		}
		if w := push(h, ct, body); w.Code != http.StatusRequestEntityTooLarge || !strings.Contains(w.Body.String(), "more than 100000 lines") {
			t.Errorf("%s: status %d: %.200s", name, w.Code, w.Body)
		}
	}
}

// A push is known by its content: once committed, the same push again (a
// shipper's retry after a lost answer) is answered 204 without reaching
// run; while it is being committed, the same push is answered 429.
func TestPushRetryRecognised(t *testing.T) {
	r := ingest.NewReceiver(ingest.PushOptions{})
	srv := httptest.NewServer(r)
	defer srv.Close()
	body := pushtest.Protobuf(sample())
	post := func() int {
		resp, err := http.Post(srv.URL, "application/x-protobuf", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	first := make(chan int, 1)
	go func() { first <- post() }()
	p := <-r.Pushes()
	if code := post(); code != http.StatusTooManyRequests {
		t.Fatalf("the same push while the first is in flight: %d, want 429", code)
	}
	p.Done(nil)
	if code := <-first; code != http.StatusNoContent {
		t.Fatalf("first: %d", code)
	}
	if code := post(); code != http.StatusNoContent {
		t.Fatalf("retry: %d", code)
	}
	select {
	case p := <-r.Pushes():
		t.Fatalf("a committed push was handed on again: %d lines", len(p.Lines))
	default:
	}
	if keys := r.Keys(); len(keys) != 1 || keys[0] != p.Key {
		t.Fatalf("keys %x, want the push's", keys)
	}
	// Restored keys are recognised as committed.
	r2 := ingest.NewReceiver(ingest.PushOptions{})
	r2.RestoreKeys(r.Keys())
	srv2 := httptest.NewServer(r2)
	defer srv2.Close()
	resp, err := http.Post(srv2.URL, "application/x-protobuf", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || len(r2.Pushes()) != 0 {
		t.Fatalf("retry after a restart: %d, %d pushes queued", resp.StatusCode, len(r2.Pushes()))
	}
}
