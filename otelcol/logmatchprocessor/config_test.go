package logmatchprocessor

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/confmap/confmaptest"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/processor/processortest"
)

func TestLoadConfig(t *testing.T) {
	cm, err := confmaptest.LoadConf(filepath.Join("testdata", "config.yaml"))
	if err != nil {
		t.Fatalf("LoadConf: %v", err)
	}
	tests := []struct {
		id      string
		want    *Config
		wantErr string
	}{
		{id: "logmatch", want: defaultConfig(nil)},
		{id: "logmatch/hits", want: defaultConfig(func(c *Config) {
			c.Catalogs = []string{"testdata/warning.jsonl"}
			c.NoDefaultCatalog = true
			c.Match = "log"
			c.MinSeverity = "warning"
			c.Forward = ForwardHits
			c.SetSeverity = true
			c.EmitIncidents = false
		})},
		{id: "logmatch/incidents", want: defaultConfig(func(c *Config) {
			c.Forward = ForwardNone
			c.SettleTime = 500 * time.Millisecond
			c.GroupWindow = time.Minute
			c.RepeatInterval = 0
			c.CorrelationWindow = 10 * time.Minute
			c.MaxOpenIncidents = 50
			c.MaxStreams = 100
			c.IdleFlush = 250 * time.Millisecond
		})},
		{id: "logmatch/unknown_key", wantErr: "forwrd"},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			sub, err := cm.Sub(tt.id)
			if err != nil {
				t.Fatal(err)
			}
			cfg := NewFactory().CreateDefaultConfig().(*Config)
			err = sub.Unmarshal(cfg)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Unmarshal error = %v, want one naming %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Unmarshal: %v", err)
			}
			if err := cfg.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
			if diff := cmp.Diff(tt.want, cfg, cmpopts.IgnoreUnexported(Config{})); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Config)
		want []string // substrings, one per expected problem; none means valid
	}{
		{name: "default is valid", edit: func(*Config) {}},
		{name: "attribute match is valid", edit: func(c *Config) { c.Match = "log" }},
		{name: "severity aliases are valid", edit: func(c *Config) { c.MinSeverity = "Crit" }},
		{
			name: "no default catalog needs a catalog",
			edit: func(c *Config) { c.NoDefaultCatalog = true },
			want: []string{"catalogs: no_default_catalog is set but no catalog is named"},
		},
		{
			name: "empty catalog path",
			edit: func(c *Config) { c.Catalogs = []string{"a.jsonl", ""} },
			want: []string{"catalogs[1]: empty path"},
		},
		{
			name: "empty match",
			edit: func(c *Config) { c.Match = "" },
			want: []string{`match: empty; want "body" or an attribute name`},
		},
		{
			name: "unknown severity",
			edit: func(c *Config) { c.MinSeverity = "fatal" },
			want: []string{`min_severity: unknown severity "fatal"`},
		},
		{
			name: "unknown forward",
			edit: func(c *Config) { c.Forward = "matches" },
			want: []string{`forward: "matches"; want "all", "hits" or "none"`},
		},
		{name: "forward none with incidents is valid", edit: func(c *Config) { c.Forward = ForwardNone }},
		{name: "incidents off is valid", edit: func(c *Config) { c.EmitIncidents = false }},
		{
			name: "forward none without incidents lets nothing through",
			edit: func(c *Config) {
				c.Forward = ForwardNone
				c.EmitIncidents = false
			},
			want: []string{"forward: none with emit_incidents: false lets nothing through"},
		},
		{
			name: "set severity needs forwarded records",
			edit: func(c *Config) {
				c.Forward = ForwardNone
				c.SetSeverity = true
			},
			want: []string{"set_severity: applies to forwarded records, and forward is none"},
		},
		{
			name: "negative durations and empty bounds",
			edit: func(c *Config) {
				c.SettleTime = -time.Second
				c.CorrelationWindow = -time.Minute
				c.MaxOpenIncidents = 0
				c.MaxStreams = -1
			},
			want: []string{"settle_time: -1s is negative", "correlation_window: -1m0s is negative",
				"max_open_incidents: 0; want at least 1", "max_streams: -1; want at least 1"},
		},
		{
			name: "no idle flush with incidents",
			edit: func(c *Config) { c.IdleFlush = 0 },
			want: []string{"idle_flush: 0 would hold a stream's last entry"},
		},
		{
			name: "every problem at once",
			edit: func(c *Config) {
				c.NoDefaultCatalog = true
				c.Match = ""
				c.Forward = ""
				c.MinSeverity = "loud"
			},
			want: []string{"catalogs:", "match:", "min_severity:", "forward:"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := defaultConfig(tt.edit).Validate()
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("Validate: %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Validate: nil, want %q", tt.want)
			}
			got := strings.Split(err.Error(), "\n")
			if len(got) != len(tt.want) {
				t.Fatalf("Validate: %d problems %q, want %d", len(got), got, len(tt.want))
			}
			for i := range got {
				if !strings.Contains(got[i], tt.want[i]) {
					t.Errorf("problem %d = %q, want it to contain %q", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestStartFails(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{
			name: "missing catalog file",
			edit: func(c *Config) { c.Catalogs = []string{"testdata/absent.jsonl"} },
			want: "logmatch processor: catalog testdata/absent.jsonl: stat testdata/absent.jsonl: no such file or directory",
		},
		{
			// The one loader refuses a pattern that backtracks
			// catastrophically, here as in run, scan and lint.
			name: "catastrophic pattern refused as run refuses it",
			edit: func(c *Config) {
				c.Catalogs = []string{"testdata/catastrophic.jsonl"}
				c.NoDefaultCatalog = true
			},
			want: "logmatch processor: catalog: no usable records",
		},
		{
			name: "nothing left after min severity",
			edit: func(c *Config) {
				c.Catalogs = []string{"testdata/warning.jsonl"}
				c.NoDefaultCatalog = true
				c.MinSeverity = "critical"
			},
			want: "logmatch processor: catalog: no usable records",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			f := NewFactory()
			p, err := f.CreateLogs(ctx, processortest.NewNopSettings(f.Type()), defaultConfig(tt.edit), consumertest.NewNop())
			if err != nil {
				t.Fatalf("CreateLogs: %v", err)
			}
			err = p.Start(ctx, componenttest.NewNopHost())
			if err == nil || err.Error() != tt.want {
				t.Errorf("Start error = %v, want %q", err, tt.want)
			}
			if err := p.Shutdown(ctx); err != nil {
				t.Errorf("Shutdown: %v", err)
			}
		})
	}
}

func TestFactory(t *testing.T) {
	f := NewFactory()
	if got, want := f.Type().String(), TypeName; got != want {
		t.Errorf("Type = %q, want %q", got, want)
	}
	if got := f.LogsStability(); got != component.StabilityLevelAlpha {
		t.Errorf("LogsStability = %v, want alpha", got)
	}
	if err := componenttest.CheckConfigStruct(f.CreateDefaultConfig()); err != nil {
		t.Errorf("CheckConfigStruct: %v", err)
	}
	if _, err := f.CreateTraces(context.Background(), processortest.NewNopSettings(f.Type()), f.CreateDefaultConfig(), consumertest.NewNop()); err == nil {
		t.Error("CreateTraces succeeded, want an error: logs only")
	}
	processortest.VerifyShutdown(t, f, f.CreateDefaultConfig())
}

// The configuration the processor's README shows loads and is valid, and
// names every option.
func TestReadmeConfig(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```yaml\n(processors:\n.*?)```").FindSubmatch(b)
	if m == nil {
		t.Fatal("README.md has no processors: yaml block")
	}
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, m[1], 0o644); err != nil {
		t.Fatal(err)
	}
	cm, err := confmaptest.LoadConf(path)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := cm.Sub("processors::logmatch")
	if err != nil {
		t.Fatal(err)
	}
	cfg := NewFactory().CreateDefaultConfig().(*Config)
	if err := sub.Unmarshal(cfg); err != nil {
		t.Fatalf("Unmarshal: %v", err)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	typ := reflect.TypeFor[Config]()
	for i := range typ.NumField() {
		if key := typ.Field(i).Tag.Get("mapstructure"); key != "" && !sub.IsSet(key) {
			t.Errorf("README.md does not show %s", key)
		}
	}
}
