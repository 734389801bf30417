package config

import (
	"fmt"
	"strings"
)

// origins says where each setting came from: a line of the config file or
// a flag. Flags override the file, and a flag that replaces a list (--sink,
// --path) hides the file's lines for that list, so a problem in a sink
// given by --sink never points into the file.
type origins struct {
	ix    *index            // nil when no file was loaded
	flags map[string]string // key path to the flag that set it
}

func newOrigins() *origins { return &origins{flags: map[string]string{}} }

// override records that flag set path, replacing whatever the file said
// there.
func (o *origins) override(path, flag string) {
	o.flags[path] = flag
	if o.ix == nil {
		return
	}
	for p := range o.ix.keys {
		if p == path || strings.HasPrefix(p, path+".") || strings.HasPrefix(p, path+"[") {
			delete(o.ix.keys, p)
			delete(o.ix.values, p)
		}
	}
}

// set reports whether path was given explicitly, in the file or by a flag.
func (o *origins) set(path string) bool {
	if _, ok := o.flags[path]; ok {
		return true
	}
	return o.ix != nil && o.ix.has(path)
}

// hasChildren reports whether the file sets any key under path.
func (o *origins) hasChildren(path string) bool {
	if o.ix == nil {
		return false
	}
	for p := range o.ix.keys {
		if strings.HasPrefix(p, path+".") {
			return true
		}
	}
	return false
}

// errorf builds a problem about path, prefixed by where path (or its
// nearest ancestor) was set.
func (o *origins) errorf(path, format string, args ...any) error {
	return keyed(path, o.placef(path, format, args...))
}

func (o *origins) placef(path, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	for p := path; p != ""; p = parent(p) {
		if flag, ok := o.flags[p]; ok {
			rest := strings.TrimPrefix(strings.TrimPrefix(path, p), ".")
			if rest != "" {
				return fmt.Errorf("%s: %s: %s", flag, rest, msg)
			}
			return fmt.Errorf("%s: %s", flag, msg)
		}
		if o.ix != nil {
			if l, ok := o.ix.keys[p]; ok {
				return fmt.Errorf("%s:%d: %s: %s", o.ix.file, l, path, msg)
			}
		}
	}
	return fmt.Errorf("%s: %s", path, msg)
}

// problem is one problem of a configuration and the key path it is about
// ("sinks[0].url"), so that Checked.Loaded can tell which settings loaded.
// Its message is err's: "file:line: key: message", or a flag's.
type problem struct {
	key string
	err error
}

func (p *problem) Error() string { return p.err.Error() }
func (p *problem) Unwrap() error { return p.err }

// keyed marks err as a problem of the key path key.
func keyed(key string, err error) error {
	return &problem{key: key, err: err}
}
