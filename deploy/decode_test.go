package deploy

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecodeStrict(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		wantKinds []string
		wantErr   string // substring; "" for success
	}{
		{
			name:      "two documents and an empty one",
			in:        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\n# only a comment\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: b\n",
			wantKinds: []string{"ConfigMap", "Service"},
		},
		{
			name:    "unknown field",
			in:      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\nspec:\n  replica: 1\n",
			wantErr: `unknown field "spec.replica"`,
		},
		{
			name:    "misplaced field in a container",
			in:      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespce: x\n",
			wantErr: `unknown field "metadata.namespce"`,
		},
		{
			name:    "duplicate field",
			in:      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n",
			wantErr: `key "name" already set`,
		},
		{
			name:    "unknown kind",
			in:      "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: a\n",
			wantErr: "in#0: unexpected type batch/v1 Job",
		},
		{
			name:    "no kind",
			in:      "metadata:\n  name: a\n",
			wantErr: "in#0: apiVersion and kind are required",
		},
		{
			name:    "ServiceMonitor field the local type lacks",
			in:      "apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata:\n  name: a\nspec:\n  selector: {}\n  endpoints:\n    - port: metrics\n      bearerTokenFile: /t\n",
			wantErr: `unknown field "spec.endpoints[0].bearerTokenFile"`,
		},
		{
			name:    "second document bad, first kept in the error only",
			in:      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Service\nspec:\n  portz: []\n",
			wantErr: "in#1: v1 Service",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := DecodeStrict("in", []byte(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, o := range objs {
				got = append(got, o.Kind)
			}
			if diff := cmp.Diff(tt.wantKinds, got); diff != "" {
				t.Errorf("kinds (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzDecodeStrict: any input either decodes into objects of known kinds
// with a place each, or fails; it never panics.
func FuzzDecodeStrict(f *testing.F) {
	f.Add([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n"))
	f.Add([]byte("---\n---\napiVersion: apps/v1\nkind: DaemonSet\nspec:\n  template:\n    spec:\n      containers: [{name: x}]\n"))
	f.Add([]byte("apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nspec:\n  endpoints: [{port: metrics}]\n"))
	f.Add([]byte("kind: [\n"))
	f.Add([]byte("apiVersion: v1\nkind: Secret\nstringData: {url: x}\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, err := DecodeStrict("fuzz", data)
		for _, o := range objs {
			if o.Value == nil || o.Kind == "" || o.Place == "" {
				t.Fatalf("incomplete object %+v (err %v)", o, err)
			}
			if newObject(o.APIVersion, o.Kind) == nil {
				t.Fatalf("object of unknown type %s %s", o.APIVersion, o.Kind)
			}
		}
	})
}
