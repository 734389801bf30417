package sinks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSecretRefResolve(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(good, []byte("  s3cr3t-from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOOK": "s3cr3t-from-env"}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		name    string
		ref     SecretRef
		want    string
		wantErr string
	}{
		{name: "value", ref: SecretRef{Value: "s3cr3t"}, want: "s3cr3t"},
		{name: "file", ref: SecretRef{File: good}, want: "s3cr3t-from-file"},
		{name: "env", ref: SecretRef{Env: "HOOK"}, want: "s3cr3t-from-env"},
		{name: "none", wantErr: "url: one of url, url_file or url_env is required"},
		{name: "two", ref: SecretRef{Value: "s3cr3t", Env: "HOOK"}, wantErr: "url: give only one of url, url_file or url_env"},
		{name: "missing file", ref: SecretRef{File: filepath.Join(dir, "nope")}, wantErr: "url_file: open " + filepath.Join(dir, "nope")},
		{name: "empty file", ref: SecretRef{File: empty}, wantErr: "url_file: " + empty + " is empty"},
		{name: "unset env", ref: SecretRef{Env: "NOPE"}, wantErr: "url_env: environment variable NOPE is empty or unset"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.ref.Resolve("url", getenv)
			if tc.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want prefix %q", err, tc.wantErr)
				}
				if strings.Contains(err.Error(), "s3cr3t") {
					t.Errorf("error shows the secret: %v", err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("Resolve = (%q, %v), want %q", got, err, tc.want)
			}
		})
	}
}
