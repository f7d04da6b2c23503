package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

func TestVerifyRun(t *testing.T) {
	const secret = "verify-secret-0123456789"
	body := `{"event":"secret.created","timestamp":"2026-12-03T10:00:00Z","data":{"id":3}}`
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(body))
	sig := "sha256=" + hex.EncodeToString(m.Sum(nil))
	file := filepath.Join(t.TempDir(), "body.json")
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(name string) (string, bool) { return secret, name == "S" }
	at := func(s string) func() time.Time {
		return func() time.Time { ts, _ := time.Parse(time.RFC3339, s); return ts }
	}
	for _, tc := range []struct {
		name    string
		opts    VerifyOptions
		exit    int // 0 valid, 1 not verified, 2 bad input
		wantOut string
	}{
		{"valid", VerifyOptions{SecretEnv: "S", Signature: sig, File: file}, 0, "secret.created"},
		{"fresh enough", VerifyOptions{SecretEnv: "S", Signature: sig, File: file, MaxAge: 5 * time.Minute, Now: at("2026-12-03T10:04:00Z")}, 0, ""},
		{"too old", VerifyOptions{SecretEnv: "S", Signature: sig, File: file, MaxAge: 5 * time.Minute, Now: at("2026-12-03T10:06:00Z")}, 1, ""},
		{"other secret", VerifyOptions{SecretEnv: "S", Signature: "sha256=" + hex.EncodeToString(make([]byte, 32)), File: file}, 1, ""},
		{"unset variable", VerifyOptions{SecretEnv: "NOPE", Signature: sig, File: file}, 2, ""},
		{"not a request", VerifyOptions{SecretEnv: "S", File: file}, 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ios, _, out, _ := iostreams.Test()
			ios.SetJSON(true)
			tc.opts.IO, tc.opts.Getenv = ios, env
			if tc.opts.Now == nil {
				tc.opts.Now = time.Now
			}
			err := verifyRun(&tc.opts)
			if got := output.ExitCode(err); got != tc.exit {
				t.Fatalf("exit %d (%v), want %d", got, err, tc.exit)
			}
			if tc.exit == 1 && !errors.As(err, new(invalidSignature)) {
				t.Errorf("err %T", err)
			}
			if tc.exit == 0 {
				var res VerifyResult
				if err := json.Unmarshal(out.Bytes(), &res); err != nil || !res.Valid || (tc.wantOut != "" && res.Event != tc.wantOut) {
					t.Errorf("--json printed %q (%v)", out, err)
				}
			}
		})
	}
}
