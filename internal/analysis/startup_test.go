package analysis

import (
	"testing"

	"github.com/logmatch/logmatch/internal/entry"
)

func TestStartup(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		tb   bool
		want bool
	}{
		{"server_args=ServerArgs(model_path='/models/x', tp_size=8)", false, true},
		{"The server is fired up and ready to roll!", false, true},
		{"Started server process [4012]", false, true},
		{"Load weight begin. avail mem=78.50 GB", false, false},
		{"request dump: The server is fired up and ready to roll!", false, false},
		{"The server is fired up and ready to roll!", true, false}, // quoted in a traceback
		{"", false, false},
	} {
		e := &entry.Entry{Message: tc.msg}
		if tc.tb {
			e.Traceback = &entry.Traceback{}
		}
		if got := Startup(e); got != tc.want {
			t.Errorf("Startup(%q, traceback %v) = %v, want %v", tc.msg, tc.tb, got, tc.want)
		}
	}
}
