// Package webhook signs and verifies the deliveries of Fibe webhooks
// (docs/api.md, "Webhooks"): the X-Webhook-Signature header is "sha256="
// followed by the lowercase hex HMAC-SHA256 of the raw request body, keyed
// by the endpoint's secret. The emulator signs with it, and
// `fibe webhooks verify` and the Go SDK verify with it.
package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The headers of a delivery.
const (
	HeaderSignature   = "X-Webhook-Signature"
	HeaderEvent       = "X-Webhook-Event"
	HeaderDelivery    = "X-Webhook-Delivery"
	HeaderIdempotency = "X-Idempotency-Key"
)

// prefix starts every signature.
const prefix = "sha256="

// DefaultTolerance is how old a payload's timestamp may be before a
// receiver should refuse it as a replay.
const DefaultTolerance = 5 * time.Minute

// Errors of Verify and CheckTimestamp. ErrMalformed is bad input (the
// header is not a signature at all); ErrMismatch and ErrTooOld mean the
// payload must not be trusted.
var (
	ErrMalformed = errors.New("the signature is not sha256=<64 hex digits>")
	ErrMismatch  = errors.New("the signature does not match the payload")
	ErrTooOld    = errors.New("the payload's timestamp is outside the tolerance")
)

// Sign returns the X-Webhook-Signature value of body under secret.
func Sign(body []byte, secret string) string {
	return prefix + hex.EncodeToString(mac(body, secret))
}

func mac(body []byte, secret string) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return m.Sum(nil)
}

// Verify checks header (an X-Webhook-Signature value) against body and
// secret, comparing in constant time. Surrounding spaces are ignored and
// the hex digits may be of either case.
func Verify(body []byte, header, secret string) error {
	h := strings.TrimSpace(header)
	if len(h) < len(prefix) || !strings.EqualFold(h[:len(prefix)], prefix) {
		return ErrMalformed
	}
	got, err := hex.DecodeString(h[len(prefix):])
	if err != nil || len(got) != sha256.Size {
		return ErrMalformed
	}
	if !hmac.Equal(got, mac(body, secret)) {
		return ErrMismatch
	}
	return nil
}

// Payload is the body of a delivery.
type Payload struct {
	Event     string          `json:"event"`
	Timestamp time.Time       `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
}

// CheckTimestamp refuses a payload whose timestamp is more than tolerance
// away from now, either way (a clock ahead of the receiver's counts too).
// A tolerance of 0 or less accepts any time.
func CheckTimestamp(ts, now time.Time, tolerance time.Duration) error {
	if tolerance <= 0 {
		return nil
	}
	d := now.Sub(ts)
	if d < 0 {
		d = -d
	}
	if d > tolerance {
		return fmt.Errorf("%w (%s apart, at most %s)", ErrTooOld, d.Round(time.Second), tolerance)
	}
	return nil
}
