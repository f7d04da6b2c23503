package localapi

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"time"
)

// idemEntry is a cached answer to a mutation, kept per (API key,
// Idempotency-Key) for a day and replayed byte for byte.
type idemEntry struct {
	Fingerprint string            `json:"fingerprint"` // method, path, query and body hash
	Status      int               `json:"status"`
	Header      map[string]string `json:"header"`
	Body        []byte            `json:"body"`
	CreatedAt   time.Time         `json:"created_at"`
	// InFlightUntil is set while the request that stored the entry is still
	// "running" (an injected commit-then-hang): until then a retry is told
	// the key is in flight rather than given the answer.
	InFlightUntil time.Time `json:"in_flight_until,omitzero"`
}

// replayedHeaders are the headers of an answer that belong to it (the
// request id and rate-limit headers belong to each request).
var replayedHeaders = []string{"Content-Type", "Location", "Retry-After"}

func validIdempotencyKey(k string) bool {
	if len(k) < 1 || len(k) > 255 {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] <= ' ' || k[i] > '~' {
			return false
		}
	}
	return true
}

func requestFingerprint(c *call) string {
	h := sha256.New()
	h.Write([]byte(c.method + " " + c.path + "?" + c.rawQuery + "\n"))
	h.Write(c.body)
	return hex.EncodeToString(h.Sum(nil))
}

// lookupIdempotent returns the answer for a key seen before: a replay, or a
// 409 when the key is reused for another request or still in flight. It
// returns neither for a new key.
func (st *state) lookupIdempotent(slot, fingerprint string, now time.Time) (*reply, error) {
	e := st.Idempotency[slot]
	if e == nil || now.Sub(e.CreatedAt) > retention {
		return nil, nil
	}
	if e.Fingerprint != fingerprint {
		return nil, conflict("this Idempotency-Key was already used for a different request", "idempotency_key_reused", nil)
	}
	if now.Before(e.InFlightUntil) {
		return nil, conflict("a request with this Idempotency-Key is still being processed", "idempotency_key_in_flight", nil)
	}
	r := newReply(e.Status)
	for k, v := range e.Header {
		r.header.Set(k, v)
	}
	r.body = append([]byte(nil), e.Body...)
	r.header.Set("X-Idempotent-Replayed", "true")
	st.Stats.Replays++
	return r, nil
}

// storeIdempotent caches a successful answer. Failed answers are not cached:
// nothing happened, so the same key may be sent again.
func (st *state) storeIdempotent(slot, fingerprint string, r *reply, now, inFlightUntil time.Time) {
	hdr := map[string]string{}
	for _, k := range replayedHeaders {
		if v := r.header.Get(k); v != "" {
			hdr[http.CanonicalHeaderKey(k)] = v
		}
	}
	st.Idempotency[slot] = &idemEntry{
		Fingerprint: fingerprint, Status: r.status, Header: hdr,
		Body: append([]byte(nil), r.body...), CreatedAt: now, InFlightUntil: inFlightUntil,
	}
}
