package incident

import "time"

// Notices of tolerated failures (analysis.Diagnosis.Notice) are decided
// here, at the settle step, and only here: the line's analysis says what
// a line is, a notice that quotes an error and carries on ("Ignore import
// error when loading ...", "Failed to ...; falling back to ..."), and
// the burst says whether that error mattered. An incident of notices
// only that nothing else joined by the time it settles is dropped
// unannounced (counted in Stats.Routine, as a routine line alone is),
// however often the notice was repeated: every rank of a launch prints
// it. One that a failure of its burst joined, as context or consequence,
// is announced as any other incident, and leads when the fold rules say
// it does: the error a notice quotes often explains the failure after it
// (a model module skipped on a compiler error, then the scheduler that
// finds no such architecture). Since that failure may be printed well
// after the notice (a scheduler that dies seconds later), a notice alone
// waits for it as a consequence waits for its cause (noticeAwaits), and
// only then is dropped. The same record seen later without the notice, a
// real failure, clears the mark (group.add).

// noticeAlone reports whether gr holds notices of tolerated failures
// only, with no consequence, context or other failure of its burst
// folded into it.
func (gr *group) noticeAlone() bool {
	a := &gr.Alert
	return gr.Notice && len(a.Consequences) == 0 && len(a.Context) == 0 && gr.Unlisted == 0
}

// noticeAwaits reports whether gr, notices alone, still waits for a
// failure of its burst to join it: as long as a consequence waits for its
// cause (awaitsCause), and not once its source was read past it.
func (g *Grouper) noticeAwaits(gr *group, now time.Time) bool {
	return gr.noticeAlone() && g.opts.Correlation > 0 && g.opts.ConsequenceWait > g.opts.Settle &&
		now.Before(gr.FirstSeen.Add(g.lateWait())) && !g.readPast(gr)
}
