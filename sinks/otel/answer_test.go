package otel

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	collogspb "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	"google.golang.org/protobuf/proto"
)

// A 2xx answer is the receiver's acceptance, whatever its body says: a
// proxy's HTML page, garbage, or a response cut short under a protobuf
// Content-Type. Calling it a failure would log the alert as rejected for
// good and count it dropped though the receiver has it (or, were it
// retried, send it twice). Only a partial success that names the record
// rejected is a failure.
func TestTwoHundredWithABrokenBodyIsDelivery(t *testing.T) {
	rejected, err := proto.Marshal(&collogspb.ExportLogsServiceResponse{
		PartialSuccess: &collogspb.ExportLogsPartialSuccess{RejectedLogRecords: 1, ErrorMessage: "record too old"},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name        string
		code        int
		body        string
		wantErr     bool
		wantRetry   bool
		contentType string
	}{
		{name: "garbage", code: http.StatusOK, body: "garbage\xff\x00\x01", contentType: "application/x-protobuf"},
		{name: "html page", code: http.StatusOK, body: "<html>accepted</html>", contentType: "application/x-protobuf"},
		{name: "202 garbage", code: http.StatusAccepted, body: "\x0a\xff\xff\xff", contentType: "application/x-protobuf"},
		{name: "partial success rejecting the record", code: http.StatusOK, body: string(rejected), contentType: "application/x-protobuf", wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", tc.contentType)
				w.WriteHeader(tc.code)
				_, _ = io.WriteString(w, tc.body)
			}))
			defer srv.Close()
			s, err := New(context.Background(), Config{Endpoint: srv.URL, Protocol: ProtocolHTTPProtobuf, Insecure: true, Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = s.Shutdown(context.Background()) }()
			retry, err := s.Send(context.Background(), testAlert())
			if (err != nil) != tc.wantErr || retry != tc.wantRetry {
				t.Errorf("Send after %d %q: retry %v, err %v; want error %v, retry %v", tc.code, tc.body, retry, err, tc.wantErr, tc.wantRetry)
			}
		})
	}
}
