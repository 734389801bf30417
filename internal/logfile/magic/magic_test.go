package magic

import (
	"bytes"
	"compress/gzip"
	"testing"
)

func TestOf(t *testing.T) {
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte("INFO started\n"))
	w.Close()
	for _, tc := range []struct {
		head       []byte
		name       string
		compressed bool
	}{
		{gz.Bytes(), "gzip", true},
		{[]byte{0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x58}, "zstd", true},
		{[]byte("BZh91AY"), "bzip2", true},
		{[]byte{0xfd, '7', 'z', 'X', 'Z', 0x00, 0x00}, "xz", true},
		{[]byte{0x04, 0x22, 0x4d, 0x18, 0x64}, "lz4", true},
		{[]byte("PK\x03\x04\x14\x00"), "zip", false},
		{[]byte("\x7fELF\x02\x01"), "elf", false},
	} {
		f, ok := Of(tc.head)
		if !ok || f.Name != tc.name || f.Compressed != tc.compressed {
			t.Errorf("Of(% x) = %+v, %v; want %s (compressed %v)", tc.head, f, ok, tc.name, tc.compressed)
		}
		if len(f.prefix) > Longest {
			t.Errorf("%s: prefix of %d bytes exceeds Longest", f.Name, len(f.prefix))
		}
	}
	for _, text := range []string{"", "I", "INFO 12-15 18:57:09 ready\n", "[2025-01-01 00:00:00] x", "\x1f"} {
		if f, ok := Of([]byte(text)); ok {
			t.Errorf("Of(%q) = %s, want no format", text, f.Name)
		}
	}
}
