package pipeline

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	"google.golang.org/grpc"

	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/internal/httpserve"
	"github.com/logmatch/logmatch/internal/ingest"
	"github.com/logmatch/logmatch/internal/telemetry"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/sinks"
)

// netInputs are the network inputs run serves (accept): their handlers by
// the pattern each is served at, and the push receiver whose requests
// feed the processor like a source.
type netInputs struct {
	handlers map[string]http.Handler
	// push receives the pushes of loki and otlp (pushNames), which share
	// its queue.
	push      *ingest.Receiver
	pushNames string
	// grpc serves OTLP over gRPC on grpcAddr; nil when not configured.
	grpc     *grpc.Server
	grpcAddr string
	// tls, when set, serves http_addr over TLS (accept_tls_*).
	tls *tls.Config
}

// httpTLS is the TLS configuration of the http_addr listener; nil serves
// plain HTTP.
func (n *netInputs) httpTLS() *tls.Config {
	if n == nil {
		return nil
	}
	return n.tls
}

// register serves the inputs on mux; a nil n serves none.
func (n *netInputs) register(mux *http.ServeMux) {
	if n == nil {
		return
	}
	for pattern, h := range n.handlers {
		mux.Handle(pattern, h)
	}
}

// problems say, for /readyz, which input cannot accept now.
func (n *netInputs) problems() []string {
	if n == nil || n.push == nil {
		return nil
	}
	if why := n.push.Ready(); why != "" {
		return []string{"inputs " + n.pushNames + ": cannot accept: " + why}
	}
	return nil
}

// inputObserver turns the network inputs' counts into metrics.
type inputObserver struct{ m *telemetry.Metrics }

func (o inputObserver) Request(input string)          { o.m.InputRequest(input) }
func (o inputObserver) Lines(input string, n int)     { o.m.InputLines(input, n) }
func (o inputObserver) Rejected(input, reason string) { o.m.InputRejected(input, reason) }

// acceptToken reads the bearer token the network inputs require, by
// reference; "" when none is configured.
func acceptToken(cfg *config.Config, getenv func(string) string) (string, error) {
	if cfg.AcceptTokenFile == "" && cfg.AcceptTokenEnv == "" {
		return "", nil
	}
	return sinks.SecretRef{File: cfg.AcceptTokenFile, Env: cfg.AcceptTokenEnv}.Resolve("accept_token", getenv)
}

// inputTLS loads the TLS files of the inputs (nil, nil when none is
// configured): for http_addr, client certificates are verified when sent,
// and the inputs' handlers refuse a request without one, so probes and
// scrapes work without; otlp_grpc_addr serves nothing else, and requires
// one in the handshake.
func (p *Pipeline) inputTLS(cfg *config.Config) (httpCfg, grpcCfg *tls.Config, err error) {
	if cfg.AcceptTLSCertFile == "" {
		return nil, nil, nil
	}
	files := httpserve.TLSFiles{CertFile: cfg.AcceptTLSCertFile, KeyFile: cfg.AcceptTLSKeyFile, ClientCAFile: cfg.AcceptTLSClientCAFile}
	onErr := func(err error) {
		p.log.Error("accept_tls: the changed files do not load; serving the previous certificate", "err", err)
	}
	if httpCfg, err = files.Config(tls.VerifyClientCertIfGiven, onErr); err != nil {
		return nil, nil, fmt.Errorf("accept_tls_cert_file: %w", err)
	}
	if grpcCfg, err = files.Config(tls.RequireAndVerifyClientCert, onErr); err != nil {
		return nil, nil, fmt.Errorf("accept_tls_cert_file: %w", err)
	}
	return httpCfg, grpcCfg, nil
}

// newInputs builds the accepted network inputs; nil when none. The
// redactor of the diagnose API always has the built-in rules, as scan's:
// its answers leave logmatch directly.
func (p *Pipeline) newInputs(cfg *config.Config) (*netInputs, error) {
	if len(cfg.Accept) == 0 {
		return nil, nil
	}
	token, err := acceptToken(cfg, p.opts.Getenv)
	if err != nil {
		return nil, err
	}
	httpTLS, grpcTLS, err := p.inputTLS(cfg)
	if err != nil {
		return nil, err
	}
	auth := ingest.Auth{Token: token, ClientCert: cfg.AcceptTLSClientCAFile != ""}
	obs := inputObserver{m: p.tel.Metrics()}
	n := &netInputs{handlers: map[string]http.Handler{}, tls: httpTLS}
	diagnose, am := slices.Contains(cfg.Accept, config.AcceptDiagnose), slices.Contains(cfg.Accept, config.AcceptAlertmanager)
	var d *ingest.Diagnoser
	if diagnose || am {
		red, err := redactor(config.Redact{Builtin: true, Patterns: cfg.Redact.Patterns})
		if err != nil {
			return nil, fmt.Errorf("redact: %w", err)
		}
		d, err = ingest.NewDiagnoser(ingest.DiagnoseOptions{
			Matcher:  func() *matcher.Matcher { return p.matcher.Load() },
			Redactor: red,
			Entry:    entry.Options{MaxLines: cfg.Entry.MaxLines, MaxBytes: cfg.Entry.MaxBytes, MaxLineBytes: cfg.MaxLineBytes},
			MaxBytes: int64(cfg.AcceptMaxBytes),
			Observer: obs,
		})
		if err != nil {
			return nil, err
		}
	}
	if diagnose {
		n.handlers["POST /v1/diagnose"] = ingest.Authenticate(auth, ingest.InputDiagnose, obs, d)
	}
	loki, otlp := slices.Contains(cfg.Accept, config.AcceptLoki), slices.Contains(cfg.Accept, config.AcceptOTLP)
	if loki || otlp || am {
		n.push = ingest.NewReceiver(ingest.PushOptions{
			MaxBytes:     int64(cfg.AcceptMaxBytes),
			MaxLineBytes: cfg.MaxLineBytes,
			Labels:       ingest.LabelMap(cfg.AcceptLabels),
			Observer:     obs,
		})
	}
	var names []string
	if loki {
		names = append(names, ingest.InputLoki)
		n.handlers["POST /loki/api/v1/push"] = ingest.Authenticate(auth, ingest.InputLoki, obs, n.push)
	}
	if otlp {
		names = append(names, ingest.InputOTLP)
		n.handlers["POST /v1/logs"] = ingest.Authenticate(auth, ingest.InputOTLP, obs, n.push.OTLP())
		if cfg.OTLPGRPCAddr != "" {
			n.grpc, n.grpcAddr = n.push.NewOTLPGRPC(auth, grpcTLS), cfg.OTLPGRPCAddr
		}
	}
	if am {
		names = append(names, ingest.InputAlertmanager)
		e := ingest.NewEnricher(ingest.EnricherOptions{Diagnoser: d, Forward: n.push.Forward, MaxBytes: int64(cfg.AcceptMaxBytes), Observer: obs})
		n.handlers["POST /v1/alertmanager"] = ingest.Authenticate(auth, ingest.InputAlertmanager, obs, e)
	}
	n.pushNames = strings.Join(names, ", ")
	return n, nil
}

// runInputs returns the source stage of the network inputs. It hands each
// accepted push to the processor as one batch, blocking while the
// processor is behind (the receiver's queue then fills and pushes are
// answered 429), until the sources stop; then the receiver refuses new
// pushes. A run that only accepts lasts until it is stopped.
func (p *Pipeline) runInputs(lines chan<- *batch) func(context.Context) error {
	return func(ctx context.Context) error {
		if p.inputs.push == nil {
			<-ctx.Done()
			return nil
		}
		r := p.inputs.push
		defer r.Close()
		if s := p.inputs.grpc; s != nil {
			ln, err := net.Listen("tcp", p.inputs.grpcAddr)
			if err != nil {
				return fmt.Errorf("otlp_grpc_addr %s: %w", p.inputs.grpcAddr, err)
			}
			p.log.Info("serving OTLP logs over gRPC", "otlp_grpc_addr", ln.Addr().String())
			ln = ingest.LimitListener(ln, p.cfg.HTTPMaxConnections)
			served := make(chan struct{})
			go func() {
				defer close(served)
				if err := s.Serve(ln); err != nil {
					p.log.Error("otlp gRPC server", "err", err)
				}
			}()
			defer func() {
				// Calls in flight are answered (Unavailable once the
				// receiver is closed): Stop after the grace, not before.
				r.Close()
				stopped := make(chan struct{})
				go func() { s.GracefulStop(); close(stopped) }()
				select {
				case <-stopped:
				case <-time.After(2 * time.Second):
					s.Stop()
				}
				<-served
			}()
		}
		for {
			select {
			case <-ctx.Done():
				return nil
			case push := <-r.Pushes():
				b := batchPool.Get().(*batch)
				for _, l := range push.Lines {
					l.Text = b.keep(l.Text)
					b.lines = append(b.lines, l)
				}
				b.push = push
				select {
				case lines <- b:
				case <-ctx.Done():
					push.Done(ingest.ErrClosed)
					recycle(b)
					return nil
				}
			}
		}
	}
}

// pushWaiter is a push whose lines were processed, waiting for the
// commit that holds them and the alerts they produced.
type pushWaiter struct{ push *ingest.Push }

// waitCommit makes the push of b (if any) wait for the next commit, and
// queues the enriched alerts it carries for the sinks. mu is held.
//
// The commit holds the alerts of every entry the push completed. An entry
// its last lines began (a traceback whose end is in the next push) is not
// waited for: the shipper sends the next push only once this one is
// answered, so waiting would complete the entry early (the idle flush) and
// cut a traceback in two at every push boundary. Those lines are held in
// memory until the entry completes; a crash before then loses that one
// entry (the README says so).
func (l *loop) waitCommit(b *batch) {
	if b.push != nil {
		if len(b.push.Alerts) > 0 {
			l.p.proc.queue(b.push.Alerts)
		}
		l.pushes = append(l.pushes, pushWaiter{push: b.push})
	}
}

// pushesReady reports whether a push waits for a commit. mu is held.
func (l *loop) pushesReady() bool { return len(l.pushes) > 0 }

// ackPushes answers the pushes a commit just made durable, with err (nil,
// or the final commit's failure). mu is held.
func (l *loop) ackPushes(_ bool, err error) {
	for _, w := range l.pushes {
		w.push.Done(err)
	}
	clear(l.pushes)
	l.pushes = l.pushes[:0]
}
