package ingest_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"reflect"
	"strings"
	"testing"

	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/logmatch/logmatch/internal/httpserve"
	"github.com/logmatch/logmatch/internal/httpserve/tlstest"
	"github.com/logmatch/logmatch/internal/ingest"
	"github.com/logmatch/logmatch/internal/ingest/pushtest"
	"github.com/logmatch/logmatch/internal/source"
)

// ack answers every push the receiver hands on, as run does once the
// lines are committed.
func ack(t *testing.T, r *ingest.Receiver) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() {
		for {
			select {
			case p := <-r.Pushes():
				p.Done(nil)
			case <-ctx.Done():
				return
			}
		}
	}()
}

// Loki pushes over mTLS on a real listener: a client certificate the CA
// signed is let in; none at all is refused by the input (401) while the
// listener's other paths still answer; one from another CA never gets
// past the handshake.
func TestLokiPushMutualTLS(t *testing.T) {
	pki := tlstest.New(t)
	cfg, err := httpserve.TLSFiles{CertFile: pki.CertFile, KeyFile: pki.KeyFile, ClientCAFile: pki.CAFile}.Config(tls.VerifyClientCertIfGiven, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := &counts{m: map[string]int{}}
	r := ingest.NewReceiver(ingest.PushOptions{Observer: rec})
	ack(t, r)
	mux := http.NewServeMux()
	mux.Handle("POST /loki/api/v1/push", ingest.Authenticate(ingest.Auth{ClientCert: true}, ingest.InputLoki, rec, r))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- httpserve.Serve(ctx, ln, mux, httpserve.Options{TLS: cfg}) }()
	t.Cleanup(func() { cancel(); <-served })
	url := "https://" + ln.Addr().String()
	body := pushtest.Protobuf(sample())
	push := func(cert *tls.Certificate) (int, string, error) {
		c := &http.Client{Transport: &http.Transport{TLSClientConfig: pki.ClientConfig(cert)}}
		defer c.CloseIdleConnections()
		resp, err := c.Post(url+"/loki/api/v1/push", "application/x-protobuf", bytes.NewReader(body))
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), nil
	}
	if code, msg, err := push(&pki.Client); err != nil || code != http.StatusNoContent {
		t.Fatalf("trusted client certificate: %d %q %v", code, msg, err)
	}
	code, msg, err := push(nil)
	if err != nil || code != http.StatusUnauthorized || !strings.Contains(msg, "client certificate") {
		t.Fatalf("no client certificate: %d %q %v", code, msg, err)
	}
	if rec.get("loki/unauthorized") != 1 {
		t.Errorf("refusal not counted: %v", rec.m)
	}
	if code, msg, err := push(&pki.Rogue); err == nil {
		t.Fatalf("client certificate of another CA: %d %q, want the handshake refused", code, msg)
	}
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: pki.ClientConfig(nil)}}
	defer c.CloseIdleConnections()
	resp, err := c.Get(url + "/healthz")
	if err != nil {
		t.Fatalf("a probe without a client certificate: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("probe: %s", resp.Status)
	}
}

// OTLP over gRPC with mTLS: only a client with a certificate the CA
// signed gets an export through; the listener serves nothing else, so
// the handshake itself refuses the others.
func TestOTLPGRPCMutualTLS(t *testing.T) {
	pki := tlstest.New(t)
	cfg, err := httpserve.TLSFiles{CertFile: pki.CertFile, KeyFile: pki.KeyFile, ClientCAFile: pki.CAFile}.Config(tls.RequireAndVerifyClientCert, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := ingest.NewReceiver(ingest.PushOptions{})
	ack(t, r)
	s := r.NewOTLPGRPC(ingest.Auth{ClientCert: true}, cfg)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.Serve(ln) }()
	defer s.Stop()
	var req collogs.ExportLogsServiceRequest
	if err := proto.Unmarshal(pushtest.OTLP(sample(), false), &req); err != nil {
		t.Fatal(err)
	}
	export := func(c *tls.Config) error {
		conn, err := grpc.NewClient(ln.Addr().String(), grpc.WithTransportCredentials(credentials.NewTLS(c)))
		if err != nil {
			return err
		}
		defer conn.Close()
		_, err = collogs.NewLogsServiceClient(conn).Export(context.Background(), &req)
		return err
	}
	if err := export(pki.ClientConfig(&pki.Client)); err != nil {
		t.Fatalf("trusted client certificate: %v", err)
	}
	for name, cert := range map[string]*tls.Certificate{"no client certificate": nil, "client certificate of another CA": &pki.Rogue} {
		if err := export(pki.ClientConfig(cert)); status.Code(err) != codes.Unavailable {
			t.Errorf("%s: %v, want the connection refused (Unavailable)", name, err)
		}
	}
	// Plain gRPC on the TLS port gets nowhere either.
	if err := export(nil); err == nil {
		t.Error("a client without TLS was served")
	}
}

// The label map names a stream by its identity labels: a label outside it
// (the file name Promtail adds, which changes when the container
// restarts) leaves one stream one stream; configured extra labels tell
// apart pods of the same name; a stream without identity labels is named
// by all of them.
func TestLabelMapIdentity(t *testing.T) {
	m := ingest.LabelMap{
		Pod: []string{"pod", "k8s_pod_name"}, Namespace: []string{"namespace", "k8s_namespace_name"},
		Container: []string{"container"}, Extra: []string{"cluster", "k8s.cluster.name"},
	}
	for _, c := range []struct {
		name   string
		labels []ingest.Label
		want   string
		pod    source.Pod
	}{
		{"promtail", []ingest.Label{{"container", "c"}, {"filename", "/var/log/pods/ml_p_1/c/0.log"}, {"job", "x"}, {"namespace", "ml"}, {"pod", "p"}},
			`{container="c", namespace="ml", pod="p"}`, source.Pod{Namespace: "ml", Name: "p", Container: "c"}},
		{"after a restart", []ingest.Label{{"container", "c"}, {"filename", "/var/log/pods/ml_p_1/c/1.log"}, {"job", "x"}, {"namespace", "ml"}, {"pod", "p"}},
			`{container="c", namespace="ml", pod="p"}`, source.Pod{Namespace: "ml", Name: "p", Container: "c"}},
		{"extra label", []ingest.Label{{"cluster", "east"}, {"container", "c"}, {"namespace", "ml"}, {"pod", "p"}},
			`{cluster="east", container="c", namespace="ml", pod="p"}`, source.Pod{Namespace: "ml", Name: "p", Container: "c"}},
		{"OTLP attributes", []ingest.Label{{"k8s_cluster_name", "west"}, {"k8s_namespace_name", "ml"}, {"k8s_pod_name", "p"}, {"service_name", "s"}},
			`{k8s_cluster_name="west", k8s_namespace_name="ml", k8s_pod_name="p"}`, source.Pod{Namespace: "ml", Name: "p"}},
		{"first of a list wins", []ingest.Label{{"k8s_pod_name", "q"}, {"pod", "p"}},
			`{pod="p"}`, source.Pod{Name: "p"}},
		{"no identity label", []ingest.Label{{"host", "h"}, {"job", "j"}},
			`{host="h", job="j"}`, source.Pod{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			name, pod := m.Identity(c.labels)
			if name != c.want || !reflect.DeepEqual(pod, c.pod) {
				t.Errorf("got %s %+v, want %s %+v", name, pod, c.want, c.pod)
			}
		})
	}
}
