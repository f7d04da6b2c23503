package config

import (
	"errors"
	"os"
	"testing"

	"github.com/zalando/go-keyring"
)

// The keyring branch, against go-keyring's in-memory provider (no OS
// keyring exists on a CI box): a key goes to the keyring and never to the
// file, is found there, and is removed from there.
func TestCredentialsPreferTheKeyring(t *testing.T) {
	isolate(t)
	t.Setenv("FIBE_NO_KEYRING", "")
	keyring.MockInit()
	c, err := NewCredentials()
	if err != nil {
		t.Fatal(err)
	}
	where, err := c.Set("default", "https://fibe.gg", "fibe_live_secret_1234")
	if err != nil || where != SourceKeyring {
		t.Fatalf("Set = %q, %v; want the keyring", where, err)
	}
	if _, err := os.Stat(c.File()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the credentials file exists (%v): a key in the keyring must not also be on disk", err)
	}
	key, source, err := c.Get("default", "https://fibe.gg")
	if err != nil || key != "fibe_live_secret_1234" || source != SourceKeyring {
		t.Fatalf("Get = %q, %q, %v", key, source, err)
	}
	if found, err := c.Delete("default", "https://fibe.gg"); err != nil || !found {
		t.Fatalf("Delete = %v, %v", found, err)
	}
	if key, _, _ := c.Get("default", "https://fibe.gg"); key != "" {
		t.Fatalf("after Delete the keyring still has %q", key)
	}
}

// A keyring that fails (no secret service, locked) falls back to the 0600
// file, and the key is still found.
func TestCredentialsFallBackWhenTheKeyringFails(t *testing.T) {
	isolate(t)
	t.Setenv("FIBE_NO_KEYRING", "")
	keyring.MockInitWithError(errors.New("no secret service"))
	c, err := NewCredentials()
	if err != nil {
		t.Fatal(err)
	}
	where, err := c.Set("default", "https://fibe.gg", "fibe_live_secret_1234")
	if err != nil || where != c.File() {
		t.Fatalf("Set = %q, %v; want the file %s", where, err, c.File())
	}
	info, err := os.Stat(c.File())
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file mode %v, want 0600", info.Mode().Perm())
	}
	key, source, err := c.Get("default", "https://fibe.gg")
	if err != nil || key != "fibe_live_secret_1234" || source != c.File() {
		t.Fatalf("Get = %q, %q, %v", key, source, err)
	}
}
