package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/zalando/go-keyring"
)

// keyringService is the service name under which keys are stored in the OS keyring.
const keyringService = "fibe"

// keyringTimeout bounds every keyring call: a locked or absent secret
// service (D-Bus autolaunch on a headless box) must not hang the CLI.
const keyringTimeout = 3 * time.Second

// Token sources reported by `fibe auth status`.
const (
	SourceFlag    = "flag --api-key"
	SourceEnv     = "env FIBE_API_KEY"
	SourceKeyring = "keyring"
	SourceLocal   = "local default key"
)

// Credentials stores API keys per profile and API origin, in the OS
// keyring when there is one and in a 0600 file otherwise.
type Credentials struct {
	file       string
	useKeyring bool
}

// NewCredentials opens the store under the config directory. Setting
// FIBE_NO_KEYRING to a true value keeps the OS keyring out of it entirely.
func NewCredentials() (*Credentials, error) {
	dir, err := ConfigDir()
	if err != nil {
		return nil, err
	}
	noKeyring, err := FromEnv("no_keyring")
	if err != nil {
		return nil, err
	}
	return &Credentials{
		file:       filepath.Join(dir, "credentials.json"),
		useKeyring: !noKeyring.(bool),
	}, nil
}

// File is the path of the fallback credentials file.
func (c *Credentials) File() string { return c.file }

// Account is the name a key is stored under: the profile and the API's
// origin, so a key for one API is never sent to another.
func Account(profile, apiURL string) string {
	origin := apiURL
	if u, err := url.Parse(apiURL); err == nil && u.Host != "" {
		origin = u.Scheme + "://" + u.Host
	}
	return profile + "@" + origin
}

// Get finds the stored key for profile and apiURL. It returns the key and
// where it was found ("keyring" or the file path); "" when there is none.
func (c *Credentials) Get(profile, apiURL string) (key, source string, err error) {
	account := Account(profile, apiURL)
	if c.useKeyring {
		if k, kerr := withTimeout(func() (string, error) { return keyring.Get(keyringService, account) }); kerr == nil && k != "" {
			return k, SourceKeyring, nil
		}
	}
	m, err := c.readFile()
	if err != nil {
		return "", "", err
	}
	if k := m[account]; k != "" {
		return k, c.file, nil
	}
	return "", "", nil
}

// Set stores key, in the keyring if possible, else in the 0600 file. It
// returns where the key went.
func (c *Credentials) Set(profile, apiURL, key string) (string, error) {
	account := Account(profile, apiURL)
	if c.useKeyring {
		if _, err := withTimeout(func() (string, error) { return "", keyring.Set(keyringService, account, key) }); err == nil {
			// A stale copy in the file would shadow nothing but could leak; drop it.
			_ = c.deleteFromFile(account)
			return SourceKeyring, nil
		}
	}
	m, err := c.readFile()
	if err != nil {
		return "", err
	}
	m[account] = key
	if err := c.writeFile(m); err != nil {
		return "", err
	}
	return c.file, nil
}

// Delete removes the stored key from both places. It reports whether one existed.
func (c *Credentials) Delete(profile, apiURL string) (bool, error) {
	account := Account(profile, apiURL)
	found := false
	if c.useKeyring {
		if _, err := withTimeout(func() (string, error) { return "", keyring.Delete(keyringService, account) }); err == nil {
			found = true
		}
	}
	m, err := c.readFile()
	if err != nil {
		return found, err
	}
	if _, ok := m[account]; ok {
		found = true
		if err := c.deleteFromFile(account); err != nil {
			return found, err
		}
	}
	return found, nil
}

func (c *Credentials) deleteFromFile(account string) error {
	m, err := c.readFile()
	if err != nil {
		return err
	}
	if _, ok := m[account]; !ok {
		return nil
	}
	delete(m, account)
	return c.writeFile(m)
}

func (c *Credentials) readFile() (map[string]string, error) {
	data, err := os.ReadFile(c.file)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("credentials file %s is corrupt; remove it and log in again", c.file)
	}
	return m, nil
}

func (c *Credentials) writeFile(m map[string]string) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(c.file, append(data, '\n'), 0o600)
}

func withTimeout(f func() (string, error)) (string, error) {
	type result struct {
		v   string
		err error
	}
	ch := make(chan result, 1) // buffered: a late answer must not block the goroutine forever
	go func() {
		v, err := f()
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-time.After(keyringTimeout):
		return "", errors.New("keyring timed out")
	}
}

// MaskToken shows only enough of a key to recognise it: a prefix up to the
// first underscore (or 4 characters) and the last 4 characters.
func MaskToken(key string) string {
	if len(key) <= 8 {
		return "****"
	}
	prefix := 4
	for i := 0; i < len(key) && i < 8; i++ {
		if key[i] == '_' {
			prefix = i + 1
		}
	}
	if prefix > len(key)-8 {
		prefix = 2
	}
	return key[:prefix] + "****" + key[len(key)-4:]
}
