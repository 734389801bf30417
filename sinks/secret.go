package sinks

import (
	"fmt"
	"os"
	"strings"
)

// SecretRef is a secret given by exactly one of three references, so that
// Kubernetes Secrets can be mounted as files or passed as environment
// variables instead of sitting in the config file.
type SecretRef struct {
	Value string // the secret itself
	File  string // path of a file holding it (surrounding whitespace trimmed)
	Env   string // name of an environment variable holding it
}

// IsSet reports whether any reference is given.
func (r SecretRef) IsSet() bool { return r.Value != "" || r.File != "" || r.Env != "" }

// Resolve returns the secret. field names the config key in errors (for
// example "url" makes them speak of url, url_file and url_env); getenv is
// os.Getenv when nil. Errors name the field, the file or the variable,
// never the secret.
func (r SecretRef) Resolve(field string, getenv func(string) string) (string, error) {
	return r.ResolveWith(field, getenv, nil)
}

// ResolveWith is Resolve with the file reader given too (os.ReadFile when
// nil), so a configuration can be checked against files that only exist
// where it will run.
func (r SecretRef) ResolveWith(field string, getenv func(string) string, readFile func(string) ([]byte, error)) (string, error) {
	n := 0
	for _, s := range []string{r.Value, r.File, r.Env} {
		if s != "" {
			n++
		}
	}
	switch {
	case n == 0:
		return "", fmt.Errorf("%s: one of %s, %s_file or %s_env is required", field, field, field, field)
	case n > 1:
		return "", fmt.Errorf("%s: give only one of %s, %s_file or %s_env", field, field, field, field)
	}
	switch {
	case r.Value != "":
		return r.Value, nil
	case r.File != "":
		if readFile == nil {
			readFile = os.ReadFile
		}
		b, err := readFile(r.File)
		if err != nil {
			return "", fmt.Errorf("%s_file: %w", field, err)
		}
		v := strings.TrimSpace(string(b))
		if v == "" {
			return "", fmt.Errorf("%s_file: %s is empty", field, r.File)
		}
		return v, nil
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	v := strings.TrimSpace(getenv(r.Env))
	if v == "" {
		return "", fmt.Errorf("%s_env: environment variable %s is empty or unset", field, r.Env)
	}
	return v, nil
}
