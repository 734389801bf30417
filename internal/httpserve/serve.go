package httpserve

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"sync"
	"time"
)

// Defaults of Options.
const (
	DefaultMaxConns          = 64
	DefaultReadHeaderTimeout = 5 * time.Second
	DefaultReadTimeout       = 10 * time.Second
	DefaultWriteTimeout      = 30 * time.Second
	DefaultIdleTimeout       = 30 * time.Second
	shutdownGrace            = 2 * time.Second
)

// Options bound the server; a zero field takes its default.
type Options struct {
	// MaxConns bounds the connections held open at once.
	MaxConns int
	// ReadHeaderTimeout bounds reading a request's header, ReadTimeout
	// the whole request, WriteTimeout the response.
	ReadHeaderTimeout, ReadTimeout, WriteTimeout time.Duration
	// IdleTimeout closes a keep-alive connection idle this long.
	IdleTimeout time.Duration
	// Evicted, when set, is called once for every connection closed to
	// make room for a new one (a metric, a log line).
	Evicted func()
	// ErrorLog receives the server's own errors (a failing Accept, a
	// handler's panic); nil is the standard logger.
	ErrorLog *log.Logger
	// TLS, when set, serves HTTPS (HTTP/1.1) with it (see TLSFiles).
	TLS *tls.Config
}

func (o Options) withDefaults() Options {
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.ReadHeaderTimeout <= 0 {
		o.ReadHeaderTimeout = DefaultReadHeaderTimeout
	}
	if o.ReadTimeout <= 0 {
		o.ReadTimeout = DefaultReadTimeout
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	return o
}

// Serve serves h on ln until ctx ends, then shuts down (requests in
// flight get a short grace) and returns nil; a failing listener returns
// its error.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, o Options) error {
	return serve(ctx, ln, h, o, nil)
}

// serve is Serve; watch, when set, is given the connection pool before
// the server starts (tests wait on the states it keeps).
func serve(ctx context.Context, ln net.Listener, h http.Handler, o Options, watch func(*pool)) error {
	o = o.withDefaults()
	pool := newPool(ln, o.MaxConns, o.Evicted)
	if watch != nil {
		watch(pool)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: o.ReadHeaderTimeout,
		ReadTimeout:       o.ReadTimeout,
		WriteTimeout:      o.WriteTimeout,
		IdleTimeout:       o.IdleTimeout,
		MaxHeaderBytes:    16 << 10,
		ConnState:         pool.connState,
		ErrorLog:          o.ErrorLog,
	}
	var served net.Listener = pool
	if o.TLS != nil {
		// The handshake runs on the connection's own goroutine, inside
		// ReadTimeout: a client that never finishes it holds a slot of
		// the pool only as long as one that never sends a request.
		served = tls.NewListener(pool, o.TLS)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(served) }()
	select {
	case err := <-errc:
		return fmt.Errorf("http: %w", err)
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		_ = srv.Shutdown(sctx)
		<-errc
		return nil
	}
}

// pool is a listener that holds at most max connections (and the one
// being accepted). At the bound, Accept first closes the connection idle the longest: one between two
// requests (StateIdle) before one that has sent nothing yet (StateNew);
// with every connection in a request it waits for one to end. A probe
// therefore always gets a connection, and what it displaces is a client
// that was doing nothing.
type pool struct {
	net.Listener
	max     int
	evicted func()

	mu     sync.Mutex
	cond   *sync.Cond
	conns  map[*conn]struct{} // open, accepted
	closed bool
	seq    uint64 // orders state changes: the lowest is idle longest
}

func newPool(ln net.Listener, max int, evicted func()) *pool {
	p := &pool{Listener: ln, max: max, evicted: evicted, conns: map[*conn]struct{}{}}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// conn is one accepted connection and its last known state.
type conn struct {
	net.Conn
	p     *pool
	state http.ConnState // guarded by p.mu
	since uint64         // p.seq at the last state change; guarded by p.mu
	once  sync.Once
}

// Close releases the connection's slot.
func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.p.release(c) })
	return err
}

func (p *pool) release(c *conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.cond.Broadcast()
	p.mu.Unlock()
}

// Accept takes the next connection, then makes room for it at the bound:
// it closes the connection idle the longest or, when every one is in a
// request, waits for one to end. Room is made only for a connection that
// came: one accepted a moment ago and not read from yet is not closed for
// one that may never come.
func (p *pool) Accept() (net.Conn, error) {
	nc, err := p.Listener.Accept()
	if err != nil {
		return nil, err
	}
	c, evicted, err := p.admit(nc)
	// Told outside the lock: a log line must not hold up the pool.
	for range evicted {
		if p.evicted != nil {
			p.evicted()
		}
	}
	return c, err
}

// admit makes room for nc and adds it; it reports how many connections it
// closed for it.
func (p *pool) admit(nc net.Conn) (net.Conn, int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	evicted := 0
	for !p.closed && len(p.conns) >= p.max {
		if c := p.idlest(); c != nil {
			delete(p.conns, c)
			// The server's goroutine for c sees the close as a read
			// error and ends; its own Close then finds the slot gone.
			_ = c.Conn.Close()
			evicted++
			continue
		}
		p.cond.Wait()
	}
	if p.closed {
		nc.Close()
		return nil, evicted, net.ErrClosed
	}
	p.seq++
	c := &conn{Conn: nc, p: p, state: http.StateNew, since: p.seq}
	p.conns[c] = struct{}{}
	return c, evicted, nil
}

// idlest is the open connection idle the longest: between requests
// first, then opened and silent; nil when every one is in a request.
// p.mu is held.
func (p *pool) idlest() *conn {
	var best *conn
	rank := func(c *conn) int {
		if c.state == http.StateIdle {
			return 0
		}
		return 1
	}
	for c := range p.conns {
		if c.state != http.StateIdle && c.state != http.StateNew {
			continue
		}
		if best == nil || rank(c) < rank(best) || rank(c) == rank(best) && c.since < best.since {
			best = c
		}
	}
	return best
}

// idle counts the open connections the server has seen turn idle.
func (p *pool) idle() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for c := range p.conns {
		if c.state == http.StateIdle {
			n++
		}
	}
	return n
}

// connState follows each connection's state (http.Server.ConnState): a
// connection turning idle may be closed by an Accept waiting for a slot.
func (p *pool) connState(nc net.Conn, st http.ConnState) {
	if tc, ok := nc.(*tls.Conn); ok {
		nc = tc.NetConn()
	}
	c, ok := nc.(*conn)
	if !ok {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seq++
	c.state, c.since = st, p.seq
	switch st {
	case http.StateIdle:
		p.cond.Broadcast()
	case http.StateHijacked, http.StateClosed:
		delete(p.conns, c)
		p.cond.Broadcast()
	}
}

// Close stops accepting; an Accept waiting for a slot returns.
func (p *pool) Close() error {
	p.mu.Lock()
	p.closed = true
	p.cond.Broadcast()
	p.mu.Unlock()
	err := p.Listener.Close()
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}
