package state

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// ErrDamaged is wrapped by Open's error when the state file fails its
// consistency check. The message says what to do about it.
var ErrDamaged = errors.New("state file damaged")

// maxReportedDamage bounds the consistency errors quoted in ErrDamaged's
// message; one is enough to act on.
const maxReportedDamage = 3

// checkIntact proves, before the database is opened for writing, that
// bbolt can read every page of path without panicking.
//
// bbolt trusts its pages: garbage in an interior page (a bad disk, a
// partial copy, a volume restored from a torn snapshot) makes it panic,
// or fault on a wild offset, the first time the page is read, which in a
// sidecar becomes a crash loop with a Go stack trace. So the file is first
// opened read-only, under a shared lock, in a goroutine of its own whose
// memory faults are turned into panics (debug.SetPanicOnFault); there the
// freelist is loaded, every bucket, key and value is walked, and bbolt's
// own consistency check (Tx.Check) runs. A panic or fault there means
// damage, and is reported as ErrDamaged: recover is used for that one
// purpose, at the boundary where untrusted bytes enter, never around our
// own logic. The walk reads the whole file once per start; a state file
// holds positions and a bounded queue, so that is milliseconds.
//
// A panic while opening leaves that read-only handle open (bbolt cannot
// close what it did not return); the caller then fails, or moves the file
// aside, and does not open it again.
//
// An empty file is what a kill during the very first start leaves, before
// bbolt wrote its first pages; bbolt initialises it. But the ack journal
// is created only after that first write, so an empty file with the
// journal beside it had been a state file and lost its content (a copy
// or restore that failed, a truncation): that is damage too, or every
// log would be read again from --start-at, its alerts repeated, with no
// word of it.
func checkIntact(path string, timeout time.Duration) error {
	info, err := os.Stat(path)
	if err != nil {
		return nil // nothing to check: bbolt creates it
	}
	if info.Size() == 0 {
		if _, err := os.Stat(filepath.Join(filepath.Dir(path), JournalName)); err == nil {
			return fmt.Errorf("%w: the file is empty, though its ack journal shows it was written", ErrDamaged)
		}
		return nil // a first start cut short: bbolt initialises it
	}
	type result struct{ err error }
	done := make(chan result, 1)
	go func() {
		debug.SetPanicOnFault(true)
		var err error
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("%w: reading it panicked: %v", ErrDamaged, r)
			}
			done <- result{err}
		}()
		err = readAll(path, timeout)
	}()
	return (<-done).err
}

// readAll opens path read-only and reads all of it; see checkIntact.
func readAll(path string, timeout time.Duration) error {
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, PreLoadFreelist: true, Timeout: timeout})
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			return err // locked: Open says so
		}
		return fmt.Errorf("%w: %w", ErrDamaged, err)
	}
	defer db.Close()
	return db.View(func(tx *bolt.Tx) error {
		if err := tx.ForEach(func(name []byte, b *bolt.Bucket) error { return walk(b) }); err != nil {
			return err
		}
		var problems []error
		for err := range tx.Check() {
			if len(problems) < maxReportedDamage {
				problems = append(problems, err)
			}
		}
		if len(problems) > 0 {
			return fmt.Errorf("%w: consistency check: %w", ErrDamaged, errors.Join(problems...))
		}
		return nil
	})
}

// walk reads every key and value of b and its sub-buckets. Summing the
// bytes makes the reads happen: a wild offset faults here, inside the
// guarded goroutine.
func walk(b *bolt.Bucket) error {
	n := 0
	return b.ForEach(func(k, v []byte) error {
		for _, c := range k {
			n += int(c)
		}
		for _, c := range v {
			n += int(c)
		}
		if v == nil {
			if sub := b.Bucket(k); sub != nil {
				return walk(sub)
			}
		}
		return nil
	})
}

// moveAside renames a damaged state file out of the way, so the next open
// starts afresh, and returns the new name.
func moveAside(path string, now time.Time) (string, error) {
	aside := path + ".damaged-" + now.UTC().Format("20060102T150405Z")
	if err := os.Rename(path, aside); err != nil {
		return "", fmt.Errorf("state: move damaged %s aside: %w", path, err)
	}
	return aside, nil
}
