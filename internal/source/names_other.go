//go:build !linux

package source

// nameWatch is Linux's (names_linux.go); elsewhere a flow takes the
// watcher's events every pass.
type nameWatch struct{}

func newNameWatch() *nameWatch                    { return nil }
func (*nameWatch) close()                         {}
func (*nameWatch) sync([]string)                  {}
func (*nameWatch) changed() (changed, known bool) { return false, false }
