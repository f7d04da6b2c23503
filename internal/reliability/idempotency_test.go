package reliability

import (
	"regexp"
	"strings"
	"testing"
)

func TestNewIdempotencyKey(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-f]{32}$`)
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		k := NewIdempotencyKey()
		if !re.MatchString(k) {
			t.Fatalf("key %q is not 32 lowercase hex", k)
		}
		if seen[k] {
			t.Fatalf("duplicate key %q", k)
		}
		seen[k] = true
	}
}

func TestValidateIdempotencyKey(t *testing.T) {
	good := []string{"a", "ci-1234-restart", strings.Repeat("x", 255), "~!@#$%^&*()"}
	bad := []string{"", strings.Repeat("x", 256), "has space", "tab\tkey", "nl\n", "é", "\x7f"}
	for _, k := range good {
		if err := ValidateIdempotencyKey(k); err != nil {
			t.Errorf("%q rejected: %v", k, err)
		}
	}
	for _, k := range bad {
		if ValidateIdempotencyKey(k) == nil {
			t.Errorf("%q accepted", k)
		}
	}
}

func TestDeriveIdempotencyKey(t *testing.T) {
	a := DeriveIdempotencyKey("form-key", "extend")
	if a != DeriveIdempotencyKey("form-key", "extend") {
		t.Fatal("the same key and step gave two keys")
	}
	if a == DeriveIdempotencyKey("form-key", "env") || a == DeriveIdempotencyKey("other-key", "extend") || a == "form-key" {
		t.Fatal("different steps or keys gave the same key")
	}
	if err := ValidateIdempotencyKey(a); err != nil || len(a) != 32 {
		t.Fatalf("derived key %q: %v", a, err)
	}
}
