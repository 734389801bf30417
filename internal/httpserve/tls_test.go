package httpserve

import (
	"crypto/tls"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/httpserve/tlstest"
)

// whoServer serves HTTPS on loopback with cfg, answering with the common
// name of the verified client certificate ("none" without one).
func whoServer(t *testing.T, cfg *tls.Config) string {
	t.Helper()
	return server(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS == nil {
			http.Error(w, "plain HTTP", http.StatusBadRequest)
			return
		}
		if len(r.TLS.VerifiedChains) == 0 {
			io.WriteString(w, "none")
			return
		}
		io.WriteString(w, r.TLS.VerifiedChains[0][0].Subject.CommonName)
	}), Options{TLS: cfg})
}

func get(c *tls.Config, addr string) (string, error) {
	cl := &http.Client{Transport: &http.Transport{TLSClientConfig: c}}
	defer cl.CloseIdleConnections()
	resp, err := cl.Get("https://" + addr + "/")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// A listener with a client CA: a client certificate the CA signed is
// verified, none at all is let through to the handler (probes and
// scrapes carry none; the inputs refuse it), and one from another CA
// fails the handshake.
func TestTLSClientCertificates(t *testing.T) {
	pki := tlstest.New(t)
	cfg, err := TLSFiles{CertFile: pki.CertFile, KeyFile: pki.KeyFile, ClientCAFile: pki.CAFile}.Config(tls.VerifyClientCertIfGiven, nil)
	if err != nil {
		t.Fatal(err)
	}
	addr := whoServer(t, cfg)
	for _, c := range []struct {
		name    string
		cert    *tls.Certificate
		want    string
		refused bool
	}{
		{"trusted client certificate", &pki.Client, "shipper", false},
		{"no client certificate", nil, "none", false},
		{"client certificate of another CA", &pki.Rogue, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := get(pki.ClientConfig(c.cert), addr)
			if c.refused {
				if err == nil {
					t.Fatalf("served %q, want the handshake refused", got)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
	// Plain HTTP on the TLS port is not served.
	if resp, err := http.Get("http://" + addr + "/"); err == nil {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Fatalf("plain HTTP served: %q", b)
		}
	}
}

// A renewed certificate (the files replaced, as a Secret update does) is
// served without a restart; files that do not load keep the old one.
func TestTLSReload(t *testing.T) {
	old := reloadCheck
	reloadCheck = 0
	t.Cleanup(func() { reloadCheck = old })
	first, second := tlstest.New(t), tlstest.New(t)
	dir := t.TempDir()
	files := TLSFiles{CertFile: dir + "/tls.crt", KeyFile: dir + "/tls.key"}
	copyFile(t, first.CertFile, files.CertFile)
	copyFile(t, first.KeyFile, files.KeyFile)
	reloadErrs := make(chan error, 10)
	cfg, err := files.Config(tls.NoClientCert, func(err error) { reloadErrs <- err })
	if err != nil {
		t.Fatal(err)
	}
	addr := whoServer(t, cfg)
	if _, err := get(first.ClientConfig(nil), addr); err != nil {
		t.Fatalf("first certificate: %v", err)
	}
	copyFile(t, second.CertFile, files.CertFile)
	copyFile(t, second.KeyFile, files.KeyFile)
	if _, err := get(second.ClientConfig(nil), addr); err != nil {
		t.Fatalf("renewed certificate not served: %v", err)
	}
	if err := os.WriteFile(files.KeyFile, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := get(second.ClientConfig(nil), addr); err != nil {
		t.Fatalf("a broken key file must leave the renewed certificate in use: %v", err)
	}
	if err := <-reloadErrs; !strings.Contains(err.Error(), files.KeyFile) {
		t.Fatalf("reload error %v, want one naming %s", err, files.KeyFile)
	}
	if len(reloadErrs) != 0 {
		t.Fatalf("the broken files were loaded again: %v", <-reloadErrs)
	}
}

// Files that do not load are refused at start, naming the file.
func TestTLSConfigErrors(t *testing.T) {
	pki := tlstest.New(t)
	dir := t.TempDir()
	junk := dir + "/junk.pem"
	if err := os.WriteFile(junk, []byte("junk"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		files TLSFiles
		want  string
	}{
		{"no key", TLSFiles{CertFile: pki.CertFile}, "both required"},
		{"missing certificate", TLSFiles{CertFile: dir + "/nope.pem", KeyFile: pki.KeyFile}, dir + "/nope.pem"},
		{"key of another certificate", TLSFiles{CertFile: pki.CertFile, KeyFile: pki.ClientKeyFile}, pki.ClientKeyFile},
		{"CA bundle without a certificate", TLSFiles{CertFile: pki.CertFile, KeyFile: pki.KeyFile, ClientCAFile: junk}, junk},
		{"missing CA bundle", TLSFiles{CertFile: pki.CertFile, KeyFile: pki.KeyFile, ClientCAFile: dir + "/ca.pem"}, dir + "/ca.pem"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.files.Config(tls.RequireAndVerifyClientCert, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want one naming %q", err, c.want)
			}
		})
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	// Written aside and renamed, as the kubelet swaps a Secret's files.
	if err := os.WriteFile(to+".new", b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(to+".new", to); err != nil {
		t.Fatal(err)
	}
}
