package slack

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// emulator answers like a Slack incoming webhook: it validates the payload
// as Slack does (JSON, text or blocks present, Block Kit types and limits)
// and answers "ok", or the error a path asks for:
//
//	/gone       404 no_service
//	/archived   410 channel_is_archived
//	/forbidden  403 action_prohibited
//	/rejected   400 invalid_payload
//	/down       500
//	/busy       429 with Retry-After: 2 on the first request, then ok
type emulator struct {
	mu       sync.Mutex
	messages []map[string]any
	requests int
	busyOnce bool
}

func (e *emulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	e.requests++
	e.mu.Unlock()
	answer := func(code int, body string) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(code)
		_, _ = io.WriteString(w, body)
	}
	switch {
	case strings.HasSuffix(r.URL.Path, "/gone"):
		answer(404, "no_service")
		return
	case strings.HasSuffix(r.URL.Path, "/archived"):
		answer(410, "channel_is_archived")
		return
	case strings.HasSuffix(r.URL.Path, "/forbidden"):
		answer(403, "action_prohibited")
		return
	case strings.HasSuffix(r.URL.Path, "/rejected"):
		answer(400, "invalid_payload")
		return
	case strings.HasSuffix(r.URL.Path, "/down"):
		answer(500, "")
		return
	case strings.HasSuffix(r.URL.Path, "/busy"):
		e.mu.Lock()
		first := !e.busyOnce
		e.busyOnce = true
		e.mu.Unlock()
		if first {
			w.Header().Set("Retry-After", "2")
			answer(429, "rate_limited")
			return
		}
	}
	if r.Method != http.MethodPost {
		answer(405, "invalid_request")
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		answer(400, "invalid_payload")
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		answer(400, "invalid_payload")
		return
	}
	var m map[string]any
	if json.Unmarshal(body, &m) != nil {
		answer(400, "invalid_payload")
		return
	}
	if err := validate(m); err != nil {
		answer(400, err.Error())
		return
	}
	e.mu.Lock()
	e.messages = append(e.messages, m)
	e.mu.Unlock()
	answer(200, "ok")
}

// slackError is an error whose text is Slack's error code.
type slackError string

func (e slackError) Error() string { return string(e) }

// validate checks a decoded payload against Slack's documented limits,
// counting characters as Slack does. Unbalanced code fences are not a
// Slack error, but they break the rendering, so they fail here too.
func validate(m map[string]any) error {
	text, _ := m["text"].(string)
	blocks, hasBlocks := m["blocks"].([]any)
	if text == "" && len(blocks) == 0 {
		return slackError("no_text")
	}
	if utf8.RuneCountInString(text) > maxMessageText {
		return slackError("msg_too_long")
	}
	if !hasBlocks {
		return nil
	}
	if len(blocks) > maxBlocks {
		return slackError("invalid_blocks")
	}
	for i, raw := range blocks {
		if err := validateBlock(raw); err != nil {
			return slackError(fmt.Sprintf("invalid_blocks: block %d: %v", i, err))
		}
	}
	return nil
}

func validateBlock(raw any) error {
	b, ok := raw.(map[string]any)
	if !ok {
		return fmt.Errorf("not an object")
	}
	switch b["type"] {
	case "header":
		t, err := textObject(b["text"], 1, maxHeaderText)
		if err != nil {
			return err
		}
		if t["type"] != "plain_text" {
			return fmt.Errorf("header text must be plain_text")
		}
	case "section":
		_, hasText := b["text"]
		fields, hasFields := b["fields"].([]any)
		if !hasText && !hasFields {
			return fmt.Errorf("section needs text or fields")
		}
		if hasText {
			if _, err := textObject(b["text"], 1, maxSectionText); err != nil {
				return err
			}
		}
		if hasFields && (len(fields) == 0 || len(fields) > maxFields) {
			return fmt.Errorf("%d fields", len(fields))
		}
		for _, f := range fields {
			if _, err := textObject(f, 1, maxFieldText); err != nil {
				return err
			}
		}
	case "context":
		els, _ := b["elements"].([]any)
		if len(els) == 0 || len(els) > maxContextItems {
			return fmt.Errorf("%d context elements", len(els))
		}
		for _, el := range els {
			if _, err := textObject(el, 1, maxSectionText); err != nil {
				return err
			}
		}
	case "divider":
	default:
		return fmt.Errorf("unknown block type %v", b["type"])
	}
	return nil
}

func textObject(raw any, minLen, maxLen int) (map[string]any, error) {
	t, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("text is not an object")
	}
	if t["type"] != "plain_text" && t["type"] != "mrkdwn" {
		return nil, fmt.Errorf("text type %v", t["type"])
	}
	s, _ := t["text"].(string)
	if n := utf8.RuneCountInString(s); n < minLen || n > maxLen {
		return nil, fmt.Errorf("text of %d characters, want %d to %d", n, minLen, maxLen)
	}
	if strings.Count(s, "```")%2 != 0 {
		return nil, fmt.Errorf("unbalanced code fence in %q", s)
	}
	return t, nil
}

// TestEmulatorRejects shows the emulator fails what Slack fails, so that
// the tests that pass through it mean something.
func TestEmulatorRejects(t *testing.T) {
	longHeader := `{"type":"header","text":{"type":"plain_text","text":"` + strings.Repeat("x", maxHeaderText+1) + `"}}`
	many := strings.TrimSuffix(strings.Repeat(`{"type":"divider"},`, maxBlocks+1), ",")
	tests := []struct {
		name, body, want string
	}{
		{"not json", `{"text":`, "invalid_payload"},
		{"no text", `{"blocks":[]}`, "no_text"},
		{"header too long", `{"text":"t","blocks":[` + longHeader + `]}`, "invalid_blocks"},
		{"too many blocks", `{"text":"t","blocks":[` + many + `]}`, "invalid_blocks"},
		{"unknown block", `{"text":"t","blocks":[{"type":"video"}]}`, "invalid_blocks"},
		{"open fence", `{"text":"t","blocks":[{"type":"section","text":{"type":"mrkdwn","text":"` + "```x" + `"}}]}`, "invalid_blocks"},
		{"valid", `{"text":"t","blocks":[{"type":"section","text":{"type":"mrkdwn","text":"hi"}}]}`, "ok"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(&emulator{})
			defer srv.Close()
			resp, err := srv.Client().Post(srv.URL+"/services/x", "application/json", strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if !strings.HasPrefix(string(b), tc.want) {
				t.Errorf("answer %d %q, want %q", resp.StatusCode, b, tc.want)
			}
			srv.Client().CloseIdleConnections()
		})
	}
}
