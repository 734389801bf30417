package eval

import (
	"testing"

	"github.com/rs/zerolog"
	"github.com/zricethezav/gitleaks/v8/detect"

	"github.com/logmatch/logmatch/internal/redact"
)

// alertBytes is a typical alert's text: an entry with its traceback.
const alertBytes = 8 << 10

func inputs(b *testing.B) (lines, alerts []string) {
	_, texts, err := Corpus(CorpusDir)
	if err != nil || len(texts) == 0 {
		b.Fatalf("corpus: %v (%d files)", err, len(texts))
	}
	return Lines(texts), AlertTexts(texts, alertBytes)
}

// BenchmarkPerLine is the cost of one log line (ns/op is per line).
func BenchmarkPerLine(b *testing.B) {
	lines, _ := inputs(b)
	zerolog.SetGlobalLevel(zerolog.Disabled)
	r, _ := redact.New(nil)
	d, err := detect.NewDetectorDefaultConfig()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("logmatch", func(b *testing.B) {
		i := 0
		for b.Loop() {
			_ = r.Redact(lines[i%len(lines)])
			i++
		}
	})
	b.Run("gitleaks", func(b *testing.B) {
		i := 0
		for b.Loop() {
			_ = d.DetectString(lines[i%len(lines)])
			i++
		}
	})
}

// BenchmarkPerAlert is the cost of one alert-sized text (ns/op is per
// alert), the unit gitleaks would run on.
func BenchmarkPerAlert(b *testing.B) {
	_, alerts := inputs(b)
	zerolog.SetGlobalLevel(zerolog.Disabled)
	r, _ := redact.New(nil)
	d, err := detect.NewDetectorDefaultConfig()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("logmatch", func(b *testing.B) {
		i := 0
		for b.Loop() {
			_ = r.Redact(alerts[i%len(alerts)])
			i++
		}
	})
	b.Run("gitleaks", func(b *testing.B) {
		i := 0
		for b.Loop() {
			_ = d.DetectString(alerts[i%len(alerts)])
			i++
		}
	})
}

// BenchmarkStart is the one-time cost of each: building the rules.
func BenchmarkStart(b *testing.B) {
	zerolog.SetGlobalLevel(zerolog.Disabled)
	b.Run("logmatch", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = redact.New(nil)
		}
	})
	b.Run("gitleaks", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = detect.NewDetectorDefaultConfig()
		}
	})
}
