package entry

import "time"

// Default bounds of an Assembler; see Options.
const (
	DefaultMaxLines     = 1000
	DefaultMaxBytes     = 64 << 10
	DefaultMaxLineBytes = 16 << 10
)

// minMaxBytes keeps head and tail halves large enough to hold a cut line and
// the cut marker; minMaxLineBytes keeps a cut line longer than its marker.
const (
	minMaxBytes     = 1 << 10
	minMaxLineBytes = 256
)

// Options configure an Assembler. The zero value is usable: every zero field
// takes its default.
type Options struct {
	// MaxLines bounds the lines kept per entry (default DefaultMaxLines).
	// When an entry grows past it, the first half and the last half are kept
	// and the middle is replaced by one marker line
	// ("[logmatch: N lines cut]"), so the header and the exception line of a
	// huge traceback both survive.
	MaxLines int
	// MaxBytes bounds the bytes kept per entry the same way (default
	// DefaultMaxBytes); values below 1 KiB are raised to 1 KiB.
	MaxBytes int
	// MaxLineBytes bounds one line (default DefaultMaxLineBytes, at least
	// 256, never more than MaxBytes/4): a longer line keeps its head and its
	// last quarter of the bound, around " [logmatch: N bytes cut] ". The cut
	// happens before anything else reads the line.
	MaxLineBytes int
	// Redact, when set, hides secrets in a line longer than MaxLineBytes
	// before it is cut. Cut after, the kept tail could start inside a
	// value whose key fell in the cut middle, and nothing downstream
	// could tell it was secret. Lines within the bound are redacted
	// later, once per alert, so a quiet line never pays for it.
	Redact func(string) string
	// Location is the time zone of header timestamps that carry none
	// (sglang writes local time); nil means UTC.
	Location *time.Location
	// Reference supplies the date that legacy (HH:MM:SS), diffusion
	// (MM-DD ...), glog and c10d timestamps lack, when a Line has no Time of
	// its own. With neither, those entries get a zero Time.
	Reference time.Time
	// Reuse lets the Assembler reuse its memory from entry to entry, so
	// that a line allocates nothing at all. Push may then be given a Line
	// whose Text the caller overwrites once Push returns (a read buffer),
	// and the strings of the entries Push and Flush return are valid only
	// until the next call to Push or Flush: Own an entry to keep it.
	Reuse bool
}

// withDefaults returns o with every zero or out-of-range field replaced.
func (o Options) withDefaults() Options {
	if o.MaxLines <= 0 {
		o.MaxLines = DefaultMaxLines
	}
	if o.MaxLines < 3 {
		o.MaxLines = 3 // a head line, a tail line and room for the marker
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxBytes < minMaxBytes {
		o.MaxBytes = minMaxBytes
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = DefaultMaxLineBytes
	}
	if o.MaxLineBytes < minMaxLineBytes {
		o.MaxLineBytes = minMaxLineBytes
	}
	if o.MaxLineBytes > o.MaxBytes/4 {
		o.MaxLineBytes = o.MaxBytes / 4
	}
	if o.Location == nil {
		o.Location = time.UTC
	}
	return o
}
