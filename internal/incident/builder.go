package incident

import (
	"time"
	"unsafe"

	"github.com/logmatch/logmatch/internal/analysis"
	"github.com/logmatch/logmatch/internal/entry"
	"github.com/logmatch/logmatch/patterns"
	"github.com/logmatch/logmatch/sinks"
)

// Builder makes the occurrences of diagnosed entries, as FromDiagnosis
// does, but builds an occurrence's alert only when a Grouper needs it: to
// open an incident, to fold a consequence or a line of a burst into
// another one, to give an incident the exception it lacks, or to send it
// at once (no grouping). Most failure lines repeat an open incident, and
// such a repeat needs only what identifies it, its time and its rank: it
// finds its incident by a fingerprint it holds as bytes, and the Builder
// remembers the rank texts it made, so that a repeat allocates nothing.
// It is not safe for concurrent use.
type Builder struct {
	// Finish, when set, is applied to every alert the Builder builds,
	// before a Grouper keeps or returns it: what a caller did to the
	// alert of FromDiagnosis before Observe (its source file, its
	// redaction) goes here.
	Finish func(*sinks.Alert)
	// Own, when set, is called before an alert is built: it gives the
	// entry and the diagnosis of the latest occurrence memory of their
	// own, when they were lent (stream.Entry.Own).
	Own func()

	// The entry of the latest occurrence, lent by the caller until its
	// next call.
	e   *entry.Entry
	d   *analysis.Diagnosis
	src Source
	seq uint64

	alert sinks.Alert // the one Finish is applied to
	rooms rankRooms   // the Ranks of the alerts built
	// fpText is the room of the fingerprints' text of the alerts built,
	// fpsPerBlock of them in one allocation (see fingerprintText).
	fpText []byte
	ranks  map[entry.Ranks]string
	// hotRanks holds rank texts of ranks the map holds, by a hash of the
	// ranks: a failure's ranks are most often a few a log, and the map
	// hashes all six of them through the runtime's generic hash.
	hotRanks [hotRankSlots]hotRank
	// byOrdinal remembers the fingerprint of each record's incident, with
	// the source key it was made for, at the record's place in its
	// catalog (matcher.Hit.Ordinal): a hash costs more than reading one
	// entry, and a catalog's records all fit, where a map bounded below
	// the catalog's size was emptied every few thousand error lines. It
	// covers the places up to its length, grown only as far as
	// ordinalDensity times the records remembered: a large catalog with
	// few failures keeps them in fps, not a table of every place. fps is
	// the same by record for the other places, and for a hit with none
	// (made by the analysis). Only a record's own id is ever hashed by
	// them, never a key that may lie in a lent entry.
	byOrdinal []ordinalFP
	filled    int // the entries of byOrdinal in use
	fps       map[*patterns.Record]recordFP
	// scoped is ScopeOf of the latest source, remembered with the fields
	// it reads (scope): a failure's source is most often the one before,
	// and ScopeOf joins strings, a pod's into a new one.
	scoped                       string
	scopePod, scopeNS, scopeNode string
}

// scope is ScopeOf(src).
func (b *Builder) scope(src Source) string {
	if b.scoped == "" || src.Pod != b.scopePod || src.Namespace != b.scopeNS || src.Node != b.scopeNode {
		b.scoped, b.scopePod, b.scopeNS, b.scopeNode = ScopeOf(src), src.Pod, src.Namespace, src.Node
	}
	return b.scoped
}

// ordinalFP is a record's fingerprint for one source key: an entry of
// byOrdinal, whose place is the record's. It has no room for the place
// (40 bytes, not 48): the table is a catalog's length, grown by doubling.
type ordinalFP struct {
	rec    *patterns.Record // the entry is of this record
	source string
	fp     [16]byte
}

// recordFP is an entry of fps: an ordinalFP with the record's place.
type recordFP struct {
	ordinalFP
	// ord is the record's place (matcher.Hit.Ordinal), -1 for none: an
	// entry of fps moves to byOrdinal when it grows over that place.
	ord int32
}

// maxOrdinals bounds byOrdinal: records at places past it are remembered
// in fps.
const maxOrdinals = 1 << 16

// ordinalDensity bounds byOrdinal's length to that many entries for each
// record remembered (or 256).
const ordinalDensity = 8

// maxRemembered bounds the rank texts and fingerprints a Builder
// remembers; past it, they are forgotten all at once, the map emptied
// rather than made again (a new one grows to the bound again, rehashing
// on the way).
const maxRemembered = 4096

// Occurrence is FromDiagnosis(e, d, src, readTime) with its alert built
// only when a Grouper needs it (Occurrence.Complete). e and d are read
// then: the occurrence must be observed (or completed) before the
// Builder's next call, while they are valid, and it panics if not.
func (b *Builder) Occurrence(e *entry.Entry, d *analysis.Diagnosis, src Source, readTime time.Time) Occurrence {
	var o Occurrence
	b.OccurrenceTo(&o, e, d, src, readTime)
	return o
}

// OccurrenceTo is Occurrence made in *o, for ObserveByRef: no copy of the
// occurrence is made on the way.
func (b *Builder) OccurrenceTo(o *Occurrence, e *entry.Entry, d *analysis.Diagnosis, src Source, readTime time.Time) {
	b.seq++
	b.e, b.d, b.src = e, d, src
	occurrenceInto(o, e, d, src, readTime, b.rank(e), b.scope(src))
	b.fingerprint(&o.fp, d, o.Key, o.SourceKey)
	o.lazy, o.seq = b, b.seq
}

// fingerprint is fingerprintInto(out, key, sourceKey), remembered when
// key is the id of d's record.
func (b *Builder) fingerprint(out *[16]byte, d *analysis.Diagnosis, key, sourceKey string) {
	if d.Cause == nil || d.Cause.Record == nil || key != d.Cause.Record.ID {
		fingerprintInto(out, key, sourceKey)
		return
	}
	r := d.Cause.Record
	i, ok := d.Cause.Ordinal()
	if !ok || i >= maxOrdinals {
		i = -1
	}
	if i >= len(b.byOrdinal) && (b.filled+len(b.fps)+1)*ordinalDensity >= i+1 {
		b.growOrdinals(i)
	}
	if i >= 0 && i < len(b.byOrdinal) {
		x := &b.byOrdinal[i]
		if x.rec == r && x.source == sourceKey {
			*out = x.fp
			return
		}
		if x.rec == nil {
			b.filled++
		}
		fingerprintInto(out, key, sourceKey)
		*x = ordinalFP{r, sourceKey, *out}
		return
	}
	if x, ok := b.fps[r]; ok && x.source == sourceKey {
		*out = x.fp
		return
	}
	switch {
	case b.fps == nil:
		b.fps = make(map[*patterns.Record]recordFP)
	case len(b.fps) >= maxRemembered:
		clear(b.fps)
	}
	fingerprintInto(out, key, sourceKey)
	b.fps[r] = recordFP{ordinalFP{r, sourceKey, *out}, int32(i)}
}

// growOrdinals grows byOrdinal over place i, and moves there the entries
// of fps at the places it now covers.
func (b *Builder) growOrdinals(i int) {
	n := min(max(i+1, 2*len(b.byOrdinal), 256), maxOrdinals)
	b.byOrdinal = append(b.byOrdinal, make([]ordinalFP, n-len(b.byOrdinal))...)
	for r, x := range b.fps {
		if x.ord >= 0 && int(x.ord) < n {
			if b.byOrdinal[x.ord].rec == nil {
				b.filled++
			}
			b.byOrdinal[x.ord] = x.ordinalFP
			delete(b.fps, r)
		}
	}
}

// hotRank is a slot of Builder.hotRanks: ranks that name a rank (named)
// and their text; empty text for an unused slot.
type hotRank struct {
	ranks entry.Ranks
	text  string
}

// named reports whether r names a rank, so that RankOf is r's text alone
// (entry.Ranks.String), never empty and the same for every entry of r.
func named(r *entry.Ranks) bool {
	return r.DP >= 0 || r.PP >= 0 || r.AttnCP >= 0 || r.MoeDP >= 0 || r.TP >= 0 || r.EP >= 0
}

// hotRankSlots is the size of Builder.hotRanks, a power of two.
const hotRankSlots = 64

// hotRankSlot is the slot of Builder.hotRanks for r.
func hotRankSlot(r *entry.Ranks) int {
	h := uint64(r.DP)*0x9e3779b97f4a7c15 ^ uint64(r.PP)*0xc2b2ae3d27d4eb4f ^ uint64(r.AttnCP)*0x165667b19e3779f9 ^
		uint64(r.MoeDP)*0x27d4eb2f165667c5 ^ uint64(r.TP)*0x85ebca77c2b2ae63 ^ uint64(r.EP)*0xff51afd7ed558ccd
	return int((h ^ h>>29) * 0x9e3779b97f4a7c15 >> 58)
}

// rank is RankOf(e), the text of header ranks seen before remembered.
func (b *Builder) rank(e *entry.Entry) string {
	if !named(&e.Ranks) {
		return b.rankUnnamed(e)
	}
	hot := &b.hotRanks[hotRankSlot(&e.Ranks)]
	if hot.text != "" && sameRanks(&hot.ranks, &e.Ranks) {
		return hot.text
	}
	r := b.rankRemembered(e)
	*hot = hotRank{e.Ranks, r}
	return r
}

// rankUnnamed is rank for ranks that name none: RankOf for NoRanks, and
// the map as before for any other such value.
func (b *Builder) rankUnnamed(e *entry.Entry) string {
	if e.Ranks == entry.NoRanks {
		return RankOf(e)
	}
	return b.rankRemembered(e)
}

// rankRemembered is RankOf(e) from the map of ranks seen before, which it
// fills (and empties when it holds maxRemembered).
func (b *Builder) rankRemembered(e *entry.Entry) string {
	if r, ok := b.ranks[e.Ranks]; ok {
		return r
	}
	switch {
	case b.ranks == nil:
		b.ranks = make(map[entry.Ranks]string)
	case len(b.ranks) >= maxRemembered:
		clear(b.ranks)
	}
	r := RankOf(e)
	b.ranks[e.Ranks] = r
	return r
}

// sameRanks is *a == *b field by field: a struct's == calls the runtime's
// memequal.
func sameRanks(a, b *entry.Ranks) bool {
	return a.DP == b.DP && a.PP == b.PP && a.AttnCP == b.AttnCP && a.MoeDP == b.MoeDP && a.TP == b.TP && a.EP == b.EP
}

// fpsPerBlock is how many fingerprints' text share one allocation of a
// Builder's: 256 bytes, which stay while any of their incidents does.
const fpsPerBlock = 16

// fingerprintText is string(fp[:]) in the room of b.fpText: an alert built
// for a new incident needs its fingerprint as text (the incident's key),
// and one allocation for each would be most of what a new incident
// allocates but the incident itself. The bytes handed out are never
// written again.
func (b *Builder) fingerprintText(fp *[16]byte) string {
	if len(b.fpText) < len(fp) {
		b.fpText = make([]byte, len(fp)*fpsPerBlock)
	}
	s := b.fpText[:len(fp):len(fp)]
	b.fpText = b.fpText[len(fp):]
	copy(s, fp[:])
	return unsafe.String(&s[0], len(s))
}

// Complete builds the rest of o's alert, when a Builder left it to build,
// and applies the Builder's Finish to it. The Grouper calls it where it
// needs the alert; a caller that reads o's Alert beyond its fingerprint
// and its record's id, role and severity calls it first; the
// fingerprint too is set then.
func (o *Occurrence) Complete() {
	b := o.lazy
	if b == nil {
		return
	}
	if b.seq != o.seq {
		panic("incident: an occurrence completed after its Builder's next call")
	}
	o.lazy = nil
	o.Alert.Fingerprint = b.fingerprintText(&o.fp)
	if b.Own != nil {
		b.Own()
	}
	o.buildAlert(b.e, b.d, b.src, &b.rooms)
	if b.Finish != nil {
		// Finished in the Builder's own alert: handing Finish a pointer
		// into o would move every occurrence a Grouper observes to the
		// heap.
		b.alert = o.Alert
		b.Finish(&b.alert)
		o.Alert, b.alert = b.alert, sinks.Alert{}
	}
}
