package ingest_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/logmatch/logmatch/internal/ingest"
	"github.com/logmatch/logmatch/internal/ingest/pushtest"
)

// The gRPC LogsService on loopback: a call is answered once run commits
// it; a wrong token, an oversized message, a full queue and a stopping
// receiver get the codes OTLP exporters act on.
func TestOTLPGRPC(t *testing.T) {
	rec := &counts{m: map[string]int{}}
	r := ingest.NewReceiver(ingest.PushOptions{MaxBytes: 64 << 10, Queue: 1, Observer: rec})
	s := r.NewOTLPGRPC(ingest.Auth{Token: "s3cret"}, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.Serve(ln) }()
	defer s.Stop()
	conn, err := grpc.NewClient(ln.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := collogs.NewLogsServiceClient(conn)
	req := func(lines ...string) *collogs.ExportLogsServiceRequest {
		var m collogs.ExportLogsServiceRequest
		if err := proto.Unmarshal(pushtest.OTLP([]ingest.PushStream{{Labels: []ingest.Label{{Name: "k8s_pod_name", Value: "p"}}, Entries: pushtest.Entries(t0, lines)}}, false), &m); err != nil {
			t.Fatal(err)
		}
		return &m
	}
	authed := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer s3cret")
	code := func(err error) codes.Code { return status.Code(err) }

	if _, err := c.Export(context.Background(), req("x")); code(err) != codes.Unauthenticated || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("without the token: %v", err)
	}
	go func() { (<-r.Pushes()).Done(nil) }()
	if _, err := c.Export(authed, req("line one", "line two")); err != nil {
		t.Fatalf("export: %v", err)
	}
	if _, err := c.Export(authed, req(strings.Repeat("x", 80<<10))); code(err) != codes.ResourceExhausted {
		t.Fatalf("oversized message: %v", err)
	}
	// One push with run, none acknowledged: the queue (1) fills.
	taken := make(chan *ingest.Push, 1)
	go func() { taken <- <-r.Pushes() }()
	first := make(chan error, 1)
	go func() { _, err := c.Export(authed, req("a")); first <- err }()
	p := <-taken
	second := make(chan error, 1)
	go func() { _, err := c.Export(authed, req("b")); second <- err }()
	for r.Ready() == "" {
		time.Sleep(time.Millisecond) // until the second call is queued
	}
	if _, err := c.Export(authed, req("c")); code(err) != codes.Unavailable || !strings.Contains(err.Error(), "busy") {
		t.Fatalf("full queue: %v", err)
	}
	p.Done(nil)
	if err := <-first; err != nil {
		t.Fatalf("first: %v", err)
	}
	r.Close()
	if err := <-second; code(err) != codes.Unavailable {
		t.Fatalf("queued at close: %v", err)
	}
	if _, err := c.Export(authed, req("d")); code(err) != codes.Unavailable {
		t.Fatalf("after close: %v", err)
	}
	if rec.get("otlp/unauthorized") != 1 || rec.get("otlp/busy") != 1 {
		t.Errorf("refusals counted: %v", rec.m)
	}
}

// LimitListener holds the second connection until the first closes.
func TestLimitListener(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := ingest.LimitListener(raw, 1)
	defer ln.Close()
	accepted := make(chan net.Conn, 2)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	for range 2 {
		c, err := net.Dial("tcp", raw.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	first := <-accepted
	select {
	case <-accepted:
		t.Fatal("a second connection was accepted while the first is open")
	case <-time.After(100 * time.Millisecond):
	}
	first.Close()
	(<-accepted).Close()
}
