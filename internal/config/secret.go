package config

import (
	"fmt"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// redacted replaces a credential wherever a configuration is shown.
const redacted = "[redacted]"

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
