package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestScanReadsCompressedRotations compresses a crash log with the real
// gzip and zstd commands (what logrotate's compress runs) and checks that
// scan reports of each the same incidents as of the plain file, whatever
// the file is called.
func TestScanReadsCompressedRotations(t *testing.T) {
	plain, err := os.ReadFile("../../examples/sglang-crash.log")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	base := filepath.Join(dir, "server.log")
	if err := os.WriteFile(base, plain, 0o644); err != nil {
		t.Fatal(err)
	}
	want, _, code := runCLI(t, "", "scan", base)
	if code != 0 || !strings.Contains(want, "ascend-transfer-engine-initialization-failed") {
		t.Fatalf("plain scan: exit %d\n%s", code, want)
	}
	for _, tc := range []struct{ tool, ext string }{{"gzip", ".gz"}, {"zstd", ".zst"}} {
		t.Run(tc.tool, func(t *testing.T) {
			bin := requireTool(t, tc.tool)
			rotated := filepath.Join(dir, "server.log.1")
			if err := os.WriteFile(rotated, plain, 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(bin, "-q", rotated).CombinedOutput(); err != nil {
				t.Fatalf("%s: %v: %s", tc.tool, err, out)
			}
			compressed := rotated + tc.ext
			// Renamed: the magic bytes decide, not the name.
			renamed := filepath.Join(dir, "server-"+tc.tool+".old")
			b, err := os.ReadFile(compressed)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(renamed, b, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{compressed, renamed} {
				got, stderr, code := runCLI(t, "", "scan", p)
				if code != 0 || stderr != "" {
					t.Fatalf("scan %s: exit %d, stderr %q", p, code, stderr)
				}
				if got != strings.ReplaceAll(want, base, p) {
					t.Errorf("scan %s:\n%s\nwant as for the plain file:\n%s", p, got, want)
				}
			}
			got, _, code := runCLI(t, string(b), "scan", "-")
			if code != 0 || !strings.Contains(got, "ascend-transfer-engine-initialization-failed") {
				t.Errorf("scan of the %s file on stdin: exit %d\n%s", tc.tool, code, got)
			}
		})
	}
}

// TestScanRefusesWhatIsNotText checks that a file scan cannot read as
// text is exit 3 with its name, never a "no incidents", and that the
// other files are still scanned.
func TestScanRefusesWhatIsNotText(t *testing.T) {
	dir := t.TempDir()
	bzip := filepath.Join(dir, "server.log.2.bz2")
	if bin, err := exec.LookPath("bzip2"); err == nil {
		src := filepath.Join(dir, "server.log.2")
		if err := os.WriteFile(src, []byte("[2026-03-01 10:00:00] x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(bin, src).CombinedOutput(); err != nil {
			t.Fatalf("bzip2: %v: %s", err, out)
		}
	} else if err := os.WriteFile(bzip, []byte("BZh91AY&SY\x01\x02\x03"), 0o644); err != nil {
		t.Fatal(err)
	}
	binary := filepath.Join(dir, "core")
	if err := os.WriteFile(binary, []byte("\x01\x02\x00\x00binary\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, says string }{
		{bzip, "not text: bzip2 compressed"},
		{binary, "not text: binary data"},
	} {
		out, stderr, code := runCLI(t, "", "scan", tc.path, "../../testdata/logs/seed-ascend.log")
		if code != exitFailure {
			t.Errorf("scan %s: exit %d, want %d", tc.path, code, exitFailure)
		}
		if !strings.Contains(stderr, "logmatch scan: "+tc.path+": "+tc.says) {
			t.Errorf("scan %s: stderr %q does not name the file and say %q", tc.path, stderr, tc.says)
		}
		if !strings.Contains(out, "ascend-transfer-engine") {
			t.Errorf("scan %s: the other file was not scanned:\n%s", tc.path, out)
		}
		_, stderr, code = runCLI(t, "", "scan", tc.path)
		if code != exitFailure || strings.Contains(stderr, "no incidents") {
			t.Errorf("scan %s alone: exit %d, stderr %q", tc.path, code, stderr)
		}
	}
}
