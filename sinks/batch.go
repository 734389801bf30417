package sinks

import "context"

// BatchSink is implemented by sinks that can deliver many alerts in one
// request, for example one Slack digest for an alert storm or one
// Alertmanager POST carrying an array.
//
// A delivery loop that finds at least BatchMin alerts waiting for a sink
// may hand them all to SendBatch instead of calling Send for each; below
// that it calls Send. SendBatch is all or nothing: nil means every alert of
// the batch was accepted, and on error retry says, as for Send, whether the
// whole batch may succeed later. A sink never delivers part of a batch and
// reports failure, so a retried batch repeats nothing.
type BatchSink interface {
	Sink
	// BatchMin is the smallest number of waiting alerts worth one batch,
	// at least 2; 0 means the sink is configured never to batch.
	BatchMin() int
	SendBatch(ctx context.Context, alerts []*Alert) (retry bool, err error)
}

// EncodedSink is implemented by sinks whose message is the alert's own
// JSON, exactly as AlertJSON renders it (the stdout sink): a delivery loop
// whose queue holds that JSON hands it to SendEncoded and skips decoding
// it into an Alert and encoding it again. SendEncoded means what Send
// means; payload is one alert's JSON without a trailing newline.
type EncodedSink interface {
	Sink
	SendEncoded(ctx context.Context, payload []byte) (retry bool, err error)
}
