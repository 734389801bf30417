package patterns

import (
	"fmt"
	"slices"
	"strings"

	"github.com/logmatch/logmatch/internal/engine"
)

// validateEngines checks the engine names of remedies and engines. An
// unknown name is a warning and is dropped, so the record loads: its
// remedies for that name could never be shown, and an engines list
// naming an engine that does not exist would only hide the record from
// real ones. A list left empty applies to every engine, as if unset.
func validateEngines(rec *Record) []Problem {
	var probs []Problem
	keys := make([]string, 0, len(rec.Remedies))
	for k := range rec.Remedies {
		keys = append(keys, k)
	}
	slices.Sort(keys) // problems in a stable order
	for _, k := range keys {
		if !engine.Known(k) {
			probs = append(probs, Problem{Field: "remedies." + k, Level: LevelWarning, Message: unknownEngine(k) + "; its remedies are ignored"})
			delete(rec.Remedies, k)
		}
	}
	if len(rec.Engines) > 0 {
		kept := rec.Engines[:0:0]
		for i, e := range rec.Engines {
			if !engine.Known(e) {
				probs = append(probs, Problem{Field: fmt.Sprintf("engines[%d]", i), Level: LevelWarning, Message: unknownEngine(e) + "; ignored"})
				continue
			}
			kept = append(kept, e)
		}
		if len(kept) < len(rec.Engines) {
			rec.Engines = kept
			if len(kept) == 0 {
				rec.Engines = nil
			}
		}
	}
	return probs
}

// unknownEngine says that name is not an engine and which names are.
func unknownEngine(name string) string {
	msg := fmt.Sprintf("unknown engine %q", name)
	if l := strings.ToLower(name); l != name && engine.Known(l) {
		return msg + fmt.Sprintf(" (did you mean %q?)", l)
	}
	return msg + " (want " + strings.Join(engine.Names, ", ") + ")"
}

// lintEngines finds remedies no alert can show: those of an engine the
// record's engines list leaves out (its hits on that engine's logs are
// dropped), and empty lists. The problems carry no place.
func lintEngines(r *Record) []Problem {
	var probs []Problem
	keys := make([]string, 0, len(r.Remedies))
	for k := range r.Remedies {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		switch {
		case len(r.Remedies[k]) == 0:
			probs = append(probs, Problem{Field: "remedies." + k, Level: LevelWarning, Message: "empty: give the steps or leave the engine out"})
		case len(r.Engines) > 0 && !slices.Contains(r.Engines, k):
			probs = append(probs, Problem{Field: "remedies." + k, Level: LevelWarning,
				Message: fmt.Sprintf("engine %q is not in engines %v: the record never matches its logs, so these remedies are never shown", k, r.Engines)})
		}
	}
	return probs
}
