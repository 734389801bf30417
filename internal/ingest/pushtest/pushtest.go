// Package pushtest encodes push requests as shippers send them, for
// tests: Loki's protobuf (logproto.PushRequest) compressed with snappy's
// block format and its JSON, and OTLP logs in protobuf and JSON.
package pushtest

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/klauspost/compress/snappy"
	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	common "go.opentelemetry.io/proto/otlp/common/v1"
	logs "go.opentelemetry.io/proto/otlp/logs/v1"
	resource "go.opentelemetry.io/proto/otlp/resource/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/logmatch/logmatch/internal/ingest"
)

// Protobuf returns the snappy-compressed protobuf push request of streams,
// as Promtail sends it (Content-Type application/x-protobuf).
func Protobuf(streams []ingest.PushStream) []byte {
	return snappy.Encode(nil, Message(streams))
}

// Message returns the uncompressed protobuf PushRequest of streams.
func Message(streams []ingest.PushStream) []byte {
	var req []byte
	for _, s := range streams {
		var sb []byte
		sb = protowire.AppendTag(sb, 1, protowire.BytesType)
		sb = protowire.AppendString(sb, ingest.LabelString(s.Labels))
		for _, e := range s.Entries {
			var ts []byte
			ts = protowire.AppendTag(ts, 1, protowire.VarintType)
			ts = protowire.AppendVarint(ts, uint64(e.Time.Unix()))
			ts = protowire.AppendTag(ts, 2, protowire.VarintType)
			ts = protowire.AppendVarint(ts, uint64(e.Time.Nanosecond()))
			var eb []byte
			eb = protowire.AppendTag(eb, 1, protowire.BytesType)
			eb = protowire.AppendBytes(eb, ts)
			eb = protowire.AppendTag(eb, 2, protowire.BytesType)
			eb = protowire.AppendString(eb, e.Line)
			sb = protowire.AppendTag(sb, 2, protowire.BytesType)
			sb = protowire.AppendBytes(sb, eb)
		}
		// The hash Loki's distributor adds: a field the decoder skips.
		sb = protowire.AppendTag(sb, 3, protowire.VarintType)
		sb = protowire.AppendVarint(sb, 12345)
		req = protowire.AppendTag(req, 1, protowire.BytesType)
		req = protowire.AppendBytes(req, sb)
	}
	return req
}

// JSON returns the JSON push request of streams (Content-Type
// application/json).
func JSON(streams []ingest.PushStream) []byte {
	type stream struct {
		Stream map[string]string `json:"stream"`
		Values [][]string        `json:"values"`
	}
	var req struct {
		Streams []stream `json:"streams"`
	}
	for _, s := range streams {
		st := stream{Stream: map[string]string{}}
		for _, l := range s.Labels {
			st.Stream[l.Name] = l.Value
		}
		for _, e := range s.Entries {
			st.Values = append(st.Values, []string{strconv.FormatInt(e.Time.UnixNano(), 10), e.Line})
		}
		req.Streams = append(req.Streams, st)
	}
	b, err := json.Marshal(req)
	if err != nil {
		panic(err) // strings and maps of strings always marshal
	}
	return b
}

// Entries makes one entry per line of text, stamped from t on, a
// millisecond apart.
func Entries(t time.Time, lines []string) []ingest.PushEntry {
	es := make([]ingest.PushEntry, len(lines))
	for i, l := range lines {
		es[i] = ingest.PushEntry{Time: t.Add(time.Duration(i) * time.Millisecond), Line: l}
	}
	return es
}

// OTLP returns the ExportLogsServiceRequest of streams, one resource per
// stream whose attributes are the stream's labels with the OTel names
// (k8s_pod_name becomes k8s.pod.name), protobuf or (json) JSON.
func OTLP(streams []ingest.PushStream, json bool) []byte {
	req := &collogs.ExportLogsServiceRequest{}
	for _, s := range streams {
		res := &resource.Resource{}
		for _, l := range s.Labels {
			res.Attributes = append(res.Attributes, &common.KeyValue{Key: otelName(l.Name),
				Value: &common.AnyValue{Value: &common.AnyValue_StringValue{StringValue: l.Value}}})
		}
		sl := &logs.ScopeLogs{}
		for _, e := range s.Entries {
			sl.LogRecords = append(sl.LogRecords, &logs.LogRecord{
				TimeUnixNano: uint64(e.Time.UnixNano()),
				Body:         &common.AnyValue{Value: &common.AnyValue_StringValue{StringValue: e.Line}},
			})
		}
		req.ResourceLogs = append(req.ResourceLogs, &logs.ResourceLogs{Resource: res, ScopeLogs: []*logs.ScopeLogs{sl}})
	}
	var b []byte
	var err error
	if json {
		b, err = protojson.Marshal(req)
	} else {
		b, err = proto.Marshal(req)
	}
	if err != nil {
		panic(err) // a well-formed message always marshals
	}
	return b
}

// otelName turns a label name back into its attribute name.
func otelName(label string) string {
	switch label {
	case "k8s_namespace_name", "k8s_pod_name", "k8s_container_name", "k8s_node_name":
		return "k8s." + label[4:len(label)-5] + ".name"
	case "service_name":
		return "service.name"
	}
	return label
}
