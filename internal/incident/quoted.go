package incident

import (
	"cmp"

	"github.com/logmatch/logmatch/internal/analysis"
)

// A child's output, quoted. A runtime that ran a hook or a child process
// reports that the step failed with its exit status and then quotes the
// child's output ("... error running prestart hook #0: exit status 1,
// stdout: , stderr: Auto-detected mode as 'legacy'"); the output goes on on
// the next lines, and there the child's own error line says why
// ("nvidia-container-cli: initialization error: load library failed:
// libnvidia-ml.so.1: cannot open shared object file"). When a record names
// that line too, the two classified lines are one event, and the child's
// line leads: the runtime's line, which says only which step failed, is
// listed as its context. Two classified lines of one burst are otherwise
// led by the earlier (joinsBurst); a line printed apart from the quote
// (more than quotedGap bytes after it) is not its output.

// quotedGap bounds the bytes between the end of a line that opens a quote
// of a child's output and the child's line that it quotes: a few lines of
// the child's output, not another writer's burst.
const quotedGap = 512

// quotesChild reports whether the classified incident c ends in a quote of
// a child's output (analysis.QuotesOutput) that goes on at off: the child's
// line printed within quotedGap after it.
func quotesChild(c *group, off int64) bool {
	return namedCause(c) && c.End <= off && off-c.End <= quotedGap && analysis.QuotesOutput(cmp.Or(c.Alert.Entry, lineOf(c)))
}

// claimQuoted makes the settling classified lines of gr's source that
// quote the output gr is a line of (quotesChild) context of gr.
func (g *Grouper) claimQuoted(gr *group) {
	if !g.genericFolds() || !namedCause(gr) || gr.Source == "" {
		return
	}
	g.absorbJustBefore(gr, g.sourceCauses(causeKey(gr)), func(a *group) bool {
		return quotesChild(a, gr.Off)
	})
}
