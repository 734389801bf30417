package pipeline

import (
	"log/slog"
	"time"

	"github.com/logmatch/logmatch/internal/health"
	"github.com/logmatch/logmatch/internal/state"
	"github.com/logmatch/logmatch/internal/telemetry"
)

// ExitTerminatedOnFatal is logmatch run's exit status when --on-fatal
// terminate ended the wrapped command after a gating failure, in place of
// the command's own status (143 or 137 after the signal). It is
// EX_TEMPFAIL of sysexits.h: the failure is the server's state, and a
// restart is the cure.
const ExitTerminatedOnFatal = 75

// gateVersion is the version stamped on the gate's blob in the state
// store; a blob of another version is ignored (every gate starts healthy).
const gateVersion = 1

// newGate builds the liveness gate's monitor (internal/health) with the
// state last committed, and exports its per-server metrics. opts names
// this logmatch's own server, the redaction, /livez's settings and the
// termination; the logger and metrics are added here.
func newGate(store *state.Store, log *slog.Logger, m *telemetry.Metrics, opts health.MonitorOptions) *health.Monitor {
	opts.Logger, opts.Metrics = log, m
	g := health.NewMonitor(opts)
	if blob, ok, err := store.Gate(); err != nil {
		log.Warn("liveness gate state unreadable; every gate starts healthy", "err", err)
	} else if ok && blob.Version == gateVersion {
		if err := g.Restore(blob.Data, time.Now()); err != nil {
			log.Warn("liveness gate state unreadable; every gate starts healthy", "err", err)
		}
	}
	m.SetGateSource(func() []telemetry.GateSample { return gateSamples(g.Status(time.Now())) })
	return g
}

// selfTarget is the server logmatch runs beside (its pod, from the
// downward API) or wraps.
func selfTarget(id Identity) health.Target {
	return health.Target{Self: true, Namespace: id.Namespace, Pod: id.Pod, Container: id.Container}
}

// gateSamples are the per-server gate metrics.
func gateSamples(st []health.TargetStatus) []telemetry.GateSample {
	out := make([]telemetry.GateSample, 0, len(st))
	for _, s := range st {
		out = append(out, telemetry.GateSample{
			Namespace: s.Target.Namespace, Pod: s.Target.Pod, Container: s.Target.Container,
			State: int(s.State), Recent: s.Recent,
		})
	}
	return out
}

// gateLog is what the gate needs to know of fs: its path and pod.
func (fs *fileState) gateLog() *health.Log {
	if fs.glog.Path != fs.path || fs.glog.UID != fs.pod.UID {
		fs.glog = health.Log{Path: fs.path, Namespace: fs.pod.Namespace, Pod: fs.pod.Name, Container: fs.pod.Container, UID: fs.pod.UID}
	}
	return &fs.glog
}
