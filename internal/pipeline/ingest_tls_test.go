package pipeline

import (
	"crypto/tls"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/httpserve/tlstest"
)

// run with accept_tls_* serves its listener over TLS from the files the
// configuration names: the inputs require a client certificate the CA
// signed, probes and /metrics need none.
func TestRunAcceptMutualTLS(t *testing.T) {
	pki := tlstest.New(t)
	cfg := writeConfig(t, "accept_tls_cert_file: "+pki.CertFile+"\naccept_tls_key_file: "+pki.KeyFile+"\naccept_tls_client_ca_file: "+pki.CAFile+"\n")
	base, _, stop := startAccepting(t, nil, "--accept", "diagnose", "--config", cfg)
	defer stop()
	base = "https" + strings.TrimPrefix(base, "http")
	do := func(cert *tls.Certificate, method, path, body string) (int, string) {
		t.Helper()
		c := &http.Client{Transport: &http.Transport{TLSClientConfig: pki.ClientConfig(cert)}}
		defer c.CloseIdleConnections()
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "text/plain")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	log := "[2026-05-28 00:11:09 TP0] alpha failure in step 1\n"
	if code, body := do(&pki.Client, "POST", "/v1/diagnose", log); code != http.StatusOK || !strings.Contains(body, "record-a") {
		t.Fatalf("with a client certificate: %d %q", code, body)
	}
	if code, body := do(nil, "POST", "/v1/diagnose", log); code != http.StatusUnauthorized {
		t.Fatalf("without a client certificate: %d %q, want 401", code, body)
	}
	if code, body := do(nil, "GET", "/healthz", ""); code != http.StatusOK {
		t.Fatalf("probe without a client certificate: %d %q", code, body)
	}
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: pki.ClientConfig(&pki.Rogue)}}
	defer c.CloseIdleConnections()
	if resp, err := c.Post(base+"/v1/diagnose", "text/plain", strings.NewReader(log)); err == nil {
		resp.Body.Close()
		t.Fatalf("client certificate of another CA: %s, want the handshake refused", resp.Status)
	}
}
