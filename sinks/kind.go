package sinks

// The kinds of alert (Alert.Kind).
const (
	KindNew      = "new"      // the first hit of an incident, sent at once
	KindSummary  = "summary"  // repeats counted when a window closed or the incident ended
	KindReminder = "reminder" // still happening after the repeat interval
	// KindUpdate re-announces an incident still active at a window's end,
	// for receivers that expire what is not re-posted (Alertmanager).
	KindUpdate = "update"
)

// KindSelector is implemented by a sink that takes only some kinds of
// alert. The delivery pipeline asks it before queueing an alert for the
// sink, so what a sink does not want is never stored for it.
type KindSelector interface {
	Wants(kind string) bool
}

// Wants reports whether s takes alerts of kind: its own answer when it is
// a KindSelector, otherwise every kind except KindUpdate, which only a
// receiver that expires alerts needs; people and event streams get the
// first alert, summaries and reminders.
func Wants(s Sink, kind string) bool {
	if ks, ok := s.(KindSelector); ok {
		return ks.Wants(kind)
	}
	return kind != KindUpdate
}
