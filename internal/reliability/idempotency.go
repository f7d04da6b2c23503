package reliability

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
)

// ErrInvalidIdempotencyKey is the cause of every rejected user key.
var ErrInvalidIdempotencyKey = errors.New("idempotency key must be 1 to 255 printable ASCII characters without spaces")

// NewIdempotencyKey mints a key: 16 bytes from crypto/rand as 32 lowercase
// hex characters. Mint it once per logical operation, never per attempt.
func NewIdempotencyKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails; it crashes the process instead
	return hex.EncodeToString(b[:])
}

// DeriveIdempotencyKey is the key of one step of a logical operation whose
// key is key: the same key and step always give the same derived key, and
// different steps give different ones (32 lowercase hex characters). A
// form that makes several requests sends each its derived key, so that
// submitting it again replays every step instead of repeating one.
func DeriveIdempotencyKey(key, step string) string {
	sum := sha256.Sum256([]byte(key + "\x00" + step))
	return hex.EncodeToString(sum[:16])
}

// ValidateIdempotencyKey checks a key a user supplied.
func ValidateIdempotencyKey(key string) error {
	if len(key) < 1 || len(key) > 255 {
		return ErrInvalidIdempotencyKey
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; c <= ' ' || c > '~' {
			return ErrInvalidIdempotencyKey
		}
	}
	return nil
}
