// Package tlstest makes real certificates for tests of TLS listeners: a
// CA, a server certificate for loopback, a client certificate the CA
// signed and one from another CA, written as PEM files as a Kubernetes
// Secret would mount them.
package tlstest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// PKI is a set of certificates written under a test's directory.
type PKI struct {
	// CAFile is the CA bundle (PEM) that signed the server and the
	// trusted client certificates.
	CAFile string
	// CertFile and KeyFile are the server's, valid for 127.0.0.1, ::1 and
	// localhost.
	CertFile, KeyFile string
	// Client is a client certificate the CA signed; Rogue one signed by
	// another CA.
	Client, Rogue tls.Certificate
	// ClientCertFile and ClientKeyFile are Client as files (for a
	// shipper's configuration).
	ClientCertFile, ClientKeyFile string
	// Roots trust the CA, for a client's RootCAs.
	Roots *x509.CertPool
}

// New makes the certificates in a directory of t.
func New(t testing.TB) *PKI {
	t.Helper()
	dir := t.TempDir()
	ca, caKey := authority(t, "logmatch test CA")
	other, otherKey := authority(t, "another CA")
	p := &PKI{CAFile: filepath.Join(dir, "ca.pem"), CertFile: filepath.Join(dir, "server.pem"), KeyFile: filepath.Join(dir, "server-key.pem"),
		ClientCertFile: filepath.Join(dir, "client.pem"), ClientKeyFile: filepath.Join(dir, "client-key.pem"), Roots: x509.NewCertPool()}
	p.Roots.AddCert(ca)
	write(t, p.CAFile, "CERTIFICATE", ca.Raw)
	serverDER, serverKey := leaf(t, ca, caKey, "logmatch", x509.ExtKeyUsageServerAuth)
	write(t, p.CertFile, "CERTIFICATE", serverDER)
	write(t, p.KeyFile, "PRIVATE KEY", marshalKey(t, serverKey))
	clientDER, clientKey := leaf(t, ca, caKey, "shipper", x509.ExtKeyUsageClientAuth)
	write(t, p.ClientCertFile, "CERTIFICATE", clientDER)
	write(t, p.ClientKeyFile, "PRIVATE KEY", marshalKey(t, clientKey))
	p.Client = tls.Certificate{Certificate: [][]byte{clientDER}, PrivateKey: clientKey}
	rogueDER, rogueKey := leaf(t, other, otherKey, "shipper", x509.ExtKeyUsageClientAuth)
	p.Rogue = tls.Certificate{Certificate: [][]byte{rogueDER}, PrivateKey: rogueKey}
	return p
}

// ClientConfig is a client's TLS configuration trusting the CA and
// presenting cert whatever CAs the server asks for (nil presents none).
func (p *PKI) ClientConfig(cert *tls.Certificate) *tls.Config {
	c := &tls.Config{RootCAs: p.Roots, MinVersion: tls.VersionTLS12}
	if cert != nil {
		c.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return cert, nil }
	}
	return c
}

func serial(t testing.TB) *big.Int {
	t.Helper()
	n, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func authority(t testing.TB, name string) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key := newKey(t)
	tmpl := &x509.Certificate{
		SerialNumber: serial(t), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert, key
}

func leaf(t testing.TB, ca *x509.Certificate, caKey *ecdsa.PrivateKey, name string, usage x509.ExtKeyUsage) ([]byte, *ecdsa.PrivateKey) {
	t.Helper()
	key := newKey(t)
	tmpl := &x509.Certificate{
		SerialNumber: serial(t), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("::1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	return der, key
}

func newKey(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func marshalKey(t testing.TB, key *ecdsa.PrivateKey) []byte {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

func write(t testing.TB, path, kind string, der []byte) {
	t.Helper()
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
}
