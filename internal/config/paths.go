package config

import (
	"os"
	"path/filepath"
	"runtime"

	"github.com/fibegg/fibe/internal/statefile"
)

// ConfigDir is $XDG_CONFIG_HOME/fibe, falling back to ~/.config/fibe
// (%AppData%\fibe on Windows).
func ConfigDir() (string, error) {
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "fibe"), nil
	}
	if runtime.GOOS == "windows" {
		d, err := os.UserConfigDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(d, "fibe"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".config", "fibe"), nil
}

// StateDir is $XDG_STATE_HOME/fibe, falling back to ~/.local/state/fibe.
// Breaker state and the rate ledger live there.
func StateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "fibe"), nil
	}
	if runtime.GOOS == "windows" {
		d, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(d, "fibe", "state"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "state", "fibe"), nil
}

// ConfigFile is the path of config.yaml.
func ConfigFile() (string, error) {
	d, err := ConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "config.yaml"), nil
}

// writeFileAtomic replaces path with data, creating the directory (0700)
// and the file with perm; readers see the old or the new file, never half.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return statefile.WriteAtomic(path, data, perm, true)
}
