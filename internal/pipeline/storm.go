package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/incident"
	"github.com/logmatch/logmatch/sinks"
)

// The bound on new incidents per sink. A storm of distinct failures (30,000
// distinct tracebacks in a minute) would otherwise page someone 30,000
// times: above the bound, new incidents are folded into one digest alert
// per sink per digestInterval, and counted (logmatch_sink_overflow_total).
// Summaries, reminders and updates of incidents already announced are not
// bounded: they are at most one per incident per window. Nor is a new
// alert of an incident whose fingerprint went to the sink within the last
// digestInterval (with --group-window 0 every hit is a new alert of the
// same incident): the bound brakes distinct incidents, not repeats.
const (
	// DefaultNewIncidentRate is how many new incidents a sink is sent per
	// minute, on average, before they are folded into a digest.
	DefaultNewIncidentRate = 30
	// DefaultNewIncidentBurst is how many may come at once.
	DefaultNewIncidentBurst = 30
	// digestInterval is how long a digest gathers before it is sent.
	digestInterval = time.Minute
	// digestSample bounds the headlines a digest lists.
	digestSample = 20
	// maxRecent bounds the fingerprints a bound remembers as recently
	// sent; past it the oldest are forgotten (then count as distinct).
	maxRecent = 4096
	// KindDigest marks a digest alert.
	KindDigest = "digest"
)

// rateBound is one sink's token bucket and its digest being gathered.
type rateBound struct {
	perMinute, burst int
	tokens           float64
	last             time.Time
	digest           *digest
	recent           map[string]time.Time // fingerprint -> when last sent
}

// digest is the overflow of one sink not yet sent. It is saved with the
// grouping state, so a restart neither loses nor repeats it.
type digest struct {
	Due        time.Time      `json:"due"`
	First      time.Time      `json:"first"` // log time of the earliest folded incident
	Last       time.Time      `json:"last"`
	Count      int            `json:"count"`
	BySeverity map[string]int `json:"bySeverity"`
	Sample     []string       `json:"sample"`
	Source     sinks.Source   `json:"source"` // of the first folded incident
}

// admit reports whether a new alert with fingerprint fp goes to the sink
// at now: a repeat of an incident sent within digestInterval does, a
// distinct incident takes a token; false means fold it into the digest.
func (r *rateBound) admit(fp string, now time.Time) bool {
	if r.perMinute <= 0 {
		return true
	}
	if at, ok := r.recent[fp]; ok && now.Sub(at) < digestInterval {
		r.recent[fp] = now
		return true
	}
	if !r.allow(now) {
		return false
	}
	if r.recent == nil {
		r.recent = map[string]time.Time{}
	}
	if len(r.recent) >= maxRecent {
		r.forget(now)
	}
	r.recent[fp] = now
	return true
}

// forget drops the fingerprints older than digestInterval, or, when all
// are recent, the older half.
func (r *rateBound) forget(now time.Time) {
	for fp, at := range r.recent {
		if now.Sub(at) >= digestInterval {
			delete(r.recent, fp)
		}
	}
	if len(r.recent) < maxRecent {
		return
	}
	times := make([]time.Time, 0, len(r.recent))
	for _, at := range r.recent {
		times = append(times, at)
	}
	slices.SortFunc(times, time.Time.Compare)
	cut := times[len(times)/2]
	for fp, at := range r.recent {
		if at.Before(cut) {
			delete(r.recent, fp)
		}
	}
}

// allow takes a token at now; false means none is left.
func (r *rateBound) allow(now time.Time) bool {
	if r.perMinute <= 0 {
		return true
	}
	if r.last.IsZero() {
		r.tokens = float64(r.burst)
	} else if d := now.Sub(r.last); d > 0 {
		r.tokens = min(float64(r.burst), r.tokens+d.Minutes()*float64(r.perMinute))
	}
	r.last = now
	if r.tokens >= 1 {
		r.tokens--
		return true
	}
	return false
}

// fold adds a to the digest being gathered; it reports whether a new
// digest began.
func (r *rateBound) fold(a *sinks.Alert, now time.Time) bool {
	d := r.digest
	began := d == nil
	if began {
		d = &digest{Due: now.Add(digestInterval), First: a.Time, Last: a.Time, BySeverity: map[string]int{}, Source: a.Source}
		r.digest = d
	}
	d.Count++
	d.BySeverity[a.Record.Severity]++
	if !a.Time.IsZero() && (d.First.IsZero() || a.Time.Before(d.First)) {
		d.First = a.Time
	}
	if a.Time.After(d.Last) {
		d.Last = a.Time
	}
	if len(d.Sample) < digestSample {
		d.Sample = append(d.Sample, headline(a))
	}
	return began
}

// headline is one line naming an incident.
func headline(a *sinks.Alert) string {
	what := a.Record.Slug
	if what == "" {
		what = a.Record.ID
	}
	text := a.Match.Text
	if len(text) > 160 {
		text = text[:160] + "…"
	}
	return fmt.Sprintf("%s %s: %s", strings.ToUpper(a.Record.Severity), what, sinks.OneLine(text))
}

// alert renders the digest of sink as one alert.
func (d *digest) alert(sink string, perMinute int) sinks.Alert {
	sev := ""
	for s := range d.BySeverity {
		if sinks.SeverityRank(s) > sinks.SeverityRank(sev) || sev == "" {
			sev = s
		}
	}
	var counts []string
	for s, n := range d.BySeverity {
		counts = append(counts, fmt.Sprintf("%d %s", n, s))
	}
	slices.Sort(counts)
	msg := fmt.Sprintf("%d new incidents (%s) came faster than %d per minute and were folded into this digest",
		d.Count, strings.Join(counts, ", "), perMinute)
	entry := strings.Join(d.Sample, "\n")
	if more := d.Count - len(d.Sample); more > 0 {
		entry += fmt.Sprintf("\n… and %d more", more)
	}
	return sinks.Alert{
		Schema:      sinks.Schema,
		Fingerprint: incident.Fingerprint("digest", sink+"|"+d.Due.UTC().Format(time.RFC3339Nano)),
		Time:        d.First,
		LastTime:    d.Last,
		Count:       d.Count,
		Kind:        KindDigest,
		Record: sinks.Record{
			Slug:         "incident-storm",
			Severity:     sev,
			ErrorMessage: msg,
			Solutions: []string{
				"A storm of distinct failures usually has one cause: look at the earliest ones listed here and at what changed just before.",
				"Every folded incident is counted in logmatch_sink_overflow_total; run \"logmatch scan\" on the log for the full list.",
			},
		},
		Match:  sinks.Match{Text: msg},
		Source: d.Source,
		Entry:  entry,
	}
}
