package statefile

import (
	"os"
	"path/filepath"
)

// WriteAtomic replaces path with data: it writes a temporary file in the
// same directory with mode perm, then renames it over path. With durable
// set it is flushed to disk first; state that is cheap to lose (a breaker's
// counts, which read as closed when missing) skips that cost.
func WriteAtomic(path string, data []byte, perm os.FileMode, durable bool) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if durable {
		if err := tmp.Sync(); err != nil {
			tmp.Close()
			return err
		}
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
