package incident

import (
	"strconv"
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/sinks"
)

// unclassifiedAdvice gives a failure that no record names what a person
// can still act on: where to start reading, where to look it up, and how
// to make the next alert carry a fix. The link is the Python reference
// for a built-in exception type; the repository (for a search of its
// known issues) is inferred from the frames that raised it.
func unclassifiedAdvice(r *sinks.Record, e *entry.Entry, exc *entry.Exception) {
	var sol []string
	frames := framesOf(e, exc)
	if exc != nil && len(frames) > 0 {
		f := frames[len(frames)-1]
		where := f.File + ":" + strconv.Itoa(f.Line)
		if f.Func != "" {
			where += " in " + f.Func
		}
		if exc.Type == "" {
			sol = append(sol, "Start at the last frame the traceback printed before it was cut: "+where+"; the frames above it say what the server was doing")
		} else {
			sol = append(sol, "Start at the frame that raised "+exc.Type+": "+where+"; the frames above it say what the server was doing")
		}
	} else {
		sol = append(sol, "Read the log lines just before this one for what the process was doing when it failed")
	}
	sol = append(sol,
		"Search the server's known issues for the exact line above; a match usually names the fix or the version that has it",
		"Once the failure is understood, add a record for it to a catalog (logmatch patterns gen drafts one) so the next alert carries its solution",
	)
	r.Solutions = sol
	if exc != nil {
		if name := lastDotted(exc.Type); entry.BuiltinException(name) && exc.Type == name {
			r.Documentation = "https://docs.python.org/3/library/exceptions.html#" + name
		}
		r.Repo = repoOfFrames(frames)
	}
}

// framesOf returns the frames of exc, or of the nearest link before it
// that printed some (a re-raise in a handler may print none of its own).
func framesOf(e *entry.Entry, exc *entry.Exception) []entry.Frame {
	if exc == nil {
		return nil
	}
	if len(exc.Frames) > 0 || e.Traceback == nil {
		return exc.Frames
	}
	for i := len(e.Traceback.Links) - 1; i >= 0; i-- {
		if fs := e.Traceback.Links[i].Frames; len(fs) > 0 {
			return fs
		}
	}
	return nil
}

// repoOfFrames names the repository whose code raised an exception, from
// the innermost frame that lives in a known package.
func repoOfFrames(fs []entry.Frame) string {
	for i := len(fs) - 1; i >= 0; i-- {
		p := fs[i].File
		switch {
		case strings.Contains(p, "/sglang/"):
			return "sgl-project/sglang"
		case strings.Contains(p, "/torch/"):
			return "pytorch/pytorch"
		case strings.Contains(p, "/vllm/"):
			return "vllm-project/vllm"
		case strings.Contains(p, "/transformers/"):
			return "huggingface/transformers"
		}
	}
	return ""
}

func lastDotted(s string) string {
	return s[strings.LastIndexByte(s, '.')+1:]
}
