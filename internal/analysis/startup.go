package analysis

import (
	"strings"

	"github.com/logmatch/logmatch/internal/entry"
)

// startupLines open the messages a server writes as it starts: sglang's
// arguments at launch, its word that it is ready, uvicorn's start of the
// HTTP server.
var startupLines = []string{
	"server_args=ServerArgs(",
	"The server is fired up and ready to roll!",
	"Started server process",
}

// Startup reports whether e is a line a server writes as it starts: what
// follows it in its source comes from a new process, so a failure after it
// is a new incident, not a repeat of one before it (see
// internal/incident's Grouper.Restarted). The line must open the entry's
// message: a traceback, a request dump or any other message may quote it,
// and a quote is no restart.
func Startup(e *entry.Entry) bool {
	if e.Traceback != nil || e.Message == "" {
		return false
	}
	switch e.Message[0] {
	case 's', 'T', 'S':
	default:
		return false
	}
	for _, s := range startupLines {
		if strings.HasPrefix(e.Message, s) {
			return true
		}
	}
	return false
}
