package otlptest

import (
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
)

// Value converts an OTLP value to plain Go for comparisons in tests:
// string, bool, int64, float64, []byte, []any or map[string]any; nil for an
// empty value.
func Value(v *commonpb.AnyValue) any {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_BoolValue:
		return x.BoolValue
	case *commonpb.AnyValue_IntValue:
		return x.IntValue
	case *commonpb.AnyValue_DoubleValue:
		return x.DoubleValue
	case *commonpb.AnyValue_BytesValue:
		return x.BytesValue
	case *commonpb.AnyValue_ArrayValue:
		out := make([]any, 0, len(x.ArrayValue.GetValues()))
		for _, e := range x.ArrayValue.GetValues() {
			out = append(out, Value(e))
		}
		return out
	case *commonpb.AnyValue_KvlistValue:
		return Attributes(x.KvlistValue.GetValues())
	}
	return nil
}

// Attributes converts OTLP key-values to a map of plain Go values (see
// Value).
func Attributes(kvs []*commonpb.KeyValue) map[string]any {
	out := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		out[kv.GetKey()] = Value(kv.GetValue())
	}
	return out
}
