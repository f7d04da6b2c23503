package fibe

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func sign(body, secret string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(body))
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

func TestVerifyWebhookRequest(t *testing.T) {
	const secret = "whsec_0123456789abcdef"
	fresh := `{"event":"secret.created","timestamp":"` + time.Now().UTC().Format(time.RFC3339) + `","data":{"id":7}}`
	stale := `{"event":"secret.created","timestamp":"2020-01-01T00:00:00Z","data":{"id":7}}`
	for _, tc := range []struct {
		name, body, sig string
		tolerance       time.Duration
		code            string
	}{
		{"fresh and signed", fresh, sign(fresh, secret), WebhookTolerance, ""},
		{"old, no tolerance asked", stale, sign(stale, secret), 0, ""},
		{"old, refused", stale, sign(stale, secret), WebhookTolerance, CodeInvalidSignature},
		{"signed with another secret", fresh, sign(fresh, "whsec_other_secret_000"), 0, CodeInvalidSignature},
		{"no header", fresh, "", 0, CodeInvalidArgument},
		{"bare hex", fresh, strings.TrimPrefix(sign(fresh, secret), "sha256="), 0, CodeInvalidArgument},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/hook", strings.NewReader(tc.body))
			if tc.sig != "" {
				r.Header.Set(WebhookSignatureHeader, tc.sig)
			}
			r.Header.Set(WebhookDeliveryHeader, "42")
			p, err := VerifyWebhookRequest(r, secret, tc.tolerance)
			if tc.code == "" {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				if p.Event != "secret.created" || p.Delivery != "42" || string(p.Data) != `{"id":7}` {
					t.Fatalf("payload = %+v", p)
				}
				return
			}
			if !errors.Is(err, &Error{Code: tc.code}) {
				t.Fatalf("err = %v, want code %s", err, tc.code)
			}
		})
	}
}
