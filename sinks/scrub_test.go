package sinks

import (
	"net/http"
	"strings"
	"testing"
)

// A receiver that echoes the request in its 4xx answer never puts the
// URL's secret parts or the headers sent into an error message.
func TestScrubBodyHidesTheRequestsSecrets(t *testing.T) {
	target := "https://hooks.example.com/services/T0/B0/Zq7PathSecret?token=Zq7QuerySecret"
	h := http.Header{"Authorization": {"Bearer Zq7HeaderSecret"}, "Content-Type": {"application/json"}}
	body := "bad request: POST /services/T0/B0/Zq7PathSecret?token=Zq7QuerySecret from " + target +
		" auth Zq7HeaderSecret elsewhere http://other.example/x?sig=Zq7Other " + strings.Repeat("x", 400)
	got := scrubBody(body, target, h)
	if strings.Contains(got, "Zq7") {
		t.Errorf("a secret is left: %q", got)
	}
	if !strings.HasPrefix(got, "bad request: POST [REDACTED]") {
		t.Errorf("the answer's words are lost: %q", got)
	}
	if len(got) > MaxLoggedBody {
		t.Errorf("%d bytes, want at most %d", len(got), MaxLoggedBody)
	}
}
