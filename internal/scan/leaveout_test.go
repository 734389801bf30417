package scan_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/logmatch/logmatch/internal/catalog"
	"github.com/logmatch/logmatch/internal/redact"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// leaveOutFloors are the least counts TestCorpusWithoutLeadRecord accepts,
// in total over the development failure excerpts whose expected lead is a
// record, each scanned with the default catalog less that record. They
// record a measurement and may only rise: a change to the record-free
// reading that loses one of them loses recognition of a wording no record
// has yet.
var leaveOutFloors = leaveOutTally{
	excerpts: 1002,
	detected: 964,
	cause:    883,
}

// leaveOutTally counts one batch of TestCorpusWithoutLeadRecord.
type leaveOutTally struct {
	name string
	// excerpts were scanned without their expected lead record.
	excerpts int
	// detected gave an alert all the same.
	detected int
	// cause had a lead whose line (headline, matched text, exception
	// message or root cause) carries the manifest's cause text.
	cause int
	// other had a lead under some other record (a near record, which
	// may be right or wrong, or a wrapper or consequence).
	other int
	// incidents are the alerts of the detected excerpts.
	incidents int
}

func (b *leaveOutTally) add(o leaveOutTally) {
	b.excerpts += o.excerpts
	b.detected += o.detected
	b.cause += o.cause
	b.other += o.other
	b.incidents += o.incidents
}

func (b leaveOutTally) String() string {
	perCrash := "-"
	if b.detected > 0 {
		perCrash = fmt.Sprintf("%.2f", float64(b.incidents)/float64(b.detected))
	}
	return fmt.Sprintf("%s: excerpts %d, still detected %d (%s), lead names the cause line %d (%s), lead another record %d, incidents per detected crash %s (%d/%d)",
		b.name, b.excerpts, b.detected, percent(b.detected, b.excerpts), b.cause, percent(b.cause, b.excerpts),
		b.other, perCrash, b.incidents, b.detected)
}

// namesCause says whether the alert's own line carries the cause text.
func namesCause(a *sinks.Alert, cause string) bool {
	if strings.Contains(a.Headline, cause) || strings.Contains(a.Match.Text, cause) {
		return true
	}
	ex := a.Match.Exception
	return ex != nil && (strings.Contains(ex.Message, cause) || strings.Contains(ex.RootCause, cause))
}

// TestCorpusWithoutLeadRecord measures how recognition holds up on a
// wording no record has: each development failure excerpt whose expected
// lead is a record is scanned with the default catalog less that record.
// The next log's failure line is often such a wording, so what the
// record-free reading (internal/analysis) makes of these excerpts is what
// it will make of it. It logs, per batch and in total, how many are still
// detected, how many are led by their cause line, and how many are led by
// another record (which), and asserts leaveOutFloors on the totals. The
// catalog's facts are reused, so each compile costs little: the whole
// test takes a few seconds.
func TestCorpusWithoutLeadRecord(t *testing.T) {
	entries, problems := loadCorpusManifest(t)
	if len(problems) > 0 {
		t.Fatalf("manifest problems: %v", problems)
	}
	byRecord := map[string][]corpusEntry{}
	for _, e := range entries {
		// The held-out batch is blind: nothing may be measured on it.
		if e.Kind != "failure" || e.Record == "" || e.Batch == heldOutBatch {
			continue
		}
		byRecord[e.Record] = append(byRecord[e.Record], e)
	}
	slugs := make([]string, 0, len(byRecord))
	for s := range byRecord {
		slugs = append(slugs, s)
	}
	sort.Strings(slugs)

	recs, probs := patterns.Default()
	for _, p := range probs {
		if p.Level == patterns.LevelError {
			t.Fatalf("default catalog: %v", p)
		}
	}
	full, _ := catalog.Compile(recs, nil)
	facts := full.Facts()
	red, err := redact.New(nil)
	if err != nil {
		t.Fatal(err)
	}

	batches := map[string]*leaveOutTally{}
	var order []string
	var table strings.Builder
	otherBy := map[string]int{}
	for _, slug := range slugs {
		kept := make([]patterns.Record, 0, len(recs))
		for _, r := range recs {
			if r.Slug != slug {
				kept = append(kept, r)
			}
		}
		if len(kept) == len(recs) {
			t.Errorf("record %s is not in the default catalog", slug)
			continue
		}
		m, cprobs := catalog.Compile(kept, facts)
		for _, p := range cprobs {
			if p.Level == patterns.LevelError {
				t.Fatalf("catalog less %s: %v", slug, p)
			}
		}
		for _, e := range byRecord[slug] {
			name := e.Batch
			if name == "" {
				name = "development"
			}
			b, ok := batches[name]
			if !ok {
				b = &leaveOutTally{name: "batch " + name}
				batches[name] = b
				order = append(order, name)
			}
			res := scanCorpusFile(t, m, red, e.File)
			l := lead(res.Alerts)
			b.excerpts++
			verdict := "missed"
			if l != nil {
				b.detected++
				b.incidents += len(res.Alerts)
				switch {
				case l.Record.ID != "":
					b.other++
					otherBy[l.Record.Slug]++
					verdict = "other record"
					if namesCause(l, e.Cause.Text) {
						b.cause++
						verdict = "other record, cause line"
					}
				case namesCause(l, e.Cause.Text):
					b.cause++
					verdict = "cause line"
				default:
					verdict = "other line"
				}
			}
			fmt.Fprintf(&table, "%-52s %-40s %-24s %s (%d)\n", e.File, slug, verdict, headline(l), len(res.Alerts))
		}
	}
	t.Logf("per excerpt, scanned without its record:\n%s", table.String())
	sort.Strings(order)
	total := leaveOutTally{name: "total"}
	for _, name := range order {
		t.Log(batches[name].String())
		total.add(*batches[name])
	}
	t.Log(total.String())
	var others []string
	for s, n := range otherBy {
		others = append(others, fmt.Sprintf("%s %d", s, n))
	}
	sort.Strings(others)
	t.Logf("leads under another record: %s", strings.Join(others, ", "))
	if total.excerpts < leaveOutFloors.excerpts {
		t.Errorf("%d excerpts measured, fewer than the floor %d", total.excerpts, leaveOutFloors.excerpts)
	}
	if total.detected < leaveOutFloors.detected {
		t.Errorf("%d still detected, under the floor %d", total.detected, leaveOutFloors.detected)
	}
	if total.cause < leaveOutFloors.cause {
		t.Errorf("%d led by their cause line, under the floor %d", total.cause, leaveOutFloors.cause)
	}
}
