// Package logfile turns the bytes of a log file into its text for a
// one-shot read (logmatch scan): plain text as it is, gzip and zstd
// decompressed on the fly, recognised by their magic bytes rather than by
// the file's name, since rotated logs are renamed freely. Anything else
// that is not text (another compression, an archive, a binary file) is an
// error naming the file: scanning it would find nothing and report a
// false all-clear.
package logfile
