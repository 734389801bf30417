package deploy

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// MaxDocumentBytes bounds one YAML document of a manifest; a larger one is
// an error rather than an unbounded read.
const MaxDocumentBytes = 1 << 20

// Object is one document of a manifest stream, decoded strictly into the
// Go type of its kind.
type Object struct {
	// Place names the document: "file#index" (index from 0, empty
	// documents included).
	Place string
	// Kind and APIVersion are the document's type.
	Kind, APIVersion string
	// Value is a pointer to the decoded object: *appsv1.Deployment,
	// *corev1.ConfigMap, *ServiceMonitor, ...
	Value any
}

// ServiceMonitor is the part of the Prometheus Operator's
// monitoring.coreos.com/v1 ServiceMonitor that logmatch's chart renders.
// The Kubernetes API modules do not carry the type and the operator's module
// would pull in far more than these tests need; a field the chart renders
// that is missing here fails the strict decode, so it is added on purpose.
type ServiceMonitor struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	// Spec selects the Services to scrape and says how.
	Spec ServiceMonitorSpec `json:"spec"`
}

// ServiceMonitorSpec is the spec of a ServiceMonitor.
type ServiceMonitorSpec struct {
	// JobLabel names the Service label used as the job name.
	JobLabel string `json:"jobLabel,omitempty"`
	// Selector picks the Services by label.
	Selector metav1.LabelSelector `json:"selector"`
	// NamespaceSelector picks the namespaces searched.
	NamespaceSelector *NamespaceSelector `json:"namespaceSelector,omitempty"`
	// Endpoints are the ports scraped.
	Endpoints []Endpoint `json:"endpoints"`
}

// NamespaceSelector is a ServiceMonitor's namespace selection.
type NamespaceSelector struct {
	// Any selects every namespace.
	Any bool `json:"any,omitempty"`
	// MatchNames lists namespaces.
	MatchNames []string `json:"matchNames,omitempty"`
}

// Endpoint is one scraped port of a ServiceMonitor.
type Endpoint struct {
	// Port is the Service port's name.
	Port string `json:"port"`
	// Path is the metrics path.
	Path string `json:"path,omitempty"`
	// Interval and ScrapeTimeout are Prometheus durations.
	Interval      string `json:"interval,omitempty"`
	ScrapeTimeout string `json:"scrapeTimeout,omitempty"`
}

// newObject returns a pointer to a zero value of the type that the kind and
// apiVersion name, or nil for a type these tests do not know.
func newObject(apiVersion, kind string) any {
	switch apiVersion + " " + kind {
	case "apps/v1 Deployment":
		return &appsv1.Deployment{}
	case "apps/v1 DaemonSet":
		return &appsv1.DaemonSet{}
	case "v1 Service":
		return &corev1.Service{}
	case "v1 ConfigMap":
		return &corev1.ConfigMap{}
	case "v1 Secret":
		return &corev1.Secret{}
	case "v1 ServiceAccount":
		return &corev1.ServiceAccount{}
	case "monitoring.coreos.com/v1 ServiceMonitor":
		return &ServiceMonitor{}
	}
	return nil
}

// DecodeStrict splits a multi-document YAML stream and decodes every
// non-empty document into the Go type of its kind, rejecting unknown and
// duplicate fields. name is used in errors and in Object.Place. Every
// problem is returned, joined, so one bad document does not hide the next.
func DecodeStrict(name string, data []byte) ([]Object, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var objs []Object
	var errs []error
	for i := 0; ; i++ {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		place := fmt.Sprintf("%s#%d", name, i)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: split documents: %w", place, err))
			break
		}
		if len(doc) > MaxDocumentBytes {
			errs = append(errs, fmt.Errorf("%s: document of %d bytes exceeds %d", place, len(doc), MaxDocumentBytes))
			continue
		}
		obj, err := decodeDocument(place, doc)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if obj != nil {
			objs = append(objs, *obj)
		}
	}
	return objs, errors.Join(errs...)
}

// decodeDocument decodes one document; it returns nil, nil for a document
// holding only comments or whitespace (helm and kustomize emit those).
func decodeDocument(place string, doc []byte) (*Object, error) {
	var generic any
	if err := yaml.Unmarshal(doc, &generic); err != nil {
		return nil, fmt.Errorf("%s: %w", place, err)
	}
	if generic == nil {
		return nil, nil
	}
	var tm metav1.TypeMeta
	if err := yaml.Unmarshal(doc, &tm); err != nil {
		return nil, fmt.Errorf("%s: apiVersion and kind: %w", place, err)
	}
	if tm.Kind == "" || tm.APIVersion == "" {
		return nil, fmt.Errorf("%s: apiVersion and kind are required", place)
	}
	v := newObject(tm.APIVersion, tm.Kind)
	if v == nil {
		return nil, fmt.Errorf("%s: unexpected type %s %s", place, tm.APIVersion, tm.Kind)
	}
	// YAMLToJSONStrict rejects duplicate keys; sigs.k8s.io/json (the
	// decoder of the API server's strict field validation) then names the
	// full path of every unknown field.
	js, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %s %s: %w", place, tm.APIVersion, tm.Kind, err)
	}
	strict, err := kjson.UnmarshalStrict(js, v, kjson.DisallowDuplicateFields, kjson.DisallowUnknownFields)
	if err != nil {
		return nil, fmt.Errorf("%s: %s %s: %w", place, tm.APIVersion, tm.Kind, err)
	}
	if len(strict) > 0 {
		return nil, fmt.Errorf("%s: %s %s: %w", place, tm.APIVersion, tm.Kind, errors.Join(strict...))
	}
	return &Object{Place: place, Kind: tm.Kind, APIVersion: tm.APIVersion, Value: v}, nil
}
