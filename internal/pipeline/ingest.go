package pipeline

import (
	"cmp"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"maps"
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
	"github.com/logmatch/logmatch/internal/source"
	"github.com/logmatch/logmatch/internal/state"
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
		if ps, ok := p.proc.pushed.(*pushState); ok && len(ps.restore) > 0 {
			// The open entries of the last run first, before any push
			// that continues them.
			b := batchPool.Get().(*batch)
			b.push = r.Restored(ps.restore)
			ps.restore = nil
			for _, l := range b.push.Lines {
				l.Text = b.keep(l.Text)
				b.lines = append(b.lines, l)
			}
			select {
			case lines <- b:
			case <-ctx.Done():
				recycle(b)
				return nil
			}
		}
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
// The commit holds the alerts of every entry the push completed, and the
// lines of an entry its last lines began (a traceback whose end is in the
// next push), kept by pushState: the shipper sends the next push only
// once this one is answered, so waiting for that entry would complete it
// early (the idle flush) and cut a traceback in two at every push
// boundary. A crash then loses nothing: the next start replays those lines.
func (l *loop) waitCommit(b *batch) {
	if b.push != nil {
		if len(b.push.Alerts) > 0 {
			l.p.proc.queue(b.push.Alerts)
		}
		if ps, ok := l.p.proc.pushed.(*pushState); ok {
			ps.track(b)
		}
		l.pushes = append(l.pushes, pushWaiter{push: b.push})
	}
}

// pushesReady reports whether a push waits for a commit. mu is held.
func (l *loop) pushesReady() bool { return len(l.pushes) > 0 }

// ackPushes answers the pushes a commit just made durable, with err (nil,
// or the final commit's failure). mu is held.
func (l *loop) ackPushes(err error) {
	for _, w := range l.pushes {
		w.push.Done(err)
	}
	clear(l.pushes)
	l.pushes = l.pushes[:0]
}

// pushedVersion is the format of the inputs' blob in state.db.
const pushedVersion = 1

// pushState is what the push inputs commit with the alerts so that a
// crash loses and repeats nothing of a push once it is acknowledged:
//
//   - the lines of each pushed stream's open entry (its tail). A push is
//     answered once its lines are committed, and the shipper sends the
//     rest of a traceback in its next push; the lines of the entry still
//     open are in state.db then, and a restart replays them before any
//     new push, so the entry completes as if nothing had happened;
//   - the keys of the pushes committed lately, so a push retried because
//     its answer was lost is answered 204 without being read again.
//
// It is used under the loop's mutex, by the processor's commit.
type pushState struct {
	r    *ingest.Receiver
	proc *processor
	// tails are the open entries' lines of each pushed stream.
	tails map[tailKey]*tail
	// waiting are the keys of the pushes processed since the last commit.
	waiting []ingest.PushKey
	changed bool
	// maxLines and maxBytes bound a tail: an entry is cut there anyway.
	maxLines, maxBytes int
	// restore are the tails of the last run, replayed first (runInputs).
	restore []source.Line
}

// tailKey names a pushed stream: its source and its stream (stdout,
// stderr).
type tailKey struct{ source, stream string }

type tail struct {
	lines []source.Line
	bytes int
}

// newPushState returns the push inputs' state with what the last run
// committed; nil when no push input is accepted.
func (p *Pipeline) newPushState(store *state.Store, cfg *config.Config) pushedState {
	if p.inputs == nil || p.inputs.push == nil {
		return nil
	}
	ps := &pushState{r: p.inputs.push, proc: p.proc, tails: map[tailKey]*tail{},
		maxLines: cfg.Entry.MaxLines + 1, maxBytes: cfg.Entry.MaxBytes + cfg.MaxLineBytes}
	blob, ok, err := store.Pushed()
	switch {
	case err != nil:
		p.log.Warn("state of the push inputs unreadable: open entries of pushed streams are lost, and a retried push may alert again", "err", err)
	case ok && blob.Version != pushedVersion:
		p.log.Warn("state of the push inputs of another version: ignored", "version", blob.Version)
	case ok:
		if err := ps.load(blob.Data); err != nil {
			p.log.Warn("state of the push inputs unreadable: open entries of pushed streams are lost, and a retried push may alert again", "err", err)
		} else if len(ps.restore) > 0 {
			p.log.Info("replaying the open entries of pushed streams", "lines", len(ps.restore))
		}
	}
	return ps
}

// storedPushes is the JSON of the blob.
type storedPushes struct {
	// Keys are the committed pushes' keys, concatenated, oldest first.
	Keys  []byte       `json:"keys,omitempty"`
	Tails []storedTail `json:"tails,omitempty"`
}

type storedTail struct {
	Source string       `json:"source"`
	Stream string       `json:"stream,omitempty"`
	Pod    source.Pod   `json:"pod"`
	Lines  []storedLine `json:"lines"`
}

type storedLine struct {
	Text string    `json:"text"`
	Time time.Time `json:"time"`
	Cut  bool      `json:"cut,omitempty"`
}

func (ps *pushState) load(data []byte) error {
	var st storedPushes
	if err := json.Unmarshal(data, &st); err != nil {
		return err
	}
	if len(st.Keys)%len(ingest.PushKey{}) != 0 {
		return fmt.Errorf("keys: %d bytes, not whole keys", len(st.Keys))
	}
	keys := make([]ingest.PushKey, 0, len(st.Keys)/len(ingest.PushKey{}))
	for b := st.Keys; len(b) > 0; b = b[len(ingest.PushKey{}):] {
		keys = append(keys, ingest.PushKey(b))
	}
	ps.r.RestoreKeys(keys)
	for _, t := range st.Tails {
		for _, l := range t.Lines {
			ps.restore = append(ps.restore, source.Line{
				Line: entry.Line{Text: l.Text, Source: t.Source, Stream: t.Stream, Time: l.Time, Truncated: l.Cut}, Pod: t.Pod,
			})
		}
	}
	return nil
}

// pendingFirst is the offset of the first line of k's open entry; -1 when
// none is open.
func (ps *pushState) pendingFirst(k tailKey) int64 {
	fs := ps.proc.files[source.Key{Stream: k.source}]
	if fs == nil {
		return -1
	}
	for _, ss := range fs.streams {
		if ss.Name() == k.stream {
			if !ss.Pending() {
				return -1
			}
			return ss.PendingFirst()
		}
	}
	return -1
}

// trim drops the lines of k's tail before first (all when first < 0): the
// entries they were in are complete, and their alerts committed with the
// tail that no longer holds them.
func (ps *pushState) trim(k tailKey, first int64) {
	t := ps.tails[k]
	if t == nil {
		return
	}
	n := len(t.lines)
	if first >= 0 {
		n, _ = slices.BinarySearchFunc(t.lines, first, func(l source.Line, off int64) int { return cmp.Compare(l.Offset, off) })
	}
	if n == 0 {
		return
	}
	for _, l := range t.lines[:n] {
		t.bytes -= len(l.Text)
	}
	t.lines = append(t.lines[:0], t.lines[n:]...)
	if len(t.lines) == 0 {
		delete(ps.tails, k)
	}
	ps.changed = true
}

// track keeps the lines of a processed push that belong to entries still
// open, and its key, for the next commit. The batch's text is recycled:
// what is kept is copied.
func (ps *pushState) track(b *batch) {
	if len(b.lines) == 0 {
		return
	}
	ps.changed = true
	if b.push.Key != (ingest.PushKey{}) {
		ps.waiting = append(ps.waiting, b.push.Key)
	}
	firsts := map[tailKey]int64{}
	for i := range b.lines {
		k := tailKey{b.lines[i].Source, b.lines[i].Stream}
		if _, ok := firsts[k]; !ok {
			firsts[k] = ps.pendingFirst(k)
			ps.trim(k, firsts[k])
		}
	}
	for i := range b.lines {
		l := &b.lines[i]
		k := tailKey{l.Source, l.Stream}
		if first := firsts[k]; first < 0 || l.Offset < first {
			continue
		}
		t := ps.tails[k]
		if t == nil {
			t = &tail{}
			ps.tails[k] = t
		}
		if len(t.lines) >= ps.maxLines || t.bytes+len(l.Text) > ps.maxBytes {
			continue // past the entry's bounds: its head is what counts
		}
		c := *l
		c.Text = strings.Clone(l.Text)
		t.lines = append(t.lines, c)
		t.bytes += len(c.Text)
	}
}

// pushedState is the push inputs' part of a commit (the processor's
// hook): blob returns what to store with the commit being made, nil when
// nothing changed; committed says that commit succeeded.
type pushedState interface {
	blob() (*state.Pushed, error)
	committed()
}

func (ps *pushState) blob() (*state.Pushed, error) {
	for k := range ps.tails {
		ps.trim(k, ps.pendingFirst(k))
	}
	if !ps.changed {
		return nil, nil
	}
	var st storedPushes
	for _, k := range append(ps.r.Keys(), ps.waiting...) {
		st.Keys = append(st.Keys, k[:]...)
	}
	keys := slices.SortedFunc(maps.Keys(ps.tails), func(a, b tailKey) int {
		return cmp.Or(strings.Compare(a.source, b.source), strings.Compare(a.stream, b.stream))
	})
	for _, k := range keys {
		t := ps.tails[k]
		s := storedTail{Source: k.source, Stream: k.stream, Pod: t.lines[0].Pod}
		for _, l := range t.lines {
			s.Lines = append(s.Lines, storedLine{Text: l.Text, Time: l.Time, Cut: l.Truncated})
		}
		st.Tails = append(st.Tails, s)
	}
	data, err := json.Marshal(st)
	if err != nil {
		return nil, fmt.Errorf("push inputs' state: %w", err)
	}
	return &state.Pushed{Version: pushedVersion, Data: data}, nil
}

func (ps *pushState) committed() {
	ps.changed = false
	ps.waiting = ps.waiting[:0]
}
