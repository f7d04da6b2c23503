package reliability

import (
	"crypto/rand"
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
