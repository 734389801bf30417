package ingest

import (
	"fmt"
	"mime"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	common "go.opentelemetry.io/proto/otlp/common/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// InputOTLP names the OTLP logs input.
const InputOTLP = "otlp"

// identityAttributes are the resource attributes that name an OTLP
// stream, as the labels they become (dots turned to underscores, so the
// name reads like a Loki stream's). Other resource attributes (process
// ids, host details) are left out: they would make every restart a new
// source.
var identityAttributes = []string{
	"service.name", "service.namespace", "service.instance.id",
	"k8s.namespace.name", "k8s.pod.name", "k8s.container.name", "k8s.node.name",
	"container.name", "host.name",
}

// recordAttributes are the log record attributes that split a resource's
// records into streams: a file's lines, a container's stdout and stderr.
var recordAttributes = map[string]string{"log.file.path": "filename", "log.iostream": "stream"}

// OTLP serves OTLP logs over HTTP (POST /v1/logs), protobuf or JSON, on the
// receiver's queue: answered with an empty ExportLogsServiceResponse
// once committed.
func (r *Receiver) OTLP() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.serve(w, req, InputOTLP, DecodeOTLP, func(w http.ResponseWriter, h http.Header) {
			if mt, _, _ := mime.ParseMediaType(h.Get("Content-Type")); mt == "application/json" {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte("{}"))
				return
			}
			w.Header().Set("Content-Type", "application/x-protobuf")
			w.WriteHeader(http.StatusOK) // an empty message is zero bytes
		})
	})
}

// DecodeOTLP decodes an OTLP ExportLogsServiceRequest, protobuf
// (application/x-protobuf) or JSON (application/json), into streams: one
// per resource identity (identityAttributes) and log file or stream
// (recordAttributes), each record's body a line. Bodies that are not text
// (maps, lists) are left out. Errors are *Error, 4xx.
func DecodeOTLP(h http.Header, body []byte, _ int64) ([]PushStream, error) {
	ct := h.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return nil, errorf(http.StatusUnsupportedMediaType, ReasonContentType, "Content-Type %q: want application/x-protobuf or application/json", truncate(ct, 64))
	}
	var req collogs.ExportLogsServiceRequest
	switch mt {
	case "application/x-protobuf", "application/protobuf":
		if err := proto.Unmarshal(body, &req); err != nil {
			return nil, errorf(http.StatusBadRequest, ReasonMalformed, "protobuf body: %v", err)
		}
	case "application/json":
		if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(body, &req); err != nil {
			return nil, errorf(http.StatusBadRequest, ReasonMalformed, "JSON body: %v", err)
		}
	default:
		return nil, errorf(http.StatusUnsupportedMediaType, ReasonContentType, "Content-Type %q: want application/x-protobuf or application/json", truncate(mt, 64))
	}
	return otlpStreams(&req)
}

// otlpStreams groups the records of req into streams.
func otlpStreams(req *collogs.ExportLogsServiceRequest) ([]PushStream, error) {
	var out []PushStream
	at := map[string]int{}
	records := 0
	for _, rl := range req.GetResourceLogs() {
		base := map[string]string{}
		for _, kv := range rl.GetResource().GetAttributes() {
			for _, k := range identityAttributes {
				if kv.GetKey() == k {
					base[strings.ReplaceAll(k, ".", "_")] = text(kv.GetValue())
				}
			}
		}
		for _, sl := range rl.GetScopeLogs() {
			for _, lr := range sl.GetLogRecords() {
				line, ok := bodyText(lr.GetBody())
				if !ok {
					continue
				}
				if records++; records > MaxPushLines {
					return nil, tooManyLines()
				}
				labels := make([]Label, 0, len(base)+2)
				for k, v := range base {
					labels = append(labels, Label{k, v})
				}
				for _, kv := range lr.GetAttributes() {
					if name, ok := recordAttributes[kv.GetKey()]; ok {
						labels = append(labels, Label{name, text(kv.GetValue())})
					}
				}
				if len(labels) == 0 {
					labels = append(labels, Label{"service_name", "unknown_service"})
				}
				sort.Slice(labels, func(i, j int) bool { return labels[i].Name < labels[j].Name })
				key := LabelString(labels)
				i, seen := at[key]
				if !seen {
					if len(out) == maxPushStreams {
						return nil, errorf(http.StatusBadRequest, ReasonMalformed, "more than %d streams", maxPushStreams)
					}
					i = len(out)
					at[key] = i
					out = append(out, PushStream{Labels: labels})
				}
				ts := lr.GetTimeUnixNano()
				if ts == 0 {
					ts = lr.GetObservedTimeUnixNano()
				}
				var t time.Time
				if ts != 0 && ts <= 1<<63-1 {
					t = time.Unix(0, int64(ts)).UTC()
				}
				out[i].Entries = append(out[i].Entries, PushEntry{Time: t, Line: line})
			}
		}
	}
	return out, nil
}

// bodyText is a log record's body as a line: a string, bytes as text, a
// number or a bool as written; false for a map, a list or nothing.
func bodyText(v *common.AnyValue) (string, bool) {
	switch x := v.GetValue().(type) {
	case *common.AnyValue_StringValue:
		return x.StringValue, true
	case *common.AnyValue_BytesValue:
		return string(x.BytesValue), true
	case *common.AnyValue_IntValue:
		return strconv.FormatInt(x.IntValue, 10), true
	case *common.AnyValue_DoubleValue:
		return strconv.FormatFloat(x.DoubleValue, 'g', -1, 64), true
	case *common.AnyValue_BoolValue:
		return strconv.FormatBool(x.BoolValue), true
	}
	return "", false
}

// text is an attribute's value as a label value.
func text(v *common.AnyValue) string {
	if s, ok := bodyText(v); ok {
		return s
	}
	return fmt.Sprint(v.GetValue())
}
