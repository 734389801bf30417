package catalogcheck

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/logmatch/logmatch/internal/benchdata"
	"github.com/logmatch/logmatch/matcher"
	"github.com/logmatch/logmatch/patterns"
)

// Options tune Check. The zero value is what `patterns lint` uses.
type Options struct {
	// TopN is how many of the most expensive patterns to report; 0 means 10,
	// a negative value none.
	TopN int
	// Input is the standard text every pattern is timed on; empty means a
	// built-in sample of sglang output with a traceback.
	Input string
}

// Report is the analysis of a compiled catalog. Every slice is in catalog
// order except Expensive, which is most expensive first.
type Report struct {
	Records    int
	SelfMisses []SelfMiss
	Overlaps   []Overlap
	Unanchored []Unanchored
	Expensive  []Cost
}

// SelfMiss is a record whose own errorMessage, placeholders filled, does not
// match its messagePattern: the pattern (or the message) is probably wrong.
type SelfMiss struct {
	Record  *patterns.Record
	Message string // the filled message that was tried
	Err     error  // a pattern error while trying, or nil for a plain miss
}

// Overlap says Other's pattern also matches Record's filled message. When
// Shadowed, Other ranks above Record on it (with the record's errorClass as
// the exception type), so an operator would be shown Other's solutions.
type Overlap struct {
	Record, Other *patterns.Record
	Shadowed      bool
}

// Unanchored is a record the prefilter cannot key: it is tried on every
// entry, which costs every line a regex evaluation.
type Unanchored struct {
	Record *patterns.Record
	// Longest is its longest required literal; empty when it has none.
	Longest string
}

// Cost is the time one pattern takes on the standard input.
type Cost struct {
	Record   *patterns.Record
	PerMatch time.Duration
	Err      error // the pattern timed out or hit the stack limit
}

// Check analyses every record of m. It runs each record's message through
// the matcher once or a few times and each pattern over Options.Input once,
// so it takes about a second for thousands of records.
func Check(m *matcher.Matcher, opts Options) Report {
	recs := m.Records()
	r := Report{Records: len(recs)}
	for i := range recs {
		rec := &recs[i]
		if !m.Keyed(i) {
			r.Unanchored = append(r.Unanchored, Unanchored{Record: rec, Longest: longest(m.Required(i))})
		}
		if rec.ErrorMessage == "" {
			continue
		}
		miss, overlaps := checkMessage(m, rec)
		if miss != nil {
			r.SelfMisses = append(r.SelfMisses, *miss)
		}
		r.Overlaps = append(r.Overlaps, overlaps...)
	}
	r.Expensive = expensive(m, opts)
	return r
}

// checkMessage matches rec's filled message, as the record's exception would
// print it, and reports a self-miss or the other records that match it.
func checkMessage(m *matcher.Matcher, rec *patterns.Record) (*SelfMiss, []Overlap) {
	var types []string
	if rec.ErrorClass != "" {
		types = []string{rec.ErrorClass}
	}
	// The placeholder values tried, in order: a number satisfies (\d+) and
	// (.+?), a word or a path the patterns that want letters.
	fills := [...]string{"42", "x", "/tmp/model.safetensors"}
	var first *SelfMiss
	for _, v := range fills {
		msg := benchdata.Fill(rec.ErrorMessage, v)
		hits, errs := m.Match(matcher.Subject{Text: msg, ExceptionTypes: types})
		self := slices.IndexFunc(hits, func(h matcher.Hit) bool { return h.Record == rec })
		if self < 0 {
			if first == nil {
				first = &SelfMiss{Record: rec, Message: msg}
				if i := slices.IndexFunc(errs, func(e matcher.PatternError) bool { return e.Record == rec }); i >= 0 {
					first.Err = errs[i].Err
				}
			}
			continue
		}
		var out []Overlap
		for i, h := range hits {
			if i != self {
				out = append(out, Overlap{Record: rec, Other: h.Record, Shadowed: i < self})
			}
		}
		return nil, out
	}
	return first, nil
}

func longest(req matcher.Required) string {
	var best string
	for _, c := range req {
		for _, l := range c {
			if len(l.Text) > len(best) {
				best = l.Text
			}
		}
	}
	return best
}

// defaultInput is the standard input of the cost ranking: ordinary serving
// lines and a scheduler traceback, the text every pattern sees most.
const defaultInput = `[2026-05-28 00:11:09 DP0 TP0 EP0] Prefill batch, #new-seq: 1, #new-token: 512, #cached-token: 0, token usage: 0.01, #running-req: 0, #queue-req: 0, input throughput (token/s): 1024.50
[2026-05-28 00:11:10 TP0] Decode batch, #running-req: 12, #token: 4096, token usage: 0.05, cuda graph: True, gen throughput (token/s): 512.34, #queue-req: 0
[2026-05-28 00:11:11] INFO:     127.0.0.1:48276 - "POST /v1/chat/completions HTTP/1.1" 200 OK
[2026-05-28 00:11:12 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2310, in run_scheduler_process
    scheduler.event_loop_overlap()
  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 1721, in forward
    return self.forward_decode(forward_batch)
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.12 GiB is free.
`

func expensive(m *matcher.Matcher, opts Options) []Cost {
	n := opts.TopN
	if n == 0 {
		n = 10
	}
	if n < 0 {
		return nil
	}
	input := opts.Input
	if input == "" {
		input = defaultInput
	}
	recs := m.Records()
	costs := make([]Cost, len(recs))
	for i := range recs {
		re, err := m.Regexp(i)
		if err != nil {
			costs[i] = Cost{Record: &recs[i], Err: err}
			continue
		}
		start := time.Now()
		_, err = re.FindStringMatch(input)
		costs[i] = Cost{Record: &recs[i], PerMatch: time.Since(start)}
		if err != nil {
			// regexp2's own error quotes the input; the cost says enough.
			kind := matcher.ErrMatchTimeout
			if errors.Is(err, regexp2.ErrBacktrackingStackLimit) {
				kind = matcher.ErrStackLimit
			}
			costs[i].Err = fmt.Errorf("%s: messagePattern: %w", recs[i].Origin, kind)
		}
	}
	slices.SortStableFunc(costs, func(a, b Cost) int {
		if (a.Err != nil) != (b.Err != nil) {
			if a.Err != nil {
				return -1
			}
			return 1
		}
		return cmp.Compare(b.PerMatch, a.PerMatch)
	})
	return costs[:min(n, len(costs))]
}

// Render writes one line per finding, "file:line: id slug: what", then a
// summary line. Its output is what `patterns lint` prints.
func (r Report) Render(w io.Writer) error {
	var b strings.Builder
	for _, s := range r.SelfMisses {
		why := "does not match"
		if s.Err != nil {
			why = "failed on"
		}
		fmt.Fprintf(&b, "%s: messagePattern %s its own errorMessage (filled: %q)\n", place(s.Record), why, s.Message)
	}
	for _, o := range r.Overlaps {
		kind := "overlap"
		if o.Shadowed {
			kind = "shadowed: ranks first"
		}
		fmt.Fprintf(&b, "%s: errorMessage also matched by %s %s (%s; %s)\n", place(o.Record), o.Other.ID, o.Other.Slug, o.Other.Origin, kind)
	}
	for _, u := range r.Unanchored {
		if u.Longest == "" {
			fmt.Fprintf(&b, "%s: messagePattern has no literal anchor: tried on every entry\n", place(u.Record))
		} else {
			fmt.Fprintf(&b, "%s: messagePattern's longest literal %q is too short to index: tried on every entry\n", place(u.Record), u.Longest)
		}
	}
	for i, c := range r.Expensive {
		if c.Err != nil {
			fmt.Fprintf(&b, "%s: cost rank %d: %v on the standard input\n", place(c.Record), i+1, c.Err)
			continue
		}
		fmt.Fprintf(&b, "%s: cost rank %d: %v per match on the standard input\n", place(c.Record), i+1, c.PerMatch.Round(time.Microsecond))
	}
	fmt.Fprintf(&b, "%s\n", r.Summary())
	_, err := io.WriteString(w, b.String())
	return err
}

// Summary is one line of counts, e.g. "5695 records analysed: 3 patterns
// miss their own message, 12 overlaps (2 shadowed), 0 unanchored".
func (r Report) Summary() string {
	shadowed := 0
	for _, o := range r.Overlaps {
		if o.Shadowed {
			shadowed++
		}
	}
	return fmt.Sprintf("%d records analysed: %d patterns miss their own message, %d overlaps (%d shadowed), %d unanchored",
		r.Records, len(r.SelfMisses), len(r.Overlaps), shadowed, len(r.Unanchored))
}

func place(rec *patterns.Record) string {
	slug := rec.Slug
	if slug == "" {
		slug = "-"
	}
	return fmt.Sprintf("%s: %s %s", rec.Origin, rec.ID, slug)
}
