package config

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// redacted is what a Secret prints as.
const redacted = "[redacted]"

// Secret is a credential: a webhook URL with its token, an HMAC key, a
// header value. It prints, formats and marshals as "[redacted]" so a
// config can be logged or shown whole; only Value reveals it.
type Secret struct {
	value string
}

// NewSecret wraps a value.
func NewSecret(v string) Secret { return Secret{value: v} }

// Value returns the secret itself, for the code that uses it.
func (s Secret) Value() string { return s.value }

// IsZero reports whether the secret is unset, for omitempty.
func (s Secret) IsZero() bool { return s.value == "" }

// IsSet reports whether the secret has a non-empty value.
func (s Secret) IsSet() bool { return s.value != "" }

// String returns "[redacted]", or "" when the secret is unset.
func (s Secret) String() string {
	if s.value == "" {
		return ""
	}
	return redacted
}

// GoString redacts %#v.
func (s Secret) GoString() string { return `config.Secret("` + s.String() + `")` }

// Format redacts every fmt verb, not only those that call String.
func (s Secret) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		fmt.Fprint(f, s.GoString())
		return
	}
	fmt.Fprint(f, s.String())
}

// MarshalYAML writes the redacted form.
func (s Secret) MarshalYAML() (any, error) { return s.String(), nil }

// MarshalJSON writes the redacted form.
func (s Secret) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// UnmarshalYAML reads a scalar. Its errors never quote the value.
func (s *Secret) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return typeError(n, "want a string")
	}
	s.value = n.Value
	return nil
}

// Duration is a time.Duration written as Go duration text ("30s", "5m",
// "4h"); a bare 0 is accepted too, for settings where 0 means off.
type Duration time.Duration

// D returns the duration as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// String formats like time.Duration, without the zero units it adds
// ("5m" rather than "5m0s").
func (d Duration) String() string {
	s := time.Duration(d).String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}

// MarshalYAML writes the duration as text.
func (d Duration) MarshalYAML() (any, error) { return d.String(), nil }

// UnmarshalYAML parses Go duration text or 0.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return typeError(n, "want a duration such as 30s, 5m or 4h")
	}
	v, err := parseDuration(n.Value)
	if err != nil {
		return typeError(n, err.Error())
	}
	*d = Duration(v)
	return nil
}

func parseDuration(s string) (time.Duration, error) {
	if s == "0" {
		return 0, nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q (want a duration such as 30s, 5m or 4h)", s)
	}
	return v, nil
}

// typeError reports a decoding problem in the form the YAML decoder uses
// for its own, so the loader gives both the same file:line and key path;
// the column tells apart a key's value from its first item on the line.
func typeError(n *yaml.Node, msg string) error {
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: column %d: %s", n.Line, n.Column, msg)}}
}
