package logmatchprocessor

import (
	"context"
	"testing"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/processor/processortest"
)

// schedulerException is one sglang record as a recombining receiver hands
// it over: the scheduler's "hit an exception" header and the whole
// traceback CPython printed for the seed record's RuntimeError.
const schedulerException = `[2026-11-29 17:04:25 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 3071, in run_scheduler_process
    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, moe_ep_rank, pp_rank, dp_rank)
  File "/sgl-workspace/sglang/python/sglang/srt/disaggregation/ascend/conn.py", line 54, in init_engine
    self.engine = AscendTransferEngine(
  File "/sgl-workspace/sglang/python/sglang/srt/disaggregation/ascend/transfer_engine.py", line 84, in initialize
    raise RuntimeError("Ascend Transfer Engine initialization failed.")
RuntimeError: Ascend Transfer Engine initialization failed.
`

// seedSolutions are the seed record's four solutions, in catalog order.
var seedSolutions = []any{
	"Verify the metadata store (etcd/redis) at store_url is reachable from every PD node",
	"Check npu_id is valid (npu-smi info) and the container has that device assigned",
	"Check Ascend driver/CANN versions match across nodes and re-run; look at earlier native logs for the real error code",
	"Ensure no stale session with the same session_id/hostname exists; free or change the rpc port",
}

// record is the part of a log record the tests compare.
type record struct {
	Scope     string
	EventName string
	Body      string
	Severity  string
	Attrs     map[string]any
}

// input is one log record to send: a body and optional attributes.
type input struct {
	Body  string
	Attrs map[string]any
}

// logsOf builds one resource with one scope holding the inputs in order.
func logsOf(t testing.TB, ins ...input) plog.Logs {
	ld := plog.NewLogs()
	rl := ld.ResourceLogs().AppendEmpty()
	rl.Resource().Attributes().PutStr("k8s.pod.name", "sglang-0")
	sl := rl.ScopeLogs().AppendEmpty()
	for _, in := range ins {
		lr := sl.LogRecords().AppendEmpty()
		lr.Body().SetStr(in.Body)
		lr.SetTimestamp(pcommon.Timestamp(1_764_435_865_000_000_000))
		if in.Attrs != nil {
			if err := lr.Attributes().FromRaw(in.Attrs); err != nil {
				t.Fatalf("attributes %v: %v", in.Attrs, err)
			}
		}
	}
	return ld
}

// records flattens every record of the batches a sink received.
func records(batches []plog.Logs) []record {
	var out []record
	for _, ld := range batches {
		for i := 0; i < ld.ResourceLogs().Len(); i++ {
			sls := ld.ResourceLogs().At(i).ScopeLogs()
			for j := 0; j < sls.Len(); j++ {
				sl := sls.At(j)
				for k := 0; k < sl.LogRecords().Len(); k++ {
					lr := sl.LogRecords().At(k)
					r := record{
						Scope:     sl.Scope().Name(),
						EventName: lr.EventName(),
						Body:      lr.Body().AsString(),
						Severity:  lr.SeverityText(),
					}
					if lr.Attributes().Len() > 0 {
						r.Attrs = lr.Attributes().AsRaw()
					}
					out = append(out, r)
				}
			}
		}
	}
	return out
}

// run starts a processor built by the factory from cfg, feeds it ld and
// returns what reached the next consumer.
func run(t testing.TB, cfg *Config, ld plog.Logs) []plog.Logs {
	t.Helper()
	ctx := context.Background()
	f := NewFactory()
	sink := new(consumertest.LogsSink)
	p, err := f.CreateLogs(ctx, processortest.NewNopSettings(f.Type()), cfg, sink)
	if err != nil {
		t.Fatalf("CreateLogs: %v", err)
	}
	if err := p.Start(ctx, componenttest.NewNopHost()); err != nil {
		t.Fatalf("Start: %v", err)
	}
	defer func() {
		if err := p.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	}()
	if err := p.ConsumeLogs(ctx, ld); err != nil {
		t.Fatalf("ConsumeLogs: %v", err)
	}
	return sink.AllLogs()
}

// defaultConfig returns the factory's default config, changed by edit.
func defaultConfig(edit func(*Config)) *Config {
	cfg := NewFactory().CreateDefaultConfig().(*Config)
	if edit != nil {
		edit(cfg)
	}
	return cfg
}

// startProcessor builds and starts a processor sending to next, shut down
// when the test ends; tests call its methods directly.
func startProcessor(tb testing.TB, cfg *Config, next consumer.Logs) *logmatchProcessor {
	tb.Helper()
	p, err := newProcessor(cfg, processortest.NewNopSettings(component.MustNewType(TypeName)), next)
	if err != nil {
		tb.Fatalf("newProcessor: %v", err)
	}
	if err := p.start(context.Background(), componenttest.NewNopHost()); err != nil {
		tb.Fatalf("start: %v", err)
	}
	tb.Cleanup(func() {
		if err := p.shutdown(context.Background()); err != nil {
			tb.Errorf("shutdown: %v", err)
		}
	})
	return p
}
