package incident

import (
	"cmp"
	"strings"
	"time"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/sinks"
)

// One exception, two records. A library's exception is often logged in
// two places of one burst, and each place matches another record: the
// Hub's GatedRepoError is printed once as "GatedRepoError: 401 Client
// Error" (matching the generic HTTP 401 record) and once as "Cannot access
// gated repo" (matching the gated-repo record). They are one failure. The
// record that names the exception itself, by its errorClass, says more
// than the one that matched a line of its message: when an incident's
// exception type is another classified cause's errorClass, and not its
// own record's, the two incidents of one burst from one source are one,
// led by the record of that class; the other is listed as its context,
// as a lone wrapper is (absorbWrapper).
//
// Python's built-in exception types (RuntimeError, ValueError, ...) name
// no failure of their own and never make two incidents one: two
// RuntimeErrors of one burst may be two failures.

// restates reports whether the incident a is the failure that the record
// of the incident b names by its exception class.
func restates(a, b *group) bool {
	x := a.Alert.Match.Exception
	if x == nil || x.Type == "" || !classifiedCause(a) || !classifiedCause(b) {
		return false
	}
	typ := lastDotted(x.Type)
	if entry.BuiltinException(typ) || lastDotted(b.Alert.Record.ErrorClass) != typ {
		return false
	}
	return lastDotted(a.Alert.Record.ErrorClass) != typ
}

// One library that does not load, several imports that fail. A native
// extension whose shared library cannot be loaded ("libnvrtc.so.12:
// cannot open shared object file", "undefined symbol: _ZN3c10...") makes
// every import of it fail, and a package that tries several ways to load
// it prints each: "No module named 'common_ops'", "cannot import name
// 'flash_attn_varlen_func'". Each matches a record of its own, and would
// page as a failure of its own; they are the one library that did not
// load. Within one burst of one source, a classified import failure is
// context of the classified cause that says a shared library did not
// load, whichever was printed first.

// unloaded reports whether the incident a is an import failure that the
// incident b, a shared library that did not load, explains
// (analysis.UnloadedLibrary): both classified causes.
func unloaded(a, b *group) bool {
	if !classifiedCause(a) || !classifiedCause(b) {
		return false
	}
	return analysis.UnloadedLibrary(exceptionText(b), exceptionText(a))
}

// A build that misses a symbol, and its loader giving up. A package
// whose native library was built against another torch prints the
// loader's error ("common_ops.abi3.so: undefined symbol: _ZNK3c10...")
// and then its own summary ("[sgl_kernel] CRITICAL: Could not load any
// common_ops library!"), each read by a record of its own. They are one
// event: within one burst of one source the symbol's line is context of
// the loader's summary, which leads as it does when both are one entry.

// builtAgainst reports whether the classified cause a is the missing
// symbol of a build that the classified cause b, its loader, gave up on
// (analysis.LoaderGaveUpOnBuild).
func builtAgainst(a, b *group) bool {
	return classifiedCause(a) && classifiedCause(b) && analysis.LoaderGaveUpOnBuild(exceptionText(a), exceptionText(b))
}

// One resource exhausted, several records. When a server runs out of a
// resource, every rank and every allocator that meets it says so in its
// own words, and each wording matches a record of its own: TP0's
// "torch.OutOfMemoryError: CUDA out of memory", TP1's "RuntimeError:
// CUDA error: out of memory", NCCL's "Cuda failure 'out of memory'"; two
// writers' "No space left on device". Within one burst of one source, a
// classified cause whose text says a resource ran out (memory, disk
// space, a process limit) is context of the classified cause of the
// same family begun before it: one exhaustion, led by where it was met
// first. Two causes of other families, or of a family a single event
// does not explain (two missing modules, two bad values), stay two.

// exhaustionFamilies are the families of a resource running out.
var exhaustionFamilies = [...]string{analysis.FamilyMemory, analysis.FamilyDisk, analysis.FamilyLimit}

// sameExhaustion reports whether the classified cause a says the
// resource ran out that the classified cause b, begun before it, already
// said ran out (exhaustionFamilies).
func sameExhaustion(a, b *group) bool {
	return classifiedCause(a) && classifiedCause(b) && b.beganBefore(a) && exhaustedAlike(a, b)
}

// namedExhaustion reports whether a is a failure no record names (a
// traceback, a native error line) that says the resource ran out that
// the classified cause b says ran out, whichever was printed first: the
// record says what to do about it.
func namedExhaustion(a, b *group) bool {
	return unclassifiedFailure(a) && canBeRoot(a) && classifiedCause(b) && exhaustedAlike(a, b)
}

// exhaustedAlike reports whether the texts of a and b say one resource
// ran out: the same family, one of exhaustionFamilies.
func exhaustedAlike(a, b *group) bool {
	fa := analysis.MessageFamily(exceptionText(a))
	if fa == "" || fa != analysis.MessageFamily(exceptionText(b)) {
		return false
	}
	for _, f := range exhaustionFamilies {
		if fa == f {
			return true
		}
	}
	return false
}

// exceptionText is the incident's exception as "Type: message", or the
// line it began with when it has none.
func exceptionText(gr *group) string { return alertExceptionText(&gr.Alert) }

// alertExceptionText is exceptionText of the incident of alert a.
func alertExceptionText(a *sinks.Alert) string {
	if x := a.Match.Exception; x != nil && x.Type != "" {
		return x.Type + ": " + x.Message
	}
	return lineOfAlert(a)
}

// foldRestatements makes each settling classified cause whose exception
// another settling classified cause of its burst names (restates) context
// of that one: those whose settle time is over, or all at Flush, taken in
// the order of ids (sortedIDs). An incident announced already stays as it
// is: nothing is paged twice.
func (g *Grouper) foldRestatements(ids []string, now time.Time, all bool) {
	if !g.genericFolds() {
		return
	}
	for _, id := range ids {
		a := g.groups[id]
		if a == nil || !a.Settling || (!all && !g.due(a, now)) || a.Source == "" {
			continue
		}
		var by *group
		b := burstOf(a)
		for _, m := range g.sourceCauses(causeKey(a)) {
			c := m.gr
			if m.id == id || !c.Settling || !g.inBurst(c, b) || !restates(a, c) && !unloaded(a, c) && !sameExhaustion(a, c) && !namedExhaustion(a, c) &&
				!builtAgainst(a, c) {
				continue
			}
			if by == nil || leads(c, by) {
				by = c
			}
		}
		if by == nil {
			continue
		}
		by.absorbWrapper(a, &g.stats)
		g.remove(id)
		g.touch(by)
	}
}

// One message, two lines. A process that fails on an error no record
// names often prints it twice: its logger's error line as it gives up
// ("ERROR worker: Application shutdown with error: Failed to connect to
// etcd server ..."), then the error it exits with ("Error: Failed to
// connect to etcd server ..."), each followed by its causes. Both are
// generic lines, and so would page twice. Within one burst of one source,
// a generic line whose message another generic line before it already
// holds (sameMessage) is that line's restatement: listed in its incident.
//
// One peer, many calls. A process whose server or store is unreachable
// fails every call that needs it, and each call logs a generic line of
// its own ("Failed to watch model files: All connection attempts
// failed", "Error running sync_state: [Errno 111] Connection refused"),
// the same failure in the words of whichever client made the call. Within
// one burst of one source, a generic line that says a connection failed
// (analysis.FamilyNetwork) after another that says so too is the same
// failure (samePeerFailure): listed in the first one's incident. Two
// lines that name two different peers (an address, host and port, or a
// URL's) are two failures, each connection its own.
//
// Two generic lines that say different things stay two incidents.

// maxLabel bounds the label in front of a line's message that sameMessage
// leaves out ("Error", "Application shutdown with error").
const maxLabel = 48

// minRestated is the shortest message sameMessage takes as one failure's:
// shorter ones ("failed", "Connection refused") are said of many.
const minRestated = 24

// sameMessage reports whether the lines a and b carry one message: the
// message of one (its text after a label of at most maxLabel bytes
// ending in ": ") is, whole and at least minRestated bytes long, part of
// the other; or the two say the same of two quoted names (sameShape).
func sameMessage(a, b string) bool {
	return messageIn(a, b) || messageIn(b, a) || sameShape(a, b)
}

// sameShape reports whether the lines a and b are one message said of
// another quoted name: "AttributeError: 'Qwen3MoeConfig' object has no
// attribute 'rope_parameters'" and the same of 'LlamaConfig', one failure
// met by two models of one start. Equal but for one quoted name, and at
// least minRestated bytes long without it. Two lines that differ in two
// names ('X' has no 'a', 'Y' has no 'b') say two things.
func sameShape(a, b string) bool {
	ma, na := maskQuoted(a)
	if len(na) == 0 || len(ma) < minRestated {
		return false
	}
	mb, nb := maskQuoted(b)
	if ma != mb || len(na) != len(nb) {
		return false
	}
	differ := 0
	for i := range na {
		if na[i] != nb[i] {
			differ++
		}
	}
	return differ == 1
}

// maxQuoted bounds the quoted name maskQuoted masks: a name, not a
// sentence; maxNames how many it reads.
const (
	maxQuoted = 128
	maxNames  = 16
)

// maskQuoted returns s with each quoted name ('...' or "...", at most
// maxQuoted bytes, on one line; the first maxNames) cut to its quotes, and
// the names it cut.
func maskQuoted(s string) (string, []string) {
	var b strings.Builder
	var names []string
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\'' && c != '"' || len(names) == maxNames {
			b.WriteByte(c)
			continue
		}
		j := strings.IndexByte(s[i+1:], c)
		if j <= 0 || j > maxQuoted || strings.ContainsAny(s[i+1:i+1+j], "\n") {
			b.WriteByte(c)
			continue
		}
		b.WriteByte(c)
		b.WriteByte(c)
		names = append(names, s[i+1:i+1+j])
		i += j + 1
	}
	return b.String(), names
}

// samePeerFailure reports whether the lines a and b each say that a
// connection failed: the one failure every call to an unreachable peer
// logs.
func samePeerFailure(a, b string) bool {
	if analysis.MessageFamily(a) != analysis.FamilyNetwork || analysis.MessageFamily(b) != analysis.FamilyNetwork {
		return false
	}
	pa, pb := peerOf(a), peerOf(b)
	return pa == "" || pb == "" || pa == pb
}

// maxPeerScan bounds the bytes of a line peerOf reads.
const maxPeerScan = 4096

// peerOf is the first address a line names, host and port
// ("localhost:4222", "10.0.0.4:50051", a URL's "ctl.local:8080"), lower
// case; "" when it names none. A host is letters, digits, dots and dashes
// with a letter or a dot in it, so that a time ("12:00:01") is none, and
// not a source file's name, so that a place in code ("core.py:708") is
// none either.
func peerOf(line string) string {
	if len(line) > maxPeerScan {
		line = line[:maxPeerScan]
	}
	for i := 1; i < len(line); i++ {
		if line[i] != ':' {
			continue
		}
		j := i + 1
		for j < len(line) && j-i <= 5 && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		if j-i-1 < 2 || j-i-1 > 5 || j < len(line) && line[j] >= '0' && line[j] <= '9' {
			continue
		}
		h := i
		named := false
		for h > 0 {
			c := line[h-1]
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' {
				named = true
			} else if !(c >= '0' && c <= '9' || c == '-') {
				break
			}
			h--
		}
		if named && h < i && !sourceFile(line[h:i]) {
			return strings.ToLower(line[h:j])
		}
	}
	return ""
}

// sameWriter reports whether the generic incidents a and b are error
// lines one writer printed (the same logger, the same rank's prefix:
// Occurrence.Writer) that do not name two peers. A component that fails
// logs its failure and then what it could not do because of it ("batch
// get failed: ...", "retrieved fewer tokens than expected", the counts),
// one event in several lines; lines of two writers may be two failures,
// and so may one client's failures to reach two peers.
func sameWriter(a, b *group) bool {
	if a.Writer == "" || a.Writer != b.Writer {
		return false
	}
	pa, pb := peerOf(lineOf(a)), peerOf(lineOf(b))
	return pa == "" || pb == "" || pa == pb
}

// sourceFile reports whether name, before a colon and digits, is a
// source file's ("adapter.py:751", "socket.cc:49"): a place in code, not
// a host and its port.
func sourceFile(name string) bool {
	dot := strings.LastIndexByte(name, '.')
	if dot < 0 {
		return false
	}
	switch strings.ToLower(name[dot+1:]) {
	case "py", "pyx", "c", "cc", "cpp", "cxx", "cu", "cuh", "h", "hpp", "rs", "go", "java", "js", "ts":
		return true
	}
	return false
}

// writerGoesOn reports whether the generic line of burst b may go on the
// failure whose first line is the generic incident c of the same writer
// (sameWriter): within the correlation window after c's latest line, as a
// consequence may be, and with no more than a burst's bytes of the source
// between them (maxBurstGap: the requests a server still answers, not a
// stretch of serving). A component that failed keeps saying so, in its
// own words, for each request that runs into the failure.
func (g *Grouper) writerGoesOn(c *group, b burst) bool {
	return !b.from.After(c.last().Add(g.opts.Correlation)) && gapBetween(c.Off, c.End, b.off, b.end) <= maxBurstGap
}

// One error, then the panic that unwrapped it. A Rust program logs the
// error a call returned ("ERROR gateway::backend: backend returned an
// unreadable body: expected value at line 1 column 1") and then unwraps
// it, and the panic repeats the error's debug form or nothing at all (a
// generic line: see unwrapPanic). Within one burst of one source, such a
// panic printed within unwrapWindow of a generic line before it is that
// line's failure: listed in its incident.

// unwrapWindow bounds the time between an error line and the unwrap
// panic that follows it: the same call, not the next request's.
const unwrapWindow = time.Second

// unwraps reports whether the generic incident gen is an unwrap panic
// printed within unwrapWindow after the generic line c, which is no such
// panic itself.
func unwraps(gen, c *group) bool {
	return gen.NativeKind == entry.NativeRustPanic && c.NativeKind != entry.NativeRustPanic &&
		!gen.At.After(c.last().Add(unwrapWindow))
}

// What failed, then that it failed. A program that meets a failure a
// record reads as a consequence (a connection refused, a peer that
// closed it, a request the router could not place) often goes on with a
// line of its own that says only that its task failed ("Failed to load
// the model", "request failed": analysis.VagueMessage), or panics on the
// error it unwrapped (unwrapPanic). The vague line
// says nothing the first did not; paging it, with the failure it gave up
// on listed under it, leads with the less useful line. Within one burst
// of one source, such a generic line printed after the line of a
// consequence record (one that says what to do) is listed in that
// consequence's incident, which then folds into its own root cause, or
// is alerted alone, as any consequence is.

// saidBefore returns the settling incident of a consequence record with
// solutions, of the burst b's source, printed before it and within it,
// when o is a generic line that only says something failed; the earliest
// such. Nil otherwise.
func (g *Grouper) saidBefore(o *Occurrence, b burst) *group {
	if b.source == "" || !o.Generic {
		return nil
	}
	o.Complete()
	if o.NativeKind != entry.NativeRustPanic && !analysis.VagueMessage(lineOfAlert(&o.Alert)) {
		// (A generic Rust panic is one that only unwrapped an error:
		// it says no more than that the call failed.)
		return nil
	}
	var best *group
	for _, m := range g.scopeConsequences(b.scope) {
		c := m.gr
		if !c.Settling || c.Source != b.source || c.Alert.Record.ID == "" || len(c.Alert.Record.Solutions) == 0 ||
			c.Off >= b.off || !g.inBurst(c, b) {
			continue
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	}
	return best
}

// The vague line may come first ("ERROR gateway::handler: request
// failed", then "upstream connect error: Connection refused"): the same
// two lines, the same lead. A settling vague line of the consequence's
// source and burst is no root the consequence folds into (saysLess);
// when its settle time ends it is listed in that consequence's incident
// (saidNear).

// vagueLine reports whether gr is the incident of a generic line that
// only says its task failed (analysis.VagueMessage) or of a Rust panic
// that only unwrapped an error (unwrapPanic).
func vagueLine(gr *group) bool {
	return gr.Generic && gr.Alert.Record.ID == "" &&
		(gr.NativeKind == entry.NativeRustPanic || analysis.VagueMessage(lineOf(gr)))
}

// saysLess reports whether the incident c is a settling vague line
// (vagueLine) of the source of a consequence that a record with
// solutions names, printed within a burst's bytes of it: the consequence
// says what failed, so c joins it rather than leads it.
func saysLess(c *group, from eventOf) bool {
	return from.recorded && from.source != "" && c.Settling && c.Source == from.source && vagueLine(c) &&
		gapBetween(c.Off, c.End, from.off, from.end) <= maxBurstGap
}

// saidNear returns, for the vague line gen (fingerprint id), the earliest
// settling incident of a consequence record with solutions of its source
// and burst, printed before or after it; nil when there is none or gen is
// no vague line.
func (g *Grouper) saidNear(gen *group, id string) *group {
	if gen.Source == "" || !vagueLine(gen) {
		return nil
	}
	b := burstOf(gen)
	var best *group
	for _, m := range g.scopeConsequences(gen.Scope) {
		c := m.gr
		if m.id == id || !c.Settling || c.Source != gen.Source || c.Alert.Record.ID == "" ||
			len(c.Alert.Record.Solutions) == 0 || !g.inBurst(c, b) {
			continue
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	}
	return best
}

// The same holds for an exception: a program that logged a failure
// with its traceback ("KeyError: 'rope_theta'") and then exits or
// re-raises in words of its own that say only that its task failed
// ("SystemExit: Failed to load the model", "RuntimeError: request
// failed": analysis.VagueException) says nothing new. Within one burst
// of one source, such an exception no record names, printed after a
// failure no record names either, is listed in that failure's incident
// (gaveUpOn); after a classified cause it already is (causeBefore).

// gaveUpOn returns the incident of a failure no record names (a
// traceback or a native error line), begun before the burst b in its
// source and within it, when o is an exception no record names that only
// says its task failed; the earliest such. Nil otherwise.
func (g *Grouper) gaveUpOn(o *Occurrence, b burst) *group {
	if b.source == "" || o.Alert.Record.ID != "" || o.Generic || o.Fragment {
		return nil
	}
	o.Complete()
	x := o.Alert.Match.Exception
	if x == nil || !analysis.VagueException(x.Type, x.Message) {
		return nil
	}
	var best *group
	for _, m := range g.sourceMembers(g.failBySource, sourceKey{b.scope, b.source}) {
		c := m.gr
		if c.Off >= b.off || !g.inBurst(c, b) || !canBeRoot(c) {
			continue
		}
		if cx := c.Alert.Match.Exception; cx != nil && analysis.VagueException(cx.Type, cx.Message) {
			continue
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	}
	return best
}

// vaguePeer returns, for the vague line gen (fingerprint id), the
// earliest generic line no record names of its source and burst that
// says more than that something failed, printed before or after it, by
// any writer: a worker's "tokenizer rejected the chat template
// 'chatml-v2'", then its launcher's "Engine startup failed". Nil when
// there is none or gen is no vague line.
func (g *Grouper) vaguePeer(gen *group, id string) *group {
	if gen.Source == "" || !vagueLine(gen) {
		return nil
	}
	b := burstOf(gen)
	var best *group
	for _, m := range g.members(g.genByScope, gen.Scope) {
		c := m.gr
		if m.id == id || !c.Generic || c.Alert.Record.ID != "" || c.Source != gen.Source || vagueLine(c) || !g.inBurst(c, b) {
			continue
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	}
	return best
}

// A peer lost, after a failure. Processes of one server talk over pipes
// and sockets; when one dies, the others' next call on the channel to it
// fails ("zmq.error.ZMQError: Socket operation on non-socket", a
// BrokenPipeError, an EOFError, a connection reset or refused). Within
// one burst of one source, an exception no record names that says only
// that a channel to a peer broke, printed after a failure (a traceback,
// a native error line, a classified cause), is that failure's
// consequence: listed in its incident (lostPeer).

// peerLossTypes are the exception types that say a channel to a peer
// broke, whatever their message.
var peerLossTypes = [...]string{"EOFError", "BrokenPipeError", "ConnectionResetError", "ConnectionAbortedError",
	"ConnectionRefusedError", "ZMQError", "ZMQBaseError", "ContextTerminated"}

// peerLoss reports whether the exception typ: msg says a channel to a
// peer broke (peerLossTypes, or a network failure's words).
func peerLoss(typ, msg string) bool {
	base := lastDotted(typ)
	for _, t := range peerLossTypes {
		if base == t {
			return true
		}
	}
	return analysis.MessageFamily(msg) == analysis.FamilyNetwork
}

// lostPeer returns the incident of the failure, begun before the burst b
// in its source and within it, that the exception o, no record naming
// it, lost its peer to (see above); the earliest such. Nil when o says
// no such thing or there is none.
func (g *Grouper) lostPeer(o *Occurrence, b burst) *group {
	if b.source == "" || o.Alert.Record.ID != "" || o.Generic || o.Fragment {
		return nil
	}
	o.Complete()
	x := o.Alert.Match.Exception
	if x == nil || x.Type == "" || !peerLoss(x.Type, x.Message) {
		return nil
	}
	var best *group
	for _, index := range [...]map[sourceKey]map[string]struct{}{g.failBySource, g.causeBySource} {
		for _, m := range g.sourceMembers(index, sourceKey{b.scope, b.source}) {
			c := m.gr
			if c.Off >= b.off || !g.inBurst(c, b) || !canBeRoot(c) || c.Consequence {
				continue
			}
			if cx := c.Alert.Match.Exception; cx != nil && cx.Type != "" && peerLoss(cx.Type, cx.Message) {
				continue
			}
			if best == nil || c.beganBefore(best) {
				best = c
			}
		}
	}
	return best
}

// lineOfAlert is the line an alert's incident began with.
func lineOfAlert(a *sinks.Alert) string { return cmp.Or(a.Match.Text, a.Headline) }

// messageIn reports whether line's message is part of other.
func messageIn(line, other string) bool {
	msg := line
	if i := strings.Index(line, ": "); i >= 0 && i <= maxLabel {
		msg = line[i+2:]
	}
	msg = strings.TrimSpace(msg)
	return len(msg) >= minRestated && strings.Contains(other, msg)
}

// lineOf is the text of the line an incident began with.
func lineOf(gr *group) string { return lineOfAlert(&gr.Alert) }

// restatedEarlier returns the generic incident of gen's burst and source,
// begun before it, whose line carries gen's message (sameMessage) or says
// the same peer is unreachable (samePeerFailure), or the generic incident
// of the same writer (sameWriter) that gen's line goes on
// (writerGoesOn): the first time the failure was printed. Nil when gen (fingerprint id) is no
// generic line no record names, or says something of its own.
func (g *Grouper) restatedEarlier(gen *group, id string) *group {
	if !gen.Generic || gen.Alert.Record.ID != "" || gen.Source == "" {
		return nil
	}
	var best *group
	b := burstOf(gen)
	for _, m := range g.members(g.genByScope, gen.Scope) {
		c := m.gr
		if m.id == id || !c.Generic || c.Alert.Record.ID != "" || c.Source != gen.Source ||
			c.At.After(gen.At) || c.At.Equal(gen.At) && c.Seq > gen.Seq {
			continue
		}
		if vagueLine(c) && !vagueLine(gen) {
			// A line that says what failed never goes on one that
			// only says that it failed: that one joins it (vaguePeer).
			continue
		}
		restated := g.inBurst(c, b) && (sameMessage(lineOf(c), lineOf(gen)) || samePeerFailure(lineOf(c), lineOf(gen)) || unwraps(gen, c))
		if !restated && !(sameWriter(c, gen) && g.writerGoesOn(c, b)) {
			continue
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	}
	return best
}
