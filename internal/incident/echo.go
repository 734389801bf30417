package incident

import (
	"slices"
	"strings"

	"github.com/logmatch/logmatch/patterns"
)

// A client's echo of the server's error. A client whose request the server
// refused logs the refusal with the response's body ("Error code: 400 -
// {'object': 'error', 'message': '...'}"): the body quotes what the server
// said when it failed. When the server's own line of that failure is in
// the same stream (a paste of both, a test harness that runs the server
// and the client), it is the failure, whether a record names it or not,
// and the client's echo, read after it within its burst, is listed in its
// incident rather than leading it. Without the server's line the echo
// leads, and a record that reads the quoted message inside it leads it
// (the matcher's ranking). The records of a client's report carry the
// tags "http" and "client"; those of its consequences (a 5xx, a
// disconnect, a timeout) fold into the burst's root as any consequence
// does.

// minQuoted is the shortest server message an echo must quote to be its
// echo: a message that long does not recur by chance.
const minQuoted = 24

// clientEcho reports whether o is a client's report of a failed request
// that may echo the server's error: a record tagged "http" and "client"
// that is no consequence.
func clientEcho(o *Occurrence) bool {
	r := &o.Alert.Record
	return r.ID != "" && r.Role != string(patterns.RoleConsequence) && slices.Contains(r.Tags, "client") && slices.Contains(r.Tags, "http")
}

// echoedFailure returns the failure of o's burst, printed before it in its
// source, whose message o, a client's echo (clientEcho), quotes: the
// earliest, or nil.
func (g *Grouper) echoedFailure(o *Occurrence, b burst) *group {
	if b.source == "" {
		return nil
	}
	echo := strings.ReplaceAll(o.Alert.Match.Text, `\`, "")
	if len(echo) < minQuoted {
		return nil
	}
	var best *group
	for _, m := range g.scopeGroups(b.scope) {
		c := m.gr
		if c.Source != b.source || c.Consequence || c.Off >= b.off || !g.inBurst(c, b) ||
			slices.Contains(c.Alert.Record.Tags, "client") || !quotes(echo, c) {
			continue
		}
		if best == nil || c.beganBefore(best) {
			best = c
		}
	}
	return best
}

// quotes reports whether echo holds the message of the incident c: its
// matched text or its exception's message, or the part of either after
// one of its labels ("Error in request: <message>"), at least minQuoted
// long.
func quotes(echo string, c *group) bool {
	texts := [2]string{c.Alert.Match.Text, ""}
	if x := c.Alert.Match.Exception; x != nil {
		texts[1] = x.Message
	}
	for _, t := range texts {
		t = strings.TrimSpace(strings.ReplaceAll(t, `\`, ""))
		for len(t) >= minQuoted {
			if strings.Contains(echo, t) {
				return true
			}
			i := strings.Index(t, ": ")
			if i < 0 {
				break
			}
			t = strings.TrimSpace(t[i+2:])
		}
	}
	return false
}
