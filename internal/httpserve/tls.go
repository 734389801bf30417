package httpserve

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// TLSFiles name the files of a TLS listener: its certificate chain and
// key (PEM), and optionally a bundle of CA certificates (PEM) that client
// certificates are verified against. Kubernetes mounts a Secret as such
// files and replaces them when the certificate is renewed.
type TLSFiles struct {
	// CertFile and KeyFile are the server's certificate chain and its
	// private key. Both are required.
	CertFile, KeyFile string
	// ClientCAFile, when set, is the CA bundle client certificates must
	// chain to. How a missing client certificate is treated is the
	// ClientAuth given to Config.
	ClientCAFile string
}

// reloadCheck is how often a handshake looks whether the files changed
// (a variable for tests).
var reloadCheck = 5 * time.Second

// Config loads the files and returns a TLS server configuration (TLS 1.2
// or later) that verifies client certificates with auth when
// ClientCAFile is set. Handshakes take the files again once they change
// (checked at most every few seconds), so a renewed certificate needs no
// restart; files that fail to load then leave the previous ones in use,
// and the failure goes to onReloadErr (nil ignores it). The errors name
// the file that is wrong.
func (f TLSFiles) Config(auth tls.ClientAuthType, onReloadErr func(error)) (*tls.Config, error) {
	if f.CertFile == "" || f.KeyFile == "" {
		return nil, errors.New("a certificate and its key are both required")
	}
	r := &reloader{files: f, auth: auth, onErr: onReloadErr}
	cfg, stamp, err := r.load()
	if err != nil {
		return nil, err
	}
	r.cfg, r.stamp, r.checked = cfg, stamp, time.Now()
	return &tls.Config{
		MinVersion:         tls.VersionTLS12,
		GetConfigForClient: func(*tls.ClientHelloInfo) (*tls.Config, error) { return r.current(), nil },
	}, nil
}

// reloader holds the configuration loaded from the files and loads it
// again when one of them changes.
type reloader struct {
	files TLSFiles
	auth  tls.ClientAuthType
	onErr func(error)

	mu      sync.Mutex
	cfg     *tls.Config
	stamp   string // the files' sizes and modification times when loaded
	checked time.Time
}

func (r *reloader) current() *tls.Config {
	r.mu.Lock()
	defer r.mu.Unlock()
	if time.Since(r.checked) < reloadCheck {
		return r.cfg
	}
	r.checked = time.Now()
	if r.files.stamp() == r.stamp {
		return r.cfg
	}
	cfg, stamp, err := r.load()
	if err != nil {
		if r.onErr != nil {
			r.onErr(err)
		}
		// Not tried again until a file changes once more.
		r.stamp = r.files.stamp()
		return r.cfg
	}
	r.cfg, r.stamp = cfg, stamp
	return r.cfg
}

// load reads the files into a configuration.
func (r *reloader) load() (*tls.Config, string, error) {
	f := r.files
	stamp := f.stamp()
	cert, err := tls.LoadX509KeyPair(f.CertFile, f.KeyFile)
	if err != nil {
		return nil, "", fmt.Errorf("certificate %s, key %s: %w", f.CertFile, f.KeyFile, err)
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}}
	if f.ClientCAFile != "" {
		pem, err := os.ReadFile(f.ClientCAFile)
		if err != nil {
			return nil, "", fmt.Errorf("client CA bundle: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, "", fmt.Errorf("client CA bundle %s: no PEM certificate in it", f.ClientCAFile)
		}
		cfg.ClientCAs, cfg.ClientAuth = pool, r.auth
	}
	return cfg, stamp, nil
}

// stamp tells whether the files changed: their sizes and modification
// times (a Secret's update replaces the files through a symlink swap).
func (f TLSFiles) stamp() string {
	s := ""
	for _, p := range []string{f.CertFile, f.KeyFile, f.ClientCAFile} {
		if p == "" {
			continue
		}
		if fi, err := os.Stat(p); err == nil {
			s += fmt.Sprintf("%d/%d;", fi.Size(), fi.ModTime().UnixNano())
		} else {
			s += "?;"
		}
	}
	return s
}
