package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
	"github.com/logmatch/logmatch/sinks/alertmanager"
	"github.com/logmatch/logmatch/sinks/otel"
	"github.com/logmatch/logmatch/sinks/slack"
	"github.com/logmatch/logmatch/sinks/webhook"
)

// Sink types.
const (
	SinkStdout       = "stdout"
	SinkSlack        = "slack"
	SinkWebhook      = "webhook"
	SinkAlertmanager = "alertmanager"
	SinkOTel         = "otel"
)

// sinkTypes is every sink type, in the order messages list them.
var sinkTypes = []string{SinkStdout, SinkSlack, SinkWebhook, SinkAlertmanager, SinkOTel}

// Sink configures one destination: the keys every sink has, and the
// section of its type. In YAML the section's keys sit beside the common
// ones; the package of the sink type (sinks/slack, ...) owns them: its
// Config decodes them strictly, fills its defaults, resolves its secrets
// and validates them. Exactly the section of Type is set (none for
// stdout).
type Sink struct {
	Type string `yaml:"type"` // stdout, slack, webhook, alertmanager or otel
	// Name identifies the sink in metrics, logs and the state queue;
	// default the type, unique.
	Name string `yaml:"name"`
	// MinSeverity is the lowest record severity sent (default error for
	// slack, info otherwise).
	MinSeverity patterns.Severity `yaml:"min_severity"`
	// Queue and Retry default to the top-level queue and retry, key by key.
	Queue Queue `yaml:"queue"`
	Retry Retry `yaml:"retry"`

	Slack        *slack.Config        `yaml:"-" json:"-"`
	Webhook      *webhook.Config      `yaml:"-" json:"-"`
	Alertmanager *alertmanager.Config `yaml:"-" json:"-"`
	OTel         *otel.Config         `yaml:"-" json:"-"`
}

// SinkList is the sinks key. It decodes item by item so that a sink that
// fails to decode keeps its place: the decoder would drop the item, and
// every later sink would be named by the wrong index.
type SinkList []Sink

// UnmarshalYAML decodes each sink, collecting every problem.
func (l *SinkList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.SequenceNode {
		if n.ShortTag() == "!!null" {
			*l = nil
			return nil
		}
		return typeError(n, fmt.Sprintf("cannot unmarshal %s `%s` into a list of sinks", n.ShortTag(), redacted))
	}
	out := make(SinkList, len(n.Content))
	var msgs []string
	for i, item := range n.Content {
		var te *yaml.TypeError
		if err := item.Decode(&out[i]); errors.As(err, &te) {
			msgs = append(msgs, te.Errors...)
		} else if err != nil {
			msgs = append(msgs, fmt.Sprintf("line %d: %v", item.Line, err))
		}
	}
	*l = out
	if len(msgs) > 0 {
		return &yaml.TypeError{Errors: msgs}
	}
	return nil
}

// sinkCommon is the part of a sink's mapping that config decodes itself.
type sinkCommon struct {
	Type        string            `yaml:"type"`
	Name        string            `yaml:"name"`
	MinSeverity patterns.Severity `yaml:"min_severity"`
	Queue       Queue             `yaml:"queue"`
	Retry       Retry             `yaml:"retry"`
}

// commonSinkKeys are the keys of sinkCommon.
var commonSinkKeys = map[string]bool{"type": true, "name": true, "min_severity": true, "queue": true, "retry": true}

// UnmarshalYAML splits a sink's mapping into the common keys and the
// section of its type, and has the type's package decode the section.
// Problems come back in the decoder's "line N: ..." form, so the loader
// names the file, line and key of each.
func (s *Sink) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		// Never quote the value: a misplaced URL may hold a token.
		return typeError(n, fmt.Sprintf("cannot unmarshal %s `%s` into Sink", n.ShortTag(), redacted))
	}
	common := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
	section := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
	for i := 0; i+1 < len(n.Content); i += 2 {
		dst := section
		if commonSinkKeys[n.Content[i].Value] {
			dst = common
		}
		dst.Content = append(dst.Content, n.Content[i], n.Content[i+1])
	}
	var c sinkCommon
	var msgs []string
	collect := func(err error) {
		var te *yaml.TypeError
		switch {
		case err == nil:
		case errors.As(err, &te):
			msgs = append(msgs, te.Errors...)
		default:
			msgs = append(msgs, fmt.Sprintf("line %d: %v", n.Line, err))
		}
	}
	collect(sinks.DecodeStrict(common, &c))
	*s = Sink{Type: c.Type, Name: c.Name, MinSeverity: c.MinSeverity, Queue: c.Queue, Retry: c.Retry}
	switch c.Type {
	case SinkStdout:
		for i := 0; i+1 < len(section.Content); i += 2 {
			k := section.Content[i]
			msgs = append(msgs, fmt.Sprintf("line %d: field %s not found in type stdout (a stdout sink has only type, name, min_severity, queue and retry)", k.Line, k.Value))
		}
	case SinkSlack:
		s.Slack = new(slack.Config)
		collect(section.Decode(s.Slack))
	case SinkWebhook:
		s.Webhook = new(webhook.Config)
		collect(section.Decode(s.Webhook))
	case SinkAlertmanager:
		s.Alertmanager = new(alertmanager.Config)
		collect(section.Decode(s.Alertmanager))
	case SinkOTel:
		s.OTel = new(otel.Config)
		collect(section.Decode(s.OTel))
	}
	// An unknown or missing type is reported by validation, which names
	// the type key; its section cannot be checked without a type.
	if len(msgs) > 0 {
		return &yaml.TypeError{Errors: msgs}
	}
	return nil
}

// newSink returns a sink of typ with its section at the package's
// defaults, as a sink given by --sink starts.
func newSink(typ string) Sink {
	s := Sink{Type: typ}
	switch typ {
	case SinkSlack:
		c := slack.DefaultConfig()
		s.Slack = &c
	case SinkWebhook:
		c := webhook.DefaultConfig()
		s.Webhook = &c
	case SinkAlertmanager:
		c := alertmanager.DefaultConfig()
		s.Alertmanager = &c
	case SinkOTel:
		s.OTel = &otel.Config{}
	}
	return s
}

// section returns the sink's type section, nil for stdout.
func (s Sink) section() any {
	switch {
	case s.Slack != nil:
		return s.Slack
	case s.Webhook != nil:
		return s.Webhook
	case s.Alertmanager != nil:
		return s.Alertmanager
	case s.OTel != nil:
		return s.OTel
	}
	return nil
}

// secretKeys are the section keys whose values are credentials; headers
// are credentials value by value.
var secretKeys = map[string]bool{"url": true, "secret": true, "bearer_token": true}

// MarshalYAML writes the sink as it is configured, common keys and
// section side by side, with every credential redacted.
func (s Sink) MarshalYAML() (any, error) {
	var n yaml.Node
	if err := n.Encode(sinkCommon{Type: s.Type, Name: s.Name, MinSeverity: s.MinSeverity, Queue: s.Queue, Retry: s.Retry}); err != nil {
		return nil, err
	}
	if sec := s.section(); sec != nil {
		var sn yaml.Node
		if err := sn.Encode(sec); err != nil {
			return nil, err
		}
		for i := 0; i+1 < len(sn.Content); i += 2 {
			k, v := sn.Content[i], sn.Content[i+1]
			if commonSinkKeys[k.Value] || (v.Kind == yaml.ScalarNode && v.Value == "") {
				continue
			}
			switch {
			case secretKeys[k.Value]:
				v = &yaml.Node{Kind: yaml.ScalarNode, Value: redacted}
			case k.Value == "headers" && v.Kind == yaml.MappingNode:
				for j := 1; j < len(v.Content); j += 2 {
					v.Content[j] = &yaml.Node{Kind: yaml.ScalarNode, Value: redacted}
				}
			}
			n.Content = append(n.Content, k, v)
		}
	}
	return &n, nil
}

// MarshalJSON writes what MarshalYAML does, as JSON.
func (s Sink) MarshalJSON() ([]byte, error) {
	n, err := s.MarshalYAML()
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := n.(*yaml.Node).Decode(&m); err != nil {
		return nil, err
	}
	return json.Marshal(m)
}

// String renders the sink as redacted YAML.
func (s Sink) String() string {
	b, err := yaml.Marshal(s)
	if err != nil {
		return "sink " + s.Name + ": cannot render: " + err.Error()
	}
	return string(b)
}

// Format redacts every fmt verb: a section holds credentials.
func (s Sink) Format(f fmt.State, _ rune) { fmt.Fprint(f, s.String()) }

var sinkNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// keyMessageRE splits a sink package's "key: message" problem.
var keyMessageRE = regexp.MustCompile(`^([a-z_]+(?: and [a-z_]+)?): (.*)$`)

func (v *validator) sink(c *Config, i int, names map[string]string) {
	s := &c.Sinks[i]
	p := fmt.Sprintf("sinks[%d]", i)
	known := false
	for _, t := range sinkTypes {
		known = known || s.Type == t
	}
	if !known {
		if s.Type == "" && !v.o.hasChildren(p) {
			return // not a mapping: the decoder said so
		}
		if s.Type == "" {
			v.add(p+".type", "missing (want %s)", orList(sinkTypes))
		} else {
			v.add(p+".type", "unknown sink type %q (want %s)", s.Type, orList(sinkTypes))
		}
		return
	}
	set := func(k string) bool { return v.o.set(p + "." + k) }

	// Defaults, key by key, for what the sink does not set itself.
	if !set("name") {
		s.Name = s.Type
	}
	if !set("min_severity") {
		s.MinSeverity = patterns.SeverityInfo
		if s.Type == SinkSlack {
			s.MinSeverity = patterns.SeverityError
		}
	}
	if !set("queue.max_items") {
		s.Queue.MaxItems = c.Queue.MaxItems
	}
	if !set("queue.max_age") {
		s.Queue.MaxAge = c.Queue.MaxAge
	}
	if !set("retry.max_attempts") {
		s.Retry.MaxAttempts = c.Retry.MaxAttempts
	}
	if !set("retry.initial_backoff") {
		s.Retry.InitialBackoff = c.Retry.InitialBackoff
	}
	if !set("retry.max_backoff") {
		s.Retry.MaxBackoff = c.Retry.MaxBackoff
	}

	if !sinkNameRE.MatchString(s.Name) {
		v.add(p+".name", "bad sink name %q (letters, digits, '_', '.', '-'; at most 64)", s.Name)
	} else if prev, dup := names[s.Name]; dup {
		v.add(p+".name", "duplicate sink name %q (also %s); give each sink its own name (the name key, or --sink NAME:TYPE=URL)", s.Name, prev)
	} else {
		names[s.Name] = p
	}
	if sev, err := patterns.ParseSeverity(string(s.MinSeverity)); err != nil {
		v.add(p+".min_severity", "%v", err)
	} else {
		s.MinSeverity = sev
	}
	if set("queue.max_items") || set("queue.max_age") || set("queue") {
		v.queue(p+".queue", s.Queue)
	}
	if set("retry.max_attempts") || set("retry.initial_backoff") || set("retry.max_backoff") || set("retry") {
		v.retry(p+".retry", s.Retry)
	}

	// The section: the sink's package checks it, as it will when the sink
	// is built, with the same environment and files.
	var err error
	switch s.Type {
	case SinkSlack:
		s.Slack.MinSeverity = string(s.MinSeverity)
		err = s.Slack.Check(slack.Options{Getenv: v.getenv, ReadFile: v.readFile})
	case SinkWebhook:
		s.Webhook.MinSeverity = string(s.MinSeverity)
		err = s.Webhook.Check(webhook.Options{Getenv: v.getenv, ReadFile: v.readFile})
	case SinkAlertmanager:
		am := s.Alertmanager
		am.MinSeverity = string(s.MinSeverity)
		if !set("resolve_timeout") && c.GroupWindow > 0 {
			// Updates re-post an active incident once per window: the
			// alert must outlive the window, with room for a late one.
			am.ResolveTimeout = max(am.ResolveTimeout, 3*time.Duration(c.GroupWindow))
		} else if set("resolve_timeout") && c.GroupWindow > 0 && am.ResolveTimeout > 0 && am.ResolveTimeout <= time.Duration(c.GroupWindow) {
			v.add(p+".resolve_timeout", "%s is not above group_window %s: Alertmanager would resolve an active incident between its updates", Duration(am.ResolveTimeout), c.GroupWindow)
		}
		err = am.Check(alertmanager.Options{Getenv: v.getenv, ReadFile: v.readFile})
	case SinkOTel:
		err = s.OTel.Check()
	}
	v.sectionErrors(p, err)
}

// sectionErrors files each of a sink package's problems under the key it
// names, so it carries that key's file:line.
func (v *validator) sectionErrors(p string, err error) {
	if err == nil {
		return
	}
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	for _, e := range errs {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			v.sectionErrors(p, errors.Join(j.Unwrap()...))
			continue
		}
		msg := e.Error()
		m := keyMessageRE.FindStringSubmatch(msg)
		if m == nil {
			v.add(p, "%s", msg)
			continue
		}
		key := m[1]
		if first, _, ok := strings.Cut(key, " and "); ok {
			key = first
		}
		if key == "min_severity" {
			continue // checked above, with the common keys
		}
		v.add(p+"."+key, "%s", m[2])
	}
}
