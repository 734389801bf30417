// Package ingest receives logs over the network for logmatch run: the
// diagnose API (POST /v1/diagnose), which answers with the incidents of
// the log text it is given as scan would, and the push inputs that feed
// run's processor like a tailed file (the Loki push API).
//
// Every byte received is untrusted. Each request is bounded in size (the
// body and what it decompresses to), in time and in the requests served at
// once; what does not fit is answered with a 4xx status that says what was
// wrong, counted by reason, and never reaches the processor. The decoders
// are pure functions of the request's headers and bytes, so they are
// fuzzed on their own.
//
// A push is answered once run has committed its lines with their alerts.
// Each push is known by its content (PushKey); run commits the keys with
// the lines, so a shipper's retry of a push whose answer was lost is
// answered without being read again. Who may push is a bearer token, a
// client certificate verified by the TLS listener, or both (Auth); a
// pushed stream's labels say whose log it is (LabelMap).
package ingest
