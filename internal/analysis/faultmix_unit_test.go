package analysis

import "testing"

// FuzzGarbledFrames: garbledFrames and mixNames never panic, a garbled
// line holds a Python file's path, and mixNames lists at most
// maxMixNames of each.
func FuzzGarbledFrames(f *testing.F) {
	for _, s := range []string{
		`, line 3933/sgl/srt/managers/scheduler.py, line "1763 in  in  in /sgl/srt/managers/scheduler.py  File  in "", line pop_and_process"/sgl/srt/managers/scheduler.pyprocess_batch_result", line`,
		`  File "/a/x.py", line 510 in f  File "/b/y.py", line 108 in run`,
		`  File "/a/x.py", line 5, in f`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if garbledFrames(l) && faultPieces(l) < 3 {
			t.Fatalf("garbledFrames(%q) with fewer pieces than a frame", l)
		}
		files, names := mixNames(l, l)
		if len(files) > maxMixNames || len(names) > maxMixNames {
			t.Fatalf("mixNames(%q): %d files, %d names", l, len(files), len(names))
		}
	})
}
