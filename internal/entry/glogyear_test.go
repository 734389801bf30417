package entry

import (
	"testing"
	"time"
)

// TestGlogHeaderVariants: glog's header with the year before the month
// (log_year_in_prefix) and without it, with thread ids of any width, is
// read as a glog line; a year on the line makes its time whole, and a line
// without one after it takes the year from it.
func TestGlogHeaderVariants(t *testing.T) {
	es := assemble(t, Options{}, "I20251111 12:28:58.490254 215011 worker_server.cpp:72] Create worker server with device: 0\n"+
		"F20251111 12:28:58.504206 214989 collective_service.cpp:37] Check failed: status == HCCL_SUCCESS (1 vs. 0)\n"+
		"E1111 12:29:01.000001     7 transfer_engine.cpp:422] Failed to open the device\n"+
		"W1111 12:29:02.5 1234567890 x.cc:1] short fraction, long thread id\n")
	if len(es) != 4 {
		t.Fatalf("%d entries, want 4: %+v", len(es), views(es))
	}
	want := []struct {
		level string
		at    time.Time
		msg   string
	}{
		{LevelInfo, time.Date(2025, 11, 11, 12, 28, 58, 490254000, time.UTC), "Create worker server with device: 0"},
		{LevelFatal, time.Date(2025, 11, 11, 12, 28, 58, 504206000, time.UTC), "Check failed: status == HCCL_SUCCESS (1 vs. 0)"},
		{LevelError, time.Date(2025, 11, 11, 12, 29, 1, 1000, time.UTC), "Failed to open the device"},
		{LevelWarning, time.Date(2025, 11, 11, 12, 29, 2, 500000000, time.UTC), "short fraction, long thread id"},
	}
	for i, w := range want {
		e := es[i]
		if e.Native != NativeGlog || e.Level != w.level || !e.Time.Equal(w.at) || e.Message != w.msg || e.TimeGuessed {
			t.Errorf("line %d: native %q level %q time %v (guessed %v) message %q; want glog %q %v %q", i+1, e.Native, e.Level, e.Time, e.TimeGuessed, e.Message, w.level, w.at, w.msg)
		}
	}
	// Not a glog header: a year with no clock after it, a date glued on.
	for _, s := range []string{"E20251111 started", "E2025111 12:28:58.504206 1 x.cc:1] x", "E20251111T12:28:58.504206 1 x.cc:1] x"} {
		if es := assemble(t, Options{}, s+"\n"); len(es) != 1 || es[0].Native == NativeGlog {
			t.Errorf("%q read as glog", s)
		}
	}
}
