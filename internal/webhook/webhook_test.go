package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSignIsHexHMACOfTheRawBody(t *testing.T) {
	body := []byte(`{"event":"webhook.test","timestamp":"2026-12-03T10:00:00Z","data":{}}`)
	m := hmac.New(sha256.New, []byte("s3cret"))
	m.Write(body)
	want := "sha256=" + hex.EncodeToString(m.Sum(nil))
	if got := Sign(body, "s3cret"); got != want {
		t.Fatalf("Sign = %q, want %q", got, want)
	}
}

func TestVerify(t *testing.T) {
	body := []byte(`{"event":"playground.created"}`)
	sig := Sign(body, "secret-one")
	cases := []struct {
		name   string
		body   []byte
		header string
		secret string
		want   error
	}{
		{"valid", body, sig, "secret-one", nil},
		{"upper-case hex and spaces", body, " sha256=" + strings.ToUpper(sig[7:]) + "\n", "secret-one", nil},
		{"other secret", body, sig, "secret-two", ErrMismatch},
		{"body changed by one byte", append([]byte{}, `{"event":"playground.createD"}`...), sig, "secret-one", ErrMismatch},
		{"bare hex without the prefix", body, sig[7:], "secret-one", ErrMalformed},
		{"another algorithm", body, "sha1=" + sig[7:], "secret-one", ErrMalformed},
		{"not hex", body, "sha256=" + strings.Repeat("z", 64), "secret-one", ErrMalformed},
		{"too short", body, sig[:len(sig)-2], "secret-one", ErrMalformed},
		{"empty", body, "", "secret-one", ErrMalformed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := Verify(tc.body, tc.header, tc.secret); !errors.Is(err, tc.want) {
				t.Fatalf("Verify = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestCheckTimestamp(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		ts        time.Time
		tolerance time.Duration
		ok        bool
	}{
		{now.Add(-4 * time.Minute), DefaultTolerance, true},
		{now.Add(-6 * time.Minute), DefaultTolerance, false},
		{now.Add(6 * time.Minute), DefaultTolerance, false},
		{now.Add(-240 * time.Hour), 0, true},
	} {
		err := CheckTimestamp(tc.ts, now, tc.tolerance)
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrTooOld)) {
			t.Errorf("CheckTimestamp(%s, tolerance %s) = %v, want ok=%v", tc.ts, tc.tolerance, err, tc.ok)
		}
	}
}
