// Package magic names a file's format by its leading bytes. It imports
// nothing but the standard library, so the tailer, which only needs to know
// that a file is not text, and package logfile, which decompresses some of
// the formats, read one table.
package magic

import "bytes"

// Format is one known leading byte sequence.
type Format struct {
	// Name is the format's short name: "gzip", "zstd", "zip", ...
	Name string
	// What says what the content is, for an error message: "xz
	// compressed", "a zip archive".
	What string
	// Compressed says the content is one compressed stream, as a rotated
	// log's older generations are.
	Compressed bool
	prefix     []byte
}

// Longest is how many leading bytes Of needs to tell every format.
const Longest = 6

var formats = []Format{
	{"gzip", "gzip compressed", true, []byte{0x1f, 0x8b}},
	{"zstd", "zstd compressed", true, []byte{0x28, 0xb5, 0x2f, 0xfd}},
	{"bzip2", "bzip2 compressed", true, []byte("BZh")},
	{"xz", "xz compressed", true, []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}},
	{"lzma", "lzma compressed", true, []byte{0x5d, 0x00, 0x00}},
	{"lz4", "lz4 compressed", true, []byte{0x04, 0x22, 0x4d, 0x18}},
	{"compress", "compress (.Z) compressed", true, []byte{0x1f, 0x9d}},
	{"zip", "a zip archive", false, []byte("PK\x03\x04")},
	{"7z", "a 7z archive", false, []byte{'7', 'z', 0xbc, 0xaf, 0x27, 0x1c}},
	{"png", "a PNG image", false, []byte("\x89PNG")},
	{"elf", "an ELF binary", false, []byte("\x7fELF")},
}

// Of returns the format whose leading bytes head starts with.
func Of(head []byte) (Format, bool) {
	for _, f := range formats {
		if bytes.HasPrefix(head, f.prefix) {
			return f, true
		}
	}
	return Format{}, false
}
