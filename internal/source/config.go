package source

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"
)

// StartAt says where to start reading a file that has no checkpoint and was
// present when the tailer started. Files that appear later are always read
// from their beginning.
type StartAt string

// Start positions accepted by --start-at.
const (
	StartBeginning StartAt = "beginning"
	StartEnd       StartAt = "end"
)

// ParseStartAt checks a --start-at value; "" means beginning.
func ParseStartAt(s string) (StartAt, error) {
	switch a := StartAt(s); a {
	case "":
		return StartBeginning, nil
	case StartBeginning, StartEnd:
		return a, nil
	}
	return "", fmt.Errorf("start-at %q: want beginning or end", s)
}

// Defaults for the zero values of Config.
const (
	DefaultPollInterval    = 250 * time.Millisecond
	DefaultRescanInterval  = 5 * time.Second
	DefaultRotateWait      = time.Second
	DefaultMaxLineBytes    = 256 << 10
	DefaultMaxOpenFiles    = 256
	DefaultFingerprintSize = 1024
)

// Config configures a Tailer. Zero values take the defaults above.
type Config struct {
	// Paths are glob patterns (filepath.Match syntax, several allowed); a
	// relative one is taken from the working directory at New, and
	// Line.Path is always absolute.
	Paths []string
	// Format is the framing of the files; FormatAuto decides per file.
	Format Format
	// StartAt applies to files present at start with no checkpoint;
	// "" means StartBeginning.
	StartAt StartAt
	// PollInterval is how often the globs are expanded and files checked
	// when the file-system watch is off or unavailable (no inotify, its
	// limits reached, a directory that could not be watched) or may not
	// hear of every change (a directory on a network or FUSE file system).
	PollInterval time.Duration
	// RescanInterval is how often the globs are expanded and files checked
	// while the watch covers every directory: a safety net for an event the
	// watch lost. Each look costs a few system calls a file; the default
	// (5 s) keeps an idle sidecar under 0.1% of a core.
	RescanInterval time.Duration
	// NoWatch turns the file-system watch off: files are polled every
	// PollInterval.
	NoWatch bool
	// RotateWait is how long a file that left the globs (renamed or
	// deleted) is still read through its open descriptor, for writers that
	// finish a line or two before reopening.
	RotateWait time.Duration
	// MaxLineBytes bounds a delivered line; longer lines are cut and marked.
	MaxLineBytes int
	// MaxOpenFiles bounds the files read at once; matching files beyond it
	// are counted (CountFilesSkipped), logged when their number changes,
	// and take turns with the open ones: the file idle longest is parked
	// (closed, its place kept) for one that waits (turns.go).
	MaxOpenFiles int
	// RotatedDirs are directories rotation moves files into (logrotate's
	// olddir). A checkpointed file not found under the globs at the start,
	// or a parked file that left them, is looked for there by its
	// identity. They are allowed roots.
	RotatedDirs []string
	// SymlinkRoots are the directories, besides the fixed leading
	// directories of the globs, that a matched file may resolve into
	// through symbolic links. A file whose real path lies outside every
	// root is refused (logged, CountSymlinksRefused). nil means the
	// default: /var/log/pods when a glob lies under /var/log/containers
	// (kubelet's links), nothing otherwise.
	SymlinkRoots []string
	// FingerprintSize is how many leading bytes identify a file.
	FingerprintSize int
	// Positions gives checkpoints to resume from; nil means none.
	Positions Positions
	// Observer receives counts; nil means none.
	Observer Observer
	// Logger receives the tailer's own notices (files refused or skipped,
	// generations lost, the watch falling back to polling); nil discards.
	Logger *slog.Logger
	// Tick, when set, replaces the watch and the poll timers: each receive
	// is one poll, and the received time is the poll's clock. Tests drive
	// rotation with it without sleeping.
	Tick <-chan time.Time
	// Flush, when set, is called after every pass, before the tailer
	// waits for the next wake-up: a consumer that holds the lines Emit
	// gives it (to hand them on a batch at a time) hands on the rest
	// there. An error stops the tailer, as one from Emit does.
	Flush func(context.Context) error
	// Flow, when set, is called with true when the passes start coming on
	// the flow's clock (one every minPassGap while writes keep coming,
	// design.md) and with false when they stop: the tailer then waits for
	// events again, or returns. A consumer with periodic work of its own
	// can do it after the passes of a flow instead of on its own timer,
	// which would wake a second thread. It is called in the tailer's
	// goroutine, never twice in a row with the same value.
	Flow func(on bool)
	// Borrow is StreamConfig.Borrow for the files' lines.
	Borrow bool
}

func (c Config) withDefaults() Config {
	if c.Format == "" {
		c.Format = FormatAuto
	}
	if c.StartAt == "" {
		c.StartAt = StartBeginning
	}
	if c.PollInterval == 0 {
		c.PollInterval = DefaultPollInterval
	}
	if c.RescanInterval == 0 {
		c.RescanInterval = DefaultRescanInterval
	}
	if c.RotateWait == 0 {
		c.RotateWait = DefaultRotateWait
	}
	if c.MaxLineBytes == 0 {
		c.MaxLineBytes = DefaultMaxLineBytes
	}
	if c.MaxOpenFiles == 0 {
		c.MaxOpenFiles = DefaultMaxOpenFiles
	}
	if c.FingerprintSize == 0 {
		c.FingerprintSize = DefaultFingerprintSize
	}
	if c.Observer == nil {
		c.Observer = nopObserver{}
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// validate reports every problem at once.
func (c Config) validate() error {
	var errs []error
	if len(c.Paths) == 0 {
		errs = append(errs, errors.New("paths: at least one glob is required"))
	}
	for i, p := range c.Paths {
		switch {
		case p == "-":
			errs = append(errs, fmt.Errorf("paths[%d]: %q is stdin, which a Stream reads", i, p))
		case p == "":
			errs = append(errs, fmt.Errorf("paths[%d]: empty glob", i))
		default:
			if _, err := filepath.Match(p, ""); err != nil {
				errs = append(errs, fmt.Errorf("paths[%d] %q: %w", i, p, err))
			}
		}
	}
	if _, err := ParseFormat(string(c.Format)); err != nil {
		errs = append(errs, err)
	}
	if _, err := ParseStartAt(string(c.StartAt)); err != nil {
		errs = append(errs, err)
	}
	if c.PollInterval < 0 {
		errs = append(errs, fmt.Errorf("poll interval %v: must be positive", c.PollInterval))
	}
	if c.RescanInterval < 0 {
		errs = append(errs, fmt.Errorf("rescan interval %v: must be positive", c.RescanInterval))
	}
	for i, r := range c.SymlinkRoots {
		if !filepath.IsAbs(r) {
			errs = append(errs, fmt.Errorf("symlink roots[%d] %q: must be an absolute path", i, r))
		}
	}
	if c.RotateWait < 0 {
		errs = append(errs, fmt.Errorf("rotate wait %v: must not be negative", c.RotateWait))
	}
	if c.MaxLineBytes < 1 {
		errs = append(errs, fmt.Errorf("max line bytes %d: must be positive", c.MaxLineBytes))
	}
	for _, d := range c.RotatedDirs {
		if !filepath.IsAbs(d) {
			errs = append(errs, fmt.Errorf("rotated dir %q: must be absolute", d))
		}
	}
	if c.MaxOpenFiles < 1 {
		errs = append(errs, fmt.Errorf("max open files %d: must be positive", c.MaxOpenFiles))
	}
	if c.FingerprintSize < 16 {
		errs = append(errs, fmt.Errorf("fingerprint size %d: must be at least 16 bytes", c.FingerprintSize))
	}
	return errors.Join(errs...)
}
