package httpserve

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// server serves h on a loopback port with o until the test ends.
func server(t *testing.T, h http.Handler, o Options) string {
	t.Helper()
	addr, _ := watchedServer(t, h, o)
	return addr
}

// watchedServer is server, and also returns its connection pool.
func watchedServer(t *testing.T, h http.Handler, o Options) (string, *pool) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	watched := make(chan *pool, 1)
	go func() { done <- serve(ctx, ln, h, o, func(p *pool) { watched <- p }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String(), <-watched
}

// waitIdle returns once the server has seen n connections turn idle: a
// client reads its response before the server marks the connection idle.
func waitIdle(t *testing.T, p *pool, n int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for p.idle() < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections idle after a minute, want %d", p.idle(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// keepAlive opens a connection, makes one request on it and leaves it
// open and idle, as a keep-alive client between requests does.
func keepAlive(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("keep-alive request: %v", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return c
}

func ok(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") }

// A thousand idle keep-alive connections against a bound of 16: every
// new connection still gets an answer, because the idle ones make room.
func TestIdleConnectionsMakeRoomForNewOnes(t *testing.T) {
	var evicted atomic.Int64
	addr := server(t, http.HandlerFunc(ok), Options{MaxConns: 16, Evicted: func() { evicted.Add(1) }})
	for range 1000 {
		keepAlive(t, addr)
	}
	if n := evicted.Load(); n != 1000-16 {
		t.Errorf("%d connections closed for new ones, want %d", n, 1000-16)
	}
	for range 3 {
		resp, err := http.Get("http://" + addr + "/livez")
		if err != nil {
			t.Fatalf("probe with 1000 idle connections open: %v", err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || strings.TrimSpace(string(b)) != "ok" {
			t.Fatalf("probe: %d %q", resp.StatusCode, b)
		}
	}
}

// At the bound, the connection idle the longest is the one closed: the
// first of the idle ones, while the newest keeps working.
func TestTheLongestIdleIsClosedFirst(t *testing.T) {
	addr, p := watchedServer(t, http.HandlerFunc(ok), Options{MaxConns: 4})
	var conns []net.Conn
	for i := range 4 {
		conns = append(conns, keepAlive(t, addr))
		// Under load the server may mark a connection idle after its
		// client read the response: the order they turned idle in is
		// what the test is about.
		waitIdle(t, p, i+1)
	}
	keepAlive(t, addr) // the fifth displaces the first
	if _, err := conns[0].Read(make([]byte, 1)); err == nil {
		t.Fatal("the longest idle connection is still open")
	}
	fmt.Fprintf(conns[3], "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	if _, err := http.ReadResponse(bufio.NewReader(conns[3]), nil); err != nil {
		t.Errorf("the newest idle connection was closed: %v", err)
	}
}

// Connections in a request are never closed to make room: a new one
// waits until one of them ends.
func TestBusyConnectionsAreNotClosed(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 2)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			entered <- struct{}{}
			<-release
		}
		fmt.Fprintln(w, "ok")
	})
	addr := server(t, h, Options{MaxConns: 2})
	request := func(path string) <-chan error {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path)
		done := make(chan error, 1)
		go func() {
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err == nil {
				resp.Body.Close()
			}
			done <- err
		}()
		return done
	}
	slow := []<-chan error{request("/slow"), request("/slow")}
	<-entered
	<-entered
	probe := request("/livez")
	close(release)
	for _, s := range slow {
		if err := <-s; err != nil {
			t.Errorf("a request in progress was cut: %v", err)
		}
	}
	if err := <-probe; err != nil {
		t.Errorf("the request that waited for a slot: %v", err)
	}
}
