// Package httpserve serves logmatch's HTTP endpoints (/metrics, /healthz,
// /livez, /readyz) so that no client can hold them off: every phase of a
// request has a deadline, and the connections held open are bounded. At
// the bound the connection idle the longest (between requests, or opened
// and silent) is closed to take the new one, so a thousand idle
// keep-alive connections leave the probes answering and the file
// descriptors the tailer needs free. It serves TLS from certificate files
// (TLSFiles) that it takes again when they change.
package httpserve
