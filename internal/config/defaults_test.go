package config

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func printDefaults(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	if err := PrintDefaults(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestPrintDefaultsLoads(t *testing.T) {
	got, err := load(t, printDefaults(t))
	if err != nil {
		t.Fatalf("printed defaults do not load:\n%v", err)
	}
	if diff := cmp.Diff(loaded(nil), got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("printed defaults load as (-want +got):\n%s", diff)
	}
}

// TestPrintDefaultsExamples uncomments the example sinks and loads them,
// so the documented examples stay valid.
func TestPrintDefaultsExamples(t *testing.T) {
	lines := strings.Split(printDefaults(t), "\n")
	inSinks := false
	for i, l := range lines {
		if l == "sinks:" {
			inSinks = true
		}
		if inSinks && strings.HasPrefix(l, "#  ") {
			lines[i] = l[1:]
		}
	}
	env := fakeEnv{
		vars: map[string]string{"LOGMATCH_WEBHOOK_URL": "https://example.com/hook"},
		files: map[string]string{
			"/etc/logmatch/slack-webhook-url":  "https://hooks.slack.com/services/T/B/x\n",
			"/etc/logmatch/webhook-hmac-key":   "k\n",
			"/etc/logmatch/alertmanager-token": "t\n",
		},
	}
	text := strings.Join(lines, "\n")
	cfg, err := Load("defaults.yaml", []byte(text), env.getenv, env.readFile)
	if err != nil {
		t.Fatalf("uncommented examples do not load:\n%v\n%s", err, text)
	}
	var names []string
	for _, s := range cfg.Sinks {
		names = append(names, s.Name)
	}
	if diff := cmp.Diff([]string{"stdout", "slack", "webhook", "alertmanager", "otel"}, names); diff != "" {
		t.Errorf("example sinks (-want +got):\n%s", diff)
	}
}

// TestPrintDefaultsDocumentsEveryKey walks the Config type and checks that
// each yaml key appears in the printed file, set or commented out.
func TestPrintDefaultsDocumentsEveryKey(t *testing.T) {
	text := printDefaults(t)
	var keys []string
	var walk func(t reflect.Type)
	walk = func(typ reflect.Type) {
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "" || name == "-" {
				continue
			}
			keys = append(keys, name)
			ft := f.Type
			for ft.Kind() == reflect.Slice || ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct && ft.PkgPath() == typ.PkgPath() && ft.NumField() > 0 && ft.Field(0).IsExported() {
				walk(ft)
			}
		}
	}
	walk(reflect.TypeOf(Config{}))
	for _, k := range keys {
		re := regexp.MustCompile(`(?m)^[#\s]*(- )?` + regexp.QuoteMeta(k) + `:`)
		if !re.MatchString(text) {
			t.Errorf("key %q is not in the printed defaults", k)
		}
	}
	for _, v := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "LOGMATCH_POD_NAME", "LOGMATCH_POD_NAMESPACE", "LOGMATCH_NODE_NAME", "LOGMATCH_CONTAINER_NAME"} {
		if !strings.Contains(text, v) {
			t.Errorf("environment variable %s is not documented", v)
		}
	}
}

// The printed defaults keep Alertmanager's resolve_timeout above the group
// window, as the README asks: equal, an active incident would resolve
// between two updates.
func TestPrintDefaultsResolveTimeoutAboveGroupWindow(t *testing.T) {
	text := printDefaults(t)
	m := regexp.MustCompile(`resolve_timeout: (\S+)`).FindStringSubmatch(text)
	if m == nil {
		t.Fatal("no resolve_timeout in the printed defaults")
	}
	rt, err := parseDuration(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if rt <= Default().GroupWindow.D() {
		t.Errorf("printed resolve_timeout %s is not above group_window %s", m[1], Default().GroupWindow)
	}
}
