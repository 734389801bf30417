package otel

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/resource"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
)

// ServiceName is service.name when OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES do not set one.
const ServiceName = "logmatch"

// downwardVar names the variables, preferred first, that may carry one
// Kubernetes resource attribute.
type downwardVar struct {
	key   attribute.Key
	names []string
}

// downwardVars lists the variables a Pod spec fills from the downward
// API. Only prefixed names count: a generic NODE_NAME or CONTAINER_NAME
// in the environment of an unrelated shell says nothing about logmatch.
func downwardVars() []downwardVar {
	return []downwardVar{
		{semconv.K8SPodNameKey, []string{"K8S_POD_NAME", "LOGMATCH_POD_NAME"}},
		{semconv.K8SPodUIDKey, []string{"K8S_POD_UID", "LOGMATCH_POD_UID"}},
		{semconv.K8SNamespaceNameKey, []string{"K8S_NAMESPACE_NAME", "LOGMATCH_POD_NAMESPACE"}},
		{semconv.K8SNodeNameKey, []string{"K8S_NODE_NAME", "LOGMATCH_NODE_NAME"}},
		{semconv.K8SContainerNameKey, []string{"K8S_CONTAINER_NAME", "LOGMATCH_CONTAINER_NAME"}},
	}
}

// Resource describes this logmatch process: service.name "logmatch", the
// SDK's telemetry.sdk.* attributes, the Kubernetes attributes of the
// downward-API variables, then OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES, which win. Logmatch's metrics use the same
// resource so both signals join on it.
func Resource(ctx context.Context) (*resource.Resource, error) {
	attrs := []attribute.KeyValue{semconv.ServiceName(ServiceName)}
	for _, d := range downwardVars() {
		if _, v := lookup(d.names...); v != "" {
			attrs = append(attrs, d.key.String(v))
		}
	}
	// Detectors apply in order, each overriding the ones before it.
	r, err := resource.New(ctx,
		resource.WithSchemaURL(semconv.SchemaURL),
		resource.WithAttributes(attrs...),
		resource.WithTelemetrySDK(),
		resource.WithFromEnv(),
	)
	if err != nil {
		return nil, fmt.Errorf("resource: OTEL_RESOURCE_ATTRIBUTES: %w", err)
	}
	return r, nil
}
