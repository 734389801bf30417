package incident

import (
	"cmp"

	"github.com/logmatch/logmatch/internal/analysis"
)

// NCCL's explanation after torch's report of it. torch reports a failed
// NCCL call as "NCCL error in: <file>:<line>, unhandled cuda error (run
// with NCCL_DEBUG=INFO for details)", NCCL's error name, "Last error:"
// and the warning NCCL printed where the call failed ("Cuda failure 2
// 'out of memory'", "socketStartConnect: Connect to ... failed : No route
// to host"). In one entry the matcher's reading of the whole message
// chooses between them (analysis.relaysLastError); a logger that puts its
// header on every line (vLLM's worker prefix, a user's per-line format)
// makes each line a record of its own, and the record that names the
// warning reads an entry of its own, a few lines after torch's. That
// warning is the cause torch's result string stands for
// (analysis.AwaitsNCCLDetail): its incident leads and torch's report is
// its context. A warning no record names does not take the lead from a
// record of torch's report: the record says more than the bare line.
// Only a report of the same source and rank, settling, printed at most
// narrowGap before the warning is claimed: two failures further apart
// stay apart.

// claimAwaited makes the settling classified incidents of gr's source
// whose line is torch's report of the NCCL failure gr's record names,
// printed just before it, context of gr (see above).
func (g *Grouper) claimAwaited(gr *group) {
	if !g.genericFolds() || !classifiedCause(gr) || gr.Source == "" {
		return
	}
	g.absorbJustBefore(gr, g.sourceCauses(causeKey(gr)), func(a *group) bool {
		return namedCause(a) && a.End <= gr.Off && gr.Off-a.End <= narrowGap &&
			(a.Alert.FirstRank == "" || gr.Alert.FirstRank == "" || a.Alert.FirstRank == gr.Alert.FirstRank) &&
			analysis.AwaitsNCCLDetail(lineOf(a), cmp.Or(a.Alert.Entry, lineOf(a)))
	})
}
