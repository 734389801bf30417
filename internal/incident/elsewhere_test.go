package incident_test

import (
	"fmt"
	"strings"
	"testing"
)

// A line that sends its reader elsewhere for its reason ("See inner
// exception for details.", "See root cause above.") reports a consequence
// of that reason, whatever role its record has: printed after the failure
// it points at, it is listed in that failure's incident, which leads.
// Alone it is still alerted. The inner failures are composed from c10d's
// own lines (a record's and a wording no record has) and a store's Python
// exception; the pointers from torch elastic's exception line and its
// error handler's JSON.

var innerFailures = []struct{ name, line, want string }{
	{"c10d's client socket timeout", "[E601 12:00:01.000001000 socket.cpp:957] [c10d] The client socket has timed out after 900s while trying to connect to (10.0.0.2, 29500).", "c10d-client-socket-timeout"},
	{"a c10d line no record reads", "[E601 12:00:01.000001000 socket.cpp:1101] [c10d] The store client dropped its session with [master-0]:29500: peer sent a malformed header (len 0).", ""},
	{"a store's exception", "torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 1/2 clients joined.", ""},
}

var pointers = []struct {
	name  string
	lines []string
}{
	{"elastic's exception line", []string{"torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for details."}},
	{"elastic's error handler JSON", []string{
		"ERROR:torch.distributed.elastic.multiprocessing.errors.error_handler:{",
		`  "message": {`,
		`    "message": "RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for details.",`,
	}},
}

func TestALinePointingElsewhereYieldsToWhatItPointsAt(t *testing.T) {
	m := crashMatcher(t)
	for _, in := range innerFailures {
		alone := scanLines(t, m, []string{in.line})
		if len(alone) != 1 {
			t.Fatalf("%s alone: %d incidents, want 1:%s", in.name, len(alone), describe(alone))
		}
		want := leadOf(alone[0])
		for _, p := range pointers {
			got := scanLines(t, m, append([]string{healthy[0], in.line}, p.lines...))
			if len(got) != 1 || leadOf(got[0]) != want {
				t.Errorf("%s then %s: want one incident led by %s, got %d:%s", in.name, p.name, want, len(got), describe(got))
			}
		}
	}
	for _, p := range pointers {
		if got := scanLines(t, m, append([]string{healthy[0]}, p.lines...)); len(got) != 1 {
			t.Errorf("%s alone: want one incident, got %d:%s", p.name, len(got), describe(got))
		}
	}
}

// TestAPointerApartFromAFailureIsItsOwnIncident: printed forty minutes
// after another failure, healthy serving between, the pointer is alerted
// on its own.
func TestAPointerApartFromAFailureIsItsOwnIncident(t *testing.T) {
	m := crashMatcher(t)
	lines := []string{"[2025-06-01 12:00:01] " + innerFailures[0].line}
	for k := 0; k < 20; k++ {
		lines = append(lines, strings.Replace(healthy[0], "2025-06-01 12:00:00", fmt.Sprintf("2025-06-01 12:%02d:00", 10+k), 1))
	}
	lines = append(lines, "[2025-06-01 12:40:01] "+pointers[0].lines[0])
	if got := scanLines(t, m, lines); len(got) != 2 {
		t.Errorf("want two incidents, got %d:%s", len(got), describe(got))
	}
}
