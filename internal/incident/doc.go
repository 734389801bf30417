// Package incident turns matched entries into incidents and incidents into
// alerts. Hits of one record (or one unclassified traceback signature) from
// one source are grouped within a window, the way Alertmanager groups alerts:
// the first hit is announced at once, repeats are counted, a summary goes
// out when the window closes and a reminder after the repeat interval while
// the failure keeps happening. The grouper is pure: time is passed in, it
// starts no goroutines, and its state serialises for the checkpoint.
package incident
