package source

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/fsnotify/fsnotify"
)

// watch wakes the tailer on changes in the directories it reads: the
// directories of the globs (and the ones leading to them, so that a new
// pod directory is seen), and the directories the followed files really
// live in (a kubelet link in /var/log/containers is written through its
// target in /var/log/pods). A nil *watch is valid and watches nothing.
type watch struct {
	w   *fsnotify.Watcher
	log *slog.Logger
	// missing holds directories wanted but not watched (not there yet, or
	// the inotify limits were reached): while it is not empty the tailer
	// polls every PollInterval.
	missing map[string]bool
	// remote holds watched directories whose file system is changed
	// without the watch hearing of it (eventsReach: network and FUSE file
	// systems). Their own writes still wake the tailer at once, but while
	// remote is not empty the tailer also polls every PollInterval.
	remote map[string]bool
	failed map[string]bool // logged once each
	// reach is eventsReach; tests replace it.
	reach   func(dir string) bool
	lastErr string
	dead    bool // its channels were closed: polling only
	// names watches the same directories for names that change alone,
	// for the passes of a flow (names_linux.go); nil when unavailable.
	names *nameWatch
}

// watchBuffer is how many events the watcher's goroutine may hand over
// before takeEvents takes them. Small on purpose: while the buffer has
// room that goroutine reads inotify as fast as events come, one wake-up
// (two context switches) for every write of a busy file, where a full
// buffer leaves the kernel to merge a file's writes into one event. With
// 1,024 slots the tailer's flow (design.md, Wake-ups) woke 10,000 times a
// second at 10,000 lines a second and cost 27 µs of CPU a line instead of
// 1.4. takeEvents yields to the goroutine to collect the rest of a read.
const watchBuffer = 8

// maxTakeYields bounds the yields of one takeEvents.
const maxTakeYields = 64

// newWatch starts a watcher, or returns nil (logged) when the system has
// none to give: the tailer then polls.
func newWatch(log *slog.Logger) *watch {
	w, err := fsnotify.NewBufferedWatcher(watchBuffer)
	if err != nil {
		log.Warn("file-system watch unavailable, polling files instead", "err", err)
		return nil
	}
	return &watch{w: w, log: log, missing: map[string]bool{}, remote: map[string]bool{}, failed: map[string]bool{},
		reach: eventsReach, names: newNameWatch()}
}

func (w *watch) close() {
	if w != nil {
		w.w.Close()
		w.names.close()
	}
}

// namesChanged reports whether a name appeared, moved or vanished in the
// watched directories since the last call; known is false when the name
// watch cannot tell.
func (w *watch) namesChanged() (changed, known bool) {
	if w == nil || w.dead {
		return false, false
	}
	return w.names.changed()
}

func (w *watch) events() <-chan fsnotify.Event {
	if w == nil || w.dead {
		return nil
	}
	return w.w.Events
}

func (w *watch) errors() <-chan error {
	if w == nil || w.dead {
		return nil
	}
	return w.w.Errors
}

// stopped notes that the watcher closed its channels on its own (its
// reader failed): the tailer polls from now on.
func (w *watch) stopped() {
	if w != nil && !w.dead {
		w.dead = true
		w.log.Warn("file-system watch stopped, polling files instead")
	}
}

// complete reports whether every wanted directory is watched, and on a
// file system whose every change the watch hears of.
func (w *watch) complete() bool {
	return w != nil && !w.dead && len(w.missing) == 0 && len(w.remote) == 0
}

// noteError logs a watch error once per distinct message. An overflow
// (events were dropped) only needs the full scan the caller makes.
func (w *watch) noteError(err error) {
	if w == nil || errors.Is(err, fsnotify.ErrEventOverflow) || err.Error() == w.lastErr {
		return
	}
	w.lastErr = err.Error()
	w.log.Warn("file-system watch error; files are scanned again", "err", err)
}

// sync makes the watched set the wanted one.
func (w *watch) sync(want []string) {
	if w == nil || w.dead {
		return
	}
	w.names.sync(want)
	have := w.w.WatchList()
	clear(w.missing)
	for d := range w.remote {
		if !slices.Contains(want, d) {
			delete(w.remote, d)
		}
	}
	for _, d := range want {
		if slices.Contains(have, d) {
			continue
		}
		if !w.remote[d] && !w.reach(d) {
			w.remote[d] = true
			w.log.Info("directory on a network or FUSE file system: the watch may not hear of its changes, so it is polled too", "dir", d)
		}
		if err := w.w.Add(d); err != nil {
			w.missing[d] = true
			if !w.failed[d] && !errors.Is(err, os.ErrNotExist) {
				w.failed[d] = true
				w.log.Warn("cannot watch directory, polling it instead", "dir", d, "err", err)
			}
			continue
		}
		delete(w.failed, d)
	}
	for _, d := range have {
		if !slices.Contains(want, d) {
			_ = w.w.Remove(d) // gone already, or no longer wanted
		}
	}
}

// noteEvent records what one event means and reports whether it needs a
// full scan (a name appeared, vanished or moved) rather than a read pass.
func (t *Tailer) noteEvent(ev fsnotify.Event) (full bool) {
	switch {
	case ev.Op.Has(fsnotify.Create):
		t.openCreated(ev)
		return true
	case ev.Op.Has(fsnotify.Remove) || ev.Op.Has(fsnotify.Rename):
		return true
	case ev.Op.Has(fsnotify.Write):
		if tr := t.byName[ev.Name]; tr != nil {
			tr.dirty = true // its head is checked: a rewrite can keep the size
			if tr.state == parked {
				return true // a full pass gives it a turn (takeTurns)
			}
		}
	}
	return false
}

// openCreated opens a file created at a matching name at once, before the
// scan the event asks for: a file renamed away again within milliseconds
// (a rotation faster than any poll) is then still read through its
// descriptor. A file seen here but gone before the open is left to the
// scan, which counts it lost unless it shows up again. A name gone before
// it could be looked at is not counted: the event may be older than a
// scan that already opened that file.
//
// A file renamed from a matching name out of the globs (renamedFrom),
// that was never opened, is opened where it went, under the name it had:
// it came and went at that name between two looks (a writer that
// recreates its log at once, then logrotate moving that file aside to
// create its own, on a loaded machine), and it is read to its end like
// any file that left, before the file at that name now.
func (t *Tailer) openCreated(ev fsnotify.Event) {
	name := ev.Name
	path, at := name, ""
	if !t.roots.matches(name) {
		from := renamedFrom(ev)
		if from == "" || !t.roots.matches(from) {
			return
		}
		path, at = from, name
	}
	fi, err := os.Stat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	k, ok := fileKey(fi)
	if !ok || t.files[k] != nil || t.refused[k] != "" || t.skipped[k] != "" {
		return
	}
	tr, err := t.open(found{path: path, key: k, at: at})
	if errors.Is(err, errVanished) {
		t.missed[k] = path // the scan decides whether it was lost
	}
	// Other failures are the scan's to count and log.
	if err != nil || at == "" {
		return
	}
	// It held the name before the file that holds it now, which may be
	// followed already (its create event came first): its lines come
	// first, and its successor waits while it drains.
	if fi, err := os.Stat(path); err == nil {
		if k, ok := fileKey(fi); ok && t.files[k] != nil && t.files[k] != tr {
			t.moveBefore(tr, t.files[k])
		}
	}
}

// renamedFrom returns the name a file created by a rename had before, from
// the event's text (fsnotify keeps it unexported and prints it as
// `CREATE "new" ← "old"`), or "" when the event does not say.
func renamedFrom(ev fsnotify.Event) string {
	const sep = `" ← "`
	s := ev.String()
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return ""
	}
	from, err := strconv.Unquote(s[i+len(sep)-1:])
	if err != nil {
		return ""
	}
	return from
}

// takeEvents takes the events already waiting, so that a burst costs one
// pass, and reports whether there were any and whether one of them needs a
// full scan. A closed event or error channel stops the watch (files are
// polled from then on) and asks for a full scan.
func (t *Tailer) takeEvents() (got, full bool) {
	// yields counts the times the channel looked empty after an event and
	// the watcher's goroutine was let run: it may hold more events of the
	// same read (a rotation's rename and create come together), and they
	// must be taken in this pass. Unbuffered, a loaded machine gave one
	// event a pass, and a file renamed out of the globs before it was
	// opened was opened only after its successor was read. An empty
	// channel right after a yield is taken to be empty.
	yields, fresh := 0, false
	for {
		select {
		case ev, ok := <-t.watch.events():
			if !ok {
				t.watch.stopped()
				return true, true
			}
			got, fresh = true, true
			full = t.noteEvent(ev) || full
		case err, ok := <-t.watch.errors():
			if !ok {
				t.watch.stopped()
				return true, true
			}
			got, fresh = true, true
			t.watch.noteError(err)
			full = true
		default:
			if !fresh || yields == maxTakeYields {
				return got, full
			}
			fresh = false
			yields++
			runtime.Gosched()
		}
	}
}

// watchDirs lists the directories to watch for the globs: each glob's
// fixed leading directory and every directory matching a longer leading
// part of its directory pattern, then the real directories of the files
// followed.
func (t *Tailer) watchDirs() []string {
	var dirs []string
	for _, g := range t.roots.globs {
		pattern := filepath.Dir(g)
		root := fixedDir(g)
		dirs = append(dirs, root)
		rest := strings.TrimPrefix(strings.TrimPrefix(pattern, root), string(filepath.Separator))
		if rest == "" || pattern == root {
			continue
		}
		prefix := root
		for _, part := range strings.Split(rest, string(filepath.Separator)) {
			prefix = filepath.Join(prefix, part)
			m, _ := filepath.Glob(prefix) // validated in New
			for _, d := range m {
				if fi, err := os.Stat(d); err == nil && fi.IsDir() {
					dirs = append(dirs, d)
				}
			}
		}
	}
	for _, tr := range t.order {
		if tr.real != "" && (tr.state == following || tr.state == draining) {
			dirs = append(dirs, filepath.Dir(tr.real))
		}
	}
	slices.Sort(dirs)
	return slices.Compact(dirs)
}
