package config

import (
	"strings"
	"testing"
)

// Malformed URLs echoed the password; every one of them is masked now, the
// same way for the API URL and the state store.
func TestMaskURL(t *testing.T) {
	for raw, want := range map[string]string{
		"redis://fibe:S3cretPW@host:6379/2": "redis://****@host:6379/2",
		"redis://:S3cretPW@host:6379":       "redis://****@host:6379",
		"redis:/u:S3cretPW@host:1/0":        "redis:/****@host:1/0",
		"u:S3cretPW@host:1":                 "****@host:1",
		"https://user:S3cretPW@":            "https://****@",
		"redis://u:S3cr%zzetPW@host/0":      "redis://****@host/0",
		"redis://u:S3c/ret?P#W@host/0":      "redis://****@host/0",
		"redis://u:S3c@retPW@host/0":        "redis://****@host/0",
		"redis://host:6379/0":               "redis://host:6379/0",
		"https://api.example/fibe":          "https://api.example/fibe",
		"":                                  "",
		"@":                                 "****@",
		"rediss://S3cretPW@h":               "rediss://****@h",
	} {
		if got := MaskURL(raw); got != want {
			t.Errorf("MaskURL(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestBadURLErrorsNeverShowThePassword(t *testing.T) {
	for _, c := range []struct{ flag, value string }{
		{"--state-store", "redis:/u:S3cretPW@host:1/0"},
		{"--state-store", "u:S3cretPW@host:1"},
		{"--state-store", "redis://u:S3cretPW%zz@host:1/0"},
		{"--state-store", "redis://u:S3cretPW@/0"},
		{"--api-url", "https://user:S3cretPW@"},
		{"--api-url", "https://user:S3cretPW%zz@host"},
		{"--api-url", "ftp://user:S3cretPW@host"},
	} {
		isolate(t)
		_, err := Load(flags(t, c.flag, c.value))
		if err == nil {
			t.Errorf("%s %q: accepted", c.flag, c.value)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "S3cret") || strings.Contains(msg, "cretPW") {
			t.Errorf("%s %q: %s", c.flag, c.value, msg)
		}
	}
}

func FuzzMaskURL(f *testing.F) {
	for _, s := range []string{"redis://u:pw@h:1/0", "redis:/u:pw@h", "u:pw@h", "https://u:pw@", "redis://u:p%zz@h", "x://a@b@c/d?e#f"} {
		f.Add(s, "Secret9")
	}
	f.Fuzz(func(t *testing.T, raw, pw string) {
		if len(pw) < 3 || strings.Trim(pw, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != "" {
			return // a password of letters and digits: "*" or "/" would match the mask itself
		}
		// Whatever surrounds it, a password followed by "@" is never shown.
		in := raw + ":" + pw + "@host/0"
		got := MaskURL(in)
		if strings.Contains(got, pw+"@") {
			t.Fatalf("MaskURL(%q) = %q shows the password", in, got)
		}
		if msg := MaskURLIn("parse "+in+": bad", in); strings.Contains(msg, ":"+pw) {
			t.Fatalf("MaskURLIn shows the password: %q", msg)
		}
		if MaskURL(got) != got {
			t.Fatalf("masking is not stable: %q → %q", got, MaskURL(got))
		}
	})
}
