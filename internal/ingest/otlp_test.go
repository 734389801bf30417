package ingest_test

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	common "go.opentelemetry.io/proto/otlp/common/v1"
	logs "go.opentelemetry.io/proto/otlp/logs/v1"
	resource "go.opentelemetry.io/proto/otlp/resource/v1"

	"github.com/logmatch/logmatch/internal/ingest"
	"github.com/logmatch/logmatch/internal/ingest/pushtest"
)

func str(k, v string) *common.KeyValue {
	return &common.KeyValue{Key: k, Value: &common.AnyValue{Value: &common.AnyValue_StringValue{StringValue: v}}}
}

func decodeOTLP(t *testing.T, ct string, body []byte) ([]ingest.PushStream, error) {
	t.Helper()
	h := http.Header{}
	h.Set("Content-Type", ct)
	return ingest.DecodeOTLP(h, body, 1<<20)
}

// Both OTLP encodings decode to the streams the resource attributes name.
func TestDecodeOTLPFormats(t *testing.T) {
	want := []ingest.PushStream{{
		Labels:  []ingest.Label{{"k8s_namespace_name", "ml"}, {"k8s_pod_name", "sglang-0"}, {"service_name", "sglang"}},
		Entries: pushtest.Entries(t0, []string{"[2026-05-28 00:11:09 TP0] alpha", "Traceback (most recent call last):\nValueError: x"}),
	}}
	for _, json := range []bool{false, true} {
		ct := map[bool]string{false: "application/x-protobuf", true: "application/json"}[json]
		got, err := decodeOTLP(t, ct, pushtest.OTLP(want, json))
		if err != nil {
			t.Fatalf("%s: %v", ct, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", ct, got, want)
		}
	}
}

// Resource attributes other than the identity ones do not name the
// stream; a record's file and iostream split it; bodies that are not text
// are left out.
func TestDecodeOTLPIdentity(t *testing.T) {
	req := &collogs.ExportLogsServiceRequest{ResourceLogs: []*logs.ResourceLogs{{
		Resource: &resource.Resource{Attributes: []*common.KeyValue{str("k8s.pod.name", "p"), str("process.pid", "42")}},
		ScopeLogs: []*logs.ScopeLogs{{LogRecords: []*logs.LogRecord{
			{Body: &common.AnyValue{Value: &common.AnyValue_StringValue{StringValue: "out line"}}, Attributes: []*common.KeyValue{str("log.iostream", "stdout")}, ObservedTimeUnixNano: uint64(t0.UnixNano())},
			{Body: &common.AnyValue{Value: &common.AnyValue_StringValue{StringValue: "err line"}}, Attributes: []*common.KeyValue{str("log.iostream", "stderr")}},
			{Body: &common.AnyValue{Value: &common.AnyValue_KvlistValue{KvlistValue: &common.KeyValueList{}}}},
			{Body: &common.AnyValue{Value: &common.AnyValue_IntValue{IntValue: 7}}, Attributes: []*common.KeyValue{str("log.iostream", "stdout")}},
		}}},
	}}}
	b, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeOTLP(t, "application/x-protobuf", b)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range got {
		var lines []string
		for _, e := range s.Entries {
			lines = append(lines, e.Line)
		}
		names = append(names, ingest.LabelString(s.Labels)+" "+strings.Join(lines, "|"))
	}
	want := []string{`{k8s_pod_name="p", stream="stdout"} out line|7`, `{k8s_pod_name="p", stream="stderr"} err line`}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("streams %q, want %q", names, want)
	}
	if !got[0].Entries[0].Time.Equal(t0) {
		t.Errorf("observed time not used: %v", got[0].Entries[0].Time)
	}
}

func TestDecodeOTLPRefuses(t *testing.T) {
	for _, c := range []struct {
		name, ct string
		body     string
		status   int
		says     string
	}{
		{"bad protobuf", "application/x-protobuf", "\x0a\xff\xff", 400, "protobuf body"},
		{"bad json", "application/json", `{"resourceLogs":`, 400, "JSON body"},
		{"json wrong type", "application/json", `{"resourceLogs":"x"}`, 400, "JSON body"},
		{"no type", "", "x", 415, "Content-Type"},
		{"text", "text/plain", "x", 415, "want application/x-protobuf or application/json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := decodeOTLP(t, c.ct, []byte(c.body))
			var e *ingest.Error
			if !errors.As(err, &e) || e.Status != c.status || !strings.Contains(e.Msg, c.says) {
				t.Fatalf("error %v, want %d saying %q", err, c.status, c.says)
			}
		})
	}
}

// FuzzDecodeOTLP: arbitrary bodies, protobuf and JSON, never panic, are
// refused with a 4xx *Error or decode to labelled streams.
func FuzzDecodeOTLP(f *testing.F) {
	s := []ingest.PushStream{{Labels: []ingest.Label{{"k8s_pod_name", "p"}}, Entries: pushtest.Entries(t0, []string{"a", "b\nc"})}}
	f.Add(pushtest.OTLP(s, false))
	f.Add(pushtest.OTLP(s, true))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, ct := range []string{"application/x-protobuf", "application/json"} {
			got, err := decodeOTLP(t, ct, b)
			if err != nil {
				var e *ingest.Error
				if !errors.As(err, &e) || e.Status/100 != 4 {
					t.Fatalf("%s: refusal %v is not a 4xx *Error", ct, err)
				}
				continue
			}
			for _, s := range got {
				if _, err := ingest.ParseLabels(ingest.LabelString(s.Labels)); err != nil {
					t.Fatalf("%s: stream labels %v: %v", ct, s.Labels, err)
				}
			}
		}
	})
}

// An OTLP record may come without a time: two identical pushes of such
// records are two events, never taken for a retry.
func TestOTLPUntimedPushesAreNotRetries(t *testing.T) {
	r := ingest.NewReceiver(ingest.PushOptions{})
	srv := httptest.NewServer(r.OTLP())
	defer srv.Close()
	req := &collogs.ExportLogsServiceRequest{ResourceLogs: []*logs.ResourceLogs{{
		Resource: &resource.Resource{Attributes: []*common.KeyValue{str("k8s.pod.name", "p")}},
		ScopeLogs: []*logs.ScopeLogs{{LogRecords: []*logs.LogRecord{
			{Body: &common.AnyValue{Value: &common.AnyValue_StringValue{StringValue: "same line"}}},
		}}},
	}}}
	b, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		done := make(chan int, 1)
		go func() {
			resp, err := http.Post(srv.URL, "application/x-protobuf", bytes.NewReader(b))
			if err != nil {
				done <- 0
				return
			}
			resp.Body.Close()
			done <- resp.StatusCode
		}()
		p := <-r.Pushes()
		if p.Key != (ingest.PushKey{}) {
			t.Fatalf("push %d keyed %x", i, p.Key)
		}
		p.Done(nil)
		if code := <-done; code != http.StatusOK {
			t.Fatalf("push %d: %d", i, code)
		}
	}
}
