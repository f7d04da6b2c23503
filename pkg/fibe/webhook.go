package fibe

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/fibegg/fibe/internal/webhook"
)

// CodeInvalidSignature is the code of a webhook delivery that must not be
// trusted: its signature does not match its body under the secret, or its
// timestamp is outside the tolerance asked for.
const CodeInvalidSignature = "INVALID_SIGNATURE"

// The headers of a webhook delivery.
const (
	WebhookSignatureHeader   = webhook.HeaderSignature   // "sha256=" + hex HMAC-SHA256 of the raw body
	WebhookEventHeader       = webhook.HeaderEvent       // the event, e.g. "playground.created"
	WebhookDeliveryHeader    = webhook.HeaderDelivery    // the delivery's id
	WebhookIdempotencyHeader = webhook.HeaderIdempotency // the same on every attempt of a delivery: dedupe on it
)

// WebhookTolerance is the usual replay guard for VerifyWebhookRequest: a
// payload whose timestamp is further than this from now is refused.
const WebhookTolerance = webhook.DefaultTolerance

// maxWebhookBody bounds what VerifyWebhookRequest reads.
const maxWebhookBody = 1 << 20

// WebhookPayload is the body of a delivery.
type WebhookPayload struct {
	Event     string          `json:"event"`
	Timestamp time.Time       `json:"timestamp"`
	Data      json.RawMessage `json:"data"` // the resource, as the API shows it
	// Delivery and IdempotencyKey are the request's headers (set by
	// VerifyWebhookRequest).
	Delivery       string `json:"-"`
	IdempotencyKey string `json:"-"`
}

// VerifyWebhook checks signature, the X-Webhook-Signature header of a
// delivery, against payload, the raw request body, under the endpoint's
// secret, in constant time. It returns nil when they match, an *Error
// with CodeInvalidSignature when they do not, and one with
// CodeInvalidArgument when signature is not "sha256=<64 hex digits>" or
// secret is empty.
func VerifyWebhook(payload []byte, signature, secret string) error {
	if secret == "" {
		return invalidArgument("secret", "is empty")
	}
	err := webhook.Verify(payload, signature, secret)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, webhook.ErrMalformed):
		return invalidArgument("signature", err.Error())
	}
	return invalidSignature(err)
}

// VerifyWebhookRequest reads a delivery's body (1 MiB at most), checks its
// signature with VerifyWebhook and decodes it. With tolerance > 0 it also
// refuses a payload whose timestamp is further than tolerance from now
// (WebhookTolerance is the usual value). Verify before acting, and dedupe
// on IdempotencyKey: a delivery whose answer was lost is sent again.
func VerifyWebhookRequest(r *http.Request, secret string, tolerance time.Duration) (*WebhookPayload, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxWebhookBody+1))
	if err != nil {
		return nil, invalidArgument("body", "cannot be read: "+err.Error())
	}
	if len(body) > maxWebhookBody {
		return nil, invalidArgument("body", "is larger than 1 MiB")
	}
	if err := VerifyWebhook(body, firstValue(r.Header, WebhookSignatureHeader), secret); err != nil {
		return nil, err
	}
	var p WebhookPayload
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, invalidArgument("body", "is not a webhook payload: "+err.Error())
	}
	if tolerance > 0 {
		if err := webhook.CheckTimestamp(p.Timestamp, time.Now(), tolerance); err != nil {
			return nil, invalidSignature(err)
		}
	}
	p.Delivery, p.IdempotencyKey = firstValue(r.Header, WebhookDeliveryHeader), firstValue(r.Header, WebhookIdempotencyHeader)
	return &p, nil
}

// firstValue is a header's first value ("" when absent).
func firstValue(h http.Header, name string) string {
	if v := h.Values(name); len(v) > 0 {
		return v[0]
	}
	return ""
}

func invalidSignature(err error) *Error {
	return &Error{Code: CodeInvalidSignature, Message: err.Error(), Details: map[string]any{}}
}
