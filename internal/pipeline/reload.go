package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"time"

	"github.com/logmatch/logmatch/internal/catalog"
	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/incident"
)

// running is one sink's delivery loop and how to stop it.
type running struct {
	d      *deliverer
	cancel context.CancelFunc
	done   chan struct{}
	err    error // what the loop returned; read after done closes
}

// startDelivery starts a delivery loop per deliverer under the pipeline's
// delivery context; reload stops and replaces them.
func (p *Pipeline) startDelivery(dels []*deliverer) {
	for _, d := range dels {
		ctx, cancel := context.WithCancel(p.delCtx)
		r := &running{d: d, cancel: cancel, done: make(chan struct{})}
		go func() {
			defer close(r.done)
			r.err = d.run(ctx, p.drain)
		}()
		p.running = append(p.running, r)
	}
	p.delsMu.Lock()
	p.dels = dels
	p.delsMu.Unlock()
}

// deliverers returns the current delivery loops, for /readyz.
func (p *Pipeline) deliverers() []*deliverer {
	p.delsMu.RLock()
	defer p.delsMu.RUnlock()
	return p.dels
}

// stopDelivery stops the current delivery loops and waits for them; what
// they were sending stays queued.
func (p *Pipeline) stopDelivery() {
	for _, r := range p.running {
		r.cancel()
	}
	for _, r := range p.running {
		<-r.done
	}
	p.running = nil
}

// deliveryErr joins what the current delivery loops returned; call it
// after waitDelivery reported them all ended.
func (p *Pipeline) deliveryErr() error {
	var errs []error
	for _, r := range p.running {
		select {
		case <-r.done:
			if r.err != nil && !errors.Is(r.err, context.Canceled) {
				errs = append(errs, fmt.Errorf("sink %s: %w", r.d.name, r.err))
			}
		default:
		}
	}
	return errors.Join(errs...)
}

// waitDelivery waits for every delivery loop to end (after drain closed)
// or for by to close (nil: no deadline), and reports whether they ended.
func (p *Pipeline) waitDelivery(by <-chan struct{}) bool {
	for _, r := range p.running {
		select {
		case <-r.done:
		case <-by:
			return false
		}
	}
	return true
}

// reloadConfig loads the configuration again (SIGHUP) and applies what can
// change while running: sinks, group_window and repeat_interval,
// redaction, catalogs. A configuration that fails to load or to build is
// logged with every problem and the running one stays, as Alertmanager
// does; logmatch_config_last_reload_successful says which happened.
func (p *Pipeline) reloadConfig(ctx context.Context) {
	if p.opts.LoadConfig == nil {
		return
	}
	now := time.Now()
	next, err := p.opts.LoadConfig()
	if err == nil {
		err = p.applyConfig(ctx, next)
	}
	// The metric first: whoever reads the log line finds it already set.
	p.tel.Metrics().ConfigReload(err == nil, now)
	if err != nil {
		p.log.Error("configuration reload failed; keeping the running configuration", "err", err)
		return
	}
	p.log.Info("configuration reloaded", "sinks", sinkNames(p.sinks), "group_window", p.cfg.GroupWindow, "repeat_interval", p.cfg.RepeatInterval)
}

// applyConfig builds everything next needs before changing anything, so a
// failure leaves the running configuration whole.
func (p *Pipeline) applyConfig(ctx context.Context, next *config.Config) error {
	cur := p.cfg
	var errs []error
	red, err := redactor(next.Redact)
	if err != nil {
		errs = append(errs, fmt.Errorf("redact: %w", err))
	}
	catalogChanged := !slices.Equal(cur.Catalogs, next.Catalogs) || cur.NoDefaultCatalog != next.NoDefaultCatalog
	m := p.matcher.Load()
	var stamp string
	if catalogChanged {
		stamp = catalog.Stamp(next.Catalogs) // before the read, as in New
		nm, problems, err := catalog.Load(p.catalog(next))
		for _, pr := range problems {
			p.log.Warn("catalog problem", "problem", pr.Error())
		}
		if err == nil {
			err = leftOut(problems)
		}
		if err != nil {
			errs = append(errs, err)
		}
		m = nm
	}
	sinksChanged := !reflect.DeepEqual(cur.Sinks, next.Sinks)
	var built []*builtSink
	if sinksChanged && len(errs) == 0 {
		built, err = buildSinks(ctx, next.Sinks, p.opts.Getenv, p.opts.alerts())
		if err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}

	// Nothing can fail from here on.
	eff := *cur
	for _, key := range restartOnly(cur, next) {
		p.log.Warn("configuration key changed; it takes effect at the next start", "key", key)
	}
	eff.Sinks, eff.Redact, eff.ServerVersion = next.Sinks, next.Redact, next.ServerVersion
	eff.GroupWindow, eff.RepeatInterval = next.GroupWindow, next.RepeatInterval
	eff.Catalogs, eff.NoDefaultCatalog = next.Catalogs, next.NoDefaultCatalog
	p.proc.redactor = red
	if next.ServerVersion != cur.ServerVersion {
		p.proc.serverVersion = next.ServerVersion
		if p.proc.shell != nil {
			p.proc.shell.SetServerVersion(next.ServerVersion)
		}
	}
	if catalogChanged {
		p.matcher.Store(m)
		p.stamp = stamp
		p.catalogErr.Store(nil)
		p.tel.Metrics().CatalogRecords(m.Len())
		p.log.Info("catalog reloaded", "records", m.Len())
	}
	if cur.GroupWindow != next.GroupWindow || cur.RepeatInterval != next.RepeatInterval {
		p.regroup(&eff)
	}
	if sinksChanged {
		p.stopDelivery()
		// Each sink's route is rebuilt whole with it; a sink kept under
		// its name takes over the digest its predecessor held back.
		for _, b := range built {
			for _, old := range p.sinks {
				if old.name == b.name {
					b.adopt(old)
				}
			}
		}
		p.store.SetSinkQueues(sinkQueues(built))
		if err := closeSinks(ctx, p.sinks); err != nil {
			// The replaced sinks are gone either way; what they failed to
			// flush is said.
			p.log.Warn("configuration reload: closing the replaced sinks", "err", err)
		}
		p.sinks = built
		p.proc.sinks = built
		var dels []*deliverer
		for _, b := range built {
			d := newDeliverer(b, p.store, p.log, p.tel.Metrics(), time.Now)
			d.tot = p.tot
			dels = append(dels, d)
		}
		// The removed sinks' series go before the new deliverers start:
		// once an added sink exports its depth, a removed one no longer
		// does (the old deliverers stopped above).
		p.tel.Metrics().KeepSinks(sinkNames(built))
		p.startDelivery(dels)
		p.dropRemovedQueues()
	}
	p.cfg = &eff
	return nil
}

// regroup moves the open incidents to a grouper with next's options, so a
// reload neither forgets nor repeats an incident (the liveness gate asks
// the processor's current grouper whether an incident settles).
func (p *Pipeline) regroup(next *config.Config) {
	g := incident.New(groupOptions(next))
	snap, err := p.proc.grouper.Snapshot()
	if err == nil {
		err = g.Restore(snap)
	}
	if err != nil {
		// The old grouper keeps its windows rather than lose incidents.
		p.log.Error("grouping windows not changed: open incidents could not be carried over", "err", err)
		return
	}
	p.proc.grouper = g
	p.proc.evictions = incident.Stats{}
	p.proc.grouped = true
}

// restartOnly lists the keys that differ between cur and next and are
// read only at start.
func restartOnly(cur, next *config.Config) []string {
	var keys []string
	diff := func(key string, a, b any) {
		if !reflect.DeepEqual(a, b) {
			keys = append(keys, key)
		}
	}
	diff("paths", cur.Paths, next.Paths)
	// A stream's engine is set when it is created: a rule changed now
	// would apply to some streams and not to others.
	diff("engines", cur.Engines, next.Engines)
	diff("format", cur.Format, next.Format)
	diff("start_at", cur.StartAt, next.StartAt)
	diff("state_dir", cur.StateDir, next.StateDir)
	diff("http_addr", cur.HTTPAddr, next.HTTPAddr)
	diff("http_max_connections", cur.HTTPMaxConnections, next.HTTPMaxConnections)
	diff("http_idle_timeout", cur.HTTPIdleTimeout, next.HTTPIdleTimeout)
	diff("http_probe_detail", cur.HTTPProbeDetail, next.HTTPProbeDetail)
	diff("rotated_dirs", cur.RotatedDirs, next.RotatedDirs)
	diff("alert_output", cur.AlertOutput, next.AlertOutput)
	diff("log_level", cur.LogLevel, next.LogLevel)
	diff("log_format", cur.LogFormat, next.LogFormat)
	diff("shutdown_grace", cur.ShutdownGrace, next.ShutdownGrace)
	diff("entry", cur.Entry, next.Entry)
	diff("max_line_bytes", cur.MaxLineBytes, next.MaxLineBytes)
	diff("poll_interval", cur.PollInterval, next.PollInterval)
	diff("watch", cur.Watch, next.Watch)
	diff("rescan_interval", cur.RescanInterval, next.RescanInterval)
	diff("max_open_files", cur.MaxOpenFiles, next.MaxOpenFiles)
	diff("settle_time", cur.SettleTime, next.SettleTime)
	diff("correlation_window", cur.CorrelationWindow, next.CorrelationWindow)
	diff("consequence_wait", cur.ConsequenceWait, next.ConsequenceWait)
	diff("max_open_incidents", cur.MaxOpenIncidents, next.MaxOpenIncidents)
	diff("symlink_roots", cur.SymlinkRoots, next.SymlinkRoots)
	diff("queue", cur.Queue, next.Queue)
	diff("retry", cur.Retry, next.Retry)
	diff("command", cur.Command, next.Command)
	return keys
}

func sinkNames(bs []*builtSink) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.name+" ("+b.kind+")")
	}
	return out
}

// globState is what the last check of the globs found.
type globState struct {
	unmatched map[string]bool // by glob, true when it matched no file
}

// checkGlobs expands the file globs as the tailer does, records
// logmatch_source_files (readable files as "matched", the others as
// "unreadable") and logmatch_source_glob_unmatched, and logs a
// warning when a glob matches no file (once, until it matches again): a
// mistyped path would otherwise watch nothing, silently.
func (p *Pipeline) checkGlobs() (matched []string) {
	if p.globs.unmatched == nil {
		p.globs.unmatched = map[string]bool{}
	}
	seen := map[string]bool{}
	unreadable := 0
	for _, g := range p.cfg.Paths {
		if g == "-" {
			continue
		}
		files, _ := filepath.Glob(g) // patterns were validated with the configuration
		n := 0
		for _, f := range files {
			st, err := os.Stat(f)
			if err != nil || !st.Mode().IsRegular() || seen[f] {
				continue
			}
			seen[f] = true
			n++
			if fh, err := os.Open(f); err != nil {
				unreadable++
			} else {
				fh.Close()
			}
			matched = append(matched, f)
		}
		was, known := p.globs.unmatched[g]
		now := n == 0
		p.globs.unmatched[g] = now
		p.tel.Metrics().GlobUnmatched(g, now)
		switch {
		case now && (!known || !was):
			p.log.Warn("glob matches no file; nothing is read from it until a file appears", "glob", g)
		case !now && known && was:
			p.log.Info("glob matches files again", "glob", g, "files", n)
		}
	}
	p.tel.Metrics().SourceFiles("matched", len(matched)-unreadable)
	p.tel.Metrics().SourceFiles("unreadable", unreadable)
	if t := p.tailer.Load(); t != nil {
		// Beyond max_open_files the files take turns: how many hold a
		// descriptor, how many were closed for a turn, how many were
		// never opened yet.
		c := t.Coverage()
		p.tel.Metrics().SourceFiles("open", c.Open)
		p.tel.Metrics().SourceFiles("parked", c.Parked)
		p.tel.Metrics().SourceFiles("waiting", c.Waiting)
	}
	return matched
}

// logStart says what this run reads and where it sends: the files the
// globs match now (each at debug level), standard input, the wrapped
// command, the sinks, the HTTP address and the catalog size.
func (p *Pipeline) logStart() {
	files := p.checkGlobs()
	globs, stdin := splitPaths(p.cfg.Paths)
	for _, f := range files {
		p.log.Debug("following file", "path", f)
	}
	addr := ""
	if p.httpLn != nil {
		addr = p.httpLn.Addr().String()
	}
	records := 0
	if m := p.matcher.Load(); m != nil {
		records = m.Len()
	}
	attrs := []any{
		"version", p.opts.Version,
		"globs", globs, "files", len(files), "stdin", stdin,
		"sinks", sinkNames(p.sinks), "http_addr", addr,
		"catalog_records", records, "state_dir", p.cfg.StateDir,
		"group_window", p.cfg.GroupWindow, "repeat_interval", p.cfg.RepeatInterval,
	}
	if len(p.cfg.Command) > 0 {
		attrs = append(attrs, "command", p.cfg.Command[0])
	}
	p.log.Info("logmatch started", attrs...)
}

// logStop says how the run ended: why, and what it did (lines, entries,
// incidents, alerts queued, delivered and dropped, and still queued for the
// next start).
func (p *Pipeline) logStop(ctx context.Context, err error) {
	var queued int64
	for _, d := range p.deliverers() {
		queued += d.waiting.Load()
	}
	attrs := append([]any{"reason", p.stopReason(ctx, err)}, p.tot.attrs(queued)...)
	if len(p.cfg.Command) > 0 {
		attrs = append(attrs, "command_exit_code", p.ExitCode())
	}
	if err != nil {
		p.log.Error("logmatch stopped with an error", append(attrs, "err", err)...)
		return
	}
	p.log.Info("logmatch stopped", attrs...)
}

// stopReason says why the run ended.
func (p *Pipeline) stopReason(ctx context.Context, err error) string {
	switch {
	case errors.Is(err, ErrGraceExceeded):
		return "the shutdown grace period ended"
	case err != nil:
		return "an error"
	case ctx.Err() != nil:
		return "asked to stop (a signal)"
	case len(p.cfg.Command) > 0:
		return "the wrapped command exited"
	default:
		return "the inputs ended"
	}
}
