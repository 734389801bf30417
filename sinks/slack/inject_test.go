package slack

import (
	"encoding/json"
	"reflect"
	"regexp"
	"testing"

	"github.com/logmatch/logmatch/sinks"
)

// injection is log text that tries Slack's own markup: a broadcast to
// the channel, a disguised link, a user mention, a date token.
const injection = "<!channel> <!here|here> <https://evil.example/x|click here> <@U0123> <!date^1^{date}|x> *bold* ```fence"

// fill sets every string field reachable from v to s (slices and maps
// get one element), so that every field of an alert carries the payload.
func fill(v reflect.Value, s string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Pointer:
		if v.Type().Elem().Kind() == reflect.Struct && v.Type().Elem().PkgPath() != "time" {
			v.Set(reflect.New(v.Type().Elem()))
			fill(v.Elem(), s)
		}
	case reflect.Struct:
		if v.Type().PkgPath() == "time" {
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), s)
			}
		}
	case reflect.Slice:
		e := reflect.New(v.Type().Elem()).Elem()
		fill(e, s)
		v.Set(reflect.Append(reflect.MakeSlice(v.Type(), 0, 1), e))
	case reflect.Map:
		if v.Type().Key().Kind() == reflect.String && v.Type().Elem().Kind() == reflect.String {
			v.Set(reflect.MakeMap(v.Type()))
			v.SetMapIndex(reflect.ValueOf(s), reflect.ValueOf(s))
		}
	}
}

// markup is what Slack acts on inside text: <...> sequences.
var markup = regexp.MustCompile(`<[^<>]*>`)

// ours are the sequences the renderer itself writes: dates, and links
// to http(s) URLs with their |, < and > escaped.
var ours = regexp.MustCompile(`^<(!date\^\d+\^\{date_short_pretty\} \{time_secs\}\|[^<>|]*|https?://[^<>|]*\|[^<>|]*)>$`)

// Every field of an alert, of every kind and in a digest, carries Slack
// markup as text: none of it reaches the message as markup (no broadcast,
// no mention, no disguised link), whatever field it came through.
func TestLogTextCannotInjectSlackMarkup(t *testing.T) {
	a := &sinks.Alert{}
	fill(reflect.ValueOf(a).Elem(), injection)
	a.Count = 3
	var msgs []message
	for _, kind := range []string{sinks.KindNew, sinks.KindSummary, sinks.KindReminder, "resolved", "digest", "liveness"} {
		k := *a
		k.Kind = kind
		msgs = append(msgs, render(&k))
	}
	msgs = append(msgs, renderDigest([]*sinks.Alert{a, a}))
	for _, m := range msgs {
		var texts []string
		texts = append(texts, m.Text)
		for _, b := range m.Blocks {
			// plain_text (the header) is never parsed for markup.
			if b.Text != nil && b.Text.Type != "plain_text" {
				texts = append(texts, b.Text.Text)
			}
			for _, f := range append(append([]textObj{}, b.Fields...), b.Elements...) {
				if f.Type != "plain_text" {
					texts = append(texts, f.Text)
				}
			}
		}
		for _, text := range texts {
			for _, seq := range markup.FindAllString(text, -1) {
				if !ours.MatchString(seq) {
					raw, _ := json.Marshal(m)
					t.Fatalf("log text became Slack markup %q in %q\nmessage: %s", seq, text, raw)
				}
			}
		}
	}
}
