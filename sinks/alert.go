package sinks

import "time"

// Schema is the value of Alert.Schema for this version of the contract.
const Schema = "logmatch.alert/v1"

// Alert is one incident as every sink receives it and as its JSON form
// (logmatch.alert/v1) is written: keys may be added, never renamed.
type Alert struct {
	Schema      string    `json:"schema"`
	Fingerprint string    `json:"fingerprint"` // stable hash of record id (or unclassified signature) + source identity
	Time        time.Time `json:"time"`        // first occurrence, from the log line when it has one
	LastTime    time.Time `json:"lastTime"`    // latest occurrence counted in Count
	Count       int       `json:"count"`       // occurrences in this incident so far
	// Kind says why this alert was emitted: "new" (first hit), "summary"
	// (repeats counted when a group window closed or the incident ended),
	// "reminder" (still happening after the repeat interval) or "update"
	// (still active at the end of a window; sent only to receivers that
	// expire alerts not re-posted, such as Alertmanager) or "liveness" (a
	// failure that tripped the liveness gate while its incident sent no
	// alert of its own; see Liveness). Sinks also render "resolved" for
	// receivers that are told an incident ended.
	Kind  string   `json:"kind"`
	Ranks []string `json:"ranks,omitempty"` // rank prefixes seen, e.g. "TP0", "DP1 TP3", "rank5"
	// FirstRank is the rank of the earliest occurrence: where the failure
	// began when several ranks report it.
	FirstRank string `json:"firstRank,omitempty"`
	// Headline is the real line that names the failure, with its values
	// (redacted like everything else): the matched line, the exception
	// line or the error line.
	Headline string `json:"headline,omitempty"`
	Record   Record `json:"record"`
	// Context lists the wrapper records around the cause ("Scheduler hit
	// an exception", "Exception in ASGI application"): which process or
	// role failed and what it was doing, best first.
	Context []ContextHit `json:"context,omitempty"`
	// Consequences are the failures that followed this one on the same
	// pod or node within the correlation window (signal relays to the
	// parent, peers' watchdog timeouts, exit codes), folded into this
	// incident instead of alerted on their own. In order of first
	// occurrence.
	Consequences []Consequence `json:"consequences,omitempty"`
	Match        Match         `json:"match"`
	Source       Source        `json:"source"`
	// Engine is the serving engine that wrote the log (sglang, vllm,
	// tgi, trtllm, triton, lmdeploy, ollama, llamacpp), detected from its
	// lines or configured; absent when not known. The record's solutions
	// are that engine's (see patterns.Record.SolutionsFor).
	Engine string `json:"engine,omitempty"`
	Entry  string `json:"entry"` // the whole entry, bounded and redacted
	// HungThread holds the top frames of the hung thread of a hang
	// (innermost first, "func (file.py:line)"), from the py-spy dump
	// sglang logs before its watchdog timeout.
	HungThread []string `json:"hungThread,omitempty"`
	// Secondary lists other records that matched the same entry, best first.
	Secondary []SecondaryHit `json:"secondary,omitempty"`
	// Liveness is set when this failure tripped logmatch's liveness gate,
	// so people know why the server is being restarted (or, with the flap
	// guard engaged, why it is not).
	Liveness *Liveness `json:"liveness,omitempty"`
}

// Liveness reasons: what a gating failure makes logmatch do.
const (
	LivenessRestart = "liveness failed: the server will be restarted"
	LivenessHeld    = "liveness held by the flap guard: the server will not be restarted"
	// LivenessUnwatched is a gating failure where nothing acts on the
	// gate: no /livez listener for a probe and no --on-fatal terminate
	// (standard input, a wrapped command left running).
	LivenessUnwatched = "liveness failed: the server is unusable, and nothing here restarts it"
)

// Liveness says what a gating failure did to the liveness gate.
type Liveness struct {
	// Reason is LivenessRestart, LivenessHeld or LivenessUnwatched.
	Reason string `json:"reason"`
	// State is the gate's new state: "failing" or "held".
	State string `json:"state"`
	// Action is how the restart happens: "probe" (/livez fails and the
	// kubelet restarts the container), "terminate" (wrap mode sends the
	// wrapped command SIGTERM) or "none" (held).
	Action string `json:"action"`
	// GatedRestarts is the flap counter: restarts caused by the gate
	// within Window before this failure; at MaxRestarts the flap guard
	// holds the gate open.
	GatedRestarts int    `json:"gatedRestarts"`
	MaxRestarts   int    `json:"maxRestarts"`
	Window        string `json:"window"` // a Go duration, e.g. "1h0m0s"
}

// Consequence is one kind of failure folded into a root-cause incident:
// every occurrence of one consequence record (or unclassified signature).
type Consequence struct {
	ID       string    `json:"id"`
	Slug     string    `json:"slug"`
	Severity string    `json:"severity"`
	Headline string    `json:"headline"` // the real line of its first occurrence
	Count    int       `json:"count"`
	Ranks    []string  `json:"ranks,omitempty"`
	Time     time.Time `json:"time"`     // first occurrence
	LastTime time.Time `json:"lastTime"` // latest occurrence
	// Fingerprint is the incident it would have been on its own.
	Fingerprint string `json:"fingerprint"`
}

// Record is the enrichment copied from the catalog record. For an
// unclassified traceback ID is empty and Slug is "unclassified".
type Record struct {
	ID               string   `json:"id"`
	Slug             string   `json:"slug"`
	Repo             string   `json:"repo"`
	Severity         string   `json:"severity"`
	ErrorClass       string   `json:"errorClass"`
	ErrorMessage     string   `json:"errorMessage"`
	Solutions        []string `json:"solutions"`
	PreventionTips   []string `json:"preventionTips"`
	Documentation    string   `json:"documentation"`
	HandlingStrategy string   `json:"handlingStrategy"`
	GithubURL        string   `json:"githubUrl"`
	FilePath         string   `json:"filePath"`
	LineNumber       int      `json:"lineNumber"`
	Tags             []string `json:"tags"`
	// Role is the record's role: "cause", "consequence" or "wrapper" (a
	// wrapper only when nothing else in the entry says what failed).
	Role string `json:"role,omitempty"`
	// Fatal marks a failure after which the server cannot serve.
	Fatal bool `json:"fatal,omitempty"`
}

// ContextHit is a wrapper record that matched around the cause.
type ContextHit struct {
	ID   string `json:"id"`
	Slug string `json:"slug"`
	Text string `json:"text"` // the wrapper's matched line
	// Fingerprint is set when the wrapper was an entry of its own, its
	// cause in the next: the fingerprint of the incident it would have
	// been alone.
	Fingerprint string `json:"fingerprint,omitempty"`
}

// Match is what matched in the entry.
type Match struct {
	Text      string            `json:"text"` // the line that matched
	Groups    map[string]string `json:"groups"`
	Exception *Exception        `json:"exception,omitempty"`
}

// Exception is the entry's outermost exception.
type Exception struct {
	Type       string `json:"type"`
	Message    string `json:"message"`
	Stacktrace string `json:"stacktrace"`
	RootCause  string `json:"rootCause,omitempty"` // "Type: message" of the first link of a chain
}

// Source says where the entry was read and who wrote it.
type Source struct {
	Path string `json:"path"`
	// File is the identity of the file content the entry was read from,
	// as the tailer reports it: "dev:ino:size:fingerprint" (device, inode,
	// and a hash of the first size bytes). A file deleted and recreated, or
	// truncated and rewritten, reads under a new File, so File and Offset
	// together name one entry where Path and Offset do not; sinks use them
	// to tell alerts apart (the webhook's Idempotency-Key). For a stream
	// (standard input, a wrapped command) it is "stream:<name>@<time this
	// logmatch started>". Absent when unknown (scan).
	File      string `json:"file,omitempty"`
	Offset    int64  `json:"offset"`
	Stream    string `json:"stream"`
	Pod       string `json:"pod"`
	Namespace string `json:"namespace"`
	Container string `json:"container"`
	Node      string `json:"node,omitempty"`
}

// SecondaryHit names another record that matched the same entry.
type SecondaryHit struct {
	ID   string `json:"id"`
	Slug string `json:"slug"`
}
