package config

import (
	"os"
	"strings"
	"testing"
)

func TestCredentialsFileFallback(t *testing.T) {
	isolate(t) // FIBE_NO_KEYRING=1: the OS keyring is never touched
	c, err := NewCredentials()
	if err != nil {
		t.Fatal(err)
	}
	where, err := c.Set("default", "https://fibe.gg", "fibe_live_secret_1234")
	if err != nil {
		t.Fatal(err)
	}
	if where != c.File() {
		t.Errorf("stored in %q, want the file", where)
	}
	info, err := os.Stat(c.File())
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode %o", info.Mode().Perm())
	}
	// Keys are per profile and per API origin.
	if _, err := c.Set("default", "http://127.0.0.1:7878", "fibe_local_other"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ profile, url, want string }{
		{"default", "https://fibe.gg/", "fibe_live_secret_1234"},
		{"default", "https://fibe.gg:443", ""},
		{"default", "http://127.0.0.1:7878", "fibe_local_other"},
		{"staging", "https://fibe.gg", ""},
	} {
		got, _, err := c.Get(tc.profile, tc.url)
		if err != nil || got != tc.want {
			t.Errorf("Get(%s, %s) = %q, %v; want %q", tc.profile, tc.url, got, err, tc.want)
		}
	}
	found, err := c.Delete("default", "https://fibe.gg")
	if err != nil || !found {
		t.Fatalf("Delete: %v %v", found, err)
	}
	if got, _, _ := c.Get("default", "https://fibe.gg"); got != "" {
		t.Errorf("after Delete: %q", got)
	}
	if found, _ := c.Delete("default", "https://fibe.gg"); found {
		t.Error("second Delete found a key")
	}
}

func TestCorruptCredentialsFile(t *testing.T) {
	isolate(t)
	c, _ := NewCredentials()
	if err := writeFileAtomic(c.File(), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Get("default", "https://fibe.gg"); err == nil || strings.Contains(err.Error(), "not json") {
		t.Errorf("corrupt file: %v", err)
	}
}

func TestMaskToken(t *testing.T) {
	for key, want := range map[string]string{
		"fibe_local_0123456789abcdef": "fibe_****cdef",
		"abcdefghijklmnop":            "abcd****mnop",
		"short":                       "****",
	} {
		if got := MaskToken(key); got != want {
			t.Errorf("MaskToken(%q) = %q, want %q", key, got, want)
		}
	}
}
