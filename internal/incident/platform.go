package incident

import (
	"slices"

	"github.com/logmatch/logmatch/internal/engine"
	"github.com/logmatch/logmatch/sinks"
)

// The platform beneath the engine. An engine checks the device it is given
// and refuses it in its own words when a check fails: TGI's "Sharded ...
// requires Flash Attention CUDA kernels to be installed", vLLM's "Failed to
// infer device type", a bfloat16 or quantization that "this GPU" does not
// support. When the CUDA stack under it cannot start (a user-space driver
// that does not fit the kernel module or the GPU, a driver too old for the
// toolkit, no GPU visible at all), every such check fails the same way,
// and the engine's refusal is how the platform's failure shows. A
// launcher that relays its child's output often prints the child's
// traceback first and its stderr, where torch warned that CUDA could not
// initialise, after it. So a platform's cause printed after an engine's
// verdict on the device, in the same source and burst (absorbJustBefore:
// within the settle time and a few kilobytes), leads, and the engine's
// verdict is listed in its incident. So does a platform's cause printed
// just before the verdict (torch warns when the engine first asks for the
// device, and the engine refuses it next): the verdict is listed in the
// platform's incident at once. Failures minutes apart, or kilobytes apart
// in their source, stay apart.
//
// What is which is read from the records' tags, never from which record it
// is: a platform's cause is tagged driver (the GPU's driver, its
// user-space library, the container runtime's mount of it) or names a
// CUDA environment that is not there (cuda and environment); an engine's
// verdict on the device is a record tagged hardware whose component is an
// engine (a tag or its repository names one) and that is no platform
// record itself.

// platformCause reports whether r names a failure of the platform under
// the engine (see above).
func platformCause(r *sinks.Record) bool {
	return slices.Contains(r.Tags, "driver") ||
		slices.Contains(r.Tags, "environment") && slices.Contains(r.Tags, "cuda")
}

// engineDeviceVerdict reports whether r names an engine's refusal of the
// device it sees (see above).
func engineDeviceVerdict(r *sinks.Record) bool {
	if !slices.Contains(r.Tags, "hardware") || platformCause(r) {
		return false
	}
	return engine.Known(recordComponent(r)) || slices.ContainsFunc(r.Tags, engine.Known)
}

// claimHidden makes the settling engine verdicts on the device printed
// just before the platform's cause gr, in its source and burst, context of
// gr.
func (g *Grouper) claimHidden(gr *group) {
	if !g.genericFolds() || !classifiedCause(gr) || gr.Source == "" || !platformCause(&gr.Alert.Record) {
		return
	}
	g.absorbJustBefore(gr, g.sourceCauses(causeKey(gr)), func(a *group) bool {
		return namedCause(a) && a.End <= gr.Off && engineDeviceVerdict(&a.Alert.Record)
	})
}

// platformBefore returns the platform's cause printed just before the
// classified occurrence o of the burst b, in its source and burst, when o
// is an engine's verdict on the device: o is its context. Nil when there
// is none.
func (g *Grouper) platformBefore(o *Occurrence, b burst) *group {
	if b.source == "" || !engineDeviceVerdict(&o.Alert.Record) {
		return nil
	}
	var best *group
	for _, m := range g.sourceCauses(sourceKey{b.scope, b.source}) {
		c := m.gr
		if !classifiedCause(c) || !platformCause(&c.Alert.Record) || c.End > b.off || b.off-c.End > borrowedGap || !g.inBurst(c, b) {
			continue
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	}
	return best
}
