package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"unicode"
)

// maxMessageLen keeps messages to one short line.
const maxMessageLen = 300

// parseErrorBody reads the error envelope of a non-2xx answer. A body that
// is not the envelope (an HTML page from a proxy, empty, truncated JSON)
// still yields a code derived from the status and a one-line message; the
// raw body is never echoed.
func parseErrorBody(status int, contentType string, body []byte) (code, message string, details map[string]any) {
	code = codeForStatus(status)
	var env struct {
		Error   json.RawMessage `json:"error"`
		Code    string          `json:"code"`
		Message string          `json:"message"`
		Details map[string]any  `json:"details"`
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && json.Unmarshal(trimmed, &env) == nil {
		var inner struct {
			Code    string         `json:"code"`
			Message string         `json:"message"`
			Details map[string]any `json:"details"`
		}
		var asString string
		switch {
		case len(env.Error) > 0 && json.Unmarshal(env.Error, &inner) == nil:
			code, message, details = pick(inner.Code, code), inner.Message, inner.Details
		case len(env.Error) > 0 && json.Unmarshal(env.Error, &asString) == nil:
			message = asString
		default:
			code, message, details = pick(env.Code, code), env.Message, env.Details
		}
		if m := oneLine(message); m != "" {
			return sanitizeCode(code, status), m, details
		}
		return sanitizeCode(code, status), statusLine(status), details
	}
	return code, statusLine(status) + " (" + describeBody(contentType, trimmed) + ")", nil
}

func pick(v, fallback string) string {
	if strings.TrimSpace(v) == "" {
		return fallback
	}
	return v
}

// sanitizeCode keeps codes machine-shaped; anything odd falls back to the status.
func sanitizeCode(code string, status int) string {
	if code == "" || len(code) > 64 {
		return codeForStatus(status)
	}
	for _, r := range code {
		if !(r == '_' || r == '.' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)) || r > unicode.MaxASCII {
			return codeForStatus(status)
		}
	}
	return code
}

func statusLine(status int) string {
	if t := http.StatusText(status); t != "" {
		return fmt.Sprintf("HTTP %d %s", status, t)
	}
	return fmt.Sprintf("HTTP %d", status)
}

func describeBody(contentType string, body []byte) string {
	switch {
	case len(body) == 0:
		return "empty body"
	case body[0] == '{' || body[0] == '[':
		return "malformed JSON body"
	default:
		ct := contentType
		if i := strings.IndexByte(ct, ';'); i >= 0 {
			ct = ct[:i]
		}
		ct = strings.TrimSpace(ct)
		if ct == "" || len(ct) > 60 {
			ct = "unknown type"
		}
		return "non-JSON body: " + oneLine(ct)
	}
}

// oneLine collapses whitespace and control characters and caps the length.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.IsSpace(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > maxMessageLen {
		cut := maxMessageLen
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
